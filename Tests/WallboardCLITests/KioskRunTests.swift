import Foundation
import TestSupport
import Testing

/// The real executable on a file standing in for a framebuffer, and the systemd unit.
@Suite("Kiosk", .serialized)
struct KioskRunTests {
  static var binary: URL { Paths.binary }

  @Test func runDrawsIntoAFileStandingInForTheFramebuffer() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("wallboard-fb-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let fb = dir.appendingPathComponent("fb0")
    let events = Paths.fixtures.appendingPathComponent("reference/examples/worked-example.jsonl").path
    let p = Process()
    p.executableURL = Self.binary
    p.arguments = [
      "run", "--display", "fb:\(fb.path)", "--fb-geometry", "800x480x16", "--source", "jsonl:\(events)", "--tz", "UTC",
      "--theme", "github-light",
    ]
    p.environment = ["WALLBOARD_HOME": Paths.repoRoot.path, "PATH": "/usr/bin:/bin"]
    try p.run()
    defer { if p.isRunning { p.terminate() } }
    // RGB565 of github-light's bg #ffffff is 0xffff; wait until most of the file is drawn.
    var drawn = false
    for _ in 0..<300 {
      Thread.sleep(forTimeInterval: 0.1)
      if let d = try? Data(contentsOf: fb), d.count == 800 * 480 * 2 {
        var white = 0
        d.withUnsafeBytes { b in
          for i in stride(from: 0, to: b.count, by: 2) where b[i] == 0xFF && b[i + 1] == 0xFF { white += 1 }
        }
        if white > 800 * 480 / 2 {
          drawn = true
          break
        }
      }
    }
    #expect(drawn, "the board appears in the file standing in for /dev/fb0")
    #expect(p.isRunning)
    p.terminate()
    Deadline.wait(for: p, timeout: 30)
    // SIGTERM is systemd's stop: the loop returns, the framebuffer is closed, the exit is 0.
    #expect(p.terminationReason == .exit && p.terminationStatus == 0)
  }

  @Test func theSystemdUnitVerifies() throws {
    let analyze = ["/usr/bin/systemd-analyze", "/bin/systemd-analyze"].first {
      FileManager.default.isExecutableFile(atPath: $0)
    }
    guard let analyze else { return }  // "where that tool exists"
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("wallboard-unit-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let template = try String(
      contentsOf: Paths.repoRoot.appendingPathComponent("assets/systemd/wallboard.service.in"), encoding: .utf8)
    let unit = template.replacingOccurrences(of: "@BINDIR@", with: Self.binary.deletingLastPathComponent().path)
      .replacingOccurrences(of: "@SYSCONFDIR@", with: "/etc").replacingOccurrences(
        of: "@DOCDIR@", with: "/usr/share/doc/wallboard")
    let file = dir.appendingPathComponent("wallboard.service")
    try unit.write(to: file, atomically: true, encoding: .utf8)
    let p = Process()
    p.executableURL = URL(fileURLWithPath: analyze)
    p.arguments = ["verify", "--man=no", file.path]
    let err = Pipe()
    p.standardError = err
    p.standardOutput = err
    try p.run()
    let output = String(
      decoding: Deadline.output(of: err.fileHandleForReading, process: p, timeout: 120), as: UTF8.self)
    // Complaints about other units on this machine are not ours; ours must be clean.
    let ours = output.split(separator: "\n").filter { $0.contains("wallboard.service") }
    #expect(ours.isEmpty, "\(output)")
  }

  @Test func inspectReadsStandardInputUntilItCloses() throws {
    let p = Process()
    p.executableURL = Self.binary
    p.arguments = ["inspect", "--source", "jsonl:-", "--at", "2026-11-06T12:00:00Z", "--tz", "UTC", "--wait", "20"]
    p.environment = ["WALLBOARD_HOME": Paths.repoRoot.path, "PATH": "/usr/bin:/bin"]
    let input = Pipe()
    let output = Pipe()
    p.standardInput = input
    p.standardOutput = output
    try p.run()
    let events = try Data(contentsOf: Paths.fixtures.appendingPathComponent("reference/examples/worked-example.jsonl"))
    input.fileHandleForWriting.write(events)
    try input.fileHandleForWriting.close()
    let out = Deadline.output(of: output.fileHandleForReading, process: p, timeout: 120)
    #expect(p.terminationStatus == 0)
    let text = String(decoding: out, as: UTF8.self)
    #expect(text.contains("\"name\": \"jsonl:-\""))
    #expect(text.contains("\"status\": \"ended\""), "stdin closed: the source ended")
    #expect(text.contains("\"applied\": 9"))
  }
}
