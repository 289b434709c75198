import Clock
import Codec
import SourceKit
import TestSupport
import Testing
import WallboardCore

/// A wall following a published board, stepped with plain instants: where it starts, what it
/// applies, and what makes it start again from the whole board.
@Suite struct RelayFollowMachineTests {
  let t0 = Monotonic(nanoseconds: 1_000_000_000)
  let wall = Instant(millis: 1_800_000_000_000)
  let origin = "nats://hub:4222/TEAM"
  let created: Int64 = 1_799_000_000_000_000_000

  func at(_ s: Double) -> Monotonic { t0.adding(seconds: s) }

  func machine(position: RelayPosition? = nil) -> RelayFollowMachine {
    var settings = RelayFollowMachine.Settings()
    settings.backoffMax = 1
    return RelayFollowMachine(origin: origin, board: "TEAM", position: position, settings: settings, seed: 1)
  }

  func event(_ id: String, seq: Int64) -> BoardInput {
    .event(Event(origin: "sim", seq: seq, time: wall, body: .featureCreated(Make.feature(id, projectId: "p"))))
  }

  func published(_ sequence: UInt64, features: [String] = ["a"], stream: Int64? = nil) -> [UInt8] {
    var state = BoardState(settings: BoardSettings())
    for (i, f) in features.enumerated() { Reducer.reduce(into: &state, event(f, seq: Int64(i + 1))) }
    return try! BoardCodec.encode(
      PublishedBoard(stream: stream ?? created, sequence: sequence, state: state), maxBytes: 1 << 20)
  }

  func delivered(_ actions: [RelayFollowMachine.Action]) -> [BoardInput] {
    actions.compactMap { if case .deliver(let i) = $0 { i } else { nil } }
  }

  func status(_ actions: [RelayFollowMachine.Action]) -> (ConnectionStatus, String?)? {
    for i in delivered(actions).reversed() {
      if case .connection(_, let s, _, let d) = i { return (s, d) }
    }
    return nil
  }

