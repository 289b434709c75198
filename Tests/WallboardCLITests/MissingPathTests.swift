import Foundation
import TestSupport
import Testing

/// Issue 20, item 11: paths and names that do not exist. `snapshot` and `inspect` say so in one
/// line on stderr and exit non-zero, writing nothing; an unknown option, command or name
/// suggests the nearest one. Each case is the built binary, run as a user runs it.
@Suite("missing paths and names, at process level", .serialized)
struct MissingPathTests {
  /// A home of its own (no `~/.orchestra` of the machine's), with an empty folder and a file.
  final class Place {
    let home: TempDir
    var empty: String { home.url.appendingPathComponent("empty-ws").path }
    var file: String { home.url.appendingPathComponent("a-file").path }
    var missing: String { home.url.appendingPathComponent("no-such-ws").path }
    var png: String { home.url.appendingPathComponent("board.png").path }
    init() throws {
      home = try TempDir("wallboard-missing")
      try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
      _ = FileManager.default.createFile(atPath: file, contents: Data("not a workspace\n".utf8))
    }
    var hashedDatabase: String { home.url.path + "/.orchestra/db/" }
  }

  /// The plugin's markdown fixture: one project, `orchestra-swift`.
  static var fixture: String { Paths.fixtures.appendingPathComponent("markdown/plugin").path }

  static func wallboard(_ args: [String], _ place: Place) throws -> Command.Result {
    try Command.run(
      Paths.binary, args,
      environment: ["WALLBOARD_HOME": Paths.repoRoot.path, "HOME": place.home.url.path, "PATH": "/usr/bin:/bin"],
      timeout: 60)
  }

  /// What every refusal shares: the code, one line on stderr that says `expected`, nothing on
  /// stdout, no PNG.
  static func refused(_ r: Command.Result, code: Int32, _ expected: String, _ place: Place) {
    #expect(r.status == code, "exit \(r.status): \(r.err)")
    #expect(r.err.contains(expected), "\(r.err)")
    #expect(r.out.isEmpty, "nothing on stdout: \(r.out.prefix(200))")
    #expect(!FileManager.default.fileExists(atPath: place.png), "no PNG written on error")
  }

  // MARK: Paths

  @Test(arguments: ["inspect", "snapshot"])
  func aMissingWorkspaceFolderIsNamedAndExits3(command: String) throws {
    let p = try Place()
    let r = try Self.wallboard(Self.command(command, p) + ["--source", "orchestra:\(p.missing)"], p)
    Self.refused(r, code: 3, "wallboard: orchestra:\(p.missing): \(p.missing): no such folder", p)
    #expect(r.err.split(separator: "\n").count == 1, "one line: \(r.err)")
  }

  @Test(arguments: ["inspect", "snapshot"])
  func aFolderWithoutProjectsIsNamedAndExits3(command: String) throws {
    let p = try Place()
    let r = try Self.wallboard(Self.command(command, p) + ["--source", "orchestra:\(p.empty)"], p)
    Self.refused(
      r, code: 3,
      "wallboard: orchestra:\(p.empty): \(p.empty): no .projects folder and no Orchestra database (\(p.hashedDatabase)",
      p)
    #expect(r.err.split(separator: "\n").count == 1, "one line: \(r.err)")
  }

  @Test func aFileWhereTheFolderShouldBeIsNamed() throws {
    let p = try Place()
    let r = try Self.wallboard(["inspect", "--source", "orchestra:\(p.file)"], p)
    Self.refused(r, code: 3, "orchestra:\(p.file): \(p.file): not a folder", p)
  }

  @Test func theMarkdownAndDatabaseSourcesSayTheirOwnMissingPath() throws {
    let p = try Place()
    var r = try Self.wallboard(["inspect", "--source", "orchestra-md:\(p.missing)"], p)
    Self.refused(r, code: 3, "orchestra-md:\(p.missing): \(p.missing): no such folder", p)
    r = try Self.wallboard(["inspect", "--source", "orchestra-md:\(p.empty)"], p)
    Self.refused(r, code: 3, "orchestra-md:\(p.empty): \(p.empty): no .projects folder", p)
    r = try Self.wallboard(["inspect", "--source", "orchestra-db:\(p.missing)"], p)
    Self.refused(r, code: 3, "orchestra-db:\(p.missing): \(p.missing): no such database", p)
    r = try Self.wallboard(["inspect", "--source", "orchestra-db:\(p.empty)"], p)
    Self.refused(r, code: 3, "orchestra-db:\(p.empty): \(p.empty): no Orchestra database (\(p.hashedDatabase)", p)
  }

  @Test func aNamedJournalIsLeftUntouchedWhenASourcePathIsMissing() throws {
    let p = try Place()
    let journal = p.home.url.appendingPathComponent("j.db").path
    let r = try Self.wallboard(["inspect", "--source", "orchestra:\(p.missing)", "--journal", journal], p)
    Self.refused(r, code: 3, "no such folder", p)
    #expect(!FileManager.default.fileExists(atPath: journal))
  }

  @Test func theFixtureWorkspaceItselfIsStillRead() throws {
    let p = try Place()
    let r = try Self.wallboard(
      ["inspect", "--source", "orchestra:\(Self.fixture)", "--settle", "0.3", "--project", "orchestra-swift"], p)
    #expect(r.status == 0, "\(r.err)")
    #expect(r.out.contains("\"orchestra-swift\""))
  }

  // MARK: --project

