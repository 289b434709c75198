import Foundation
import TestSupport
import Testing

/// The real board in a real terminal (tmux): `q` and `Esc` end it with status 0 (issue 20,
/// item 13). Skipped where tmux is not installed. The tmux side is a shell script
/// (`Tests/Fixtures/tmux/send-key.sh`) run with its output in files: a tmux server keeps its
/// client's descriptors, so a pipe read from here would never end.
@Suite(
  "Keys in a real terminal",
  .enabled(
    if: FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux"),
    "tmux is not installed (apt-get install tmux): the keys are still tested through TerminalSyscalls"))
struct TerminalKeysProcessTests {
  @Test(arguments: ["q", "Escape"])
  func aKeyEndsTheBoardWithStatus0(_ key: String) throws {
    let socket = "wallboard-test-\(getpid())-\(UUID().uuidString.prefix(8))"
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent(socket)
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let script = Paths.repoRoot.appendingPathComponent("Tests/Fixtures/tmux/send-key.sh").path
    let r = try Command.run(
      URL(fileURLWithPath: "/usr/bin/timeout"),
      ["60", "/bin/sh", script, socket, Paths.binary.path, Paths.repoRoot.path, key, dir.path],
      environment: ["PATH": "/usr/bin:/bin"])
    let err = (try? String(contentsOf: dir.appendingPathComponent("err"), encoding: .utf8)) ?? ""
    #expect(r.out.trimmingCharacters(in: .whitespacesAndNewlines) == "0", "\(key): \(r.out) \(r.err) \(err)")
  }
}
