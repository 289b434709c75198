public import WallboardCore

/// The wall a running board is, for the sources that report it to a fleet (`nats://`): its name,
/// build, the digests of its configuration and layout, and what its screen shows now.
public struct WallPresence: Sendable {
  public var name: String
  public var version: String
  public var config: String
  /// What the screen shows now, and the layout it draws (from the run loop; any thread).
  public var screen: @Sendable () -> WallScreen

  public init(name: String, version: String, config: String, screen: @escaping @Sendable () -> WallScreen) {
    self.name = name
    self.version = version
    self.config = config
    self.screen = screen
  }

  /// The report of this wall at `position` of its board's stream (the position its board
  /// shows when it drew one, else the source's own).
  public func report(source: String, position: UInt64?, at: Instant) -> FleetReport {
    let now = screen()
    return FleetReport(
      wall: name, version: version, config: config, layout: now.layout, position: now.positions[source] ?? position,
      screen: now.screen, lastFrame: now.lastFrame, at: at)
  }
}

/// A wall's screen as its run loop last left it.
public struct WallScreen: Hashable, Sendable {
  public var screen: FleetReport.Screen
  /// When it last presented a frame; nil: none yet.
  public var lastFrame: Instant?
  /// The stream position each relayed source's board showed in that frame, by origin.
  public var positions: [String: UInt64]
  /// A digest of the layout it draws ("" before the first).
  public var layout: String
  public init(
    screen: FleetReport.Screen = .on, lastFrame: Instant? = nil, positions: [String: UInt64] = [:], layout: String = ""
  ) {
    self.screen = screen
    self.lastFrame = lastFrame
    self.positions = positions
    self.layout = layout
  }
}
