import Foundation
import TestSupport
import Testing

/// The systemd unit `make install` wrote, measured with `systemd-analyze`: its exposure score
/// (`security --offline`, no running systemd needed), whether systemd parses every line of it
/// (`verify`), and both again with the `/home` drop-in of docs/kiosk.md.
///
/// `make test` installs with `PREFIX=/usr/local` and the default `UNITDIR`, so the unit is
/// `<DESTDIR>/etc/systemd/system/wallboard.service`, two folders above `WALLBOARD_INSTALLED`.
enum InstalledUnit {
  static var destdir: URL? {
    Installed.prefix.map { $0.deletingLastPathComponent().deletingLastPathComponent() }
  }
  static var file: URL? { destdir?.appendingPathComponent("etc/systemd/system/wallboard.service") }
  static let analyze = URL(fileURLWithPath: "/usr/bin/systemd-analyze")
  static var hasAnalyze: Bool { FileManager.default.isExecutableFile(atPath: analyze.path) }

  /// The exposure goal of issue 21 (`systemd-analyze security` scores 0–10, lower is safer).
  static let goal = 3.0
  /// What the unit with the `/home` drop-in must stay under (1.5 measured, as without it).
  static let goalWithHome = 2.0

  /// `systemd-analyze security --offline=true` on `arguments` (a unit file, or `--root` and a
  /// name); its "Overall exposure level" and everything it printed.
  static func security(_ arguments: [String]) throws -> (score: Double?, status: Int32, output: String) {
    let r = try Command.run(
      analyze, ["security", "--offline=true", "--no-pager", "--threshold=30"] + arguments,
      in: FileManager.default.temporaryDirectory)
    let output = r.out + r.err
    return (exposure(in: output), r.status, output)
  }

  /// The number of `→ Overall exposure level for wallboard.service: 1.5 OK 🙂` (in the C locale
  /// the face is `:-)`, so the number is the first word after the first ": " past the unit).
  static func exposure(in output: String) -> Double? {
    for line in output.split(separator: "\n") where line.contains("Overall exposure level") {
      guard let colon = line.range(of: ": ") else { continue }
      let word = line[colon.upperBound...].split(separator: " ").first
      return word.flatMap { Double($0) }
    }
    return nil
  }

  /// `systemd-analyze verify` on a copy of `text` whose `ExecStart=` names the installed binary
  /// (verify checks that the command exists, and the unit names its final place, `/usr/local/bin`):
  /// its status and what it said. systemd says what it ignores (an unknown key, a bad value) on
  /// stderr and still exits 0, so a clean unit is a silent one.
  static func verify(_ text: String, in dir: URL) throws -> Command.Result {
    let prefix = try #require(Installed.prefix)
    let binary = prefix.appendingPathComponent("bin/wallboard").path
    let unit = dir.appendingPathComponent("wallboard.service")
    try text.replacingOccurrences(of: "=/usr/local/bin/wallboard ", with: "=\(binary) ")
      .write(to: unit, atomically: true, encoding: .utf8)
    return try Command.run(analyze, ["verify", "--no-pager", unit.path], in: dir)
  }

  /// The drop-in docs/kiosk.md gives for a workspace under `/home`: the `ini` block that starts
  /// with its path.
  static func homeDropIn() throws -> String {
    let doc = try String(
      contentsOf: Paths.repoRoot.appendingPathComponent("docs/kiosk.md"), encoding: .utf8)
    let marker = "```ini\n# /etc/systemd/system/wallboard.service.d/home.conf\n"
    let start = try #require(doc.range(of: marker), "docs/kiosk.md has no \(marker)")
    let end = try #require(doc.range(of: "\n```", range: start.upperBound..<doc.endIndex))
    return String(doc[start.upperBound..<end.lowerBound]) + "\n"
  }
}

@Suite(
  "The installed systemd unit",
  .enabled(if: Installed.prefix != nil, "make test installs a release build and sets WALLBOARD_INSTALLED"),
  .enabled(if: InstalledUnit.hasAnalyze, "no /usr/bin/systemd-analyze (Debian package systemd, in TEST_PACKAGES)"))
struct UnitHardeningTests {
  @Test func exposureIsAtMostTheGoal() throws {
    let unit = try #require(InstalledUnit.file)
    try #require(FileManager.default.fileExists(atPath: unit.path), "no installed unit at \(unit.path)")
    let r = try InstalledUnit.security([unit.path])
    let score = try #require(r.score, "no overall exposure level in:\n\(r.output)")
    #expect(score <= InstalledUnit.goal, "exposure \(score) > \(InstalledUnit.goal):\n\(r.output)")
    // --threshold=30 is systemd's own check of the same: non-zero above 3.0.
    #expect(r.status == 0, "systemd-analyze security --threshold=30 exited \(r.status)")
  }

  @Test func systemdParsesEveryLine() throws {
    let unit = try #require(InstalledUnit.file)
    let text = try String(contentsOf: unit, encoding: .utf8)
    let dir = try TempDir("wallboard-unit")
    let r = try InstalledUnit.verify(text, in: dir.url)
    #expect(r.status == 0 && r.err.isEmpty && r.out.isEmpty, "verify exited \(r.status):\n\(r.err)\(r.out)")
  }

  /// The drop-in as systemd applies it: in `wallboard.service.d/` beside the unit, under a root
  /// of its own (`--root`), so `security` merges the two as a running systemd would.
  @Test func theHomeDropInKeepsTheScore() throws {
    let unit = try #require(InstalledUnit.file)
    let root = try TempDir("wallboard-unit-root")
    let system = root.url.appendingPathComponent("etc/systemd/system")
    try FileManager.default.createDirectory(
      at: system.appendingPathComponent("wallboard.service.d"), withIntermediateDirectories: true)
    try FileManager.default.copyItem(at: unit, to: system.appendingPathComponent("wallboard.service"))
    let dropIn = try InstalledUnit.homeDropIn()
    try dropIn.write(
      to: system.appendingPathComponent("wallboard.service.d/home.conf"), atomically: true, encoding: .utf8)
    let r = try InstalledUnit.security(["--root=\(root.url.path)", "wallboard.service"])
    let score = try #require(r.score, "no overall exposure level in:\n\(r.output)")
    #expect(score <= InstalledUnit.goalWithHome, "exposure \(score) with the drop-in:\n\(r.output)")
    // The drop-in was read: /home is no longer hidden whole, only emptied.
    #expect(r.output.contains("Service has access to fake empty home directories"), "\(r.output)")

    // verify reads no drop-ins from a unit's path: the drop-in's lines are appended, a later
    // [Service] section being what systemd makes of a drop-in.
    let text = try String(contentsOf: unit, encoding: .utf8) + "\n" + dropIn
    let v = try InstalledUnit.verify(text, in: root.url)
    #expect(v.status == 0 && v.err.isEmpty && v.out.isEmpty, "verify exited \(v.status):\n\(v.err)\(v.out)")
  }

  /// The parser above reads what systemd 252 prints; a line it cannot read is a failure, not 0.
  @Test func readsTheExposureLine() {
    #expect(InstalledUnit.exposure(in: "x\n→ Overall exposure level for wallboard.service: 1.5 OK 🙂\n") == 1.5)
    #expect(InstalledUnit.exposure(in: "→ Overall exposure level for a.service: 8.6 EXPOSED 🙁") == 8.6)
    #expect(InstalledUnit.exposure(in: "nothing") == nil)
  }
}
