public import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A real `nats-server` (Debian's, 2.9) for tests, on 127.0.0.1, with JetStream on a store in its
/// own temporary folder, `max_payload: 8MB`, TLS with `TestCertificates`' server certificate when
/// asked, and NKey users whose keys `scripts/nats-nkey.sh` makes.
///
/// The first start listens on port −1 (the server picks one) and reads it from the ports file;
/// the config is then rewritten with that port, so `restart()` after `stop()` or `kill9()` comes
/// back on the same port with the same store (−1 would pick another). Every start waits, at most
/// `startTimeout`, until the server accepts connections, and throws naming its log otherwise.
/// `deinit` stops it. Not thread-safe: one test drives it.
public final class NATSHub {
  /// What a user may publish and subscribe to (the config's `permissions` block).
  public struct Permissions: Sendable, Hashable {
    public var publish: [String]
    public var subscribe: [String]

    public init(publish: [String], subscribe: [String]) {
      self.publish = publish
      self.subscribe = subscribe
    }

    /// A board's publisher (issue 24's memo, §2): its events, its board bucket and the JetStream API.
    public static func publisher(board: String) -> Permissions {
      Permissions(publish: ["wb.\(board).>", "$KV.wb_\(board).>", "$JS.API.>"], subscribe: ["_INBOX.>"])
    }

    /// A wall that reads `board` and reports itself as `wall` to the fleet bucket, nothing else;
    /// replies come to its own inbox prefix `_INBOX_<wall>`.
    public static func wall(_ wall: String, board: String) -> Permissions {
      Permissions(
        publish: [
          "$JS.API.STREAM.INFO.WB_\(board)",
          "$JS.API.STREAM.INFO.KV_wb_\(board)",
          "$JS.API.DIRECT.GET.KV_wb_\(board).$KV.wb_\(board).board",
          "$JS.API.CONSUMER.CREATE.WB_\(board)",
          "$JS.API.CONSUMER.DELETE.WB_\(board).*",
          "$JS.FC.WB_\(board).>",
          "$KV.wb_\(board)_fleet.\(wall)",
        ],
        subscribe: ["_INBOX_\(wall).>"])
    }

    /// `wallboard fleet`: reads the board's fleet bucket.
    public static func viewer(board: String) -> Permissions {
      Permissions(
        publish: [
          "$JS.API.STREAM.INFO.KV_wb_\(board)_fleet", "$JS.API.STREAM.NAMES",
          "$JS.API.CONSUMER.CREATE.KV_wb_\(board)_fleet", "$JS.API.CONSUMER.DELETE.KV_wb_\(board)_fleet.*",
          "$JS.FC.KV_wb_\(board)_fleet.>",
        ],
        subscribe: ["_INBOX.>"])
    }
  }

  /// Why the hub could not be set up or started.
  public struct Failure: Error, CustomStringConvertible {
    public var description: String
  }

  public let host = "127.0.0.1"
  /// The port, fixed after the first start.
  public private(set) var port = 0
  public let tls: Bool
  /// The CA that signs the server's certificate (TLS only).
  public let caFile: String?
  /// The hub's folder: config, log, store, users' keys.
  public let directory: URL
  /// The server's log file (errors name it).
  public var logPath: String { directory.appendingPathComponent("hub.log").path }
  public var url: String { "\(tls ? "tls" : "nats")://\(host):\(port)" }

  private let startTimeout: Double
  private let users: [String: Permissions]
  private var publicKeys: [String: String] = [:]
  private var process: Process?

  /// Starts the hub. `users`: name → permissions (none: no authorization at all).
  public init(users: [String: Permissions] = [:], tls: Bool = false, startTimeout: Double = 15) throws {
    self.tls = tls
    self.users = users
    self.startTimeout = startTimeout
    directory = FileManager.default.temporaryDirectory.appendingPathComponent("wallboard-hub-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    caFile = tls ? try TestCertificates.folder() + "/ca.crt" : nil
    let script = Paths.repoRoot.appendingPathComponent("scripts/nats-nkey.sh").path
    for name in users.keys.sorted() {
      let r = try Command.run(
        URL(fileURLWithPath: "/bin/sh"), [script, name, directory.appendingPathComponent("keys").path], timeout: 30)
      guard r.status == 0, r.out.hasPrefix("U") else { throw Failure(description: "nats-nkey.sh \(name): \(r.err)") }
      publicKeys[name] = r.out.trimmingCharacters(in: .whitespacesAndNewlines)
    }
    try writeConfig(port: nil)
    try start()
    port = try readPortsFile()
    try writeConfig(port: port)
  }

  deinit {
    stop()
    try? FileManager.default.removeItem(at: directory)
  }

  /// The user's seed file ("SU…").
  public func seedPath(_ user: String) -> String {
    precondition(users[user] != nil, "no hub user named \(user)")
    return directory.appendingPathComponent("keys/\(user).nk").path
  }

  /// The user's public key ("U…").
  public func publicKey(_ user: String) -> String {
    guard let key = publicKeys[user] else { preconditionFailure("no hub user named \(user)") }
    return key
  }

  /// Whether the server runs.
  public var isRunning: Bool { process?.isRunning ?? false }

  /// SIGTERM, then SIGKILL when it has not exited `grace` seconds later (a JetStream server takes
  /// over a second to exit). Safe to call twice.
  public func stop(grace: Double = 5) {
    guard let p = process else { return }
    process = nil
    Command.stop(p, grace: grace)
  }

  /// SIGKILL: the server dies with its store as it is (a crash).
  public func kill9() {
    guard let p = process else { return }
    process = nil
    Deadline.kill(p)
  }

  /// Starts the server again, on the same port with the same store, once stopped or killed;
  /// returns when it accepts connections.
  public func restart() throws {
    precondition(process == nil, "restart() follows stop() or kill9()")
    try start()
  }

  // MARK: - Config and process

  private var configPath: String { directory.appendingPathComponent("hub.conf").path }

  private func writeConfig(port: Int?) throws {
    func quoted(_ s: String) -> String { "\"\(s)\"" }
    var lines = [
      "listen: \(host):\(port.map(String.init) ?? "-1")",
      "ports_file_dir: \(quoted(directory.path))",
      "server_name: wallboard-test-hub",
      "log_file: \(quoted(logPath))",
      "max_payload: 8MB",
      "jetstream {",
      "  store_dir: \(quoted(directory.appendingPathComponent("store").path))",
      "  max_memory_store: 64MB",
      "  max_file_store: 1GB",
      "}",
    ]
    if tls {
      let certs = try TestCertificates.folder()
      lines += [
        "tls {", "  cert_file: \(quoted(certs + "/server.crt"))", "  key_file: \(quoted(certs + "/server.key"))",
        "  timeout: 2", "}",
      ]
    }
    if !users.isEmpty {
      lines.append("authorization { users: [")
      for name in users.keys.sorted() {
        let p = users[name]!
        lines += [
          "  { nkey: \(publicKeys[name]!)  # \(name)",
          "    permissions: {",
          "      publish: { allow: [\(p.publish.map(quoted).joined(separator: ", "))] }",
          "      subscribe: { allow: [\(p.subscribe.map(quoted).joined(separator: ", "))] }",
          "    }",
          "  }",
        ]
      }
      lines.append("] }")
    }
    try (lines.joined(separator: "\n") + "\n").write(toFile: configPath, atomically: true, encoding: .utf8)
  }

  private func start() throws {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/sbin/nats-server")
    if !FileManager.default.isExecutableFile(atPath: p.executableURL!.path) {
      p.executableURL = URL(fileURLWithPath: "/usr/bin/nats-server")
    }
    p.arguments = ["-c", configPath]
    p.standardInput = FileHandle.nullDevice
    p.standardOutput = FileHandle.nullDevice
    p.standardError = FileHandle.nullDevice
    do { try XServer.launch(p) } catch {
      throw Failure(description: "nats-server could not run (apt-get install nats-server): \(error)")
    }
    process = p
    let deadline = Date(timeIntervalSinceNow: startTimeout)
    while Date() < deadline {
      guard p.isRunning else {
        process = nil
        throw Failure(description: "nats-server exited (status \(p.terminationStatus)); see its log \(logPath)")
      }
      if port == 0 ? portsFile() != nil : accepts() { return }
      Thread.sleep(forTimeInterval: 0.02)
    }
    stop()
    throw Failure(
      description: "nats-server did not accept connections within \(startTimeout) s; see its log \(logPath)")
  }

  /// The ports file of the running server, when it wrote it.
  private func portsFile() -> URL? {
    guard let pid = process?.processIdentifier else { return nil }
    let url = directory.appendingPathComponent("nats-server_\(pid).ports")
    return FileManager.default.fileExists(atPath: url.path) ? url : nil
  }

  /// The client port from the ports file: {"nats":["nats://127.0.0.1:P"],…}.
  private func readPortsFile() throws -> Int {
    guard let url = portsFile(), let data = try? Data(contentsOf: url),
      let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
      let first = (object["nats"] as? [String])?.first, let colon = first.lastIndex(of: ":"),
      let port = Int(first[first.index(after: colon)...])
    else { throw Failure(description: "nats-server's ports file is missing or unreadable; see its log \(logPath)") }
    return port
  }

  /// Whether a TCP connection to the port is accepted now.
  private func accepts() -> Bool {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr(host)
    return withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
      }
    }
  }
}
