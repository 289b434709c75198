import Foundation
import TestSupport
import Testing
import WallboardCLI
import Wire

/// Declared sprints beside a workspace's features, through `inspect`: the workspace has no
/// sprints, the command line declares one, and the features carrying its label are its scope.
@Suite("inspect: a declared sprint over an Orchestra workspace", .serialized)
struct DeclaredSprintInspectTests {
  static let sprint = "id=s3,name=Sprint 3,start=2026-11-16,end=2026-11-27,label=team-a-s3,goal=Checkout"

  static func workspace() throws -> OrchestraWorkspace {
    let ws = try OrchestraWorkspace()
    try ws.project("web")
    try ws.project("api")
    try ws.write(id: "FEAT-A", status: "done", estimate: "M", labels: "[\"team-a-s3\"]", at: "2026-11-17T10:00:00Z")
    try ws.write(
      id: "FEAT-B", status: "in-progress", estimate: "L", labels: "[\"team-a-s3\",\"area:ui\"]",
      at: "2026-11-17T11:00:00Z")
    try ws.write(id: "FEAT-C", status: "todo", estimate: "XL", labels: "[\"other\"]", at: "2026-11-17T12:00:00Z")
    try ws.write(
      id: "FEAT-D", project: "api", status: "todo", estimate: "S", labels: "[\"team-a-s3\"]", at: "2026-11-18T09:00:00Z"
    )
    return ws
  }

  static func inspect(_ ws: OrchestraWorkspace, _ extra: [String]) throws -> [String: JSONValue] {
    let r = Captured.run(
      ["inspect", "--source", "orchestra-db:\(ws.path)", "--settle", "0.3", "--wait", "5", "--tz", "UTC"] + extra)
    #expect(r.code == 0, "\(r.err)")
    guard case .object(let root) = try JSONParser.parse(r.out) else {
      Issue.record("not an object: \(r.out.prefix(200))")
      return [:]
    }
    return Dictionary(uniqueKeysWithValues: root.map { ($0.key, $0.value) })
  }

  static func numbers(_ v: JSONValue?) -> [Double?] {
    guard case .array(let a)? = v else { return [] }
    return a.map { if case .number(let n) = $0 { n } else { nil } }
  }

  static func field(_ v: JSONValue?, _ key: String) -> JSONValue? {
    guard case .object(let o)? = v else { return nil }
    return o[key]
  }

  @Test func theDeclaredSprintsBurndownAndScopeAreItsLabelledFeatures() throws {
    let ws = try Self.workspace()
    let root = try Self.inspect(ws, ["--sprint", Self.sprint])
    let sprint = root["sprint"]
    #expect(Self.field(sprint, "id") == .string("s3"))
    #expect(Self.field(sprint, "goal") == .string("Checkout"))
    #expect(Self.field(sprint, "activation") == .string("dates"))
    #expect(Self.field(sprint, "label") == .string("team-a-s3"))
    // A (M=2), B (L=3), D (S=1): 6 points in scope, 2 of them done; C is not a member.
    let burndown = root["burndown"]
    let scope = Self.numbers(Self.field(burndown, "scope")).compactMap { $0 }
    let remaining = Self.numbers(Self.field(burndown, "remaining")).compactMap { $0 }
    #expect(scope.last == 6, "\(scope)")
    #expect(remaining.last == 4, "\(remaining)")
    #expect(Self.field(root["progress"], "total") == .number(3))
    guard case .array(let declared)? = root["declared_sprints"], let first = declared.first else {
      Issue.record("no declared sprints")
      return
    }
    #expect(Self.field(first, "members") == .number(3))
    #expect(Self.field(first, "dates_hold") == .bool(true))
    // The workspace's source and the declared one, each as it stands.
    guard case .array(let sources)? = root["sources"] else {
      Issue.record("no sources")
      return
    }
    let names = sources.compactMap { s -> String? in
      if case .string(let n)? = Self.field(s, "name") { n } else { nil }
    }
    #expect(names.contains("declared"))
    #expect(names.contains { $0.hasPrefix("orchestra-db:") })
  }

