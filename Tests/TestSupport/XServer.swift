public import Foundation

/// An X server of a test's own (Xvfb), with the X tools the tests read it with.
///
/// The server picks a free display number itself (`-displayfd`) and says it when it accepts
/// connections, so there is no fixed number to collide on and no sleep before the first client.
/// Every wait is a poll with a deadline. `make test` installs what this needs: Xvfb (`xvfb`),
/// `xwininfo` and `xprop` (`x11-utils`), `xdotool`, and `openbox` for the window-manager case; a
/// missing tool is an error, never a skipped test.
public final class XServer {
  /// A missing tool, or a server or window manager that did not come up in time.
  public struct Failure: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
  }

  /// A window as the X server has it: the client area's position on the screen and its size.
  public struct Window: Equatable, CustomStringConvertible, Sendable {
    public var id: String
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int
    public var viewable: Bool

    public var description: String { "\(id) \(width)x\(height)+\(x)+\(y)\(viewable ? "" : " (not viewable)")" }
  }

  /// `:N`, for `DISPLAY`.
  public let display: String
  public let width: Int
  public let height: Int
  private let server: Process
  private let log: URL
  private var windowManager: Process?

  /// Starts `Xvfb` with one screen of `width`×`height` and waits until it accepts connections.
  public init(width: Int, height: Int, timeout: Double = 20) throws {
    let xvfb = try XServer.tool("Xvfb", package: "xvfb")
    self.width = width
    self.height = height
    log = FileManager.default.temporaryDirectory.appendingPathComponent("wallboard-xvfb-\(UUID().uuidString).log")
    _ = FileManager.default.createFile(atPath: log.path, contents: nil)
    let ready = Pipe()
    server = Process()
    server.executableURL = xvfb
    server.arguments = ["-displayfd", "1", "-screen", "0", "\(width)x\(height)x24", "-nolisten", "tcp", "-noreset"]
    server.standardOutput = ready
    server.standardError = try FileHandle(forWritingTo: log)
    server.standardInput = FileHandle.nullDevice
    try XServer.launch(server)
    // Xvfb writes its display number to the descriptor once it is ready for clients.
    let number = XServer.readLine(ready.fileHandleForReading, timeout: timeout)
    guard let number, !number.isEmpty, Int(number) != nil else {
      Command.stop(server)
      let said = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
      throw Failure("Xvfb did not come up within \(timeout) s: \(said.suffix(600))")
    }
    display = ":" + number
  }

  deinit { stop() }

  /// Stops the window manager and the server (SIGTERM, SIGKILL after 5 s), and waits for both.
  public func stop() {
    for p in [windowManager, server].compactMap({ $0 }) { Command.stop(p, grace: 5) }
    windowManager = nil
    try? FileManager.default.removeItem(at: log)
  }

  /// Starts openbox on this server and waits until it has taken charge of the screen
  /// (`_NET_SUPPORTING_WM_CHECK` on the root window).
  public func startWindowManager(timeout: Double = 20) throws {
    let openbox = try XServer.tool("openbox", package: "openbox")
    let p = Process()
    p.executableURL = openbox
    p.arguments = ["--sm-disable"]
    p.environment = environment
    p.standardOutput = FileHandle.nullDevice
    p.standardError = FileHandle.nullDevice
    try XServer.launch(p)
    windowManager = p
    let managed = try waitUntil(timeout: timeout) {
      try run("xprop", package: "x11-utils", ["-root", "_NET_SUPPORTING_WM_CHECK"]).contains("window id")
    }
    guard managed else {
      // Not left running until the server goes: stopped now, each wait bounded.
      Command.stop(p)
      windowManager = nil
      throw Failure("openbox did not manage \(display) within \(timeout) s")
    }
  }

  /// The environment for a client of this server: `DISPLAY` and a `PATH`.
  public var environment: [String: String] { ["DISPLAY": display, "PATH": "/usr/local/bin:/usr/bin:/bin"] }

  /// The top-level window called `name` (`xwininfo -name`), or nil while there is none.
  public func window(named name: String) throws -> Window? {
    let text = try run("xwininfo", package: "x11-utils", ["-name", name], allowFailure: true)
    var fields: [String: String] = [:]
    for line in text.split(separator: "\n") {
      guard let colon = line.firstIndex(of: ":") else { continue }
      let key = line[..<colon].trimmingCharacters(in: .whitespaces)
      fields[key] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
    guard let id = fields["xwininfo"]?.split(separator: " ").dropFirst(2).first,
      let x = fields["Absolute upper-left X"].flatMap({ Int($0) }),
      let y = fields["Absolute upper-left Y"].flatMap({ Int($0) }),
      let w = fields["Width"].flatMap({ Int($0) }), let h = fields["Height"].flatMap({ Int($0) })
    else { return nil }
    return Window(id: String(id), x: x, y: y, width: w, height: h, viewable: fields["Map State"] == "IsViewable")
  }

  /// Polls `window(named:)` until `condition` holds or `timeout` seconds pass. Returns whether it
  /// held and the last window seen (nil when there was none).
  public func waitForWindow(
    named name: String, timeout: Double = 20, until condition: (Window) -> Bool
  ) throws -> (held: Bool, last: Window?) {
    var last: Window?
    let held = try waitUntil(timeout: timeout) {
      last = try window(named: name)
      return last.map(condition) ?? false
    }
    return (held, last)
  }

  /// Types `key` (an X keysym name such as `f`) into `window` (`xdotool key --window`).
  public func type(_ key: String, into window: Window) throws {
    _ = try run("xdotool", package: "xdotool", ["key", "--window", window.id, key])
  }

  /// Runs an X tool against this server; returns its standard output.
  @discardableResult
  public func run(_ name: String, package: String, _ arguments: [String], allowFailure: Bool = false) throws -> String {
    let r = try Command.run(try XServer.tool(name, package: package), arguments, environment: environment, timeout: 20)
    guard allowFailure || r.status == 0 else {
      throw Failure("\(name) \(arguments.joined(separator: " ")) exited with \(r.status)")
    }
    return r.out
  }

  /// Calls `check` every 50 ms until it is true or `timeout` seconds have passed.
  private func waitUntil(timeout: Double, _ check: () throws -> Bool) throws -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while true {
      if try check() { return true }
      if Date() >= deadline { return false }
      Thread.sleep(forTimeInterval: 0.05)
    }
  }

  /// The executable `name`, or a failure naming the Debian package that provides it.
  public static func tool(_ name: String, package: String) throws -> URL {
    let dirs = ["/usr/bin", "/bin", "/usr/local/bin"]
    guard let dir = dirs.first(where: { FileManager.default.isExecutableFile(atPath: "\($0)/\(name)") }) else {
      throw Failure("\(name) is not installed (Debian package \(package)); `make test` installs it")
    }
    return URL(fileURLWithPath: "\(dir)/\(name)")
  }

  /// A display number no server uses now (no socket, no lock file), for a `DISPLAY` that
  /// names a server that is not there.
  public static func unusedDisplay() -> String {
    let fm = FileManager.default
    let n = (500..<900).first {
      !fm.fileExists(atPath: "/tmp/.X11-unix/X\($0)") && !fm.fileExists(atPath: "/tmp/.X\($0)-lock")
    }
    return ":\(n ?? 899)"
  }

  /// Starts `process` with no signal blocked.
  ///
  /// A child inherits the signal mask of the thread that starts it, and the test runner's
  /// threads block most signals: Xvfb would never see the SIGTERM that `stop()` sends.
  public static func launch(_ process: Process) throws {
    var none = sigset_t()
    var old = sigset_t()
    sigemptyset(&none)
    pthread_sigmask(SIG_SETMASK, &none, &old)
    defer { pthread_sigmask(SIG_SETMASK, &old, nil) }
    try process.run()
  }

  /// The first line `handle` yields within `timeout` seconds (nil on timeout or end of file).
  private static func readLine(_ handle: FileHandle, timeout: Double) -> String? {
    let deadline = Date().addingTimeInterval(timeout)
    var bytes: [UInt8] = []
    var fds = pollfd(fd: handle.fileDescriptor, events: Int16(POLLIN), revents: 0)
    while Date() < deadline {
      let left = Int32(max(1, deadline.timeIntervalSinceNow * 1000))
      guard poll(&fds, 1, left) > 0 else { continue }
      var byte: UInt8 = 0
      guard read(handle.fileDescriptor, &byte, 1) == 1 else { return nil }
      if byte == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
      bytes.append(byte)
    }
    return nil
  }
}
