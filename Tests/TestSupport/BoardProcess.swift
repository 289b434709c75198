public import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A `wallboard` process a test runs beside it (a publisher, a wall): started with its output
/// in files, standard input from a file or nothing, and ended by the test — stopped (SIGTERM,
/// then SIGKILL after a grace), killed (SIGKILL, as a power cut would), or waited for. `deinit`
/// stops it, so a failing test leaves none behind.
public final class BoardProcess: @unchecked Sendable {
  public let arguments: [String]
  private let process = Process()
  private let out: URL
  private let err: URL

  /// Starts `wallboard arguments`.
  public init(_ arguments: [String], stdin: URL? = nil, environment: [String: String]? = nil) throws {
    self.arguments = arguments
    let scratch = FileManager.default.temporaryDirectory
    out = scratch.appendingPathComponent("wallboard-process-out-\(UUID().uuidString)")
    err = scratch.appendingPathComponent("wallboard-process-err-\(UUID().uuidString)")
    _ = FileManager.default.createFile(atPath: out.path, contents: nil)
    _ = FileManager.default.createFile(atPath: err.path, contents: nil)
    process.executableURL = Paths.binary
    process.arguments = arguments
    if let environment { process.environment = environment }
    process.standardInput = try stdin.map { try FileHandle(forReadingFrom: $0) } ?? FileHandle.nullDevice
    process.standardOutput = try FileHandle(forWritingTo: out)
    process.standardError = try FileHandle(forWritingTo: err)
    try XServer.launch(process)
  }

  deinit {
    Command.stop(process)
    try? FileManager.default.removeItem(at: out)
    try? FileManager.default.removeItem(at: err)
  }

  public var isRunning: Bool { process.isRunning }
  public var pid: Int32 { process.processIdentifier }
  /// Its exit status; -1 while it runs.
  public var status: Int32 { process.isRunning ? -1 : process.terminationStatus }
  public var stdout: String { (try? String(contentsOf: out, encoding: .utf8)) ?? "" }
  public var stderr: String { (try? String(contentsOf: err, encoding: .utf8)) ?? "" }

  /// Waits up to `timeout` seconds for it to end by itself; whether it did.
  @discardableResult
  public func wait(timeout: Double) -> Bool { Command.wait(for: process, timeout: timeout) }

  /// SIGTERM, and SIGKILL after `grace` seconds; reaped.
  public func stop(grace: Double = 15) { Command.stop(process, grace: grace) }

  /// SIGKILL now, reaped: nothing of its own runs after.
  public func kill9() {
    guard process.isRunning else { return }
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
  }
}
