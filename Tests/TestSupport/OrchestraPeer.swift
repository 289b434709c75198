import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The Orchestra test peer as a child process: `Tests/OrchestraPeer/peer.py` on TCP, or
/// `quic_peer.py` (aioquic, in the venv `make test` makes) on QUIC with the test certificates.
///
/// Starts the peer with `--port 0`, reads its `PORT n` line, and drives its control channel:
/// `send` writes one JSON command line and returns the reply lines, the last being `OK <cmd>`.
/// Data lines (`snapshot`, `connections`) come before the `OK` line. The process ends in `stop()`
/// or `deinit` (quit, then terminate, then wait); it also quits by itself when our end of its
/// stdin closes, so a crashed test leaves no peer behind.
///
/// Thread-safe: `send` calls are serialised.
public final class OrchestraPeer: @unchecked Sendable {
  /// Why the peer could not be started or a command failed.
  public enum Failure: Error, CustomStringConvertible {
    /// The peer exited or printed something else before its `PORT n` line.
    case didNotStart(String)
    /// No `OK`/`ERR` line arrived in time; `lines` is what did arrive.
    case timedOut(command: String, lines: [String])
    /// The peer answered `ERR …`.
    case rejected(command: String, reply: [String])
    /// The peer is no longer running.
    case exited(command: String)

    public var description: String {
      switch self {
      case .didNotStart(let why): "orchestra peer did not start: \(why)"
      case .timedOut(let command, let lines): "orchestra peer: no reply to \(command) (got \(lines))"
      case .rejected(let command, let reply): "orchestra peer rejected \(command): \(reply)"
      case .exited(let command): "orchestra peer exited before \(command)"
      }
    }
  }

  /// What the peer speaks.
  public enum Wire: Sendable, Hashable, CustomStringConvertible {
    /// `peer.py`: framed protobuf on plain TCP.
    case tcp
    /// `quic_peer.py`: the same on QUIC, TLS 1.3 with `TestCertificates`, client certificates
    /// asked for and checked when given; `arguments` are more of its options (`--alpn x`,
    /// `--cert other-server.crt`, `--client-cert required`).
    case quic(arguments: [String] = [])
    /// `upstream-peer` (Go, Debian's quic-go; `scripts/upstream-peer.sh` builds it): configured as
    /// upstream's orchestrator, with no events, answering the features tools as upstream's plugin
    /// (Tests/OrchestraPeer/UPSTREAM-TOOLS.md); `arguments` are more of its options (`--data`,
    /// `--flavor text`, `--cert-name other-server`).
    case upstream(arguments: [String] = [])

    public var description: String {
      switch self {
      case .tcp: "tcp"
      case .quic(let a): a.isEmpty ? "quic" : "quic " + a.joined(separator: " ")
      case .upstream(let a): a.isEmpty ? "upstream" : "upstream " + a.joined(separator: " ")
      }
    }

    /// Whether the peer speaks QUIC.
    public var isQUIC: Bool { if case .tcp = self { false } else { true } }

    /// The peer over each wire, for tests that run on both.
    public static let both: [Wire] = [.tcp, .quic()]
  }

  /// The port the peer listens on, on 127.0.0.1 (TCP or UDP).
  public let port: Int
  public let wire: Wire

  private let process: Process
  private let input: FileHandle
  private let lines: LineBuffer
  private let sendLock = NSLock()

  /// Starts the peer.
  /// - Parameters:
  ///   - mode: `full`, `health-only` or `silent` (see Tests/OrchestraPeer/README.md).
  ///   - snapshot: a JSON file with the initial truth (`board.snapshot` payload shape).
  ///   - events: a JSON Lines file of events applied to the truth before listening.
  ///   - quiet: no log lines from the peer on stderr.
  ///   - startTimeout: seconds to wait for `PORT n` (the first run compiles the .proto).
  public init(
    _ wire: Wire = .tcp, mode: String = "full", snapshot: String? = nil, events: String? = nil, quiet: Bool = true,
    startTimeout: Double = 30
  ) throws {
    // Writing to a peer that died must be an error, not a signal that ends the test run.
    signal(SIGPIPE, SIG_IGN)
    let folder = Paths.repoRoot.appendingPathComponent("Tests/OrchestraPeer")
    var arguments: [String]
    switch wire {
    case .tcp:
      arguments = [Python.interpreter, "-B", folder.appendingPathComponent("peer.py").path]
    case .quic(let more):
      arguments =
        [try Python.quicInterpreter(), "-B", folder.appendingPathComponent("quic_peer.py").path]
        + ["--certs", try TestCertificates.folder()] + more
    case .upstream(let more):
      arguments = [try Self.upstreamPeer(), "--certs", try TestCertificates.folder()] + more
    }
    arguments += ["--port", "0"]
    if case .upstream = wire {} else { arguments += ["--mode", mode] }
    self.wire = wire
    if let snapshot { arguments += ["--snapshot", snapshot] }
    if let events { arguments += ["--events", events] }
    if quiet { arguments.append("--quiet") }

    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    let stdin = Pipe()
    let stdout = Pipe()
    process.standardInput = stdin
    process.standardOutput = stdout  // stderr is inherited: the peer's log shows in test output
    do { try process.run() } catch { throw Failure.didNotStart("\(arguments.joined(separator: " ")): \(error)") }
    self.process = process
    self.input = stdin.fileHandleForWriting
    self.lines = LineBuffer(reading: stdout.fileHandleForReading)

    guard let first = lines.next(until: Date(timeIntervalSinceNow: startTimeout)) else {
      Command.stop(process)
      throw Failure.didNotStart("no PORT line within \(startTimeout) s")
    }
    guard first.hasPrefix("PORT "), let port = Int(first.dropFirst(5)) else {
      Command.stop(process)
      throw Failure.didNotStart("first line was \(first)")
    }
    self.port = port
  }