  @Test(arguments: ["inspect", "snapshot"])
  func aProjectThatMatchesNothingListsTheProjectsThereAre(command: String) throws {
    let p = try Place()
    let r = try Self.wallboard(
      Self.command(command, p) + ["--source", "orchestra:\(Self.fixture)", "--settle", "0.3", "--project", "nosuch"], p)
    Self.refused(
      r, code: 2, "wallboard: --project: \"nosuch\" matches no project (the sources hold orchestra-swift)", p)
    #expect(r.err.split(separator: "\n").count == 1, "one line: \(r.err)")
    #expect(!r.err.contains("did you mean"))
  }

  @Test func aProjectOneSlipAwaySuggestsIt() throws {
    let p = try Place()
    let r = try Self.wallboard(
      ["inspect", "--source", "orchestra-md:\(Self.fixture)", "--settle", "0.3", "--project", "orchestra-swfit"], p)
    Self.refused(r, code: 2, "(the sources hold orchestra-swift); did you mean orchestra-swift?", p)
  }

  @Test func theSimulatedTeamsProjectsAreNamedToo() throws {
    let p = try Place()
    let r = try Self.wallboard(["inspect", "--project", "nosuch"], p)
    Self.refused(r, code: 2, "--project: \"nosuch\" matches no project (the sources hold demo)", p)
  }

  @Test func manyProjectsAreShortened() throws {
    let p = try Place()
    let ws = p.home.url.appendingPathComponent("big-ws/.projects")
    for i in 0..<14 {
      try FileManager.default.createDirectory(
        at: ws.appendingPathComponent(String(format: "p%02d", i)), withIntermediateDirectories: true)
    }
    let r = try Self.wallboard(
      ["inspect", "--source", "orchestra:\(ws.deletingLastPathComponent().path)", "--settle", "0.3", "--project", "x"],
      p)
    Self.refused(r, code: 2, "(the sources hold p00, p01, p02, p03, p04, p05, p06, p07, p08, p09, … (14 in all))", p)
  }

  // MARK: Unknown names

  @Test(arguments: [
    (["inspect", "--projetc", "x"], "unknown option --projetc; did you mean --project?"),
    (["inspect", "--sourc", "sim"], "unknown option --sourc; did you mean --source?"),
    (["inspect", "--bogus"], "unknown option --bogus\n"),
    (
      ["snapshto"],
      "unknown command \"snapshto\" (accepted: run, snapshot, inspect, themes, layouts, publish, fleet); did you mean snapshot?"
    ),
    (["run", "--display", "sld"], "; did you mean sdl?"),
    (["inspect", "--unit", "pionts"], "--unit: \"pionts\" is not one of auto, points, count; did you mean points?"),
    (["snapshot", "--out", "OUT", "--layout", "portriat"], "or a path; did you mean portrait?"),
    (["snapshot", "--out", "OUT", "--theme", "drakula"], "solarized-light; did you mean dracula?"),
  ])
  func anUnknownNameSuggestsTheNearestAndExits2(args: [String], expected: String) throws {
    let p = try Place()
    let r = try Self.wallboard(args.map { $0 == "OUT" ? p.png : $0 }, p)
    Self.refused(r, code: 2, expected, p)
    #expect(r.err.hasSuffix("Try 'wallboard --help'.\n"), "a usage error keeps its hint: \(r.err)")
    #expect(r.err.components(separatedBy: "did you mean").count <= 2, "one suggestion at most")
  }

  @Test func aConfigFilesUnknownOptionSuggestsToo() throws {
    let p = try Place()
    let config = p.home.url.appendingPathComponent("k.conf")
    try "theem = dracula\n".write(to: config, atomically: true, encoding: .utf8)
    let r = try Self.wallboard(["inspect", "--config", config.path], p)
    Self.refused(r, code: 3, "\(config.path):1: unknown option theem; did you mean theme?", p)
  }

  // MARK: run

  /// `run` on a missing folder, and with a `--project` nothing holds: the board starts (its PNG
  /// is written), keeps running, and stops only when asked (SIGTERM: exit 0).
  @Test(arguments: [["--source", "orchestra:MISSING"], ["--source", "orchestra:FIXTURE", "--project", "nosuch"]])
  func runStartsTheBoardAndKeepsRunning(args: [String]) throws {
    let p = try Place()
    let proc = Process()
    proc.executableURL = Paths.binary
    proc.arguments =
      ["run", "--no-journal", "--display", "png:\(p.png)", "--size", "640x360"]
      + args.map {
        $0.replacingOccurrences(of: "MISSING", with: p.missing).replacingOccurrences(of: "FIXTURE", with: Self.fixture)
      }
    proc.environment = ["WALLBOARD_HOME": Paths.repoRoot.path, "HOME": p.home.url.path, "PATH": "/usr/bin:/bin"]
    proc.standardInput = FileHandle.nullDevice
    proc.standardOutput = FileHandle.nullDevice
    proc.standardError = FileHandle.nullDevice
    try XServer.launch(proc)
    defer { Command.stop(proc) }
    Thread.sleep(forTimeInterval: 3)
    #expect(proc.isRunning, "run exited (status \(proc.terminationStatus))")
    #expect(FileManager.default.fileExists(atPath: p.png), "the board was drawn")
    proc.terminate()
    #expect(Command.wait(for: proc, timeout: 10))
    #expect(proc.terminationStatus == 0)
  }

  static func command(_ name: String, _ p: Place) -> [String] {
    name == "snapshot" ? ["snapshot", "--out", p.png, "--settle", "0.3"] : ["inspect", "--settle", "0.3"]
  }
}
