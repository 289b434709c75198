internal import Foundation
import Testing

/// A second process, one of the Python writers under `Tests/WorkspaceWriter/`, spoken to one
/// JSON command a line: it answers with lines, the last `OK …` (or `ERR …`, thrown).
/// `SQLWriter` and `MarkdownWriter` are its typed faces.
final class WriterProcess {
  struct Failed: Error, CustomStringConvertible {
    var description: String
  }

  /// The script's name, for messages (`sqlwriter`).
  let name: String
  private let process = Process()
  private let input = Pipe()
  private let output = Pipe()
  private var pending: [UInt8] = []

  /// Starts `Tests/WorkspaceWriter/<script>.py ARGUMENT` and waits for its `READY`.
  init(script: String, argument: String) throws {
    name = script
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    // `-B`: its shared `lineprotocol.py` leaves no `__pycache__` in the source tree.
    process.arguments = [
      Python.interpreter, "-B", Paths.repoRoot.appendingPathComponent("Tests/WorkspaceWriter/\(script).py").path,
      argument,
    ]
    process.standardInput = input
    process.standardOutput = output
    process.standardError = FileHandle.standardError
    try process.run()
    guard try line(timeout: 20) == "READY" else { throw Failed(description: "\(script) did not start") }
  }

  deinit { stop() }

  /// Ends the writer: its standard input closes, and it is waited for, at most 10 s (then killed,
  /// and the test fails: `Deadline`).
  func stop() {
    guard process.isRunning else { return }
    try? input.fileHandleForWriting.close()
    Deadline.wait(for: process, timeout: 10, command: "\(name).py")
  }

  /// Sends one command; returns the lines before its `OK`, throws on `ERR`.
  func send(_ command: [String: Any]) throws -> [String] {
    let data = try JSONSerialization.data(withJSONObject: command)
    input.fileHandleForWriting.write(data + Data("\n".utf8))
    var lines: [String] = []
    while true {
      let l = try line(timeout: 20)
      if l.hasPrefix("ERR ") { throw Failed(description: "\(name): \(l) for \(command)") }
      if l.hasPrefix("OK ") { return lines }
      lines.append(l)
    }
  }

  private func line(timeout: Double) throws -> String {
    let fd = output.fileHandleForReading.fileDescriptor
    let end = Date().addingTimeInterval(timeout)
    while true {
      if let i = pending.firstIndex(of: 10) {
        let l = String(decoding: pending[..<i], as: UTF8.self)
        pending.removeFirst(i + 1)
        return l
      }
      guard Date() < end else { throw Failed(description: "\(name): no answer within \(timeout) s") }
      var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      guard poll(&p, 1, 100) > 0 else { continue }
      var buffer = [UInt8](repeating: 0, count: 4096)
      let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      guard n > 0 else { throw Failed(description: "\(name) ended") }
      pending += buffer[0..<n]
    }
  }
}
