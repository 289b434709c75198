public import WallboardCore
public import Wire

/// What upstream's features plugin (`tools.features`) answers to its read tools, as an
/// orchestrator passes it through `tool_call`: a `ToolResponse.result` whose `text` is markdown
/// and, from sdk-go 1.0.6 on, whose `_ui` holds the same records as data. Both are read: `_ui`
/// when it is there (every field, exact), else the markdown (what the tables and cards show).
/// Parsed defensively: a row or line that is not what it should be is skipped, never trusted,
/// and every value is capped as the workspace readers cap theirs.
///
/// The shapes, from upstream's sources: Tests/OrchestraPeer/UPSTREAM-TOOLS.md.
public enum FeatureTools {
  /// One feature as a tool shows it; what the tool did not show is nil.
  public struct Record: Hashable, Sendable {
    public var id: String
    public var project: String
    public var title: String
    public var status: String
    public var priority: String?
    public var kind: String?
    public var assignee: String?
    public var estimate: String?
    public var labels: [String]?
    public var dependsOn: [String]?
    public var createdAt: Instant?
    public var updatedAt: Instant?
    /// The feature's body (its audit trail), from `get_feature`'s card.
    public var body: String?

    public init(id: String, project: String, title: String = "", status: String = "todo") {
      self.id = id
      self.project = project
      self.title = title
      self.status = status
    }

    public var key: FeatureKey { FeatureKey(project: project, id: id) }

    /// The feature of the contract (what was not shown stays empty).
    public var feature: Feature {
      Feature(
        id: id, projectId: project, title: title, status: status, priority: priority, kind: kind,
        assignee: assignee, labels: labels ?? [], estimate: estimate, createdAt: createdAt, updatedAt: updatedAt,
        dependsOn: dependsOn ?? [])
    }
  }

  /// One page of `list_features`: its rows, the total the tool says there are (nil: it did not
  /// say, an older plugin that lists everything at once), and whether the rows came from `_ui`
  /// (every field) or the table (id, title, status, priority, kind, assignee).
  public struct Page: Hashable, Sendable {
    public var records: [Record]
    public var total: Int?
    public var complete: Bool
    /// Rows skipped, with why.
    public var skipped: [String]
  }

  /// Caps: a title, a label, an id, as the database reader caps them.
  static let maxId = 256
  static let maxText = 4096
  static let maxShort = 1024
  static let maxLabels = 256

  // MARK: list_projects

  /// The project slugs of `list_projects`: ``- **Name** (`slug`) — description`` lines, sorted.
  public static func projects(_ result: JSONObject) -> [String] {
    guard case .string(let text)? = result["text"] else { return [] }
    var out: Set<String> = []
    for line in text.split(separator: "\n", omittingEmptySubsequences: true) where line.hasPrefix("- **") {
      guard let open = line.firstRange(of: "(`"), let close = line[open.upperBound...].firstRange(of: "`)") else {
        continue
      }
      let slug = String(line[open.upperBound..<close.lowerBound])
      if !slug.isEmpty, slug.utf8.count <= maxId { out.insert(slug) }
    }
    return out.sorted()
  }

  // MARK: list_features

  /// A page of `list_features` for `project`.
  public static func page(_ result: JSONObject, project: String) -> Page {
    if case .object(let ui)? = result["_ui"], let data = ui["data"] {
      var records: [Record] = []
      var skipped: [String] = []
      if case .array(let items) = data {
        for (i, item) in items.enumerated() {
          guard case .object(let o) = item, let r = record(o, project: project) else {
            skipped.append("_ui.data[\(i)]: not a feature")
            continue
          }
          records.append(r)
        }
      }
      var total: Int?
      if case .object(let p)? = ui["pagination"], case .number(let t)? = p["total"], t >= 0, t < 1e9 { total = Int(t) }
      return Page(records: records, total: total, complete: true, skipped: skipped)
    }
    guard case .string(let text)? = result["text"] else {
      return Page(records: [], total: 0, complete: false, skipped: ["no text in the result"])
    }
    return table(text, project: project)
  }

  /// The markdown table of `list_features`, and its `*Showing a-b of N total*` footer.
  static func table(_ text: String, project: String) -> Page {
    var records: [Record] = []
    var skipped: [String] = []
    var total: Int?
    for raw in text.split(separator: "\n", omittingEmptySubsequences: true) {
      let line = raw.trimmingSpaces
      if line.hasPrefix("*Showing "), let of = line.firstRange(of: " of "),
        let end = line[of.upperBound...].firstRange(of: " total")
      {
        total = Int(line[of.upperBound..<end.lowerBound])
        continue
      }
      guard line.hasPrefix("|"), line.hasSuffix("|") else { continue }
      // The separator under the heading: `|----|-------|…`.
      if line.allSatisfy({ $0 == "|" || $0 == "-" || $0 == ":" || $0 == " " }) { continue }
      let cells = line.dropFirst().dropLast().split(separator: " | ", omittingEmptySubsequences: false).map {
        $0.trimmingSpaces
      }
      if cells.first == "ID" && cells.last == "Assignee" { continue }
      guard cells.count >= 6 else {
        skipped.append("a row of \(cells.count) cells: \(line.prefix(80))")
        continue
      }
      // A title may hold " | ": the cells around it are fixed.
      let n = cells.count
      let id = cells[0]
      guard !id.isEmpty, id.utf8.count <= maxId, !id.contains(" ") else {
        skipped.append("a row without an id: \(line.prefix(80))")
        continue
      }
      var r = Record(
        id: id, project: project, title: capped(cells[1..<(n - 4)].joined(separator: " | "), maxText),
        status: status(cells[n - 4]))
      r.priority = optional(cells[n - 3])
      r.kind = optional(cells[n - 2])
      r.assignee = optional(cells[n - 1])
      records.append(r)
    }
    return Page(records: records, total: total, complete: false, skipped: skipped)
  }