  deinit { stop() }

  /// The Go peer's binary: `$WALLBOARD_UPSTREAM_PEER`, else what `scripts/upstream-peer.sh` (run
  /// by `make test`) builds under `.build/`.
  static func upstreamPeer() throws -> String {
    if let p = ProcessInfo.processInfo.environment["WALLBOARD_UPSTREAM_PEER"] { return p }
    let built = Paths.repoRoot.appendingPathComponent(".build/upstream-peer/upstream-peer").path
    guard FileManager.default.isExecutableFile(atPath: built) else {
      throw Failure.didNotStart("no \(built): run scripts/upstream-peer.sh (make test does)")
    }
    return built
  }

  /// Writes one control command (a JSON object on one line) and returns the reply lines up to and
  /// including `OK <cmd>`. Throws on `ERR`, on timeout, or when the peer is gone.
  @discardableResult
  public func send(_ json: String, timeout: Double = 10) throws -> [String] {
    precondition(!json.contains("\n"), "a control command is one line of JSON")
    sendLock.lock()
    defer { sendLock.unlock() }
    guard process.isRunning else { throw Failure.exited(command: json) }
    do { try input.write(contentsOf: Data((json + "\n").utf8)) } catch { throw Failure.exited(command: json) }
    let deadline = Date(timeIntervalSinceNow: timeout)
    var reply: [String] = []
    while let line = lines.next(until: deadline) {
      reply.append(line)
      if line.hasPrefix("OK ") { return reply }
      if line.hasPrefix("ERR ") { throw Failure.rejected(command: json, reply: reply) }
    }
    throw lines.isClosed ? Failure.exited(command: json) : Failure.timedOut(command: json, lines: reply)
  }

  /// Ends the peer: `quit`, then SIGTERM if it lingers, then waits for it. Safe to call twice.
  public func stop() {
    if process.isRunning {
      _ = try? send(#"{"cmd":"quit"}"#, timeout: 2)
      try? input.close()
      let deadline = Date(timeIntervalSinceNow: 2)
      while process.isRunning && Date() < deadline { usleep(10_000) }
    } else {
      try? input.close()
    }
    // Still there: SIGTERM, then SIGKILL to its group, each bounded.
    Command.stop(process)
  }
}

/// Lines read from the peer's stdout on a background thread.
final class LineBuffer: @unchecked Sendable {
  private let condition = NSCondition()
  private var pending: [String] = []
  private var partial = Data()
  private var closed = false

  init(reading handle: FileHandle) {
    let thread = Thread { [self] in
      while true {
        let data = handle.availableData  // blocks; empty at end of file
        condition.lock()
        if data.isEmpty {
          closed = true
          condition.broadcast()
          condition.unlock()
          return
        }
        partial.append(data)
        while let newline = partial.firstIndex(of: UInt8(ascii: "\n")) {
          pending.append(String(decoding: partial[partial.startIndex..<newline], as: UTF8.self))
          partial.removeSubrange(partial.startIndex...newline)
        }
        condition.broadcast()
        condition.unlock()
      }
    }
    thread.start()
  }

  var isClosed: Bool {
    condition.lock()
    defer { condition.unlock() }
    return closed && pending.isEmpty
  }

  /// The next line, or nil at the deadline or the end of the stream.
  func next(until deadline: Date) -> String? {
    condition.lock()
    defer { condition.unlock() }
    while pending.isEmpty {
      if closed || !condition.wait(until: deadline) { return pending.isEmpty ? nil : pending.removeFirst() }
    }
    return pending.removeFirst()
  }
}
