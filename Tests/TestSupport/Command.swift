public import Foundation
import Testing

/// Runs another program to its end for a test and gives back its exit status and output. The
/// output goes to files, not pipes, so a child that writes much to both streams cannot block.
public enum Command {
  public struct Result: Sendable {
    public var status: Int32
    public var out: String
    public var err: String
    /// Whether the child was still running at the deadline (and was killed).
    public var timedOut = false
  }

  /// Runs `executable arguments` (in `directory`, with exactly `environment` when given, stdin
  /// from /dev/null) and waits for it, at most `timeout` seconds: a child still running then is
  /// stopped (`stop(_:)`) and a test failure naming the command and the timeout is recorded.
  public static func run(
    _ executable: URL, _ arguments: [String], environment: [String: String]? = nil, in directory: URL? = nil,
    timeout: Double = 120
  ) throws -> Result {
    let scratch = FileManager.default.temporaryDirectory
    let out = scratch.appendingPathComponent("wallboard-command-out-\(UUID().uuidString)")
    let err = scratch.appendingPathComponent("wallboard-command-err-\(UUID().uuidString)")
    _ = FileManager.default.createFile(atPath: out.path, contents: nil)
    _ = FileManager.default.createFile(atPath: err.path, contents: nil)
    defer {
      try? FileManager.default.removeItem(at: out)
      try? FileManager.default.removeItem(at: err)
    }
    let p = Process()
    p.executableURL = executable
    p.arguments = arguments
    if let environment { p.environment = environment }
    if let directory { p.currentDirectoryURL = directory }
    p.standardInput = FileHandle.nullDevice
    p.standardOutput = try FileHandle(forWritingTo: out)
    p.standardError = try FileHandle(forWritingTo: err)
    // With no signal blocked (the runner's threads block most): the deadline's SIGTERM reaches it.
    try XServer.launch(p)
    let finished = wait(for: p, timeout: timeout)
    if !finished {
      stop(p)
      Issue.record("\(([executable.path] + arguments).joined(separator: " ")) did not exit within \(timeout) s: killed")
    }
    return Result(
      status: p.terminationStatus, out: try String(contentsOf: out, encoding: .utf8),
      err: try String(contentsOf: err, encoding: .utf8), timedOut: !finished)
  }

  /// Waits up to `timeout` seconds for `process` to end; whether it did.
  public static func wait(for process: Process, timeout: Double) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
    return !process.isRunning
  }

  /// Stops `process`: SIGTERM, SIGKILL to its process group when it is still running `grace`
  /// seconds later (`Deadline.kill`), then reaps it (the wait after SIGKILL is bounded too, by the
  /// kernel).
  public static func stop(_ process: Process, grace: Double = 2) {
    guard process.isRunning else { return }
    process.terminate()
    if !wait(for: process, timeout: grace) { Deadline.kill(process) }
    process.waitUntilExit()
  }
}
