import EventSources
import Projections
import SourceKit
import TestSupport
import Testing
import WallboardCore

/// The filter's property over the simulated team's stream (with label changes woven in): the
/// filtered board equals the unfiltered board fed only the matching features' events — a feature's events while it
/// matches, its arrival (whole, as it stands) when it starts matching, and its removal when it
/// stops.
@Suite("The filter over the simulated team")
struct FilterPropertyTests {
  typealias M = Make

  /// The reference stream, built beside an unfiltered board (`all`) that says how each feature
  /// stood before and after each input.
  static func reference(_ inputs: [BoardInput], filter: FeatureFilter) -> (stream: [BoardInput], moves: Int) {
    var all = BoardState()
    var out: [BoardInput] = []
    // Features that entered or left while they existed (not created or deleted).
    var moves = 0
    for input in inputs {
      guard case .event(let e) = input else {
        out.append(input)
        continue
      }
      let id: String?
      switch e.body {
      case .featureCreated(let f): id = f.id
      case .featureUpdated(let p): id = p.id
      case .workflowTransitioned(let f, _, _, _, _): id = f
      case .featureDeleted(let f, _): id = f
      default: id = nil
      }
      let before = id.flatMap { id in all.features.first { $0.key.id == id }?.value }
      Reducer.reduce(into: &all, e)
      guard let id else {
        if case .boardSnapshot(var snap) = e.body {
          snap.features = snap.features.filter(filter.matches)
          var f = e
          f.body = .boardSnapshot(snap)
          out.append(.event(f))
        } else {
          out.append(input)
        }
        continue
      }
      let after = all.features.first { $0.key.id == id }?.value
      let was = before.map(filter.matches) ?? false
      let now = after.map(filter.matches) ?? false
      var emitted = e
      switch (was, now) {
      case (true, true): break
      case (false, true) where before != nil:
        emitted.body = .featureCreated(after!)
        moves += 1
      case (false, true): break
      case (true, false):
        emitted.body = .featureDeleted(id: id)
        if after != nil { moves += 1 }
      case (false, false): continue
      }
      out.append(.event(emitted))
    }
    return (out, moves)
  }

  /// The simulated stream with label changes woven in (the team never relabels): after every
  /// ninth feature event, that feature swaps `team:web` for `team:api` or back.
  static func relabelled(_ inputs: [BoardInput]) -> [BoardInput] {
    var board = BoardState()
    var out: [BoardInput] = []
    var n = 0
    for input in inputs {
      out.append(input)
      Reducer.reduce(into: &board, input)
      guard case .event(let e) = input else { continue }
      let id: String
      switch e.body {
      case .featureCreated(let f): id = f.id
      case .featureUpdated(let p): id = p.id
      case .workflowTransitioned(let f, _, _, _, _): id = f
      default: continue
      }
      n += 1
      guard n % 9 == 0, let f = board.features.first(where: { $0.key.id == id })?.value else { continue }
      var patch = FeaturePatch(id: id)
      patch.labels =
        f.labels.contains("team:web")
        ? f.labels.filter { $0 != "team:web" } + ["team:api"] : f.labels.filter { $0 != "team:api" } + ["team:web"]
      let swap = BoardInput.event(Event(origin: e.origin, time: e.time, body: .featureUpdated(patch)))
      out.append(swap)
      Reducer.reduce(into: &board, swap)
    }
    return out
  }

  static let filters: [FeatureFilter] = [
    FeatureFilter(labels: ["team:web"]),
    FeatureFilter(labels: ["sprint:sprint-1", "sprint:sprint-3"]),
    FeatureFilter(assignees: ["ana", "bo"]),
    FeatureFilter(projects: ["demo"], labels: ["team:web"]),
    FeatureFilter(projects: ["elsewhere"]),
  ]

  @Test(arguments: [1, 7, 42] as [UInt64], [0, 1, 2, 3, 4])
  func theFilteredBoardIsTheBoardOfTheMatchingFeatures(seed: UInt64, which: Int) throws {
    let filter = Self.filters[which]
    let at = M.t("2026-12-09T12:00:00Z")
    let inputs = Self.relabelled(SimSource.inputs(team: SimulatedTeam(seed: seed), origin: "sim", through: at))
    var filtered = BoardState(settings: BoardSettings(filter: filter))
    var unfiltered = BoardState()
    for i in inputs {
      Reducer.reduce(into: &filtered, i)
      Reducer.reduce(into: &unfiltered, i)
    }
    let (stream, moves) = Self.reference(inputs, filter: filter)
    var reference = BoardState()
    for i in stream { Reducer.reduce(into: &reference, i) }

    #expect(filtered.features == unfiltered.features.filter { filter.matches($0.value) })
    #expect(filtered.features == reference.features)
    #expect(filtered.history == reference.history)
    #expect(filtered.sprints == unfiltered.sprints)
    #expect(filtered.sprintOrder == reference.sprintOrder)
    #expect(filtered.statusOrder == reference.statusOrder)
    #expect(Array(filtered.recent) == Array(reference.recent))
    #expect(filtered.hiddenCount == unfiltered.features.count - filtered.features.count)

    // So every projection agrees without filtering again.
    let sprint = try #require(filtered.activeSprint(at: at, zone: .utc))
    let scope = BoardScope(state: filtered, sprint: sprint)
    let refScope = BoardScope(state: reference, sprint: reference.activeSprint(at: at, zone: .utc))
    #expect(Tally.compute(state: filtered, scope: scope) == Tally.compute(state: reference, scope: refScope))
    #expect(
      Burndown.compute(state: filtered, sprint: sprint, at: at, boardZone: .utc)
        == Burndown.compute(state: reference, sprint: sprint, at: at, boardZone: .utc))
    if which == 0 || which == 3 {
      #expect(moves >= 20, "the stream moves features in and out of this filter: \(moves)")
    }
  }
}
