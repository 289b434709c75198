import Clock
import EventSources
import Foundation
import SourceKit
import TestSupport
import Testing
import WallboardCore

/// The simulated team resumed from what a journal holds of it: the next event on, from the
/// moment of the last one held (issue 20, item 8).
@Suite("The simulation resumed")
struct SimResumeTests {
  static let team = SimulatedTeam(seed: 1)

  static func events(_ inputs: [BoardInput]) -> [Event] {
    inputs.compactMap { if case .event(let e) = $0 { e } else { nil } }
  }

  @Test func readingGoesOnAfterTheLastEventHeldAndToItsMomentAtLeast() throws {
    // The whole stream to three weeks past the default present; the first board held some of it
    // past that present.
    let later = Self.team.defaultNow.adding(seconds: 21 * 86_400)
    let whole = Self.events(SimSource.inputs(team: Self.team, origin: "sim", through: later))
    let n = try #require(whole.firstIndex { $0.time > Self.team.defaultNow }) + 50
    try #require(whole.count > n + 100)
    let held = whole[n - 1]
    #expect(held.seq == Int64(n) && held.time > Self.team.defaultNow, "the journal is past the default present")
    let source = SimSource(team: Self.team, origin: "sim", speed: 600, resumeAfter: Int64(n), clock: .system)
    var read: [BoardInput] = []
    let reached = try source.read(through: nil, receivedAt: held.time, deadline: .distantFuture) { read.append($0) }
    #expect(reached == held.time, "its present is the held moment, not the default one before it")
    #expect(Self.events(read).isEmpty, "nothing after the held event happened by then")
    var more: [BoardInput] = []
    _ = try source.read(through: later, receivedAt: later, deadline: .distantFuture) { more.append($0) }
    let next = Self.events(more)
    #expect(next.map(\.seq) == whole.dropFirst(n).map(\.seq))
    #expect(next.map(\.body) == whole.dropFirst(n).map(\.body))
  }

  @Test func aDriverResumedStartsItsClockAtTheLastEventHeld() throws {
    let later = Self.team.defaultNow.adding(seconds: 21 * 86_400)
    let whole = Self.events(SimSource.inputs(team: Self.team, origin: "sim", through: later))
    let n = try #require(whole.firstIndex { $0.time > Self.team.defaultNow }) + 50
    let held = whole[n - 1]
    // On a clock that does not move, the simulated clock starts exactly there.
    let time = TestClock()
    let driver = SimDriver(team: Self.team, origin: "sim", speed: 1, resumeAfter: Int64(n), clock: time.clock)
    #expect(driver.simulatedNow() == max(held.time, Self.team.defaultNow))
    let fresh = SimDriver(team: Self.team, origin: "sim", speed: 1, clock: time.clock)
    #expect(fresh.simulatedNow() == Self.team.defaultNow)
    time.advance(by: 30)
    #expect(fresh.simulatedNow() == Self.team.defaultNow.adding(seconds: 30))
  }

  /// `make` reads the restored origin's numbers: the simulation's own publisher.
  @Test func theSpecResumesFromTheRestoredOrigin() throws {
    var board = BoardState()
    for input in SimSource.inputs(team: Self.team, origin: "sim", through: Self.team.defaultNow) {
      Reducer.reduce(into: &board, input)
    }
    let context = SourceContext(
      locator: .live(environment: [:]), clock: .system.stamping { Instant(millis: 0) }, restored: board.origins)
    let source = try #require(try SimSource.Spec().make(context) as? SimSource)
    #expect(source.resumeAfter == board.origins["sim"]?.cursor.last[SimTimeline.publisher])
    #expect(source.resumeAfter > 0)
  }
}
