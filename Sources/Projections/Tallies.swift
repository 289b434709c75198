public import WallboardCore

/// How many features stand in one state.
public struct Tally: Hashable, Sendable {
  public var state: String
  public var label: String
  public var count: Int
  public var points: Double
  public var terminal: Bool
  /// `false` for a state the workflow does not know (shown after the known ones).
  public var known: Bool
  /// For an old spelling the workflow still reads (upstream's `backlog`, `documented`…): the
  /// state it counts as. Such a status is tallied under its own name, as stored, right after
  /// that state — never silently renamed (its `label` is that name as every state's is shown,
  /// `StateLabel.display`).
  public var countsAs: String?

  public init(
    state: String, label: String, count: Int, points: Double, terminal: Bool, known: Bool, countsAs: String? = nil
  ) {
    self.state = state
    self.label = label
    self.count = count
    self.points = points
    self.terminal = terminal
    self.known = known
    self.countsAs = countsAs
  }
}

/// Total, done, completed and percent of the board's features.
public struct Progress: Hashable, Sendable {
  public var total: Int
  /// Features in a done state (`Workflow.isDone`).
  public var done: Int
  /// Features in any terminal state: done, rejected, cancelled.
  public var completed: Int
  /// 100 × completed / total, to one decimal; 0 when there is nothing.
  public var percent: Double
  public var totalPoints: Double
  public var donePoints: Double
  public var completedPoints: Double
  /// Features closed without being done (completed, not done), by state, in workflow order.
  public var closed: [Closed]

  /// How many features one terminal state closed without their being done.
  public struct Closed: Hashable, Sendable {
    public var state: String
    public var label: String
    public var count: Int
  }

  /// 100 × done / total, to one decimal; 0 when there is nothing.
  public var donePercent: Double { total == 0 ? 0 : (1000 * Double(done) / Double(total)).rounded() / 10 }
}

/// The features the tallies and progress count: the active sprint's members, else every feature.
public struct BoardScope: Sendable {
  public var features: [Feature]
  public var workflow: Workflow

  public init(state: BoardState, sprint: Sprint?) {
    let features = sprint.map { state.members(of: $0) } ?? state.features.values.sorted { $0.key < $1.key }
    self.features = features
    self.workflow = state.workflow(for: features)
  }
}

extension Tally {
  /// Every state of the workflow in order, zeros included, each followed by the old spellings
  /// of it that features hold (as stored), then the unknown states in the order the board first
  /// saw them. The counts always sum to the number of features.
  public static func compute(state: BoardState, scope: BoardScope) -> [Tally] {
    let wf = scope.workflow
    let scale = state.settings.estimateScale
    var byState: [String: (Int, Double)] = [:]
    var unknown: [String: (Int, Double)] = [:]
    for f in scope.features {
      let p = scale.points(points: f.points, estimate: f.estimate) ?? 0
      if wf.state(f.status) != nil {
        // Under the status as stored: a current state's id, or an old spelling of one.
        byState[f.status, default: (0, 0)].0 += 1
        byState[f.status]!.1 += p
      } else {
        unknown[f.status, default: (0, 0)].0 += 1
        unknown[f.status]!.1 += p
      }
    }
    var out: [Tally] = []
    let oldSpellings = Dictionary(grouping: wf.aliases.keys.sorted()) { wf.aliases[$0]! }
    for s in wf.states {
      out.append(
        Tally(
          state: s.id, label: StateLabel.display(s.label), count: byState[s.id]?.0 ?? 0, points: byState[s.id]?.1 ?? 0,
          terminal: s.terminal, known: true))
      for old in oldSpellings[s.id] ?? [] {
        guard let (count, points) = byState[old] else { continue }
        out.append(
          Tally(
            state: old, label: StateLabel.display(old), count: count, points: points, terminal: s.terminal, known: true,
            countsAs: s.id)
        )
      }
    }
    var order = state.statusOrder.filter { unknown[$0] != nil }
    // A status the first-seen list lacks cannot happen through the reducer; stay total anyway.
    order += unknown.keys.filter { !order.contains($0) }.sorted()
    for s in order {
      out.append(
        Tally(
          state: s, label: StateLabel.display(s), count: unknown[s]!.0, points: unknown[s]!.1, terminal: false,
          known: false))
    }
    return out
  }
}

extension Progress {
  public static func compute(state: BoardState, scope: BoardScope) -> Progress {
    let scale = state.settings.estimateScale
    let wf = scope.workflow
    var done = 0
    var completed = 0
    var pts = 0.0
    var donePts = 0.0
    var completedPts = 0.0
    var closed: [String: Int] = [:]
    for f in scope.features {
      let p = scale.points(points: f.points, estimate: f.estimate) ?? 0
      pts += p
      guard let s = wf.state(f.status), s.terminal else { continue }
      completed += 1
      completedPts += p
      if s.done {
        done += 1
        donePts += p
      } else {
        closed[s.id, default: 0] += 1
      }
    }
    let total = scope.features.count
    let percent = total == 0 ? 0 : (1000 * Double(completed) / Double(total)).rounded() / 10
    let closedStates = wf.states.compactMap { s in
      closed[s.id].map { Closed(state: s.id, label: StateLabel.display(s.label), count: $0) }
    }
    return Progress(
      total: total, done: done, completed: completed, percent: percent, totalPoints: pts, donePoints: donePts,
      completedPoints: completedPts, closed: closedStates)
  }
}
