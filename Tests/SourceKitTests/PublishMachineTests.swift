import Clock
import Codec
import SourceKit
import TestSupport
import Testing
import WallboardCore

/// The publisher's queue, stepped with plain instants: order, ids across failures and boots,
/// boards at exact positions, gaps.
@Suite struct PublishMachineTests {
  let t0 = Monotonic(nanoseconds: 1_000_000_000)
  let wall = Instant(millis: 1_800_000_000_000)
  let stream = PublishMachine.Stream(created: 77, last: 10)

  func at(_ s: Double) -> Monotonic { t0.adding(seconds: s) }

  func ready() -> PublishMachine {
    var settings = PublishMachine.Settings()
    settings.backoffMax = 1
    var m = PublishMachine(boot: "B", settings: settings, seed: 1)
    #expect(m.on(.start, at: at(0), stamp: wall) == [.connect])
    #expect(m.on(.connected(stream), at: at(0), stamp: wall) == [])
    return m
  }

  func input(_ n: UInt8) -> PublishMachine.Item { .input([5, n]) }

  @Test func inputsGoOutInOrderOneAtATimeEachWithTheNextId() {
    var m = ready()
    #expect(m.on(.take(input(1)), at: at(1), stamp: wall) == [.publish(bytes: [5, 1], id: "B-1")])
    #expect(m.on(.take(input(2)), at: at(1), stamp: wall) == [], "one at a time")
    #expect(!m.isDrained)
    #expect(m.on(.published(sequence: 11), at: at(1), stamp: wall) == [.publish(bytes: [5, 2], id: "B-2")])
    #expect(m.on(.published(sequence: 12), at: at(1), stamp: wall) == [])
    #expect(m.isDrained && m.acknowledged == 2 && m.stream?.last == 12)
  }

