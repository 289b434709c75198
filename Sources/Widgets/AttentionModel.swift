public import Projections
public import WallboardCore

/// One thing that needs a look, as the Attention panel and the text board say it: a marker word
/// (never colour alone), the feature, and what is wrong with it.
public struct AttentionRow: Hashable, Sendable {
  /// What kind of trouble, most urgent first.
  public enum Kind: Int, Hashable, Sendable, CaseIterable {
    case source, blocked, lapsed, aging, rework

    /// The word every row of the kind starts with.
    public var marker: String {
      switch self {
      case .source: "source"
      case .blocked: "blocked"
      case .lapsed: "lapsed"
      case .aging: "aging"
      case .rework: "rework"
      }
    }
  }

  public var kind: Kind
  /// The feature's id as shown (`BoardState.shownId`); for a source, its name without scheme.
  public var featureId: String
  /// The feature's title ("" when the board does not hold it).
  public var title: String
  /// "waits on FEAT-X", "back 2×", "12 d in progress", "lock lapsed 40 min ago"; for a source,
  /// what it cannot read (its detail).
  public var detail: String

  public init(kind: Kind, featureId: String, title: String, detail: String) {
    self.kind = kind
    self.featureId = featureId
    self.title = title
    self.detail = detail
  }

  /// The detail where room is short, its number kept: "FEAT-X", "2×", "12 d", "40 min ago"
  /// (the marker word says the rest).
  public var shortDetail: String {
    for prefix in ["waits on ", "back ", "lock lapsed "] where detail.hasPrefix(prefix) {
      return String(detail.dropFirst(prefix.count))
    }
    return detail.hasSuffix(" in progress") ? String(detail.dropLast(12)) : detail
  }

  /// The row as one line of text: "blocked  Login flow (FEAT-1): waits on FEAT-2".
  public var line: String { "\(kind.marker)  \(FeatureName.text(id: featureId, title: title)): \(detail)" }
}

/// What the Attention panel shows: sources that cannot read something (what the connections
/// panel said under their row), blocked work, lapsed agent locks, work in progress past the
/// team's P85 cycle time and work in rework, most urgent first.
public struct AttentionModel: Hashable, Sendable {
  public var rows: [AttentionRow]

  public init(rows: [AttentionRow]) { self.rows = rows }

  /// Made from the content's lists, ages read at `at` (the board's clock).
  public init(
    blocked: [BlockedItem], rework: [ReworkItem], aging: [AgingItem], cycleTime: CycleTime, agents: [AgentRow],
    sources: [SourceRow] = [], state: BoardState, at: Instant
  ) {
    var rows: [AttentionRow] = []
    for s in sources where s.needsAttention {
      guard let detail = s.detail else { continue }
      rows.append(AttentionRow(kind: .source, featureId: SourceRow.withoutScheme(s.name), title: "", detail: detail))
    }
    for b in blocked {
      rows.append(
        AttentionRow(
          kind: .blocked, featureId: state.shownId(b.key), title: b.title,
          detail: AttentionText.waitsOn(b.waitsOn.map(state.shownId))))
    }
    for a in agents where a.lock.lapsed(at: at) {
      rows.append(
        AttentionRow(
          kind: .lapsed, featureId: state.shownId(a.lock.feature), title: a.title ?? "",
          detail: "lock " + AttentionText.lapsed(a.lock, at: at)))
    }
    for item in aging where item.pastP85(cycleTime: cycleTime, at: at) {
      rows.append(
        AttentionRow(
          kind: .aging, featureId: state.shownId(item.key), title: item.title,
          detail: AgingText.text(days: AgingText.daysInProgress(item, at: at) ?? 0) + " in progress"))
    }
    for r in rework.sorted(by: { $0.times > $1.times }) {
      rows.append(
        AttentionRow(kind: .rework, featureId: state.shownId(r.key), title: r.title, detail: "back \(r.times)×"))
    }
    self.rows = rows
  }

  /// How many rows of each kind, in the order of urgency, those with none left out.
  public var counts: [(kind: AttentionRow.Kind, count: Int)] {
    AttentionRow.Kind.allCases.compactMap { k in
      let n = rows.count { $0.kind == k }
      return n == 0 ? nil : (k, n)
    }
  }

  /// "2 blocked · 1 lapsed · 3 aging", or "" when nothing needs attention.
  public var summary: String { counts.map { "\($0.count) \($0.kind.marker)" }.joined(separator: " · ") }

  /// What the panel and the text board say when no row is shown.
  public static let nothing = "Nothing needs attention"

  /// When the model made at `at` next reads differently by itself: a lock lapsing or its lapse's
  /// age turning, an item crossing P85 or its days turning.
  public static func nextChange(aging: [AgingItem], cycleTime: CycleTime, agents: [AgentRow], at: Instant) -> Instant? {
    var next: Instant?
    for a in agents {
      next = NextChange.earlier(
        next, a.lock.lapsed(at: at) ? Ages.nextChange(from: a.lock.lapsesAt, to: at) : a.lock.lapsesAt)
    }
    for item in aging {
      if item.pastP85(cycleTime: cycleTime, at: at) {
        next = NextChange.earlier(next, item.nextWorkTenthChange(at: at))
      } else {
        next = NextChange.earlier(next, item.p85Crossing(cycleTime: cycleTime, at: at))
      }
    }
    return next
  }
}

/// The Attention texts, the same on the pixel board and the text board.
public enum AttentionText {
  /// "waits on FEAT-2", "waits on FEAT-2, FEAT-3"; "marked blocked" for a feature whose status
  /// says it is blocked while it waits on nothing the board holds undone.
  public static func waitsOn(_ ids: [String]) -> String {
    ids.isEmpty ? "marked blocked" : "waits on " + ids.joined(separator: ", ")
  }

  /// "lapsed 40 min ago": how long ago a lock lapsed, at `at`.
  public static func lapsed(_ lock: AgentLock, at: Instant) -> String {
    "lapsed " + Ages.text(from: lock.lapsesAt, to: at)
  }
}
