internal import Clock
internal import EventSources
internal import NATS
internal import Relay
internal import SourceKit
internal import WallboardCore
internal import Wire

/// `wallboard fleet --source nats://HOST:PORT/BOARD [--json]`: the walls following a board,
/// from their last reports — name, state (showing, off on purpose, not heard, unreadable),
/// screen, last heard, the position shown, version, the digests (marked when they differ from
/// most walls'), and when each last drew a frame.
enum FleetCommand {
  static func run(_ o: Options, console: Console, clock: Clock) throws(CLIError) {
    let relays = o.sources.compactMap { ($0.configuration as? RelayBoardSource.Spec)?.address }
    guard relays.count == 1, o.sources.count == 1, let address = relays.first else {
      throw .usage("fleet needs one --source nats://HOST:PORT/BOARD")
    }
    let options: NATSOptions
    do throws(SourceError) {
      options = try RelayLink.options(
        address, role: "fleet", credentials: o.nats.credentials, ca: o.nats.ca, clock: clock)
    } catch { throw .source(error) }
    let records: [(name: String, bytes: [UInt8], stored: Instant)]
    do throws(NATSError) {
      let c = try NATSConnection.connect(options) { _ in }
      defer { c.close() }
      records = try FleetReader.records(address, connection: c, timeout: o.wait, clock: clock)
    } catch {
      throw .runtime("fleet: \(address): \(error)")
    }
    let now = clock.now()
    let roster = FleetRoster(records: records, now: now)
    if o.json {
      console.out(json(roster, now: now).serialized(pretty: true))
    } else {
      console.out(table(roster, now: now))
    }
  }

  static func table(_ roster: FleetRoster, now: Instant) -> String {
    guard !roster.walls.isEmpty else { return "no wall has reported" }
    var rows = [["WALL", "STATE", "SCREEN", "HEARD", "POSITION", "VERSION", "CONFIG", "LAYOUT", "LAST FRAME"]]
    for w in roster.walls {
      let r = w.report
      let mark = w.differs ? " *" : ""
      rows.append([
        w.name, w.state.rawValue + (w.problem.map { ": \($0)" } ?? ""), r?.screen.rawValue ?? "-", ago(w.heard, now),
        r?.position.map(String.init) ?? "-", r?.version ?? "-", (r?.config ?? "-") + mark, (r?.layout ?? "-") + mark,
        r?.lastFrame.map { ago($0, now) } ?? "-",
      ])
    }
    let widths = (0..<rows[0].count).map { i in rows.map { $0[i].count }.max()! }
    var lines = rows.map { row in
      zip(row, widths).map { $0.padding(toLength: $1 + 2) }.joined().trimmingSuffixSpaces()
    }
    if roster.walls.contains(where: \.differs) {
      lines.append("* configured unlike most walls")
    }
    return lines.joined(separator: "\n")
  }

  static func json(_ roster: FleetRoster, now: Instant) -> JSONValue {
    .object(
      JSONObject([
        ("at", .string(now.rfc3339)),
        (
          "walls",
          .array(
            roster.walls.map { w in
              let r = w.report
              return .object(
                JSONObject([
                  ("wall", .string(w.name)), ("state", .string(w.state.rawValue)),
                  ("problem", w.problem.map { .string($0) } ?? .null),
                  ("heard", .string(w.heard.rfc3339)),
                  ("heard_seconds_ago", .number(Double(max(0, now.millis - w.heard.millis) / 1000))),
                  ("screen", r.map { .string($0.screen.rawValue) } ?? .null),
                  ("position", r?.position.map { .number(Double($0)) } ?? .null),
                  ("version", r.map { .string($0.version) } ?? .null),
                  ("config", r.map { .string($0.config) } ?? .null),
                  ("layout", r.map { .string($0.layout) } ?? .null),
                  ("differs", .bool(w.differs)),
                  ("last_frame", r?.lastFrame.map { .string($0.rfc3339) } ?? .null),
                ]))
            })
        ),
      ]))
  }

  /// "12 s ago", "3 min ago", "2 h ago", "4 d ago".
  static func ago(_ t: Instant, _ now: Instant) -> String {
    let s = max(0, (now.millis - t.millis) / 1000)
    switch s {
    case ..<120: return "\(s) s ago"
    case ..<7200: return "\(s / 60) min ago"
    case ..<172_800: return "\(s / 3600) h ago"
    default: return "\(s / 86_400) d ago"
    }
  }
}

extension String {
  fileprivate func padding(toLength n: Int) -> String {
    count >= n ? self : self + String(repeating: " ", count: n - count)
  }

  fileprivate func trimmingSuffixSpaces() -> String {
    var s = self
    while s.hasSuffix(" ") { s.removeLast() }
    return s
  }
}
