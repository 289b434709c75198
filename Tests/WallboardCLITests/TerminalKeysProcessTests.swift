import Foundation
import TestSupport
import Testing

/// The real board in a real terminal (tmux): `q` and `Esc` end it with status 0, its text is
/// characters on the pane, and a signal gives the terminal back (issue 20, item 13). Skipped
/// where tmux is not installed. The tmux side is a shell script (`Tests/Fixtures/tmux/`) run
/// with its output in files: a tmux server keeps its client's descriptors, so a pipe read from
/// here would never end.
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

  /// A fresh folder for one tmux run, and its server's socket name.
  private func place() throws -> (socket: String, dir: URL) {
    let socket = "wallboard-test-\(getpid())-\(UUID().uuidString.prefix(8))"
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent(socket)
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    return (socket, dir)
  }

  private func read(_ dir: URL, _ name: String) -> String {
    (try? String(contentsOf: dir.appendingPathComponent(name), encoding: .utf8)) ?? ""
  }

  /// The pane holds the board's words and numbers as characters (`tmux capture-pane -p`): the
  /// sprint's name, the clock, "Done" and its count (issue 20, item 13).
  @Test func thePaneShowsTheBoardsTextAsCharacters() throws {
    let (socket, dir) = try place()
    defer { try? FileManager.default.removeItem(at: dir) }
    let script = Paths.repoRoot.appendingPathComponent("Tests/Fixtures/tmux/capture-board.sh").path
    let r = try Command.run(
      URL(fileURLWithPath: "/usr/bin/timeout"),
      ["60", "/bin/sh", script, socket, Paths.binary.path, Paths.repoRoot.path, dir.path, "2026-11-11T15:00:00Z"],
      environment: ["PATH": "/usr/bin:/bin"])
    let pane = read(dir, "pane")
    #expect(r.out.trimmingCharacters(in: .whitespacesAndNewlines) == "0", "\(r.out) \(r.err) \(read(dir, "err"))")
    let lines = pane.split(separator: "\n").map(String.init)
    #expect(lines.contains { $0.contains("Sprint 1") }, "the sprint's name:\n\(pane)")
    #expect(lines.prefix(6).contains { $0.range(of: #"[0-2][0-9]:[0-5][0-9]"#, options: .regularExpression) != nil })
    #expect(
      lines.contains { $0.range(of: #"Done▀+[0-9]+ · [0-9]+ pt"#, options: .regularExpression) != nil },
      "Done and its count:\n\(pane)")
    #expect(lines.contains { $0.contains("Recent changes") })
  }

  /// A stop signal and a crash both give the terminal back: the tty's settings as they were
  /// before the board (`stty -g`, taken by the shell that started it), and the shell's screen,
  /// not the board, on the pane. `SIGABRT` stands in for a crash (a trap is `SIGILL`/`SIGTRAP`,
  /// handled alike).
  @Test(arguments: ["TERM", "ABRT"])
  func aSignalGivesTheTerminalBack(_ signal: String) throws {
    let (socket, dir) = try place()
    defer { try? FileManager.default.removeItem(at: dir) }
    let script = Paths.repoRoot.appendingPathComponent("Tests/Fixtures/tmux/signal-restores.sh").path
    let r = try Command.run(
      URL(fileURLWithPath: "/usr/bin/timeout"),
      ["60", "/bin/sh", script, socket, Paths.binary.path, Paths.repoRoot.path, signal, dir.path],
      environment: ["PATH": "/usr/bin:/bin"])
    #expect(r.out.trimmingCharacters(in: .whitespacesAndNewlines) == "done", "\(r.out) \(r.err) \(read(dir, "err"))")
    let before = read(dir, "before")
    #expect(!before.isEmpty && before == read(dir, "after"), "the tty's settings: \(before) then \(read(dir, "after"))")
    let status = read(dir, "status").trimmingCharacters(in: .whitespacesAndNewlines)
    #expect(status == (signal == "TERM" ? "0" : "134"), "SIGTERM is an ordinary stop; SIGABRT kills")
    let pane = read(dir, "pane")
    #expect(pane.contains("shell-before-board") && !pane.contains("▀"), "the shell's screen is back:\n\(pane)")
  }
}
