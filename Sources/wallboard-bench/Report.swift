import Clock
import Foundation
import WallboardCore

/// One measured figure of `make bench`, beside its goal when it has one.
struct Figure: Encodable {
  enum Direction: String, Codable {
    /// The goal is a floor: more is better (a throughput).
    case atLeast
    /// The goal is a ceiling: less is better (a time, memory, CPU).
    case atMost
  }
  var group: String
  var name: String
  var value: Double
  var unit: String
  var goal: Double?
  var direction: Direction
  /// What the figure is beside (a floor, a ratio), or why it misses.
  var note: String?

  var met: Bool? {
    guard let goal else { return nil }
    return direction == .atLeast ? value >= goal : value <= goal
  }

  enum CodingKeys: String, CodingKey { case group, name, value, unit, goal, direction, note, met }

  func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(group, forKey: .group)
    try c.encode(name, forKey: .name)
    // A figure not measured (NaN) is null: JSON has no NaN.
    if value.isFinite { try c.encode(value, forKey: .value) } else { try c.encodeNil(forKey: .value) }
    try c.encode(unit, forKey: .unit)
    try c.encodeIfPresent(goal, forKey: .goal)
    try c.encode(direction, forKey: .direction)
    try c.encodeIfPresent(note, forKey: .note)
    try c.encodeIfPresent(met, forKey: .met)
  }
}

/// Every figure of a `make bench` run: printed as one table, written as JSON.
final class Report {
  private(set) var figures: [Figure] = []

  /// Adds a figure; `atMost` for times, memory and CPU, `atLeast` for throughputs.
  func add(
    _ group: String, _ name: String, _ value: Double, _ unit: String, goal: Double? = nil,
    _ direction: Figure.Direction = .atMost, note: String? = nil
  ) {
    figures.append(
      Figure(group: group, name: name, value: value, unit: unit, goal: goal, direction: direction, note: note))
    // Progress on stderr, so a long run shows where it is.
    FileHandle.standardError.write(Data("bench: \(name): \(Self.number(value)) \(unit)\n".utf8))
  }

  static func number(_ v: Double) -> String {
    if v >= 10_000 { return String(format: "%.0f", v) }
    if v >= 100 { return String(format: "%.1f", v) }
    if v >= 1 { return String(format: "%.2f", v) }
    return String(format: "%.3f", v)
  }

  func table() -> String {
    var out = ""
    var group = ""
    let width = min(60, figures.map(\.name.count).max() ?? 40)
    func pad(_ s: String, _ n: Int) -> String { s.count >= n ? s : s + String(repeating: " ", count: n - s.count) }
    func left(_ s: String, _ n: Int) -> String { s.count >= n ? s : String(repeating: " ", count: n - s.count) + s }
    for f in figures {
      if f.group != group {
        out += (group.isEmpty ? "" : "\n") + f.group + "\n"
        group = f.group
      }
      var line = "  " + pad(f.name, width) + " " + left(Self.number(f.value), 10) + " " + pad(f.unit, 10)
      if let goal = f.goal {
        let sign = f.direction == .atLeast ? "≥" : "≤"
        line += " goal \(sign) \(Self.number(goal)) \(f.unit): " + (f.met == true ? "met" : "MISSED")
      }
      if let note = f.note { line += "  (\(note))" }
      out += line + "\n"
    }
    let missed = figures.filter { $0.met == false }
    out += "\n\(figures.count) figures, \(figures.filter { $0.goal != nil }.count) with a goal, \(missed.count) missed"
    out += missed.isEmpty ? "\n" : ":\n" + missed.map { "  - \($0.name)" }.joined(separator: "\n") + "\n"
    return out
  }

  func writeJSON(to path: String, machine: [String: String]) throws {
    struct Document: Encodable {
      var machine: [String: String]
      var figures: [Figure]
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    try encoder.encode(Document(machine: machine, figures: figures)).write(to: URL(fileURLWithPath: path))
  }

  /// Prints the table under `title` and, when `json` names a file, writes the figures there with
  /// the machine they were measured on.
  func show(title: String, json: String?) {
    print(title)
    print("")
    print(table(), terminator: "")
    guard let json else { return }
    var machine: [String: String] = ["cores": String(ProcessInfo.processInfo.activeProcessorCount)]
    if let cpu = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
      let model = cpu.split(separator: "\n").first(where: { $0.hasPrefix("model name") })
    {
      machine["cpu"] = model.split(separator: ":").last.map { $0.trimmingCharacters(in: .whitespaces) }
    }
    machine["date"] = Instant(seconds: Clock.system.now().millis / 1000).rfc3339
    try! writeJSON(to: json, machine: machine)
    print("(written to \(json))")
  }
}
