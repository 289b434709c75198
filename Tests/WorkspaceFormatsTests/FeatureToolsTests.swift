import Testing
import WallboardCore
import Wire
import WorkspaceFormats

/// Upstream's features tools' answers, read: the shapes its plugin gives (sdk-go 1.0.6 with
/// `_ui`, 1.0.5 text only, older without pages), as Tests/OrchestraPeer/UPSTREAM-TOOLS.md
/// restates them, and what a defensive reader must survive.
@Suite struct FeatureToolsTests {
  static func result(_ text: String, ui: JSONValue? = nil) -> JSONObject {
    var o: JSONObject = ["text": .string(text)]
    if let ui { o.append("_ui", ui) }
    return o
  }

  @Test func projectsAreTheSlugsOfTheList() {
    let text = "## Projects (2)\n\n- **API** (`api`)\n- **Wallboard** (`wallboard`) — Status board (`not this`)\n"
    #expect(FeatureTools.projects(Self.result(text)) == ["api", "wallboard"])
    #expect(FeatureTools.projects(Self.result("## Projects\n\nNo projects found.\n")) == [])
    #expect(FeatureTools.projects(["text": 5]) == [])
  }

  static let table = """
    ## Features (3)

    | ID | Title | Status | Priority | Kind | Assignee |
    |----|-------|--------|----------|------|----------|
    | FEAT-ABC | Board layout | in-progress | P1 | feature | ana |
    | FEAT-ABD | Crash on empty | todo | P0 | bug | — |
    | FEAT-ABE | A | B: pipes | in-review [locked by other session] | P2 | feature | bo |
    | broken row |

    *Showing 1-3 of 7 total*

    """

  @Test func aTablePageGivesItsRowsAndTheTotal() {
    let page = FeatureTools.page(Self.result(Self.table), project: "wallboard")
    #expect(page.total == 7)
    #expect(!page.complete)
    #expect(page.records.map(\.id) == ["FEAT-ABC", "FEAT-ABD", "FEAT-ABE"])
    #expect(page.records.allSatisfy { $0.project == "wallboard" })
    let abd = page.records[1]
    #expect(abd.assignee == nil, "— is no assignee")
    #expect(abd.kind == "bug" && abd.priority == "P0" && abd.status == "todo")
    let abe = page.records[2]
    #expect(abe.title == "A | B: pipes", "a title holding the separator keeps it")
    #expect(abe.status == "in-review", "the lock note is not part of the status")
    #expect(abe.labels == nil && abe.dependsOn == nil, "the table does not show them")
    #expect(page.skipped.count == 1)
  }