  /// `docs/burndown.md`, "Committed and scope": the commitment is what existed at the start; work
  /// created during the sprint is scope added on its creation date, and the numbers add up.
  @Test func workCreatedDuringTheSprintIsScopeAddedOnItsCreationDate() throws {
    // Every member was created after the sprint started (11-16): nothing was committed.
    let root = try Self.inspect(try Self.workspace(), ["--sprint", Self.sprint])
    #expect(Self.field(root["sprint"], "committed") == .number(0), "nothing existed at the start")
    #expect(Self.numbers(Self.field(root["burndown"], "ideal")).allSatisfy { $0 == 0 }, "the guideline starts at 0")
    #expect(
      Self.scopeChanges(root) == [
        "2026-11-17 FEAT-A 2.0 added", "2026-11-17 FEAT-B 3.0 added", "2026-11-18 FEAT-D 1.0 added",
      ])
    Self.expectScopeAddsUp(root)
    #expect(Self.numbers(Self.field(root["burndown"], "scope")).compactMap { $0 }.last == 6)
  }

  @Test func theCommitmentIsWhatExistedAtTheStart() throws {
    let ws = try Self.workspace()
    // E existed before the sprint started (11-16): the whole commitment.
    try ws.write(
      id: "FEAT-E", status: "todo", estimate: "XL", labels: "[\"team-a-s3\"]", at: "2026-11-12T09:00:00Z")
    let root = try Self.inspect(ws, ["--sprint", Self.sprint])
    #expect(Self.field(root["sprint"], "committed") == .number(5), "E (XL = 5) alone existed at the start")
    #expect(Self.numbers(Self.field(root["burndown"], "ideal")).first == 4.5, "5 × (1 − 1/10)")
    #expect(Self.scopeChanges(root).count == 3)
    Self.expectScopeAddsUp(root)
  }

  /// `scope_changes` as `date feature delta kind` lines.
  static func scopeChanges(_ root: [String: JSONValue]) -> [String] {
    guard case .array(let changes)? = field(root["burndown"], "scope_changes") else { return [] }
    return changes.map { c -> String in
      func s(_ k: String) -> String {
        switch field(c, k) {
        case .string(let v)?: v
        case .number(let n)?: "\(n)"
        default: "?"
        }
      }
      return "\(s("date")) \(s("feature_id")) \(s("delta")) \(s("kind"))"
    }
  }

  /// `committed` plus the deltas of the scope changes dated up to each day is that day's scope.
  static func expectScopeAddsUp(_ root: [String: JSONValue], sourceLocation: SourceLocation = #_sourceLocation) {
    let burndown = root["burndown"]
    guard case .number(let committed)? = field(root["sprint"], "committed"),
      case .array(let days)? = field(burndown, "days"),
      case .array(let changes)? = field(burndown, "scope_changes")
    else {
      Issue.record("no committed, days or scope_changes", sourceLocation: sourceLocation)
      return
    }
    for (day, value) in zip(days, numbers(field(burndown, "scope"))) {
      guard case .string(let d) = day, let value else { continue }
      var moved = 0.0
      for c in changes {
        guard case .string(let date)? = field(c, "date"), date <= d, case .number(let delta)? = field(c, "delta")
        else { continue }
        moved += delta
      }
      #expect(committed + moved == value, "\(d): \(committed) + \(moved) ≠ \(value)", sourceLocation: sourceLocation)
    }
  }

  @Test func aProjectFilterNarrowsTheSprintAndTheReportSaysSo() throws {
    let ws = try Self.workspace()
    let root = try Self.inspect(ws, ["--sprint", Self.sprint, "--project", "web"])
    let scope = Self.numbers(Self.field(root["burndown"], "scope")).compactMap { $0 }
    #expect(scope.last == 5, "D (api) is off the board: \(scope)")
    #expect(Self.field(root["progress"], "total") == .number(2))
    #expect(Self.field(root["filter"], "projects") == .array([.string("web")]))
    // The workspace source leaves other projects' rows unread: nothing of api reached the board.
    #expect(Self.field(root["filter"], "hidden") == .number(0), "FEAT-D, of api, was never read")
  }

  @Test func withoutADeclaredSprintHoldingTodayThereIsNone() throws {
    let ws = try Self.workspace()
    let past = "id=s1,start=2026-11-02,end=2026-11-13,label=team-a-s3"
    let root = try Self.inspect(ws, ["--sprint", past])
    #expect(root["sprint"] == .null, "its dates do not hold 2026-11-20")
    #expect(Self.field(root["progress"], "total") == .number(4), "every feature")
    let forced = try Self.inspect(ws, ["--sprint", past, "--active-sprint", "s1"])
    #expect(Self.field(forced["sprint"], "id") == .string("s1"))
    let unknown = try Self.inspect(ws, ["--sprint", past, "--active-sprint", "s7"])
    #expect(unknown["sprint"] == .null)
    #expect(unknown["active_sprint_error"] == .string("--active-sprint s7: the board has no such sprint"))
  }
}