  @Test func aNewWallStartsFromTheWholeBoardThenFollowsTheNextPosition() {
    var m = machine()
    #expect(m.on(.start, at: at(0), stamp: wall) == [.connect])
    #expect(m.on(.connected, at: at(0.1), stamp: wall) == [.readStream, .report(position: nil)])
    #expect(m.on(.stream(.init(first: 1, last: 40, created: created)), at: at(0.2), stamp: wall) == [.readBoard])
    let actions = m.on(.board(published(37)), at: at(0.3), stamp: wall)
    guard case .deliver(.relayed(let via, let p, .restored(let state)))? = actions.first else {
      Issue.record("no restored board first: \(actions)")
      return
    }
    #expect(via == origin && p == RelayPosition(stream: created, sequence: 37))
    #expect(state.features.count == 1)
    #expect(actions.contains(.follow(from: 38)))
    #expect(status(actions)?.0 == .live)
    #expect(m.phase == .following)
    let next = m.on(.message(sequence: 38, bytes: BoardCodec.encode(event("b", seq: 2))), at: at(1), stamp: wall)
    #expect(
      next == [
        .deliver(
          .relayed(via: origin, position: RelayPosition(stream: created, sequence: 38), input: event("b", seq: 2)))
      ])
    #expect(m.position?.sequence == 38)
  }

  @Test func aWallWithAPositionGoesOnFromItWhenTheStreamStillHoldsTheNext() {
    var m = machine(position: RelayPosition(stream: created, sequence: 100))
    _ = m.on(.start, at: at(0), stamp: wall)
    _ = m.on(.connected, at: at(0), stamp: wall)
    let actions = m.on(.stream(.init(first: 50, last: 120, created: created)), at: at(0.1), stamp: wall)
    #expect(actions.first == .follow(from: 101))
    #expect(status(actions)?.1 == "following TEAM")
  }

  @Test(arguments: [
    (RelayMachineCase.otherStream, "the stream was made anew"),
    (.shorterStream, "holds less than this wall had read"),
    (.expired, "positions 101–199 are gone"),
  ])
  func aPositionTheStreamNoLongerLeadsOnFromMeansTheWholeBoardAgain(_ c: RelayMachineCase, _ said: String) {
    var m = machine(position: RelayPosition(stream: created, sequence: 100))
    _ = m.on(.start, at: at(0), stamp: wall)
    _ = m.on(.connected, at: at(0), stamp: wall)
    let facts: RelayFollowMachine.StreamFacts =
      switch c {
      case .otherStream: .init(first: 1, last: 300, created: created + 1)
      case .shorterStream: .init(first: 1, last: 20, created: created)
      case .expired: .init(first: 200, last: 300, created: created)
      }
    #expect(m.on(.stream(facts), at: at(0.1), stamp: wall) == [.readBoard])
    let actions = m.on(.board(published(250, stream: facts.created)), at: at(0.2), stamp: wall)
    #expect(actions.contains(.follow(from: 251)))
    let detail = status(actions)?.1 ?? ""
    #expect(detail.contains("started again from the whole board") && detail.contains(said), "\(detail)")
    #expect(m.bootstraps == 1)
  }

  @Test func aMessageAfterTheNextOneMeansTheStreamSkippedAndTheBoardIsTakenAgain() {
    var m = machine(position: RelayPosition(stream: created, sequence: 10))
    _ = m.on(.start, at: at(0), stamp: wall)
    _ = m.on(.connected, at: at(0), stamp: wall)
    _ = m.on(.stream(.init(first: 1, last: 10, created: created)), at: at(0), stamp: wall)
    // The broker moved a start older than its retention to its first message, silently.
    #expect(m.on(.message(sequence: 500, bytes: [1]), at: at(1), stamp: wall) == [.unfollow, .readStream])
    #expect(m.on(.message(sequence: 501, bytes: [1]), at: at(1), stamp: wall) == [], "not following meanwhile")
    #expect(m.on(.stream(.init(first: 500, last: 600, created: created)), at: at(1.1), stamp: wall) == [.readBoard])
    let actions = m.on(.board(published(590)), at: at(1.2), stamp: wall)
    #expect(actions.contains(.follow(from: 591)))
    #expect(status(actions)?.1?.contains("positions 11–499 are gone") == true)
  }

  @Test func aStreamCutShortOrMadeAgainWhileFollowingMeansTheWholeBoardAgain() {
    for (facts, said) in [
      (RelayFollowMachine.StreamFacts(first: 1, last: 7, created: created), "holds less than this wall had read"),
      (RelayFollowMachine.StreamFacts(first: 1, last: 50, created: created + 9), "made anew"),
    ] {
      var m = machine(position: RelayPosition(stream: created, sequence: 10))
      _ = m.on(.start, at: at(0), stamp: wall)
      _ = m.on(.connected, at: at(0), stamp: wall)
      _ = m.on(.stream(.init(first: 1, last: 10, created: created)), at: at(0), stamp: wall)
      #expect(m.on(.stream(.init(first: 1, last: 12, created: created)), at: at(1), stamp: wall) == [], "all well")
      #expect(m.on(.stream(facts), at: at(2), stamp: wall) == [.unfollow, .readBoard])
      let actions = m.on(.board(published(facts.last, stream: facts.created)), at: at(3), stamp: wall)
      #expect(status(actions)?.1?.contains(said) == true, "\(String(describing: status(actions)))")
    }
  }

  @Test func aSkipTheStreamDoesNotExplainStillMeansTheWholeBoard() {
    var m = machine(position: RelayPosition(stream: created, sequence: 10))
    _ = m.on(.start, at: at(0), stamp: wall)
    _ = m.on(.connected, at: at(0), stamp: wall)
    _ = m.on(.stream(.init(first: 1, last: 10, created: created)), at: at(0), stamp: wall)
    _ = m.on(.message(sequence: 14, bytes: [1]), at: at(1), stamp: wall)
    // The stream still holds 11–13: a message lost on the way, not to retention.
    #expect(m.on(.stream(.init(first: 1, last: 20, created: created)), at: at(1), stamp: wall) == [.readBoard])
    let actions = m.on(.board(published(20)), at: at(2), stamp: wall)
    #expect(status(actions)?.1?.contains("positions 11–13 never came") == true)
  }

  @Test func anEarlierMessageIsPassedOverAndABadOneIsRejectedAtItsPosition() {
    var m = machine(position: RelayPosition(stream: created, sequence: 10))
    _ = m.on(.start, at: at(0), stamp: wall)
    _ = m.on(.connected, at: at(0), stamp: wall)
    _ = m.on(.stream(.init(first: 1, last: 10, created: created)), at: at(0), stamp: wall)
    #expect(m.on(.message(sequence: 9, bytes: [1]), at: at(1), stamp: wall) == [])
    #expect(m.passedOver == 1)
    let bad = m.on(.message(sequence: 11, bytes: [99, 1, 2]), at: at(1), stamp: wall)
    guard case .deliver(.relayed(_, let p, .rejected(let o, _, let reason, _)))? = bad.first else {
      Issue.record("not rejected: \(bad)")
      return
    }
    #expect(p.sequence == 11 && o == origin && reason.hasPrefix("message 11: "), "\(reason)")
    // A relayed input is never published: refused too.
    let nested = BoardCodec.encode(
      BoardInput.relayed(via: "x", position: RelayPosition(stream: 1, sequence: 1), input: event("c", seq: 3)))
    guard
      case .deliver(.relayed(_, _, .rejected))? = m.on(.message(sequence: 12, bytes: nested), at: at(1), stamp: wall)
        .first
    else {
      Issue.record("a relayed message was taken")
      return
    }
    let good = m.on(.message(sequence: 13, bytes: BoardCodec.encode(event("d", seq: 4))), at: at(1), stamp: wall)
    #expect(delivered(good).count == 1 && m.position?.sequence == 13)
  }

  @Test func nothingPublishedYetIsSaidAndAskedAgain() {
    var m = machine()
    _ = m.on(.start, at: at(0), stamp: wall)
    _ = m.on(.connected, at: at(0), stamp: wall)
    let none = m.on(.stream(nil), at: at(0), stamp: wall)
    #expect(status(none)?.0 == .offline && status(none)?.1 == "nothing published to TEAM yet")
    #expect(m.nextWake == at(0), "the report is due at once")
    _ = m.on(.tick, at: at(0), stamp: wall)
    #expect(m.nextWake == at(5))
    #expect(m.on(.tick, at: at(5), stamp: wall) == [.readStream])
    _ = m.on(.stream(.init(first: 1, last: 0, created: created)), at: at(5), stamp: wall)
    let noBoard = m.on(.board(nil), at: at(5), stamp: wall)
    #expect(status(noBoard)?.1 == "no board published to TEAM yet")
    // A board of an earlier stream, or older than the stream keeps: waited for.
    _ = m.on(.tick, at: at(10), stamp: wall)
    _ = m.on(.stream(.init(first: 1, last: 0, created: created)), at: at(10), stamp: wall)
    let old = m.on(.board(published(3, stream: created - 5)), at: at(10), stamp: wall)
    #expect(status(old)?.1?.contains("earlier stream") == true)
    _ = m.on(.tick, at: at(15), stamp: wall)
    _ = m.on(.stream(.init(first: 90, last: 100, created: created)), at: at(15), stamp: wall)
    let expired = m.on(.board(published(50)), at: at(15), stamp: wall)
    #expect(status(expired)?.1?.contains("older than the stream keeps") == true)
    #expect(m.phase == .waiting)
  }

  @Test func theConnectionDrivesTheRowAndReportsComeEveryTenSeconds() {
    var m = machine()
    _ = m.on(.start, at: at(0), stamp: wall)
    let refused = m.on(.connectFailed("no server"), at: at(0), stamp: wall)
    #expect(status(refused)?.0 == .offline && status(refused)?.1 == "cannot connect to the broker: no server")
    #expect(m.on(.tick, at: m.nextWake!, stamp: wall) == [.connect])
    #expect(m.on(.connected, at: at(2), stamp: wall).contains(.report(position: nil)))
    _ = m.on(.stream(.init(first: 1, last: 5, created: created)), at: at(2), stamp: wall)
    _ = m.on(.board(published(5)), at: at(2), stamp: wall)
    #expect(m.nextWake == at(2))
    #expect(m.on(.tick, at: at(2), stamp: wall) == [.report(position: 5), .readStream], "and a look at the stream")
    #expect(m.nextWake == at(12))
    #expect(status(m.on(.disconnected, at: at(3), stamp: wall))?.0 == .reconnecting)
    let back = m.on(.reconnected, at: at(4), stamp: wall)
    #expect(status(back)?.0 == .live && back.last == .readStream)
    let denied = m.on(.brokerError("Permissions Violation for Publish to \"wb.TEAM.in\""), at: at(5), stamp: wall)
    guard case .deliver(.rejected(let o, _, let reason, _))? = denied.first else {
      Issue.record("the broker's error is not said")
      return
    }
    #expect(o == origin && reason.contains("Permissions Violation"))
    #expect(m.on(.stop, at: at(6), stamp: wall) == [.disconnect])
    #expect(m.isStopped)
  }
}

enum RelayMachineCase: Sendable, CustomTestStringConvertible {
  case otherStream, shorterStream, expired
  var testDescription: String {
    switch self {
    case .otherStream: "the stream made anew"
    case .shorterStream: "a stream shorter than the position"
    case .expired: "the next position expired"
    }
  }
}
