public import WallboardCore

/// A `--source` argument, parsed.
public enum SourceSpec: Hashable, Sendable {
  /// The built-in simulated team.
  case sim(seed: UInt64, speed: Double, start: CivilDate)
  /// JSON Lines from a file, or standard input for `-`.
  case jsonl(path: String)
  /// The Orchestra plugin protocol over TCP.
  case orchestra(host: String, port: Int)
  /// An Orchestra SQLite workspace database.
  case orchestraDB(path: String)
  /// A journal written by Wallboard.
  case replay(path: String)

  /// The name the board shows and the origin of its events.
  public var name: String {
    switch self {
    case .sim(let seed, let speed, let start):
      var parts: [String] = []
      if seed != 1 { parts.append("seed=\(seed)") }
      if speed != SourceSpec.defaultSpeed { parts.append("speed=\(formatNumber(speed))") }
      if start != SimulatedTeam.defaultStart { parts.append("start=\(start)") }
      return parts.isEmpty ? "sim" : "sim:" + parts.joined(separator: ",")
    case .jsonl(let path): return "jsonl:" + path
    case .orchestra(let host, let port): return "orchestra://\(host):\(port)"
    case .orchestraDB(let path): return "orchestra-db:" + path
    case .replay(let path): return "replay:" + path
    }
  }

  /// Simulated seconds per real second when the simulation runs live.
  public static let defaultSpeed = 600.0

  /// What `--source` accepts, for messages.
  public static let accepted =
    "sim[:seed=N,speed=X,start=YYYY-MM-DD], jsonl:PATH (- for stdin), orchestra://HOST:PORT, orchestra-db:PATH, replay:PATH"

  /// Parses a `--source` value.
  public static func parse(_ text: String) throws(SourceSpecError) -> SourceSpec {
    if text == "sim" { return .sim(seed: 1, speed: defaultSpeed, start: SimulatedTeam.defaultStart) }
    if text.hasPrefix("sim:") {
      var seed: UInt64 = 1
      var speed = defaultSpeed
      var start = SimulatedTeam.defaultStart
      for part in text.dropFirst(4).split(separator: ",", omittingEmptySubsequences: false) {
        let kv = part.split(separator: "=", maxSplits: 1).map(String.init)
        guard kv.count == 2 else { throw SourceSpecError(text: text, problem: "expected key=value, found \"\(part)\"") }
        switch kv[0] {
        case "seed":
          guard let v = UInt64(kv[1]) else {
            throw SourceSpecError(text: text, problem: "seed must be a whole number ≥ 0")
          }
          seed = v
        case "speed":
          guard let v = Double(kv[1]), v.isFinite, v > 0, v <= 1_000_000 else {
            throw SourceSpecError(text: text, problem: "speed must be a number above 0 and at most 1000000")
          }
          speed = v
        case "start":
          guard let d = CivilDate(parsing: kv[1]) else {
            throw SourceSpecError(text: text, problem: "start must be a YYYY-MM-DD date")
          }
          start = d
        default:
          throw SourceSpecError(text: text, problem: "unknown sim option \"\(kv[0])\" (accepted: seed, speed, start)")
        }
      }
      return .sim(seed: seed, speed: speed, start: start)
    }
    if text.hasPrefix("jsonl:") {
      let path = String(text.dropFirst(6))
      guard !path.isEmpty else { throw SourceSpecError(text: text, problem: "jsonl: needs a path, or - for stdin") }
      return .jsonl(path: path)
    }
    if text.hasPrefix("orchestra://") {
      let rest = text.dropFirst("orchestra://".count)
      guard let colon = rest.lastIndex(of: ":"), let port = Int(rest[rest.index(after: colon)...]),
        (1...65535).contains(port), colon != rest.startIndex
      else { throw SourceSpecError(text: text, problem: "expected orchestra://HOST:PORT with a port 1–65535") }
      var host = String(rest[..<colon])
      if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
      return .orchestra(host: host, port: port)
    }
    if text.hasPrefix("orchestra-db:") {
      let path = String(text.dropFirst("orchestra-db:".count))
      guard !path.isEmpty else { throw SourceSpecError(text: text, problem: "orchestra-db: needs a path") }
      return .orchestraDB(path: path)
    }
    if text.hasPrefix("replay:") {
      let path = String(text.dropFirst("replay:".count))
      guard !path.isEmpty else { throw SourceSpecError(text: text, problem: "replay: needs a path") }
      return .replay(path: path)
    }
    throw SourceSpecError(text: text, problem: "unknown kind of source")
  }
}

/// A `--source` value that could not be parsed.
public struct SourceSpecError: Error, Hashable, Sendable, CustomStringConvertible {
  public var text: String
  public var problem: String
  public var description: String { "--source \"\(text)\": \(problem) (accepted: \(SourceSpec.accepted))" }
}

func formatNumber(_ v: Double) -> String {
  v == v.rounded() && abs(v) < 1e15 ? String(Int64(v)) : String(v)
}
