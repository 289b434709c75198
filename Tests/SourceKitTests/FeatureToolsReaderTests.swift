import SourceKit
import Testing
import WallboardCore
import Wire
import WorkspaceFormats

/// A pass of the features tools against a server kept here, answering as upstream's plugin
/// does (the text flavour: a table, pages, cards).
@Suite struct FeatureToolsReaderTests {
  /// The server's truth: project → features (id, status, labels), and the calls it took.
  final class Server {
    var projects: [String: [(id: String, status: String, labels: [String])]] = [:]
    var pageSize = 2
    var calls: [String] = []
    var failing: Set<String> = []

    func answer(_ r: ToolRequest) -> ToolResponse {
      let args = r.arguments ?? [:]
      func arg(_ k: String) -> String { if case .string(let s)? = args[k] { s } else { "" } }
      calls.append(r.toolName + (arg("feature_id").isEmpty ? "" : " " + arg("feature_id")))
      switch r.toolName {
      case "list_projects":
        let lines = projects.keys.sorted().map { "- **\($0.uppercased())** (`\($0)`)" }
        return ToolResponse(success: true, result: ["text": .string("## Projects\n\n" + lines.joined(separator: "\n"))])
      case "list_features":
        let p = arg("project_id")
        if failing.contains(p) {
          return ToolResponse(success: false, errorCode: "storage_error", errorMessage: "parse project \(p)")
        }
        let all = projects[p] ?? []
        let offset = args["offset"].flatMap { if case .number(let n) = $0 { Int(n) } else { nil } } ?? 0
        let page = all.dropFirst(offset).prefix(pageSize)
        var text =
          "## Features (\(page.count))\n\n| ID | Title | Status | Priority | Kind | Assignee |\n|--|--|--|--|--|--|\n"
        for f in page { text += "| \(f.id) | Title \(f.id) | \(f.status) | P2 | feature | — |\n" }
        text += "\n*Showing \(offset + 1)-\(offset + page.count) of \(all.count) total*\n"
        return ToolResponse(success: true, result: ["text": .string(text)])
      case "get_feature":
        guard let f = projects[arg("project_id")]?.first(where: { $0.id == arg("feature_id") }) else {
          return ToolResponse(success: false, errorCode: "not_found", errorMessage: "no metadata")
        }
        let labels = f.labels.isEmpty ? "" : "- **Labels:** \(f.labels.joined(separator: ", "))\n"
        return ToolResponse(
          success: true, result: ["text": .string("### \(f.id) — Title \(f.id)\n- **Status:** \(f.status)\n\(labels)")])
      default:
        return ToolResponse(success: false, errorCode: "tool_not_found")
      }
    }

    /// One whole pass: what it ended with.
    func pass(_ reader: inout FeatureToolsReader) -> (BoardSnapshot?, [String]) {
      var step = FeatureToolsReader.Step.call(reader.begin())
      for _ in 0..<1000 {
        switch step {
        case .call(let r): step = reader.take(answer(r), at: Instant(millis: 1_800_000_000_000))
        case .finished(let s, let problems): return (s, problems)
        case .unavailable(let why): return (nil, [why])
        }
      }
      Issue.record("a pass that never ends")
      return (nil, [])
    }
  }

  @Test func aPassReadsEveryPageOfEveryProjectThenOnlyWhatChanged() throws {
    let server = Server()
    server.projects = [
      "api": [("F1", "todo", [])],
      "web": [("F1", "in-progress", ["sprint:s1"]), ("F2", "done", []), ("F3", "in-review", [])],
    ]
    var reader = FeatureToolsReader()
    let (first, problems) = server.pass(&reader)
    #expect(problems.isEmpty)
    let snap = try #require(first)
    #expect(
      snap.features.map { "\($0.projectId ?? "")/\($0.id)" } == ["api/F1", "web/F1", "web/F2", "web/F3"],
      "ids unique only within a project: both F1s")
    #expect(snap.features.first { $0.projectId == "web" && $0.id == "F1" }?.labels == ["sprint:s1"])
    #expect(server.calls.filter { $0 == "list_features" }.count == 3, "web has two pages")
    #expect(server.calls.filter { $0.hasPrefix("get_feature") }.count == 4)

    server.calls = []
    let (second, _) = server.pass(&reader)
    #expect(second == nil, "nothing changed")
    #expect(server.calls == ["list_projects", "list_features", "list_features", "list_features"])

    server.calls = []
    server.projects["web"]![1].status = "in-review"
    server.projects["api"] = nil
    let (third, _) = server.pass(&reader)
    #expect(server.calls.filter { $0.hasPrefix("get_feature") } == ["get_feature F2"], "only what changed")
    #expect(try #require(third).features.map(\.id) == ["F1", "F2", "F3"])
    #expect(third?.features.first { $0.id == "F2" }?.status == "in-review")
  }

  @Test func aProjectThatFailsCostsNoOther() throws {
    let server = Server()
    server.projects = ["a": [("A1", "todo", [])], "b": [("B1", "todo", [])]]
    server.failing = ["a"]
    var reader = FeatureToolsReader()
    let (snap, problems) = server.pass(&reader)
    #expect(try #require(snap).features.map(\.id) == ["B1"])
    #expect(problems.count == 1 && problems[0].contains("storage_error"))
  }

  /// A server that ignores `offset` and gives the first page again, with a total far away:
  /// read once, not a page at a time to the total.
  @Test func aServerThatIgnoresOffsetsIsNotPagedWithoutEnd() throws {
    let server = Server()
    server.projects = ["p": [("A", "todo", []), ("B", "todo", []), ("C", "todo", [])]]
    var reader = FeatureToolsReader()
    var step = FeatureToolsReader.Step.call(reader.begin())
    var lists = 0
    while case .call(let r) = step, lists < 100 {
      var answer = server.answer(r)
      if r.toolName == "list_features" {
        lists += 1
        let page =
          "| ID | Title | Status | Priority | Kind | Assignee |\n|--|--|--|--|--|--|\n| A | a | todo | P2 | feature | — |\n"
          + "| B | b | todo | P2 | feature | — |\n\n*Showing 1-2 of 1000000 total*\n"
        answer = ToolResponse(success: true, result: ["text": .string(page)])
      }
      step = reader.take(answer, at: Instant(millis: 0))
    }
    #expect(lists == 2, "the repeated page ends the project")
    guard case .finished(let snap, _) = step else {
      Issue.record("\(step)")
      return
    }
    #expect(try #require(snap).features.map(\.id) == ["A", "B"])
  }

  @Test func aServerWithoutTheToolsSaysSo() {
    var reader = FeatureToolsReader()
    _ = reader.begin()
    let step = reader.take(
      ToolResponse(success: false, errorCode: "tool_not_found", errorMessage: "no plugin provides tool"),
      at: Instant(millis: 0))
    guard case .unavailable(let why) = step else {
      Issue.record("\(step)")
      return
    }
    #expect(why.contains("tool_not_found"))
  }
}
