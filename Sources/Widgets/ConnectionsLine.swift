internal import Projections

/// The sources in one line, for the header: each source's name, status word and age
/// ("orchestra:ws · live · 3 s"), in forms from the longest to the shortest, so that the header
/// draws the first that fits; the shortest counts them by status ("3 live · 1 stale"). The
/// status is always a word: never colour alone.
public struct ConnectionsLine: Hashable, Sendable {
  /// The forms, most informative first; the last is the counts.
  public var forms: [String]

  public init(forms: [String]) { self.forms = forms }

  /// The line for `rows` (the connections widget's rows), nil without sources.
  public init?(_ rows: [SourceRow]) {
    guard !rows.isEmpty else { return nil }
    func join(_ parts: [String]) -> String { parts.joined(separator: "   ") }
    let ages = rows.map { ConnectionsLine.shortAge($0.age) }
    var forms = [
      join(zip(rows, ages).map { "\($0.name) · \($0.status.rawValue) · \($1)" }),
      join(zip(rows, ages).map { "\(SourceRow.withoutScheme($0.name)) · \($0.status.rawValue) · \($1)" }),
      join(rows.map { "\(SourceRow.withoutScheme($0.name)) · \($0.status.rawValue)" }),
    ]
    if rows.count == 1 {
      forms.append("\(rows[0].status.rawValue) · \(ages[0])")
    }
    forms.append(ConnectionsLine.counts(rows))
    self.forms = forms
  }

  /// The statuses, the troubled first: "1 offline · 3 live".
  public static func counts(_ rows: [SourceRow]) -> String {
    let order: [SourceStatus.State] = [.offline, .stale, .reconnecting, .connecting, .live, .ended]
    return order.compactMap { s in
      let n = rows.count { $0.status == s }
      return n == 0 ? nil : "\(n) \(s.rawValue)"
    }.joined(separator: " · ")
  }

  /// A source's age without its first word and its " ago": "updated 3 h ago" → "3 h";
  /// "never heard" stays.
  public static func shortAge(_ age: String) -> String {
    guard age != "never heard" else { return age }
    let rest = age.split(separator: " ", maxSplits: 1).last.map(String.init) ?? age
    return rest.hasSuffix(" ago") ? String(rest.dropLast(4)) : rest
  }
}
