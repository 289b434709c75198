internal import DisplayCore
internal import EventSources
internal import Posix
internal import Runtime
internal import SourceKit
internal import WorkspaceFormats

/// Who a wall is to its fleet (`wallboard fleet`): its name (`--wall-name`, else the host
/// name), its build, and digests of its effective configuration and of the layout it draws, so
/// that a wall set up unlike the others stands out.
enum WallIdentity {
  /// The wall's presence when a source follows a published board; nil otherwise.
  static func presence(_ o: Options, screen: ScreenWatch) throws(CLIError) -> WallPresence? {
    guard o.effectiveSources.contains(where: { $0.configuration is RelayBoardSource.Spec }) else { return nil }
    let name = o.wallName ?? ProcessFacts.hostName()
    if let why = RelayAddress.problem(wall: name) {
      throw .usage(
        o.wallName == nil ? "the host name cannot name this wall: \(why); give --wall-name" : "--wall-name: \(why)")
    }
    let text = o.config.flatMap { try? TextFile.read($0, what: "config file") }
    return WallPresence(name: name, version: App.version, config: configDigest(o, configText: text)) {
      screen.current
    }
  }

  /// The options that decide what a wall shows, as given — the command line's and the config
  /// file's, each `name value` once, in one sorted list (the order they were written in does
  /// not matter) — digested: the same on every wall set up alike. The wall's own settings (its
  /// name, credentials, journal, certificates) are left out.
  static func configDigest(_ o: Options, configText: String? = nil) -> String {
    var pairs: [String] = []
    func take(_ args: [String]) {
      var i = 0
      while i < args.count {
        var name = args[i]
        var value = ""
        i += 1
        if let eq = name.firstIndex(of: "="), name.hasPrefix("--") {
          value = String(name[name.index(after: eq)...])
          name = String(name[..<eq])
        } else if let spec = OptionTable.byName[name], spec.value != nil, i < args.count {
          value = args[i]
          i += 1
        }
        guard !personal.contains(name) else { continue }
        pairs.append(name + " " + value)
      }
    }
    take(o.commandLine)
    if let configText {
      for line in configText.split(whereSeparator: \.isNewline) {
        let t = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        let words = t.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "=" }).map(String.init)
        guard let first = words.first else { continue }
        let name = first.hasPrefix("--") ? first : "--" + first
        guard !personal.contains(name) else { continue }
        pairs.append(name + " " + words.dropFirst().joined(separator: " "))
      }
    }
    return String(SHA256.hex(Array(pairs.sorted().joined(separator: "\n").utf8)).prefix(16))
  }

  /// What is the wall's own, not its configuration's.
  static let personal: Set<String> = [
    "--wall-name", "--nats-creds", "--nats-ca", "--journal", "--no-journal", "--journal-size", "--journal-sprints",
    "--certs", "--config",
  ]

  /// The digest of the layout file the board draws ("text" for a display that draws none).
  static func layoutDigest(_ o: Options, display: any Display, environment: [String: String]) -> String {
    guard display.traits.drawsPixels, let resources = try? Resources.locate(environment: environment) else {
      return "text"
    }
    let screen = Screen(width: display.size.width, height: display.size.height, rotation: o.rotate)
    let name =
      o.layout == LayoutIndex.automaticName
      ? LayoutIndex.automatic(width: screen.canvasSize.width, height: screen.canvasSize.height) : o.layout
    guard let path = try? Scene.layoutPath(name, resources: resources),
      case .success(let bytes) = RegularFile.read(path, limit: TextFile.maxBytes)
    else { return "unreadable" }
    return String(SHA256.hex(bytes).prefix(16))
  }
}