  @Test func aBoardIsPutAtThePositionOfTheLastInputBeforeIt() {
    var m = ready()
    var state = BoardState()
    Reducer.reduce(into: &state, .event(Make.event("2026-11-02T09:00:00Z", .featureCreated(Make.feature("F")))))
    _ = m.on(.take(input(1)), at: at(1), stamp: wall)
    _ = m.on(.take(.board(state)), at: at(1), stamp: wall)
    #expect(
      m.on(.published(sequence: 11), at: at(1), stamp: wall) == [
        .putBoard(PublishedBoard(stream: 77, sequence: 11, state: state))
      ])
    #expect(m.on(.boardPut, at: at(1), stamp: wall) == [])
    #expect(m.boardsPut == 1 && m.isDrained)
  }

  @Test func aFailedPublishIsCheckedThenSentAgainUnderItsOwnId() {
    var m = ready()
    _ = m.on(.take(input(1)), at: at(1), stamp: wall)
    let said = m.on(.publishFailed("timeout"), at: at(1), stamp: wall)
    guard case .say(let text)? = said.first else {
      Issue.record("not said: \(said)")
      return
    }
    #expect(text.hasPrefix("publishing failed: timeout; 1 queued; trying again in"), "\(text)")
    #expect(m.on(.tick, at: m.nextWake!, stamp: wall) == [.readLast])
    // Not stored: sent again, the same id (the broker keeps one of two within its window).
    #expect(m.on(.last(sequence: 10, id: "X-9"), at: at(3), stamp: wall) == [.publish(bytes: [5, 1], id: "B-1")])
    _ = m.on(.publishFailed("timeout"), at: at(3), stamp: wall)
    _ = m.on(.tick, at: m.nextWake!, stamp: wall)
    // Stored, the answer lost: taken as acknowledged, never sent twice.
    #expect(m.on(.last(sequence: 11, id: "B-1"), at: at(5), stamp: wall) == [])
    #expect(m.isDrained && m.stream?.last == 11)
    #expect(m.on(.take(input(2)), at: at(5), stamp: wall) == [.publish(bytes: [5, 2], id: "B-2")])
  }

  @Test func anotherBootNeverReusesAnId() {
    var a = PublishMachine(boot: "1700000000000", seed: 1)
    var b = PublishMachine(boot: "1700000005000", seed: 1)
    for m in [0, 1] {
      var machine = m == 0 ? a : b
      _ = machine.on(.start, at: at(0), stamp: wall)
      _ = machine.on(.connected(stream), at: at(0), stamp: wall)
      let sent = machine.on(.take(input(1)), at: at(0), stamp: wall)
      #expect(sent == [.publish(bytes: [5, 1], id: m == 0 ? "1700000000000-1" : "1700000005000-1")])
      if m == 0 { a = machine } else { b = machine }
    }
  }

  @Test func aGapBoardSupersedesWhatWasNotSentAndGoesToTheStreamThenTheBucket() throws {
    var settings = PublishMachine.Settings()
    settings.backoffMax = 1
    var m = PublishMachine(boot: "B", settings: settings, seed: 1)
    _ = m.on(.start, at: at(0), stamp: wall)
    // The broker away: everything queues.
    _ = m.on(.connectFailed("no server"), at: at(0), stamp: wall)
    for n: UInt8 in 1...5 { _ = m.on(.take(input(n)), at: at(0), stamp: wall) }
    var state = BoardState()
    Reducer.reduce(into: &state, .event(Make.event("2026-11-02T09:00:00Z", .featureCreated(Make.feature("G")))))
    _ = m.on(.take(.gap(state)), at: at(0), stamp: wall)
    #expect(m.queue == [.gap(state)], "the inputs it holds are not sent")
    #expect(m.on(.tick, at: m.nextWake!, stamp: wall) == [.connect])
    let restored = try BoardCodec.encode(BoardInput.restored(state), maxBytes: 1 << 20)
    let back = m.on(.connected(stream), at: at(2), stamp: wall)
    #expect(back.last == .publish(bytes: restored, id: "B-1"))
    #expect(
      back.first == .say("the broker is back (it was away: cannot reach the broker: no server); 1 queued to publish"))
    #expect(
      m.on(.published(sequence: 11), at: at(2), stamp: wall) == [
        .putBoard(PublishedBoard(stream: 77, sequence: 11, state: state))
      ])
    _ = m.on(.boardPut, at: at(2), stamp: wall)
    #expect(m.isDrained)
  }

  @Test func anInputTheBrokerNeverTakesAsksForAGapBoard() {
    var m = ready()
    _ = m.on(.take(input(1)), at: at(1), stamp: wall)
    _ = m.on(.take(input(2)), at: at(1), stamp: wall)
    let after = m.on(.publishRefused("9000000 bytes; the broker takes 1048576"), at: at(1), stamp: wall)
    #expect(after.last == .publish(bytes: [5, 2], id: "B-2"))
    #expect(m.wantsGap && m.refused == 1)
  }

  @Test func aStreamThatLostItsTailOrWasMadeAgainAsksForAGapBoard() {
    var m = ready()
    _ = m.on(.take(input(1)), at: at(1), stamp: wall)
    // The hub restarted without its last messages: the next position is not 11.
    let jumped = m.on(.published(sequence: 7), at: at(1), stamp: wall)
    #expect(jumped.contains(.say("the stream went from position 10 to 7: the walls are given the whole board")))
    #expect(m.wantsGap)
    var n = ready()
    _ = n.on(.take(input(1)), at: at(1), stamp: wall)
    _ = n.on(.publishFailed("no responders"), at: at(1), stamp: wall)
    #expect(n.on(.tick, at: n.nextWake!, stamp: wall) == [.readLast])
    _ = n.on(.lastFailed("stream not found"), at: at(2), stamp: wall)
    #expect(n.on(.tick, at: n.nextWake!, stamp: wall) == [.connect], "made again before the next try")
    _ = n.on(.connected(.init(created: 99, last: 0)), at: at(3), stamp: wall)
    #expect(n.wantsGap, "another stream: the walls need the whole board")
  }

  @Test func aGapBoardTheBrokerRefusesGoesToTheBucketAndTheQueueGoesOn() throws {
    var m = ready()
    var state = BoardState()
    Reducer.reduce(into: &state, .event(Make.event("2026-11-02T09:00:00Z", .featureCreated(Make.feature("G")))))
    _ = m.on(.take(.gap(state)), at: at(1), stamp: wall)
    _ = m.on(.take(input(2)), at: at(1), stamp: wall)
    let after = m.on(.publishRefused("larger than the hub takes"), at: at(1), stamp: wall)
    #expect(after.last == .putBoard(PublishedBoard(stream: 77, sequence: 10, state: state)))
    #expect(m.on(.boardPut, at: at(1), stamp: wall) == [.publish(bytes: [5, 2], id: "B-2")])
    #expect(m.refused == 1)
  }

  @Test func theBrokerGoingAndComingIsSaidOnce() {
    var m = ready()
    #expect(m.on(.disconnected, at: at(1), stamp: wall).count == 1)
    #expect(m.on(.disconnected, at: at(1), stamp: wall).isEmpty)
    guard case .say(let back)? = m.on(.reconnected, at: at(2), stamp: wall).first else {
      Issue.record("the return is not said")
      return
    }
    #expect(back.contains("the broker is back"))
    #expect(m.on(.stop, at: at(3), stamp: wall) == [.disconnect] && m.isStopped)
  }
}
