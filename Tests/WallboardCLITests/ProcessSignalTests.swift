import Foundation
import TestSupport
import Testing

/// The real executable as a service manager sees it: output through a pipe, stopped by signals.
@Suite("The process under a service manager", .serialized)
struct ProcessSignalTests {
  static var binary: String { Paths.binary.path }

  /// Starts the board with `--display text` under `/bin/sh -c PREFIX exec …`, its output to a pipe.
  static func start(_ shellPrefix: String) throws -> (Process, Pipe) {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/bin/sh")
    // A quiet source: the board redraws once a second, a frame of well under a buffer's size.
    let events = Paths.fixtures.appendingPathComponent("reference/examples/worked-example.jsonl").path
    p.arguments = [
      "-c", "\(shellPrefix) exec \"$0\" run --display text --source \"jsonl:$1\" --tz UTC", binary, events,
    ]
    p.environment = ["WALLBOARD_HOME": Paths.repoRoot.path, "PATH": "/usr/bin:/bin"]
    let out = Pipe()
    p.standardOutput = out
    p.standardError = FileHandle.nullDevice
    try p.run()
    return (p, out)
  }

  /// Starts the board on `display` with a quiet `jsonl:` source, its output and errors to pipes.
  static func start(
    display: [String], environment: [String: String] = [:]
  ) throws -> (
    process: Process, out: Pipe, err: Pipe
  ) {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: binary)
    let events = Paths.fixtures.appendingPathComponent("reference/examples/worked-example.jsonl").path
    p.arguments = ["run", "--display"] + display + ["--source", "jsonl:\(events)", "--tz", "UTC"]
    p.environment = ["WALLBOARD_HOME": Paths.repoRoot.path, "PATH": "/usr/bin:/bin"].merging(environment) { $1 }
    let (out, err) = (Pipe(), Pipe())
    p.standardOutput = out
    p.standardError = err
    try p.run()
    return (p, out, err)
  }

  /// Waits up to `seconds` for `p` to end; false (the board killed, the test failed: `Deadline`)
  /// if it was still running.
  static func waitForExit(_ p: Process, seconds: Double, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
    Deadline.wait(for: p, timeout: seconds, sourceLocation: sourceLocation)
  }

  @Test func theTextBoardReachesAPipeAtOnce() throws {
    let (p, out) = try Self.start("")
    defer { if p.isRunning { p.terminate() } }
    // Block buffering held the first frame back for seconds; it must come at once.
    let text = out.read(seconds: 3) { $0.contains("Progress:") }
    #expect(text.contains("Progress:"), "nothing reached the pipe within 3 s")
    p.terminate()
    Deadline.wait(for: p, timeout: 30)
  }

  @Test func autoWithADisplayThatCannotBeReachedFallsBackToTheConsole() throws {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: Self.binary)
    p.arguments = ["run", "--display", "auto", "--source", "sim", "--tz", "UTC"]
    // A display server is named, but there is none: `auto` must not run invisibly.
    p.environment = [
      "WALLBOARD_HOME": Paths.repoRoot.path, "PATH": "/usr/bin:/bin", "DISPLAY": ":555",
    ]
    let out = Pipe()
    let err = Pipe()
    p.standardOutput = out
    p.standardError = err
    try p.run()
    defer { if p.isRunning { p.terminate() } }
    let text = out.read(seconds: 20) { $0.contains("Progress:") }
    #expect(text.contains("Progress:"), "the text board is drawn instead")
    p.terminate()
    Deadline.wait(for: p, timeout: 30)
    let message = String(
      decoding: Deadline.output(of: err.fileHandleForReading, process: p, timeout: 10), as: UTF8.self)
    #expect(message.contains("using --display text"), "\(message)")
  }

  @Test func sigintStopsTheBoardEvenWhenTheParentIgnoredIt() throws {
    // `trap '' INT` makes the shell ignore SIGINT, and an ignored signal stays ignored across exec.
    let (p, out) = try Self.start("trap '' INT;")
    defer { if p.isRunning { p.terminate() } }
    #expect(out.read(seconds: 10) { $0.contains("Progress:") }.contains("Progress:"))
    kill(p.processIdentifier, SIGINT)
    Deadline.wait(for: p, timeout: 5, command: "the board after SIGINT (SIGINT did not stop it)")
  }

  @Test(
    "SIGTERM and SIGINT stop the text board with a normal exit: 0 and 130, and a stop line",
    arguments: [(SIGTERM, Int32(0), "SIGTERM"), (SIGINT, Int32(130), "SIGINT")])
  func aStopSignalEndsTheRunNormally(_ signo: Int32, _ status: Int32, _ name: String) throws {
    let (p, out, err) = try Self.start(display: ["text"])
    defer { if p.isRunning { kill(p.processIdentifier, SIGKILL) } }
    #expect(out.read(seconds: 10) { $0.contains("Progress:") }.contains("Progress:"))
    kill(p.processIdentifier, signo)
    try #require(Self.waitForExit(p, seconds: 10), "\(name) did not stop the board")
    #expect(p.terminationReason == .exit, "the board returned from its loop, not killed by \(name)")
    #expect(p.terminationStatus == status)
    let message = String(
      decoding: Deadline.output(of: err.fileHandleForReading, process: p, timeout: 10), as: UTF8.self)
    #expect(message == "wallboard: stopped by \(name)\n")
  }

  /// One exit status for SIGTERM whatever the display: a file, the framebuffer (a file standing in
  /// for it), a window (SDL's dummy driver), the terminal view, the text board. (DRM and a real
  /// framebuffer: `make vm-test`.)
  @Test(
    "SIGTERM ends every display's board with status 0",
    arguments: [
      ["png:OUT"], ["fb:OUT", "--fb-geometry", "64x48x32"], ["sdl", "--size", "320x200"], ["term", "--size", "20x16"],
      ["text"],
    ])
  func sigtermEndsEveryDisplayTheSameWay(_ display: [String]) throws {
    let dir = try TempDir("wallboard-sigterm")
    let out = dir.url.appendingPathComponent("screen").path
    let args = display.map { $0.replacingOccurrences(of: "OUT", with: out) }
    let (p, _, err) = try Self.start(display: args + ["--no-journal"], environment: ["SDL_VIDEODRIVER": "dummy"])
    defer { if p.isRunning { kill(p.processIdentifier, SIGKILL) } }
    // Running its loop: the file is written, or (a window, a terminal) a second has passed.
    let end = Date().addingTimeInterval(10)
    if display[0].contains("OUT") {
      while !FileManager.default.fileExists(atPath: out) && Date() < end { Thread.sleep(forTimeInterval: 0.02) }
      Thread.sleep(forTimeInterval: 0.2)
    } else {
      Thread.sleep(forTimeInterval: 1.5)
    }
    kill(p.processIdentifier, SIGTERM)
    try #require(Self.waitForExit(p, seconds: 10), "SIGTERM did not stop the board on \(display[0])")
    #expect(p.terminationReason == .exit, "the board returned from its loop on \(display[0])")
    #expect(p.terminationStatus == 0, "\(display[0])")
    let message = String(
      decoding: Deadline.output(of: err.fileHandleForReading, process: p, timeout: 10), as: UTF8.self)
    #expect(message.hasSuffix("wallboard: stopped by SIGTERM\n"), "\(message)")
  }

  @Test func aStoppedTerminalViewIsHandedBackByClose() throws {
    // Not a tty, so the terminal view draws at --size: 20 columns, 16 rows.
    let (p, out, err) = try Self.start(display: ["term", "--size", "20x16"])
    defer { if p.isRunning { kill(p.processIdentifier, SIGKILL) } }
    // The first frame hides the cursor and turns autowrap off.
    let first = out.read(seconds: 10) { $0.contains("\u{1B}[?7l") }
    #expect(first.contains("\u{1B}[?25l\u{1B}[?7l"))
    kill(p.processIdentifier, SIGTERM)
    let rest = out.read(seconds: 10) { _ in false }
    try #require(Self.waitForExit(p, seconds: 10), "SIGTERM did not stop the board")
    #expect(p.terminationReason == .exit && p.terminationStatus == 0)
    // `close()`'s leave(), with the cursor moved below the board and the alternate screen left:
    // not the signal handler's.
    #expect(
      (first + rest).hasSuffix("\u{1B}[0m\u{1B}[?7h\u{1B}[?25h\u{1B}[16;1H\r\n\u{1B}[?1049l"),
      "\((first + rest).suffix(40).debugDescription)")
    let message = String(
      decoding: Deadline.output(of: err.fileHandleForReading, process: p, timeout: 10), as: UTF8.self)
    #expect(message == "wallboard: stopped by SIGTERM\n")
  }
}
