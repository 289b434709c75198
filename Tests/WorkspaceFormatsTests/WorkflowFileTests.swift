import Testing
import WallboardCore
import WorkspaceFormats

/// Issue 10, item 7: a custom workflow from the workspace (`.projects/.workflow/*.yaml`).
@Suite("Workspace workflow files")
struct WorkflowFileTests {
  static let upstreamShape = """
    # Our team's flow
    name: team-flow
    description: "Design, build, ship"
    initial_state: todo
    states:
      todo:
        label: To Do
      design: {label: 'Design', active_work: true}
      "in-progress":
        label: In Progress   # building
        active_work: true
      shipped:
        label: Shipped
        terminal: true
      dropped:
        label: "Won't do"
        terminal: true
    transitions:
      - from: todo
        to: design
        gate: ""
      - {from: design, to: in-progress}
    gates:
      code_complete:
        label: Code Complete
        file_patterns: ["_test.go", ".spec.ts"]
    """

  @Test func readsStatesInTheFilesOrder() throws {
    let w = try WorkflowFile.parse(Array(Self.upstreamShape.utf8), file: "w.yaml")
    #expect(w.states.map(\.id) == ["todo", "design", "in-progress", "shipped", "dropped"])
    #expect(w.states.map(\.label) == ["To Do", "Design", "In Progress", "Shipped", "Won't do"])
    #expect(w.states.map(\.activeWork) == [false, true, true, false, false])
    #expect(w.states.map(\.terminal) == [false, false, false, true, true])
    #expect(w.isDone("shipped") && !w.isDone("dropped") && w.isCompleted("dropped"))
    #expect(w.initialState == "todo")
  }

  @Test func crlfAndAnInitialStateFromTheStates() throws {
    let text = Self.upstreamShape.replacingOccurrences(of: "\n", with: "\r\n")
      .replacingOccurrences(of: "initial_state: todo", with: "initial_state: design")
    let w = try WorkflowFile.parse(Array(text.utf8), file: "w.yaml")
    #expect(w.initialState == "design")
    #expect(w.states.count == 5)
  }

  @Test(arguments: [
    ("states:\n  a:\n\tlabel: A\n", 3, "tab"),
    ("states:\n  a: {label: A}\n  a: {label: B}\n", 3, "twice"),
    ("initial_state: zzz\nstates:\n  a: {label: A}\n", 1, "initial_state"),
    ("states:\n  a:\n    terminal: maybe\n", 3, "true or false"),
    ("states:\n  a: &x {label: A}\n", 2, "not supported"),
    ("states:\n  a:\n    label: |\n      A\n", 3, "not supported"),
    ("name: x\n", 1, "no states"),
    ("states: [a, b]\n", 1, "mapping of state ids"),
    ("states:\n  a: {label: \"A}\n", 2, "does not end"),
    ("states:\n  a: {label: A}\n    b: {}\n", 3, "indentation"),
    ("- a\n- b\n", 1, "expected a mapping"),
  ])
  func errorsNameTheLine(text: String, line: Int, words: String) {
    do {
      _ = try WorkflowFile.parse(Array(text.utf8), file: "w.yaml")
      Issue.record("expected an error for \(text)")
    } catch {
      #expect(error.line == line, "\(error)")
      #expect(error.description.hasPrefix("w.yaml:\(line): "), "\(error)")
      #expect(error.problem.contains(words), "\(error)")
    }
  }

  @Test func largeOrNotTextIsRefused() {
    let big = #expect(throws: WorkflowFile.Problem.self) {
      try WorkflowFile.parse([UInt8](repeating: 0x61, count: WorkflowFile.maxBytes + 1), file: "w.yaml")
    }
    #expect(big?.problem == "larger than \(WorkflowFile.maxBytes) bytes")
    let binary = #expect(throws: WorkflowFile.Problem.self) {
      try WorkflowFile.parse([0xFF, 0xFE, 0x00], file: "w.yaml")
    }
    #expect(binary?.problem == "not UTF-8 text")
    let deep = "states:\n" + (1...40).map { String(repeating: "  ", count: $0) + "k\($0):" }.joined(separator: "\n")
    let nested = #expect(throws: WorkflowFile.Problem.self) { try WorkflowFile.parse(Array(deep.utf8), file: "w.yaml") }
    #expect(nested?.problem.contains("nested deeper than") == true, "\(String(describing: nested))")
  }

  @Test func theFirstYAMLFileByNameIsTheWorkflow() {
    let listing: (String) -> [String]? = { dir in
      dir == "/ws/.projects/.workflow" ? ["z.yaml", "README.md", "b.yml", "a.yaml.bak"] : nil
    }
    #expect(WorkflowFile.path(inTree: "/ws/.projects", list: listing) == "/ws/.projects/.workflow/b.yml")
    #expect(WorkflowFile.path(inTree: "/other/.projects", list: listing) == nil)
  }
}
