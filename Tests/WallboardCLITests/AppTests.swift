import Foundation
import TestSupport
import Testing
import WallboardCLI
import WallboardCore
import Wire

/// Runs the app with captured output.
final class Captured: @unchecked Sendable {
  private let lock = NSLock()
  private var outLines: [String] = []
  private var errLines: [String] = []
  var out: String { lock.withLock { outLines.joined(separator: "\n") } }
  var err: String { lock.withLock { errLines.joined(separator: "\n") } }

  var console: Console {
    Console(
      out: { s in self.lock.withLock { self.outLines.append(s) } },
      error: { s in self.lock.withLock { self.errLines.append(s) } })
  }

  static func run(_ args: [String]) -> (code: Int32, out: String, err: String) {
    let c = Captured()
    let app = App(
      console: c.console, environment: ["WALLBOARD_HOME": Paths.repoRoot.path],
      now: { Make.t("2026-11-20T00:00:00Z") })
    let code = app.main(args)
    return (code, c.out, c.err)
  }
}

@Suite("The wallboard command")
struct AppTests {
  var example: String { Paths.fixtures.appendingPathComponent("reference/examples/worked-example.jsonl").path }

  @Test func workedExampleConformance() throws {
    let r = Captured.run(["inspect", "--source", "jsonl:\(example)", "--at", "2026-11-06T12:00:00Z", "--tz", "UTC"])
    #expect(r.code == 0, "\(r.err)")
    let actual = try JSONParser.parse(r.out)
    let expected = try JSONParser.parse(try Paths.example("worked-example.expected.json"))
    var problems: [String] = []
    JSONSubset.check(expected: expected, actual: actual, path: "$", problems: &problems)
    #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
  }

  @Test func inspectOfTheSimulationIsDeterministicAndInteresting() throws {
    let args = ["inspect", "--source", "sim:seed=1", "--at", "2026-11-11T15:00:00Z", "--tz", "UTC"]
    let a = Captured.run(args)
    let b = Captured.run(args)
    #expect(a.code == 0, "\(a.err)")
    #expect(a.out == b.out)
    let json = try JSONParser.parse(a.out)
    guard case .object(let root) = json, case .object(let burndown)? = root["burndown"],
      case .array(let changes)? = burndown["scope_changes"], case .array(let remaining)? = burndown["remaining"]
    else {
      Issue.record("no burndown in \(a.out.prefix(400))")
      return
    }
    #expect(changes.count >= 1)
    let last = remaining.compactMap { v -> Double? in if case .number(let n) = v { n } else { nil } }.last
    #expect((last ?? 0) > 0)
  }

  @Test func themesListsTheTsvInOrder() throws {
    let r = Captured.run(["themes"])
    #expect(r.code == 0, "\(r.err)")
    let tsv = try String(contentsOf: Paths.fixtures.appendingPathComponent("reference/themes.tsv"), encoding: .utf8)
    let expected = tsv.split(separator: "\n").dropFirst().map { line -> String in
      let f = line.split(separator: "\t", omittingEmptySubsequences: false)
      return "\(f[0])\t\(f[1])\t\(f[3] == "true" ? "light" : "dark")"
    }
    #expect(r.out.split(separator: "\n").map(String.init) == expected)
  }

