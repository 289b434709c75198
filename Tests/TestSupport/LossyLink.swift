import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A lossy, slow UDP link in front of a QUIC server (`Tests/OrchestraPeer/lossy_link.py`): a
/// client that dials `port` reaches `target` with `loss` of the datagrams dropped and the rest
/// `delay` seconds late, each way. Ends in `stop()` or `deinit`, or when the test process dies
/// (its stdin ends).
public final class LossyLink: @unchecked Sendable {
  public let port: Int
  private let process: Process
  private let input: FileHandle
  private let lines: LineBuffer

  /// What went through, once stopped: datagrams delivered and dropped, both ways together.
  public private(set) var delivered = 0
  public private(set) var dropped = 0

  public init(target: Int, loss: Double = 0.1, delay: Double = 0.05, seed: Int = 23) throws {
    signal(SIGPIPE, SIG_IGN)
    let script = Paths.repoRoot.appendingPathComponent("Tests/OrchestraPeer/lossy_link.py").path
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [
      Python.interpreter, "-B", script, "--target", String(target), "--loss", String(loss), "--delay", String(delay),
      "--seed", String(seed),
    ]
    let stdin = Pipe()
    let stdout = Pipe()
    process.standardInput = stdin
    process.standardOutput = stdout
    try process.run()
    self.process = process
    self.input = stdin.fileHandleForWriting
    let lines = LineBuffer(reading: stdout.fileHandleForReading)
    self.lines = lines
    guard let first = lines.next(until: Date(timeIntervalSinceNow: 10)), first.hasPrefix("PORT "),
      let port = Int(first.dropFirst(5))
    else {
      Command.stop(process)
      throw OrchestraPeer.Failure.didNotStart("lossy_link.py printed no PORT line")
    }
    self.port = port
  }

  deinit { stop() }

  /// From now on, drops this share of the datagrams (1: the link is dead both ways).
  public func setLoss(_ loss: Double) throws {
    try input.write(contentsOf: Data("loss \(loss)\n".utf8))
    guard let line = lines.next(until: Date(timeIntervalSinceNow: 5)), line == "OK loss" else {
      throw OrchestraPeer.Failure.timedOut(command: "loss \(loss)", lines: [])
    }
  }

  /// Ends the link and reads what it did (`delivered`, `dropped`). A second call does nothing.
  public func stop() {
    guard process.isRunning else { return }
    try? input.close()
    if let line = lines.next(until: Date(timeIntervalSinceNow: 3)), line.hasPrefix("COUNTS ") {
      let n = line.split(separator: " ").dropFirst().compactMap { Int($0) }
      if n.count == 4 {
        delivered = n[0] + n[1]
        dropped = n[2] + n[3]
      }
    }
    Command.stop(process)
  }
}
