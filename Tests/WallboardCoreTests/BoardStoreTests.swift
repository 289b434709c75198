import TestSupport
import Testing
import WallboardCore

/// The one board store: every input through the reducer, tallied, set aside after `asOf`, and
/// handed with what the reducer did to the recorder.
@Suite struct BoardStoreTests {
  final class Recorder: BoardRecorder, @unchecked Sendable {
    var taken: [(BoardInput, Reduction, Instant)] = []
    var saved: [(BoardState, Instant)] = []
    var every: Int
    init(every: Int) { self.every = every }
    func record(_ input: BoardInput, _ reduction: Reduction, at: Instant) -> Bool {
      taken.append((input, reduction, at))
      return taken.count % every == 0
    }
    func save(_ state: BoardState, at: Instant) { saved.append((state, at)) }
  }

  static let inputs: [BoardInput] = [
    .connection(origin: "test", status: .live, at: Make.t("2026-03-02T09:00:00Z"), detail: nil),
    .event(Make.event("2026-03-02T09:00:00Z", .featureCreated(Make.feature("F-1")), seq: 1)),
    .event(Make.status("2026-03-02T10:00:00Z", "F-1", "in_progress", seq: 2)),
    .event(Make.status("2026-03-02T10:00:00Z", "F-1", "in_progress", seq: 2)),
    .rejected(origin: "test", at: Make.t("2026-03-02T10:30:00Z"), reason: "line 4: not JSON"),
    .event(Make.event("2026-03-02T11:00:00Z", .unknown(topic: "x.y"), seq: 3)),
    .event(Make.status("2026-03-03T12:00:00Z", "F-1", "done", seq: 4)),
  ]

  @Test func itAppliesLikeTheReducerAndTalliesWhatItDid() {
    var store = BoardStore(settings: BoardSettings())
    var direct = BoardState()
    var reductions: [Reduction?] = []
    for i in Self.inputs {
      reductions.append(store.apply(i))
      Reducer.reduce(into: &direct, i)
    }
    #expect(store.state == direct)
    #expect(reductions[3] == .duplicate)
    #expect(reductions[4] == .rejected("line 4: not JSON"))
    #expect(store.tally.applied == 4 && store.tally.duplicate == 1 && store.tally.rejected == 1)
    #expect(store.tally.ignored == 1, "the unknown topic")
  }

  @Test func asOfSetsLaterEventsAsideButNotConnections() {
    var store = BoardStore(settings: BoardSettings(), asOf: Make.t("2026-03-02T12:00:00Z"))
    store.apply(Self.inputs)
    store.apply(.connection(origin: "test", status: .ended, at: Make.t("2026-12-01T00:00:00Z"), detail: nil))
    #expect(store.tally.afterAsOf == 1)
    #expect(store.state.features["F-1"]?.status == "in-progress", "the 3 March change is after the moment")
    #expect(store.state.origins["test"]?.connection == .ended)
    // Ungated (a source that cut itself to the moment): everything applies.
    var all = BoardStore(settings: BoardSettings(), asOf: Make.t("2026-03-02T12:00:00Z"))
    all.apply(Self.inputs, asOfRule: .none)
    #expect(all.tally.afterAsOf == 0 && all.state.features["F-1"]?.status == "done")
    // A live source's snapshot is its view now: applied; its later changes are set aside.
    var live = BoardStore(settings: BoardSettings(), asOf: Make.t("2026-03-02T12:00:00Z"))
    let snapshot = BoardSnapshot(features: [Make.feature("F-2", status: "review")])
    live.apply(.event(Make.event("2026-12-01T08:00:00Z", .boardSnapshot(snapshot))), asOfRule: .changes)
    live.apply(.event(Make.status("2026-12-01T09:00:00Z", "F-2", "done")), asOfRule: .changes)
    #expect(live.state.features["F-2"]?.status == "review")
    #expect(live.tally.afterAsOf == 1)
    // From a file, a snapshot dated after the moment is set aside like any line.
    var file = BoardStore(settings: BoardSettings(), asOf: Make.t("2026-03-02T12:00:00Z"))
    file.apply(.event(Make.event("2026-12-01T08:00:00Z", .boardSnapshot(snapshot))))
    #expect(file.state.features.isEmpty && file.tally.afterAsOf == 1)
  }

  @Test func theRecorderGetsEveryInputInOrderWithATimeThatNeverGoesBack() throws {
    let recorder = Recorder(every: 3)
    var store = BoardStore(settings: BoardSettings(), recorder: recorder)
    store.apply(Self.inputs)
    // An event from the past does not move the board's time back.
    store.apply(.event(Make.status("2026-03-01T08:00:00Z", "F-1", "review", seq: 5)))
    #expect(
      recorder.taken.map(\.0) == Self.inputs + [.event(Make.status("2026-03-01T08:00:00Z", "F-1", "review", seq: 5))])
    #expect(recorder.taken[3].1 == .duplicate)
    let times = recorder.taken.map(\.2)
    #expect(times == times.sorted(), "\(times)")
    #expect(times.last == Make.t("2026-03-03T12:00:00Z"))
    // The connection before any event is "from the start"; a rejection takes the time reached.
    #expect(times[0] == Instant(millis: 0))
    #expect(times[4] == Make.t("2026-03-02T10:00:00Z"))
    // Asked for the board after every third input: it got the board as of that input.
    try #require(recorder.saved.count == 2)
    var replay = BoardState()
    for i in Self.inputs.prefix(3) { Reducer.reduce(into: &replay, i) }
    #expect(recorder.saved[0].0 == replay)
    #expect(recorder.saved[0].1 == recorder.taken[2].2)
  }

  @Test func aRunsClockIsTakenAsGiven() {
    let recorder = Recorder(every: 100)
    var store = BoardStore(settings: BoardSettings(), recorder: recorder)
    let t = Make.t("2026-05-01T00:00:00Z")
    store.apply(Self.inputs, at: t)
    #expect(recorder.taken.allSatisfy { $0.2 == t })
    #expect(store.clock == t)
  }

  @Test func aRestoredBoardIsMarkedUntilASourceIsLive() {
    var first = BoardStore(settings: BoardSettings())
    first.apply(Self.inputs)
    var store = BoardStore(settings: BoardSettings())
    store.apply(.restored(first.state))
    #expect(store.state == first.state)
    #expect(store.restoredFrom == first.state.lastHeardTime)
    // A source connecting is not yet live; a heartbeat changes nothing on the board.
    store.apply(.connection(origin: "test", status: .connecting, at: Make.t("2026-04-01T00:00:00Z"), detail: nil))
    store.apply(.event(Make.event("2026-04-01T00:00:01Z", .heartbeat)))
    #expect(store.restoredFrom != nil)
    store.apply(.connection(origin: "test", status: .live, at: Make.t("2026-04-01T00:00:02Z"), detail: nil))
    #expect(store.restoredFrom == nil)
    var marked = BoardStore(state: first.state)
    marked.markRestored()
    marked.apply(.event(Make.status("2026-04-02T00:00:00Z", "F-1", "review", seq: 9)))
    #expect(marked.restoredFrom == nil, "an applied change means a source is delivering")
  }
}
