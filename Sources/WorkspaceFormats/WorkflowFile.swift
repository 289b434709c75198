public import WallboardCore

/// A workspace's own workflow: the first `*.yaml` (or `*.yml`) in `<ws>/.projects/.workflow/`, by
/// name, as upstream's loader picks it (`orchestra-storage.md` §1g; sdk-go `workflow.LoadFromDir`):
///
/// ```yaml
/// name: team-flow
/// initial_state: todo
/// states:
///   todo: {label: To Do}          # or a block mapping: label, terminal, active_work
///   doing:
///     label: Doing
///     active_work: true
///   done:
///     label: Done
///     terminal: true
/// transitions:
///   - {from: todo, to: doing}
/// ```
///
/// The states keep the order of the file (upstream keeps them in a Go map, which has none; the
/// file's order is the one its author wrote). Transitions and gates are not needed to draw the
/// board and are not read. Written by hand, so it is read as the YAML people write — block and
/// flow mappings, lists, quotes, comments — capped, with errors that name the file and line.
public enum WorkflowFile {
  /// A workflow file larger than this is refused.
  public static let maxBytes = 256 * 1024
  /// The most states a workflow may have.
  public static let maxStates = 256

  /// What was wrong, where.
  public struct Problem: Error, Hashable, Sendable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var problem: String
    public var description: String { line > 0 ? "\(file):\(line): \(problem)" : "\(file): \(problem)" }

    public init(file: String, line: Int, problem: String) {
      self.file = file
      self.line = line
      self.problem = problem
    }
  }

  /// The workflow file of the workspace whose `.projects/` folder is `tree`, if it has one.
  public static func path(inTree tree: String, list: (String) -> [String]?) -> String? {
    let dir = tree + "/.workflow"
    guard let names = list(dir) else { return nil }
    return names.sorted().first { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") }.map { dir + "/" + $0 }
  }

  /// Parses a workflow file's bytes.
  public static func parse(_ bytes: [UInt8], file: String) throws(Problem) -> Workflow {
    guard bytes.count <= maxBytes else {
      throw Problem(file: file, line: 0, problem: "larger than \(maxBytes) bytes")
    }
    guard let text = String(validating: bytes, as: UTF8.self) else {
      throw Problem(file: file, line: 0, problem: "not UTF-8 text")
    }
    let root: YAMLNode
    do throws(YAMLNode.Problem) { root = try YAMLNode.parse(text) } catch {
      throw Problem(file: file, line: error.line, problem: error.problem)
    }
    guard case .map(let top, _) = root else {
      throw Problem(file: file, line: root.line, problem: "expected a mapping with states and initial_state")
    }
    guard let statesEntry = top.first(where: { $0.key == "states" }) else {
      throw Problem(file: file, line: 1, problem: "no states")
    }
    guard case .map(let entries, _) = statesEntry.value, !entries.isEmpty else {
      throw Problem(file: file, line: statesEntry.value.line, problem: "states must be a mapping of state ids")
    }
    guard entries.count <= maxStates else {
      throw Problem(file: file, line: statesEntry.value.line, problem: "more than \(maxStates) states")
    }
    var states: [WorkflowState] = []
    var seen: Set<String> = []
    for entry in entries {
      let id = Status.normalise(entry.key)
      guard !id.isEmpty, id.utf8.count <= 64 else {
        throw Problem(file: file, line: entry.value.line, problem: "state id \"\(entry.key)\" is empty or too long")
      }
      guard seen.insert(id).inserted else {
        throw Problem(file: file, line: entry.value.line, problem: "state \(id) is listed twice")
      }
      var label: String?
      var terminal = false
      var activeWork = false
      switch entry.value {
      case .scalar(let s, _, _) where s.isEmpty: break
      case .map(let fields, _):
        for f in fields {
          switch f.key {
          case "label":
            guard case .scalar(let s, _, _) = f.value, s.utf8.count <= 128 else {
              throw Problem(file: file, line: f.value.line, problem: "state \(id): label must be text (≤ 128 bytes)")
            }
            label = s
          case "terminal": terminal = try bool(f.value, "state \(id): terminal", file)
          case "active_work": activeWork = try bool(f.value, "state \(id): active_work", file)
          default: break  // Keys of newer versions are not needed to draw the board.
          }
        }
      default:
        throw Problem(
          file: file, line: entry.value.line, problem: "state \(id) must be a mapping (label, terminal, active_work)")
      }
      states.append(WorkflowState(id: id, label: label, terminal: terminal, activeWork: activeWork))
    }
    var initial = states[0].id
    if let e = top.first(where: { $0.key == "initial_state" }) {
      guard case .scalar(let s, _, _) = e.value, seen.contains(Status.normalise(s)) else {
        throw Problem(file: file, line: e.value.line, problem: "initial_state must be one of the states")
      }
      initial = Status.normalise(s)
    }
    return Workflow(states: states, initialState: initial)
  }

  static func bool(_ node: YAMLNode, _ what: String, _ file: String) throws(Problem) -> Bool {
    if case .scalar(let s, let quoted, _) = node, !quoted {
      switch s {
      case "true", "True", "TRUE": return true
      case "false", "False", "FALSE": return false
      default: break
      }
    }
    throw Problem(file: file, line: node.line, problem: "\(what) must be true or false")
  }
}
