/// What `--display auto` takes and why, from what it found: said on stderr in one line, so a
/// board in the wrong place says why it is there.
public struct AutoDisplay: Equatable, Sendable {
  /// The display chosen: `sdl`, `console`, `term` or `text`.
  public var choice: String
  /// Why, in words: "no display server, no DRM device or writable framebuffer; standard output
  /// is a terminal".
  public var reason: String

  /// What was looked at: the environment variable naming a display server (nil: none), the DRM
  /// device that can be opened or a writable framebuffer (nil: neither), whether standard
  /// output is a terminal.
  public struct Findings: Equatable, Sendable {
    public var displayServer: String?
    public var consoleDevice: String?
    public var stdoutIsTerminal: Bool

    public init(displayServer: String?, consoleDevice: String?, stdoutIsTerminal: Bool) {
      self.displayServer = displayServer
      self.consoleDevice = consoleDevice
      self.stdoutIsTerminal = stdoutIsTerminal
    }
  }

  public init(choice: String, reason: String) {
    self.choice = choice
    self.reason = reason
  }

  /// The choice for `found`; `serverFailed` is why a named display server could not be used.
  public static func choose(_ found: Findings, serverFailed: String? = nil) -> AutoDisplay {
    if let server = found.displayServer, serverFailed == nil {
      return AutoDisplay(choice: "sdl", reason: "\(server) names a display server")
    }
    let server = found.displayServer.map { "\($0) could not be used" } ?? "no display server"
    if let device = found.consoleDevice {
      return AutoDisplay(choice: "console", reason: "\(server); \(device) can be written")
    }
    let console = "\(server), no DRM device or writable framebuffer"
    return found.stdoutIsTerminal
      ? AutoDisplay(choice: "term", reason: "\(console); standard output is a terminal")
      : AutoDisplay(choice: "text", reason: "\(console); standard output is not a terminal")
  }

  /// The line said on stderr: "wallboard: display term (no display server, …)".
  public var line: String { "wallboard: display \(choice) (\(reason))" }
}
