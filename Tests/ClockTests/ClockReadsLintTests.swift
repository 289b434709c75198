import Foundation
import Testing

/// `scripts/clock-reads.sh`, which `make lint` runs: a clock read outside the clock's files fails.
@Suite struct ClockReadsLintTests {
  static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("scripts/clock-reads.sh").path

  /// Runs the script on `root`; its exit status and output.
  static func run(_ root: String) throws -> (status: Int32, output: String) {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/bin/sh")
    p.arguments = [script, root]
    let out = Pipe()
    p.standardOutput = out
    p.standardError = out
    try p.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    return (p.terminationStatus, String(decoding: data, as: UTF8.self))
  }

  /// A temporary `Sources` tree with `files` (path → text).
  static func tree(_ files: [String: String]) throws -> String {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("clock-reads-\(UUID().uuidString)")
      .appendingPathComponent("Sources")
    for (path, text) in files {
      let url = root.appendingPathComponent(path)
      try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try text.write(to: url, atomically: true, encoding: .utf8)
    }
    return root.path
  }

  @Test(arguments: [
    "let t = Date()", "let d = Date(timeIntervalSinceNow: 5)", "let n = DispatchTime.now()",
    "clock_gettime(CLOCK_MONOTONIC, &ts)", "let u = ProcessInfo.processInfo.systemUptime",
    "let a = CFAbsoluteTimeGetCurrent()", "let s = time(nil)", "gettimeofday(&tv, nil)",
  ])
  func aPlantedReadOutsideTheClockFails(read: String) throws {
    let root = try Self.tree([
      "EventSources/Planted.swift": "func f() {\n  \(read)\n}\n", "Clock/Clock.swift": "let x = Date()\n",
    ])
    let (status, output) = try Self.run(root)
    #expect(status == 1)
    #expect(output.contains("EventSources/Planted.swift:2:"), "\(output)")
    #expect(!output.contains("Clock/Clock.swift"), "the clock's own files may read it")
  }

  @Test func theClockFilesTheBenchAndCommentsPass() throws {
    let root = try Self.tree([
      "Clock/Clock+System.swift": "let x = Date()\n", "wallboard-bench/main.swift": "let t = DispatchTime.now()\n",
      "Journal/Writer.swift": "/// Waits, as `Date()` would not.\n  // clock_gettime is not read here\nlet y = 1\n",
    ])
    let (status, output) = try Self.run(root)
    #expect(status == 0, "\(output)")
  }

  @Test func theRepositorysSourcesPass() throws {
    let sources = URL(fileURLWithPath: Self.script).deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Sources").path
    let (status, output) = try Self.run(sources)
    #expect(status == 0, "\(output)")
  }
}
