public import WallboardCore
internal import Wire

/// What a wall following a published board says of itself every `interval` seconds, in the
/// board's fleet bucket under its name (`wallboard fleet` lists them): one JSON object, at most
/// `maxBytes`, read back with the same cap.
public struct FleetReport: Hashable, Sendable {
  /// How often a wall reports, and how long one may go unheard before `fleet` says so.
  public static let interval = 10.0
  public static let notHeardAfter = 30.0
  public static let maxBytes = 4096

  /// The screen as the wall shows it: on, dimmed by the night schedule, or off on purpose
  /// (blanked at night) — never an alarm.
  public enum Screen: String, Hashable, Sendable, CaseIterable {
    case on, dimmed, off
  }

  public var wall: String
  /// The build (`wallboard --version`).
  public var version: String
  /// A digest of the effective configuration and of the layout drawn: walls that differ from
  /// the others are marked.
  public var config: String
  public var layout: String
  /// The stream position the wall shows (nil: none yet).
  public var position: UInt64?
  public var screen: Screen
  /// When the wall last drew a frame (its clock); nil: none yet.
  public var lastFrame: Instant?
  /// When the wall wrote the report (its clock).
  public var at: Instant

  public init(
    wall: String, version: String, config: String, layout: String, position: UInt64?, screen: Screen,
    lastFrame: Instant?, at: Instant
  ) {
    self.wall = wall
    self.version = version
    self.config = config
    self.layout = layout
    self.position = position
    self.screen = screen
    self.lastFrame = lastFrame
    self.at = at
  }

  /// The report as published: compact JSON.
  public var bytes: [UInt8] {
    var o = JSONObject()
    o.append("wall", .string(wall))
    o.append("version", .string(version))
    o.append("config", .string(config))
    o.append("layout", .string(layout))
    o.append("position", position.map { .number(Double($0)) } ?? .null)
    o.append("screen", .string(screen.rawValue))
    o.append("last_frame", lastFrame.map { .string($0.rfc3339) } ?? .null)
    o.append("at", .string(at.rfc3339))
    return Array(JSONValue.object(o).serialized().utf8)
  }

  /// A report read back; an error names what was wrong (`fleet` lists it as such, with the
  /// others).
  public init(bytes: [UInt8]) throws(FleetReportError) {
    guard bytes.count <= Self.maxBytes else {
      throw FleetReportError("\(bytes.count) bytes; a report is at most \(Self.maxBytes)")
    }
    let value: JSONValue
    do throws(JSONError) { value = try JSONParser.parse(bytes, limits: JSONLimits(maxDepth: 4)) } catch {
      throw FleetReportError("not JSON: \(error)")
    }
    guard case .object(let o) = value else { throw FleetReportError("not a JSON object") }
    func text(_ key: String) throws(FleetReportError) -> String {
      guard case .string(let s)? = o[key] else { throw FleetReportError("\"\(key)\" is not a string") }
      return s
    }
    func time(_ key: String) throws(FleetReportError) -> Instant? {
      if o[key] == nil || o[key] == .null { return nil }
      let s = try text(key)
      do throws(Instant.ParseError) { return try Instant(rfc3339: s) } catch {
        throw FleetReportError("\"\(key)\" is not an RFC 3339 time: \(error)")
      }
    }
    wall = try text("wall")
    version = try text("version")
    config = try text("config")
    layout = try text("layout")
    switch o["position"] {
    case nil, .null?: position = nil
    case .number(let n)? where n >= 0 && n <= 9_007_199_254_740_992 && n == n.rounded(): position = UInt64(n)
    default: throw FleetReportError("\"position\" is not a stream position")
    }
    guard let s = Screen(rawValue: try text("screen")) else {
      throw FleetReportError("\"screen\" is none of on, dimmed, off")
    }
    screen = s
    lastFrame = try time("last_frame")
    guard let at = try time("at") else { throw FleetReportError("\"at\" is missing") }
    self.at = at
  }
}

/// Why a report could not be read.
public struct FleetReportError: Error, Hashable, Sendable, CustomStringConvertible {
  public var problem: String
  public init(_ problem: String) { self.problem = problem }
  public var description: String { problem }
}

/// The walls of a board as `wallboard fleet` tells them: each wall's last report, when the
/// broker last heard it, and what that means now.
public struct FleetRoster: Hashable, Sendable {
  public struct Wall: Hashable, Sendable {
    public var name: String
    /// The last report; nil when it could not be read (`problem` says why).
    public var report: FleetReport?
    public var problem: String?
    /// When the broker stored the last report (its clock, not the wall's).
    public var heard: Instant
    public var state: State
    /// Its configuration or layout differs from the most common among the walls heard.
    public var differs: Bool
  }

  /// What a wall's last report means now.
  public enum State: String, Hashable, Sendable {
    /// Heard within `FleetReport.notHeardAfter`: showing the board, screen on or dimmed.
    case showing
    /// Heard, its screen off on purpose (the night schedule): not an alarm.
    case offOnPurpose = "off on purpose"
    /// Not heard for longer than `FleetReport.notHeardAfter`: its last state is shown beside.
    case notHeard = "not heard"
    /// Its last report could not be read.
    case unreadable
  }

  public var walls: [Wall]

  /// The walls from their last records (name, bytes, when the broker stored it) at `now`.
  public init(records: [(name: String, bytes: [UInt8], stored: Instant)], now: Instant) {
    var walls: [Wall] = records.map { r in
      var report: FleetReport?
      var problem: String?
      do throws(FleetReportError) { report = try FleetReport(bytes: r.bytes) } catch { problem = error.problem }
      let state: State
      if let report {
        if Double(now.millis - r.stored.millis) / 1000 > FleetReport.notHeardAfter {
          state = .notHeard
        } else {
          state = report.screen == .off ? .offOnPurpose : .showing
        }
      } else {
        state = .unreadable
      }
      return Wall(name: r.name, report: report, problem: problem, heard: r.stored, state: state, differs: false)
    }
    // The most common configuration among the walls heard (the name breaks ties, so that the
    // answer never depends on the order the broker lists them in).
    var counts: [String: Int] = [:]
    for w in walls where w.state != .notHeard {
      if let r = w.report { counts[r.config + "/" + r.layout, default: 0] += 1 }
    }
    if let common = counts.max(by: { $0.value < $1.value || ($0.value == $1.value && $0.key > $1.key) })?.key,
      counts.count > 1
    {
      for i in walls.indices {
        if let r = walls[i].report { walls[i].differs = r.config + "/" + r.layout != common }
      }
    }
    self.walls = walls.sorted { $0.name < $1.name }
  }
}