  /// Found by the `tools` fuzzer: " total" before " of " in a footer trapped on a reversed range.
  @Test(arguments: ["*Showing 1-3 total of 7*", "*Showing of*", "*Showing  total of  total*"])
  func aFooterOutOfOrderIsNoTotal(_ footer: String) {
    #expect(
      FeatureTools.page(Self.result("| F1 | One | todo | P2 | feature | — |\n" + footer), project: "p").total == nil)
  }

  @Test func aLegacyListHasNoFooterAndAnEmptyPageNoRows() {
    let legacy = FeatureTools.page(
      Self.result(
        "## Features (1)\n\n| ID | Title | Status | Priority | Kind | Assignee |\n|---|---|---|---|---|---|\n| F1 | One | done | P2 | feature | — |\n"
      ),
      project: "p")
    #expect(legacy.total == nil)
    #expect(legacy.records.map(\.status) == ["done"])
    let empty = FeatureTools.page(
      Self.result("## Features\n\nNo features found.\n\n*Showing 1-0 of 0 total*\n"), project: "p")
    #expect(empty.records.isEmpty && empty.total == 0)
  }

  static let uiPage: JSONValue = [
    "view": "table",
    "data": [
      [
        "id": "FEAT-ABC", "project_id": "wallboard", "title": "Board layout", "status": "in-progress",
        "priority": "P1", "kind": "feature", "assignee": "ana", "labels": ["ui", "sprint:s1"], "estimate": "M",
        "created_at": "2026-03-03T10:00:00Z", "updated_at": "2026-03-05T11:00:00Z", "version": 0,
      ],
      [
        "id": "FEAT-ABD", "project_id": "wallboard", "title": "Crash on empty", "status": "todo", "priority": "P0",
        "kind": "bug", "depends_on": ["FEAT-ABC"], "created_at": "2026-03-04T10:00:00Z",
        "updated_at": "2026-03-04T10:00:00Z",
      ],
      ["title": "no id"],
    ],
    "pagination": ["total": 3, "limit": 2, "offset": 0],
  ]

  @Test func uiDataIsReadWholeBeforeTheMarkdown() throws {
    let page = FeatureTools.page(Self.result("ignored when _ui is there", ui: Self.uiPage), project: "wallboard")
    #expect(page.complete)
    #expect(page.total == 3)
    #expect(page.records.map(\.id) == ["FEAT-ABC", "FEAT-ABD"])
    #expect(page.skipped == ["_ui.data[2]: not a feature"])
    let abc = page.records[0]
    #expect(abc.labels == ["ui", "sprint:s1"] && abc.estimate == "M")
    #expect(abc.createdAt == (try Instant(rfc3339: "2026-03-03T10:00:00Z")))
    #expect(page.records[1].dependsOn == ["FEAT-ABC"])
    #expect(page.records[1].labels == [], "shown by _ui: none, not unknown")
    let nullData = FeatureTools.page(
      Self.result("", ui: ["data": nil, "pagination": ["total": 0, "limit": 50, "offset": 0]]), project: "x")
    #expect(nullData.records.isEmpty && nullData.total == 0)
  }

  static let card = """
    ### FEAT-ABC — Board layout
    - **Status:** in-progress
    - **Priority:** P1
    - **Kind:** feature
    - **Assignee:** ana
    - **Estimate:** M
    - **Labels:** ui, sprint:s1

    Grid of columns

    ---

    # Board layout

    Grid of columns


    ---
    **in-progress -> in-testing** (2026-03-05T11:00:00Z):
    ## Changes
    - Sources/Board.swift
    """

  @Test func aCardGivesWhatTheTableLacksAndTheBody() throws {
    let r = try #require(FeatureTools.detail(Self.result(Self.card), project: "wallboard"))
    #expect(r.id == "FEAT-ABC" && r.title == "Board layout" && r.project == "wallboard")
    #expect(r.status == "in-progress" && r.estimate == "M" && r.labels == ["ui", "sprint:s1"])
    #expect(r.body?.contains("**in-progress -> in-testing** (2026-03-05T11:00:00Z)") == true)
    #expect(r.body?.hasPrefix("\n# Board layout") == true)
    let trail = AuditTrail.parse(try #require(r.body))
    #expect(trail.moves.map(\.to) == ["in-testing"])
  }

  @Test func aCardWithUIDataTakesItsFieldsAndTheTextsBody() throws {
    let ui: JSONValue = [
      "data": [
        "id": "FEAT-ABC", "project_id": "wallboard", "title": "Board layout", "status": "in-review",
        "depends_on": ["FEAT-X"], "updated_at": "2026-03-05T11:00:00Z",
      ]
    ]
    let r = try #require(FeatureTools.detail(Self.result(Self.card, ui: ui), project: "wallboard"))
    #expect(r.status == "in-review", "_ui wins")
    #expect(r.dependsOn == ["FEAT-X"])
    #expect(r.body?.contains("in-progress -> in-testing") == true)
  }

  @Test(arguments: ["", "no heading", "### no dash here", "- **Status:** done"])
  func aCardThatIsNotOneIsNil(_ text: String) {
    #expect(FeatureTools.detail(Self.result(text), project: "p") == nil)
  }

  @Test func valuesAreCapped() throws {
    let long = String(repeating: "é", count: 5000)
    let page = FeatureTools.page(
      Self.result(
        "| ID | Title | Status | Priority | Kind | Assignee |\n|--|--|--|--|--|--|\n| F | \(long) | todo | P1 | feature | — |\n"
      ),
      project: "p")
    #expect(try #require(page.records.first).title.utf8.count <= 4096)
    let longId = String(repeating: "x", count: 300)
    #expect(FeatureTools.page(Self.result("", ui: ["data": [["id": .string(longId)]]]), project: "p").records.isEmpty)
  }
}
