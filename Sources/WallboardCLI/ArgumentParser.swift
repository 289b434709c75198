internal import TextLines
internal import WallboardCore

/// Parses the command line against `OptionTable`. Hand-written and small: no packages.
public enum ArgumentParser {
  /// Parses `args` (without the program name).
  public static func parse(_ args: [String]) throws(CLIError) -> Options {
    var o = Options()
    var commandSeen = false
    var i = 0
    while i < args.count {
      let a = args[i]
      i += 1
      switch a {
      case "--help", "-h":
        o.command = .help
        return o
      case "--version":
        o.command = .version
        return o
      default: break
      }
      if !a.hasPrefix("-") {
        guard !commandSeen, let c = Command(rawValue: a), c != .help, c != .version else {
          throw .usage(
            commandSeen
              ? "unexpected argument \"\(a)\""
              : "unknown command \"\(a)\" (accepted: \(commands.joined(separator: ", ")))"
                + Suggestion.clause(for: a, among: commands))
        }
        o.command = c
        commandSeen = true
        continue
      }
      var name = a
      var inline: String?
      if let eq = a.firstIndex(of: "="), a.hasPrefix("--") {
        name = String(a[..<eq])
        inline = String(a[a.index(after: eq)...])
      }
      guard let spec = OptionTable.byName[name] else {
        throw .usage("unknown option \(name)" + Suggestion.clause(for: name, among: OptionTable.names))
      }
      if spec.value == nil {
        if inline != nil { throw .usage("\(name) takes no value") }
        try spec.apply(&o, "")
        continue
      }
      let value: String
      if let inline {
        value = inline
      } else {
        guard i < args.count else { throw .usage("\(name) needs a value: \(spec.value!)") }
        value = args[i]
        i += 1
      }
      try spec.apply(&o, value)
    }
    return o
  }

  /// The commands a word on the command line may name, for messages.
  static let commands = Command.allCases.filter { $0 != .help && $0 != .version }.map(\.rawValue)

  /// The repeatable options whose command-line values replace a config file's.
  static let replacedByCommandLine: Set<String> = ["--source", "--sprint", "--project", "--label", "--assignee"]

  /// Applies a `--config` file's text under the command line: each line `name value` or
  /// `name = value` (leading `--` optional), `#` comments. Options given on the command line win;
  /// repeatable `source`, `sprint`, `project`, `label` and `assignee` lines add to none given there.
  public static func applyConfig(_ text: String, file: String, under commandLine: [String]) throws(CLIError) -> Options
  {
    var fileArgs: [String] = []
    // Each sprint line is checked alone, and its id against the earlier lines', so that a
    // duplicate names its line (without parsing every earlier line again).
    var sprintIds: Set<String> = []
    for (n, raw) in TextLines.split(text).enumerated() {
      var line = Substring(raw)
      if let hash = line.firstIndex(of: "#") { line = line[..<hash] }
      let trimmed = String(line.trimmed())
      if trimmed.isEmpty { continue }
      var name: String
      var value: String?
      if let sep = trimmed.firstIndex(where: { $0 == " " || $0 == "=" || $0 == "\t" }) {
        name = String(trimmed[..<sep])
        value = String(trimmed[trimmed.index(after: sep)...].trimmed { $0 == " " || $0 == "\t" || $0 == "=" })
      } else {
        name = trimmed
      }
      if !name.hasPrefix("--") { name = "--" + name }
      guard let spec = OptionTable.byName[name], name != "--config" else {
        let known = OptionTable.all.map { String($0.name.dropFirst(2)) }.filter { $0 != "config" }
        throw .badInput(
          "\(file):\(n + 1): unknown option \(name.dropFirst(2))"
            + Suggestion.clause(for: String(name.dropFirst(2)), among: known))
      }
      if spec.value != nil, value?.isEmpty ?? true {
        throw .badInput("\(file):\(n + 1): \(name.dropFirst(2)) needs a value: \(spec.value!)")
      }
      fileArgs.append(name)
      if spec.value != nil { fileArgs.append(value!) }
      do throws(CLIError) {
        let line = [name] + (spec.value != nil ? [value!] : [])
        if name == "--sprint" {
          for s in try parse(line).sprints where !sprintIds.insert(s.id).inserted {
            throw .usage("--sprint \(s.id): the id is declared twice")
          }
        } else {
          _ = try parse(line)
        }
      } catch {
        if case .usage(let m) = error { throw .badInput("\(file):\(n + 1): \(m)") }
        throw error
      }
    }
    // Later values win, so the command line goes after the file; the repeatable options given
    // on the command line (sources, sprints, filters) replace the file's rather than adding to them.
    let given = Set(
      commandLine.compactMap { a -> String? in
        let name = a.firstIndex(of: "=").map { String(a[..<$0]) } ?? a
        return Self.replacedByCommandLine.contains(name) ? name : nil
      })
    var kept: [String] = []
    var j = 0
    while j < fileArgs.count {
      let width = OptionTable.byName[fileArgs[j]]?.value != nil ? 2 : 1
      if !given.contains(fileArgs[j]) { kept += fileArgs[j..<(j + width)] }
      j += width
    }
    return try parse(kept + commandLine)
  }
}
