/// One state of a workflow.
public struct WorkflowState: Hashable, Sendable {
  /// Normalised id (`in-progress`).
  public var id: String
  /// What people read; defaults to the id.
  public var label: String
  /// A terminal state counts as completed in burndowns and progress.
  public var terminal: Bool
  /// Someone is working on features in this state.
  public var activeWork: Bool
  /// A terminal state in which the work was done (`done`), as opposed to closed without being
  /// done (`rejected`, `cancelled`). Always `false` for a state that is not terminal.
  public var done: Bool

  /// - Parameter done: whether this terminal state means the work was done; by default every
  ///   terminal state but those named like a dismissal (`WorkflowState.dismissals`).
  public init(
    id: String, label: String? = nil, terminal: Bool = false, activeWork: Bool = false, done: Bool? = nil
  ) {
    self.id = Status.normalise(id)
    self.label = label ?? self.id
    self.terminal = terminal
    self.activeWork = activeWork
    self.done = terminal && (done ?? !WorkflowState.dismissals.contains(self.id))
  }

  /// Terminal states that close work without it being done, when a workflow does not say.
  public static let dismissals: Set<String> = [
    "rejected", "cancelled", "canceled", "wont-do", "won't-do", "wontfix", "wont-fix", "declined",
    "duplicate", "abandoned", "obsolete", "dropped",
  ]
}

/// An ordered set of states, some terminal.
public struct Workflow: Hashable, Sendable {
  public var states: [WorkflowState]
  public var initialState: String
  /// Old names read as other states of this workflow (upstream's migration map).
  public var aliases: [String: String]

  public init(states: [WorkflowState], initialState: String? = nil, aliases: [String: String] = [:]) {
    precondition(!states.isEmpty, "a workflow needs at least one state")
    self.states = states
    self.initialState = initialState.map(Status.normalise) ?? states[0].id
    self.aliases = aliases
  }

  /// The state with this (normalised) id, after aliases.
  public func state(_ id: String) -> WorkflowState? {
    let key = aliases[id] ?? id
    return states.first { $0.id == key }
  }

  /// Whether a status counts as completed (one of the terminal states, done or not).
  public func isCompleted(_ status: String) -> Bool { state(status)?.terminal ?? false }

  /// Whether a status is one of the done states (terminal, and not a rejection or cancellation).
  public func isDone(_ status: String) -> Bool { state(status)?.done ?? false }

  /// The product's default: the seed's 13 states; `done`, `rejected`, `cancelled` terminal.
  public static let seed = Workflow(states: [
    WorkflowState(id: "backlog", label: "Backlog"),
    WorkflowState(id: "todo", label: "To do"),
    WorkflowState(id: "in-progress", label: "In progress", activeWork: true),
    WorkflowState(id: "ready-for-testing", label: "Ready for testing"),
    WorkflowState(id: "in-testing", label: "In testing", activeWork: true),
    WorkflowState(id: "ready-for-docs", label: "Ready for docs"),
    WorkflowState(id: "in-docs", label: "In docs", activeWork: true),
    WorkflowState(id: "documented", label: "Documented"),
    WorkflowState(id: "in-review", label: "In review", activeWork: true),
    WorkflowState(id: "done", label: "Done", terminal: true),
    WorkflowState(id: "blocked", label: "Blocked"),
    WorkflowState(id: "rejected", label: "Rejected", terminal: true),
    WorkflowState(id: "cancelled", label: "Cancelled", terminal: true),
  ])

  /// The current upstream 7-state workflow; only `done` is terminal. Reads the seed's old names
  /// through upstream's map.
  public static let upstream = Workflow(
    states: [
      WorkflowState(id: "todo", label: "To do"),
      WorkflowState(id: "in-progress", label: "In progress", activeWork: true),
      WorkflowState(id: "in-testing", label: "In testing", activeWork: true),
      WorkflowState(id: "in-docs", label: "In docs", activeWork: true),
      WorkflowState(id: "in-review", label: "In review", activeWork: true),
      WorkflowState(id: "needs-edits", label: "Needs edits", activeWork: true),
      WorkflowState(id: "done", label: "Done", terminal: true),
    ],
    aliases: [
      "backlog": "todo", "ready-for-testing": "in-testing", "ready-for-docs": "in-docs",
      "documented": "in-review",
    ])
}

/// Status spelling rules.
public enum Status {
  /// `In_Progress` → `in-progress`: lower case, `_` and spaces as `-`, trimmed.
  public static func normalise(_ raw: String) -> String {
    var needsWork = false
    for b in raw.utf8 where (b >= 0x41 && b <= 0x5A) || b == 0x5F || b == 0x20 || b >= 0x80 {
      needsWork = true
      break
    }
    if !needsWork { return raw }
    let trimmed = raw.split(separator: " ", omittingEmptySubsequences: true).joined(separator: "-")
    return String(trimmed.lowercased().map { $0 == "_" ? "-" : $0 })
  }
}