  @Test func layoutsListsTheBundledOnes() {
    let r = Captured.run(["layouts"])
    #expect(r.code == 0, "\(r.err)")
    #expect(
      r.out.split(separator: "\n").map { String($0.split(separator: "\t")[0]) } == ["glance", "portrait", "tv", "wall"])
  }

  /// The executable answers a first `--version` itself (Sources/wallboard/main.swift): the parser
  /// must say the same, whatever follows it.
  @Test func versionFirstIsAnsweredWhateverFollows() throws {
    #expect(App.versionLine == "wallboard \(App.version)")
    for args in [["--version"], ["--version", "run", "--bogus"], ["--version", "--help"]] {
      let r = Captured.run(args)
      #expect(r.code == 0)
      #expect(r.out == App.versionLine, "\(args)")
      let process = try Command.run(Paths.binary, args)
      #expect(process.status == 0)
      #expect(process.out == App.versionLine + "\n" && process.err.isEmpty, "the binary: \(args)")
    }
    // Not first: the parser reads what comes before it.
    #expect(try Command.run(Paths.binary, ["--bogus", "--version"]).status == 2)
  }

  @Test func exitCodes() throws {
    #expect(Captured.run(["--version"]).out.hasPrefix("wallboard "))
    #expect(Captured.run(["--help"]).out.contains("--source SPEC"))
    let usage = Captured.run(["--bogus"])
    #expect(usage.code == 2)
    #expect(usage.out.isEmpty, "stdout carries only requested output")
    let missing = Captured.run(["inspect", "--source", "jsonl:/nonexistent/events.jsonl"])
    #expect(missing.code == 3)
    #expect(missing.err.contains("/nonexistent/events.jsonl"))
  }

  @Test func anOversizeConfigIsRefusedBeforeItIsRead() throws {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("big-\(UUID().uuidString).conf")
    try String(repeating: "# padding padding padding\n", count: 4000).write(to: file, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: file) }
    let r = Captured.run(["inspect", "--config", file.path])
    #expect(r.code == 3)
    #expect(r.err.contains("\(file.path): the config file is"), "\(r.err)")
  }

  @Test func malformedLinesAreRejectedAndTheRestKept() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("wallboard-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let file = dir.appendingPathComponent("events.jsonl")
    try """
    {"topic":"feature.created","time":"2026-11-02T09:00:00Z","payload":{"id":"A","title":"A","status":"todo"}}
    {"topic":"feature.created","time":"2026-11-02T09:00:00Z","payload":{"title":"no id"}}
    not json at all
    {"topic":"note.created","time":"2026-11-02T09:00:00Z","payload":{}}
    {"topic":"feature.updated","time":"2026-11-02T10:00:00Z","payload":{"id":"A","status":"done"}}
    """.write(to: file, atomically: true, encoding: .utf8)
    let r = Captured.run(["inspect", "--source", "jsonl:\(file.path)", "--tz", "UTC"])
    #expect(r.code == 0, "\(r.err)")
    let json = try JSONParser.parse(r.out)
    guard case .object(let root) = json, case .object(let events)? = root["events"],
      case .array(let sources)? = root["sources"], case .object(let source)? = sources.first
    else {
      Issue.record("unexpected output")
      return
    }
    #expect(events["applied"] == .number(2))
    #expect(events["rejected"] == .number(2))
    #expect(events["ignored"] == .number(1))
    #expect(source["status"] == .string("ended"))
    guard case .string(let lastError)? = source["last_error"] else {
      Issue.record("no last_error")
      return
    }
    #expect(lastError.contains("events.jsonl:3"))
    #expect(root["at"] == .string("2026-11-02T10:00:00Z"), "at defaults to the last event read")
  }
}

/// "These must hold; more keys are fine; numbers compare within 1e-9."
enum JSONSubset {
  static func check(expected: JSONValue, actual: JSONValue, path: String, problems: inout [String]) {
    switch (expected, actual) {
    case (.object(let e), .object(let a)):
      for key in e.keys {
        guard let av = a[key] else {
          problems.append("\(path).\(key): missing")
          continue
        }
        check(expected: e[key]!, actual: av, path: "\(path).\(key)", problems: &problems)
      }
    case (.array(let e), .array(let a)):
      guard e.count == a.count else {
        problems.append("\(path): \(a.count) elements, expected \(e.count)")
        return
      }
      for (i, (ev, av)) in zip(e, a).enumerated() {
        check(expected: ev, actual: av, path: "\(path)[\(i)]", problems: &problems)
      }
    case (.number(let e), .number(let a)):
      if abs(e - a) > 1e-9 { problems.append("\(path): \(a), expected \(e)") }
    default:
      if expected != actual { problems.append("\(path): \(actual), expected \(expected)") }
    }
  }
}
