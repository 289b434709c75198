import Projections
import TestSupport
import Testing
import WallboardCore
import Widgets

/// Each time-reading text of the work widgets against its "next change": a millisecond before
/// it the model made then is the model now, at it the model reads differently — days in
/// progress turning, an item crossing P85, a lock lapsing, a hold's and a lapse's age turning.
@Suite("When the work widgets' texts next change")
struct WorkNextChangeTests {
  typealias W = WorkWidgetsTests
  static func before(_ t: Instant) -> Instant { Instant(millis: t.millis - 1) }

  struct Models: Equatable {
    var attention: AttentionModel
    var chart: AgingChart
    var agents: [AgentStripRow]
  }

  static func models(at: Instant, aging: [AgingItem] = W.aging, cycle: CycleTime = W.cycle) -> Models {
    Models(
      attention: AttentionModel(
        blocked: W.blocked, rework: W.rework, aging: aging, cycleTime: cycle, agents: W.locks, state: BoardState(),
        at: at),
      chart: AgingChart(items: aging, cycleTime: cycle, state: BoardState(), at: at),
      agents: W.locks.map { AgentStripRow($0, state: BoardState(), at: at) })
  }

  static func next(at: Instant, aging: [AgingItem] = W.aging, cycle: CycleTime = W.cycle) -> Instant? {
    var n = NextChange()
    n.board(AttentionModel.nextChange(aging: aging, cycleTime: cycle, agents: W.locks, at: at))
    n.board(AgingChart.nextChange(items: aging, cycleTime: cycle, at: at))
    n.board(AgentStripRow.nextChange(W.locks, at: at))
    return n.board
  }

  /// Walks from three hours before `W.at` to three weeks on, from one next change to the next:
  /// a millisecond before each, `model` reads as it did; at it, differently.
  static func walk<M: Equatable>(
    _ what: String, model: (Instant) -> M, next: (Instant) -> Instant?,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    var t = Instant(millis: W.at.millis - 3 * 3_600_000)
    var steps = 0
    let end = Instant(millis: W.at.millis + 21 * W.day)
    while t < end, let n = next(t) {
      #expect(n > t, sourceLocation: sourceLocation)
      let now = model(t)
      #expect(model(Self.before(n)) == now, "\(what) at \(t): changed before \(n)", sourceLocation: sourceLocation)
      #expect(model(n) != now, "\(what) at \(t): \(n) changes nothing", sourceLocation: sourceLocation)
      t = n
      steps += 1
    }
    #expect(steps > 20, "\(what): \(steps) changes", sourceLocation: sourceLocation)
  }

  /// Each model changes exactly at its own next change (and the frame's is the earliest of them).
  @Test func eachModelChangesExactlyAtItsNextChange() {
    Self.walk("attention", model: { Self.models(at: $0).attention }) {
      AttentionModel.nextChange(aging: W.aging, cycleTime: W.cycle, agents: W.locks, at: $0)
    }
    Self.walk("aging", model: { Self.models(at: $0).chart }) {
      AgingChart.nextChange(items: W.aging, cycleTime: W.cycle, at: $0)
    }
    Self.walk("agents", model: { Self.models(at: $0).agents }) { AgentStripRow.nextChange(W.locks, at: $0) }
    Self.walk("all", model: { Self.models(at: $0) }) { Self.next(at: $0) }
  }

  /// An item crosses P85 when its days in progress as shown (tenths, rounded down) first exceed
  /// the P85 as shown (0.3 d): at 0.4 d. The Attention panel gains it then.
  @Test func anItemCrossingP85JoinsAttentionThen() throws {
    let start = Instant(millis: W.at.millis - W.day)
    let item = AgingItem(
      key: W.key("C"), title: "Cross", assignee: nil, status: "in-progress", stateSince: start, workSince: start)
    let cycle = CycleTime(p50Days: 0.25, p85Days: 1.0 / 3, samples: 3, windowDays: 90)
    let crossing = try #require(item.p85Crossing(cycleTime: cycle, at: start))
    #expect(crossing == Instant(millis: start.millis + 4 * W.day / 10))
    let from = Instant(millis: start.millis + 60_000)
    #expect(try #require(Self.next(at: from, aging: [item], cycle: cycle)) <= crossing)
    let before = Self.models(at: Self.before(crossing), aging: [item], cycle: cycle)
    let after = Self.models(at: crossing, aging: [item], cycle: cycle)
    #expect(!before.attention.rows.contains { $0.kind == .aging })
    #expect(after.attention.rows.contains { $0.kind == .aging && $0.featureId == "C" })
    #expect(after.chart.dots.first?.pastP85 == true)
  }

  /// A lock lapses at its 30 minutes: the strip and the Attention panel say so from then.
  @Test func aLockLapsesAtItsThirtyMinutes() {
    let lock = W.locks[0].lock
    let before = Self.models(at: Self.before(lock.lapsesAt))
    let at = Self.models(at: lock.lapsesAt)
    #expect(before.agents[0].lapsed == false && at.agents[0].lapsed)
    #expect(at.agents[0].held == "lapsed 0 s ago")
    #expect(at.attention.rows.filter { $0.kind == .lapsed }.count == 2)
  }
}
