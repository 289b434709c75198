public import Layout

/// The widget kinds a layout may name, their options, and how to make each.
public enum WidgetRegistry {
  /// What layout files may say.
  public static let vocabulary = WidgetVocabulary(kinds: [
    "header": [:],
    "burndown": ["mode": ["burndown", "burnup"]],
    "tallies": [:],
    "progress": [:],
    "connections": [:],
    "recent": [:],
    "numbers": [:],
    "attention": [:],
    "aging": [:],
    "agents": [:],
  ])

  /// The widget for a placement (already validated against `vocabulary`).
  public static func make(_ p: LayoutFile.Placement) -> AnyWidget {
    switch p.kind {
    case "header": AnyWidget(kind: p.kind, HeaderWidget())
    case "burndown": AnyWidget(kind: p.kind, BurndownWidget(mode: p.options["mode"] == "burnup" ? .burnup : .burndown))
    case "tallies": AnyWidget(kind: p.kind, TalliesWidget())
    case "progress": AnyWidget(kind: p.kind, ProgressWidget())
    case "connections": AnyWidget(kind: p.kind, ConnectionsWidget())
    case "recent": AnyWidget(kind: p.kind, RecentWidget())
    case "numbers": AnyWidget(kind: p.kind, NumbersWidget())
    case "attention": AnyWidget(kind: p.kind, AttentionWidget())
    case "aging": AnyWidget(kind: p.kind, AgingWidget())
    case "agents": AnyWidget(kind: p.kind, AgentsWidget())
    default: preconditionFailure("widget kind \(p.kind) passed validation but has no widget")
    }
  }
}
