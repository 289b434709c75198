import Projections
import TestSupport
import Testing
import WallboardCore
import Widgets
import ZoneFiles

/// Issue 21, item 7: an idle board holding 100,000 features cost a third of a core, every
/// frame projecting the whole board again for a clock that had moved by a second. The run loop
/// now takes its projections from a `ProjectionMemo`: over idle ticks nothing is projected again,
/// whatever the board's size, while the clock and the ages still move and a change is drawn.
@Suite struct IdleProjectionTests {
  static let start = Make.t("2026-11-04T10:00:00Z")

  /// A store holding `count` features (a quarter of them done), a live source, and — with
  /// `sprint` — a started sprint of the first 100; without, the board shows the flow.
  static func store(_ count: Int, sprint: Bool) -> BoardStore {
    var store = BoardStore(settings: BoardSettings())
    store.apply(.connection(origin: "jsonl:board", status: .live, at: start, detail: nil))
    let states = ["todo", "in-progress", "in-review", "done"]
    for n in 0..<count {
      let body = Event.Body.featureCreated(Make.feature("F-\(n)", status: states[n % 4], points: Double(n % 8 + 1)))
      store.apply(.event(Event(origin: "jsonl:board", seq: Int64(n + 1), time: start, body: body)))
    }
    if sprint {
      let s = Make.sprint("s1", start: "2026-11-02", end: "2026-11-13", members: (0..<100).map { "F-\($0)" })
      store.apply(.event(Event(origin: "jsonl:board", seq: Int64(count + 1), time: start, body: .sprintCreated(s))))
      store.apply(
        .event(
          Event(
            origin: "jsonl:board", seq: Int64(count + 2), time: start,
            body: .sprintStarted(id: "s1", startedAt: start, patch: SprintPatch()))))
    }
    return store
  }

  /// The frame at `at` as the run loop makes it.
  static func frame(_ store: BoardStore, _ memo: inout ProjectionMemo, at: Instant) -> FrameModel {
    let c = memo.content(state: store.state, version: store.version, at: at, zone: .utc, settings: ViewSettings())
    return FrameModel(view: BoardView(content: c, at: at, now: at))
  }

  @Test(arguments: [(100, false), (100_000, false), (100, true), (100_000, true)])
  func idleTicksProjectNothingAgain(count: Int, sprint: Bool) {
    var store = Self.store(count, sprint: sprint)
    var memo = ProjectionMemo()
    var clocks: Set<String> = []
    var ages: Set<String> = []
    // Ten idle minutes, a frame a second; the source says it is alive every 5 s (as a followed
    // file does) and a heartbeat comes every 10 s: neither changes what the projections read.
    for s in 0...600 {
      let at = Self.start.adding(seconds: Double(s))
      if s % 5 == 0 { store.apply(.connection(origin: "jsonl:board", status: .live, at: at, detail: nil)) }
      if s % 10 == 0 { store.apply(.event(Event(origin: "jsonl:board", time: at, body: .heartbeat))) }
      let f = Self.frame(store, &memo, at: at)
      clocks.insert(f.header.clock)
      if let age = f.sources.first?.age { ages.insert(age) }
    }
    #expect(memo.computed == 1, "\(count) features: projected \(memo.computed) times over 600 idle ticks")
    #expect(clocks.count == 11, "the clock still moves: \(clocks.sorted())")
    #expect(ages.count > 60, "the ages still move: \(ages.count) different")
    let last = Self.frame(store, &memo, at: Self.start.adding(seconds: 600))
    #expect(last.progress.total == (sprint ? 100 : count))
  }

  @Test func aChangeAfterAQuietPeriodIsDrawn() {
    var store = Self.store(100, sprint: false)
    var memo = ProjectionMemo()
    for s in 0..<300 { _ = Self.frame(store, &memo, at: Self.start.adding(seconds: Double(s))) }
    let before = Self.frame(store, &memo, at: Self.start.adding(seconds: 300))
    store.apply(.event(Make.event("2026-11-04T10:05:00Z", .featureUpdated(FeaturePatch(id: "F-0", status: "done")))))
    let after = Self.frame(store, &memo, at: Self.start.adding(seconds: 301))
    #expect(memo.computed == 2)
    #expect(after.progress.done == before.progress.done + 1)
    #expect(after.flow?.throughput == (before.flow?.throughput ?? 0) + 1)
    #expect(after.recent.first?.featureId == "F-0")
    #expect(after.recent.first?.age == "1 s ago")
    let later = Self.frame(store, &memo, at: Self.start.adding(seconds: 421))
    #expect(later.recent.first?.age == "2 min ago", "the change's age moves on while idle")
    #expect(memo.computed == 2)
  }

  @Test func aNewDayProjectsAgain() {
    let store = Self.store(100, sprint: false)
    var memo = ProjectionMemo()
    let evening = Make.t("2026-11-04T23:59:50Z")
    var last: FrameModel?
    for s in 0..<20 { last = Self.frame(store, &memo, at: evening.adding(seconds: Double(s))) }
    #expect(memo.computed == 2, "once on the first frame, once at midnight")
    #expect(last?.flow?.days.last?.date == Make.d("2026-11-05"))
    #expect(last?.header.day == "Thu 5 Nov")
  }

  /// A time the board records after its clock (a source's clock ahead of the board's): the
  /// projections are made again once the clock passes it, and equal fresh ones at every tick.
  @Test(arguments: [false, true])
  func aRecordedTimeAheadOfTheClockIsTakenWhenPassed(sprint: Bool) {
    var store = Self.store(100, sprint: sprint)
    store.apply(.event(Make.event("2026-11-04T10:00:30Z", .featureUpdated(FeaturePatch(id: "F-1", status: "done")))))
    var memo = ProjectionMemo()
    for s in 0..<60 {
      let at = Self.start.adding(seconds: Double(s))
      let kept = memo.content(state: store.state, version: store.version, at: at, zone: .utc, settings: ViewSettings())
      let fresh = BoardContent(state: store.state, at: at, zone: .utc, settings: ViewSettings())
      #expect(kept.flow == fresh.flow, "at +\(s) s")
      #expect(kept.tallies == fresh.tallies, "at +\(s) s")
      #expect(kept.progress == fresh.progress, "at +\(s) s")
      #expect(kept.burndown == fresh.burndown, "at +\(s) s")
    }
    #expect(memo.computed == 2, "once on the first frame, once when the clock passed 10:00:30")
  }

  @Test func whatTheProjectionsReadBesidesTheStateIsInTheKey() {
    let store = Self.store(100, sprint: true)
    var memo = ProjectionMemo()
    func at(_ s: Double, unit: UnitChoice = .auto, sprint: String? = nil, zone: Zone = .utc) -> BoardContent {
      memo.content(
        state: store.state, version: store.version, at: Self.start.adding(seconds: s), zone: zone,
        settings: ViewSettings(unit: unit, activeSprint: sprint))
    }
    _ = at(0)
    #expect(at(1, unit: .count).burndown?.unit == .count)
    #expect(at(2, sprint: "nosuch").sprint == nil)
    _ = at(3, zone: Zone("Etc/UTC")!)
    #expect(memo.computed == 4)
    _ = at(-5, zone: Zone("Etc/UTC")!)
    #expect(memo.computed == 5, "a clock that went back projects again")
  }
}
