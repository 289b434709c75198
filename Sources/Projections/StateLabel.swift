public import WallboardCore

/// How the board names a workflow state: one rule for every state, whether its name is the
/// workflow's label, an old spelling the workflow still reads or a status it does not know.
public enum StateLabel {
  /// `raw` as the board shows it: its words apart (`-` and `_` between letters read as spaces)
  /// and its first letter capitalised; the rest as written (`QA` stays `QA`).
  ///
  /// `backlog` → `Backlog`, `needs_edits` → `Needs edits`, `In progress` stays. A label with no
  /// letter or digit is left as it is.
  public static func display(_ raw: String) -> String {
    guard raw.contains(where: { $0.isLetter || $0.isNumber }) else { return raw }
    let spaced = String(raw.map { $0 == "-" || $0 == "_" ? " " : $0 })
    guard let first = spaced.first else { return spaced }
    return first.uppercased() + spaced.dropFirst()
  }
}

extension StateLabel {
  /// How the board names state `id` of a feature of `project`: its workflow's label, else the
  /// id itself, both shown by `display`.
  public static func of(_ id: String, project: String?, in state: BoardState) -> String {
    display(state.workflow(forProject: project).state(id)?.label ?? id)
  }
}