  // MARK: get_feature

  /// The card of `get_feature`: `_ui.data` when there is one, else the markdown (`### ID — Title`,
  /// `- **Field:** value` lines); the body after the card's `---` either way.
  public static func detail(_ result: JSONObject, project: String) -> Record? {
    var body: String?
    var text: String?
    if case .string(let t)? = result["text"] {
      text = t
      if let cut = t.firstRange(of: "\n---\n") { body = String(t[cut.upperBound...]) }
    }
    if case .object(let ui)? = result["_ui"], case .object(let data)? = ui["data"],
      var r = record(data, project: project)
    {
      r.body = body
      return r
    }
    guard let text else { return nil }
    let card = body.map { _ in String(text[..<text.firstRange(of: "\n---\n")!.lowerBound]) } ?? text
    var r: Record?
    for raw in card.split(separator: "\n", omittingEmptySubsequences: true) {
      let line = raw.trimmingSpaces
      if line.hasPrefix("### "), r == nil {
        let head = line.dropFirst(4)
        guard let dash = head.firstRange(of: " — ") else { return nil }
        let id = String(head[..<dash.lowerBound])
        guard !id.isEmpty, id.utf8.count <= maxId else { return nil }
        r = Record(id: id, project: project, title: capped(String(head[dash.upperBound...]), maxText))
        continue
      }
      guard r != nil, line.hasPrefix("- **"), let colon = line.firstRange(of: ":** ") else { continue }
      let name = line[line.index(line.startIndex, offsetBy: 4)..<colon.lowerBound]
      let value = String(line[colon.upperBound...])
      switch name {
      case "Status": r?.status = status(value)
      case "Priority": r?.priority = optional(value)
      case "Kind": r?.kind = optional(value)
      case "Assignee": r?.assignee = optional(value)
      case "Estimate": r?.estimate = optional(value)
      case "Labels":
        r?.labels = Array(
          value.split(separator: ", ").map { capped($0.trimmingSpaces, maxShort) }.filter { !$0.isEmpty }
            .prefix(maxLabels))
      default: break
      }
    }
    r?.body = body
    return r
  }

  // MARK: Records

  /// A `FeatureData` object (`_ui.data`): `id`, `project_id`, `title`, `status`, `priority`, and
  /// when set `kind`, `assignee`, `labels`, `depends_on`, `estimate`, `created_at`, `updated_at`.
  static func record(_ o: JSONObject, project: String) -> Record? {
    guard case .string(let id)? = o["id"], !id.isEmpty, id.utf8.count <= maxId else { return nil }
    func string(_ key: String, _ cap: Int = maxShort) -> String? {
      guard case .string(let s)? = o[key], !s.isEmpty else { return nil }
      return capped(s, cap)
    }
    func list(_ key: String) -> [String]? {
      guard case .array(let items)? = o[key] else { return nil }
      return items.prefix(maxLabels).compactMap { v in
        guard case .string(let s) = v, !s.isEmpty else { return nil }
        return capped(s, maxShort)
      }
    }
    var r = Record(
      id: id, project: string("project_id", maxId) ?? project, title: string("title", maxText) ?? "",
      status: status(string("status") ?? "todo"))
    r.priority = string("priority")
    r.kind = string("kind")
    r.assignee = string("assignee")
    r.estimate = string("estimate")
    r.labels = list("labels") ?? []
    r.dependsOn = list("depends_on") ?? []
    r.createdAt = string("created_at").flatMap(StoreTime.instant)
    r.updatedAt = string("updated_at").flatMap(StoreTime.instant)
    return r
  }

  /// A status cell without what a tool adds to it (`in-progress [locked by other session]`).
  static func status(_ cell: String) -> String {
    var s = Substring(cell)
    if let bracket = s.firstRange(of: " [") { s = s[..<bracket.lowerBound] }
    let t = String(s).trimmingSpaces
    return t.isEmpty ? "todo" : capped(t, maxShort)
  }

  /// nil for an empty cell or the table's `—`.
  static func optional(_ cell: String) -> String? {
    let t = cell.trimmingSpaces
    return t.isEmpty || t == "—" ? nil : capped(t, maxShort)
  }

  static func capped(_ s: String, _ max: Int) -> String { s.prefix(utf8Bytes: max) }
}

extension StringProtocol {
  /// Without leading and trailing spaces and tabs.
  fileprivate var trimmingSpaces: String {
    var s = Substring(self)
    while let f = s.first, f == " " || f == "\t" || f == "\r" { s = s.dropFirst() }
    while let l = s.last, l == " " || l == "\t" || l == "\r" { s = s.dropLast() }
    return String(s)
  }
}
