internal import Foundation

/// A second process writing an SQLite database as Orchestra's storage plugin does
/// (`Tests/WorkspaceWriter/sqlwriter.py`, on Python's own sqlite3): tests read what it wrote.
public final class SQLWriter {
  public struct Failed: Error, CustomStringConvertible {
    public var description: String
  }

  private let process = Process()
  private let input = Pipe()
  private let output = Pipe()
  private var pending: [UInt8] = []

  public init(path: String) throws {
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [
      Python.interpreter, Paths.repoRoot.appendingPathComponent("Tests/WorkspaceWriter/sqlwriter.py").path, path,
    ]
    process.standardInput = input
    process.standardOutput = output
    process.standardError = FileHandle.standardError
    try process.run()
    guard try line(timeout: 20) == "READY" else { throw Failed(description: "sqlwriter did not start") }
  }

  deinit { stop() }

  /// Ends the writer (its connection closes; the WAL is checkpointed as SQLite does on close).
  public func stop() {
    guard process.isRunning else { return }
    try? input.fileHandleForWriting.close()
    process.waitUntilExit()
  }

  /// Sends one command and returns the lines of its answer; throws on `ERR`.
  @discardableResult
  public func send(_ command: [String: Any]) throws -> [String] {
    let data = try JSONSerialization.data(withJSONObject: command)
    input.fileHandleForWriting.write(data + Data("\n".utf8))
    var lines: [String] = []
    while true {
      let l = try line(timeout: 20)
      if l.hasPrefix("ERR ") { throw Failed(description: "sqlwriter: \(l) for \(command)") }
      if l.hasPrefix("OK ") { return lines }
      lines.append(l)
    }
  }

  /// One statement in autocommit, as the plugin writes.
  public func sql(_ sql: String, _ args: [Any] = []) throws { try send(["sql": sql, "args": args]) }

  public func script(_ sql: String) throws { try send(["script": sql]) }

  private func line(timeout: Double) throws -> String {
    let fd = output.fileHandleForReading.fileDescriptor
    let end = Date().addingTimeInterval(timeout)
    while true {
      if let i = pending.firstIndex(of: 10) {
        let l = String(decoding: pending[..<i], as: UTF8.self)
        pending.removeFirst(i + 1)
        return l
      }
      guard Date() < end else { throw Failed(description: "sqlwriter: no answer within \(timeout) s") }
      var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      guard poll(&p, 1, 100) > 0 else { continue }
      var buffer = [UInt8](repeating: 0, count: 4096)
      let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      guard n > 0 else { throw Failed(description: "sqlwriter ended") }
      pending += buffer[0..<n]
    }
  }
}
