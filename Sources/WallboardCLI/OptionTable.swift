internal import DRMDisplay
internal import Displays
internal import EventSources
internal import Kiosk
internal import Projections
internal import Raster
internal import SourceKit
internal import Themes
internal import WallboardCore
internal import ZoneFiles

/// One option of the command line: its name, the value it takes, its help line, and how it
/// lands in `Options`. The table is the single source of parsing, `--config` and `--help`.
struct OptionSpec: Sendable {
  let name: String
  /// Placeholder for the value, or nil for a flag.
  let value: String?
  let help: String
  let apply: @Sendable (inout Options, String) throws(CLIError) -> Void
}

enum OptionTable {
  /// The frame cap, for messages: `Canvas.maxFrameSide` and `Canvas.maxFramePixels`.
  static let frameCap = "at most \(Canvas.maxFramePixels) pixels in all (7680x4320)"

  static let all: [OptionSpec] = [
    OptionSpec(
      name: "--source", value: "SPEC",
      help: "where events come from (repeatable): \(SourceRegistry.standard.accepted); default sim"
    ) { o, v throws(CLIError) in
      let spec: SourceSpec
      do throws(SourceSpecError) { spec = try SourceRegistry.standard.parse(v) } catch {
        throw .usage(error.description)
      }
      o.sources.append(spec)
    },
    OptionSpec(
      name: "--layout", value: "NAME|PATH",
      help:
        "a bundled layout by name, auto (portrait on a screen taller than wide, else wall) or a layout file; default auto"
    ) {
      o, v throws(CLIError) in
      try nonEmpty("--layout", v)
      o.layout = v
    },
    OptionSpec(
      name: "--theme", value: "ID", help: "one of the theme ids of `wallboard themes`; default orchestra"
    ) { o, v throws(CLIError) in
      try nonEmpty("--theme", v)
      o.theme = v
    },
    OptionSpec(name: "--variant", value: "default|compact|modern", help: "component variant (spacing, radii)") {
      o, v throws(CLIError) in
      o.variant = try choice("--variant", v, VariantName.self)
    },
    OptionSpec(
      name: "--display", value: DisplayRegistry.standard.valueSpelling,
      help:
        "where `run` draws; default auto (a window if a display server answers, else console, else the terminal); "
        + "console is DRM/KMS, else the framebuffer; sdl is full screen (window manager or not) and exits 1 with no display"
    ) { o, v throws(CLIError) in
      do throws(DisplaySpecError) {
        o.display = try DisplayRegistry.standard.parse(v)
      } catch {
        throw .usage("--display: \(error)" + Suggestion.clause(for: v, among: DisplayRegistry.standard.words))
      }
    },
    OptionSpec(
      name: "--mode", value: "WxH[@HZ]",
      help: "the mode for --display drm instead of the screen's preferred one, e.g. 1920x1080@60"
    ) { o, v throws(CLIError) in
      guard let m = DRMModeRequest(parsing: v) else {
        throw .usage("--mode: \"\(v)\" is not WxH or WxH@HZ (sides 1 to 16384, a refresh of 1 to 1000 Hz)")
      }
      o.mode = m
    },
    OptionSpec(
      name: "--fb-geometry", value: "WxHxBPP",
      help: "geometry of a file standing in for a framebuffer (BPP 16, 24 or 32; at most 7680 a side, 7680x4320 in all)"
    ) { o, v throws(CLIError) in
      let parts = v.split(separator: "x", omittingEmptySubsequences: false).map { Int($0) }
      guard parts.count == 3, let w = parts[0], let h = parts[1], let b = parts[2],
        Canvas.frameFits(width: w, height: h),
        [16, 24, 32].contains(b)
      else {
        throw .usage(
          "--fb-geometry: \"\(v)\" is not WxHxBPP (sides 1 to \(Canvas.maxFrameSide), \(frameCap); BPP 16, 24 or 32)")
      }
      o.fbGeometry = (w, h, b)
    },
    OptionSpec(
      name: "--rotate", value: "0|90|180|270", help: "turn the whole board on the screen (--size stays the screen's)"
    ) { o, v throws(CLIError) in
      o.rotate = Int(try oneOf("--rotate", v, ["0", "90", "180", "270"]))!
    },
    OptionSpec(name: "--scale", value: "X", help: "scale the board's design units (0.25–8)") { o, v throws(CLIError) in
      guard let x = Double(v), x.isFinite, (0.25...8).contains(x) else {
        throw .usage("--scale: \"\(v)\" is not a number from 0.25 to 8")
      }
      o.scale = x
    },
    OptionSpec(
      name: "--size", value: "WxH",
      help:
        "the screen's size: snapshot, png: (default 1920x1080 for snapshot); a window for sdl; at most "
        + "\(Canvas.maxFrameSide) a side, \(frameCap); for term, columns x rows"
    ) { o, v throws(CLIError) in
      let parts = v.split(separator: "x", omittingEmptySubsequences: false).map { Int($0) }
      guard parts.count == 2, let w = parts[0], let h = parts[1], w >= 16, h >= 16,
        Canvas.frameFits(width: w, height: h)
      else { throw .usage("--size: \"\(v)\" is not WxH with sides from 16 to \(Canvas.maxFrameSide), \(frameCap)") }
      o.size = (w, h)
    },
    OptionSpec(
      name: "--at", value: "RFC3339",
      help:
        "the clock for snapshot and inspect, ages and staleness judged at it; default the time of the last event read (for a workspace or a server, the moment it was read)"
    ) { o, v throws(CLIError) in
      do throws(Instant.ParseError) { o.at = try Instant(rfc3339: v) } catch {
        switch error {
        case .malformed: throw .usage("--at: \"\(v)\" is not an RFC 3339 time such as 2026-11-05T18:00:00Z")
        case .outOfRange: throw .usage("--at: \"\(v)\" is out of range (years 1970…9999, valid dates)")
        case .leapSecond: throw .usage("--at: \"\(v)\" is a leap second (second 60), which the board does not count")
        }
      }
    },
    OptionSpec(
      name: "--tz", value: "ZONE", help: "the board's time zone (IANA, e.g. Europe/Berlin); default the system's"
    ) { o, v throws(CLIError) in
      guard let z = Zone(v) else {
        throw .usage("--tz: \"\(v)\" is not an IANA time zone such as UTC or America/New_York")
      }
      o.timeZone = z
    },
    OptionSpec(name: "--unit", value: "points|count|auto", help: "burndown unit; default auto") {
      o, v throws(CLIError) in
      o.unit = UnitChoice(rawValue: try oneOf("--unit", v, UnitChoice.allCases.map(\.rawValue)))!
    },
    OptionSpec(
      name: "--flow-days", value: "N",
      help:
        "days of the cumulative flow shown when no sprint is active "
        + "(\(Flow.dayRange.lowerBound)–\(Flow.dayRange.upperBound)); default \(Flow.defaultDays)"
    ) { o, v throws(CLIError) in
      o.flowDays = try wholeNumber("--flow-days", v, of: "days", in: Flow.dayRange)
    },
    OptionSpec(
      name: "--workflow", value: "seed|upstream",
      help: "the workflow when the events define none: the seed's 13 states (default) or upstream's 7"
    ) { o, v throws(CLIError) in
      o.workflow = try oneOf("--workflow", v, ["seed", "upstream"]) == "seed" ? .seed : .upstream
    },
    OptionSpec(
      name: "--estimates", value: "S=1,M=2,L=3,XL=5",
      help: "points per T-shirt size (sizes ignore case; points plain decimals from 0 to 1000000)"
    ) { o, v throws(CLIError) in
      var sizes: [(String, Double)] = []
      for part in v.split(separator: ",") {
        let kv = part.split(separator: "=", maxSplits: 1)
        guard kv.count == 2, !kv[0].isEmpty, kv[0].count <= 16, let n = EstimateScale.decimalPoints(String(kv[1]))
        else {
          throw .usage(
            "--estimates: \"\(part)\" is not SIZE=POINTS with points from 0 to 1000000 (such as S=1,M=2,L=3,XL=5)")
        }
        sizes.append((String(kv[0]), n))
      }
      guard !sizes.isEmpty else { throw .usage("--estimates needs at least one SIZE=POINTS") }
      do throws(EstimateScale.Error) { o.estimateScale = try EstimateScale(pairs: sizes) } catch {
        throw .usage("--estimates: \(error)")
      }
    },
    OptionSpec(
      name: "--sprint", value: "id=ID,start=DATE,end=DATE[,…]",
      help: "declare a sprint (repeatable): name, label (default sprint:ID), goal, holidays, non_working, tz, "
        + "features; lists separated by ';' (docs/sprints.md)"
    ) { o, v throws(CLIError) in
      let s = try SprintOption.parse(v)
      if o.sprints.contains(where: { $0.id == s.id }) { throw .usage("--sprint \(s.id): the id is declared twice") }
      let cap = BoardSettings.Limits().maxSprints
      guard o.sprints.count < cap else { throw .usage("--sprint \(s.id): more than \(cap) sprints declared") }
      o.sprints.append(s)
    },
    OptionSpec(
      name: "--active-sprint", value: "ID", help: "show this sprint whatever the dates say (its id, declared or not)"
    ) { o, v throws(CLIError) in
      try nonEmpty("--active-sprint", v)
      try capped("--active-sprint", v, max: SprintOption.maxIdLength)
      o.activeSprint = v
    },
    OptionSpec(
      name: "--project", value: "SLUG", help: "show only this project's features (repeatable: any of them); default all"
    ) { o, v throws(CLIError) in
      try filterValue("--project", v, into: &o.filter.projects)
    },
    OptionSpec(
      name: "--label", value: "LABEL", help: "show only features with this label (repeatable: any of them)"
    ) { o, v throws(CLIError) in
      try filterValue("--label", v, into: &o.filter.labels)
    },
    OptionSpec(
      name: "--assignee", value: "NAME", help: "show only features assigned to NAME (repeatable: any of them)"
    ) { o, v throws(CLIError) in
      try filterValue("--assignee", v, into: &o.filter.assignees)
    },
    OptionSpec(
      name: "--night", value: "RULE",
      help: "dim or blank at night (repeatable), e.g. \"mon-fri 19:00-07:30 dim=20\" or \"sat,sun 00:00-24:00 blank\""
    ) { o, v throws(CLIError) in
      do throws(NightSchedule.ParseError) { o.night.append(try NightSchedule.parse(rule: v)) } catch {
        throw .usage("--night: \(error)")
      }
    },
    OptionSpec(
      name: "--pixel-shift", value: "auto|on|off",
      help: "burn-in protection: move the frame a few pixels every 3 minutes (auto: when full screen)"
    ) { o, v throws(CLIError) in
      o.pixelShift = try choice("--pixel-shift", v, PixelShiftMode.self)
    },
    OptionSpec(
      name: "--diagnostics", value: nil,
      help: "show the diagnostics panel (frame time, memory, events/s), clear of the clock and banner; key d"
    ) {
      o, _ throws(CLIError) in o.diagnostics = true
    },
    OptionSpec(
      name: "--journal", value: "PATH",
      help:
        "the SQLite journal where the board keeps what it received and restores from; `run` keeps one by "
        + "default (under $STATE_DIRECTORY, $XDG_STATE_HOME or ~/.local/state, in wallboard/), "
        + "inspect and snapshot only when named"
    ) { o, v throws(CLIError) in
      try nonEmpty("--journal", v)
      o.journal = v
    },
    OptionSpec(
      name: "--certs", value: "DIR",
      help:
        "certificates for orchestra+quic:// sources: ca.crt checks the server; wallboard-client.crt and .key, "
        + "when present, are the board's own; default ~/.orchestra/certs"
    ) { o, v throws(CLIError) in
      try nonEmpty("--certs", v)
      o.certificates = v
    },
    OptionSpec(
      name: "--to", value: "nats://HOST:PORT/BOARD", help: "publish: the NATS JetStream board to publish to"
    ) { o, v throws(CLIError) in
      let parsed: RelayAddress?
      do throws(SourceSpecError) { parsed = try RelayAddress.parse(v) } catch { throw .usage("--to: \(error.problem)") }
      guard let parsed else { throw .usage("--to: \"\(v)\" is not nats://HOST:PORT/BOARD") }
      o.to = parsed
    },
    OptionSpec(
      name: "--nats-creds", value: "FILE",
      help: "nats:// sources, publish and fleet: an NKey seed (SU…) or a .creds file to sign in with"
    ) { o, v throws(CLIError) in
      try nonEmpty("--nats-creds", v)
      o.nats.credentials = v
    },
    OptionSpec(
      name: "--nats-ca", value: "FILE",
      help: "nats://, publish and fleet: TLS, the broker's certificate checked by this CA"
    ) { o, v throws(CLIError) in
      try nonEmpty("--nats-ca", v)
      o.nats.ca = v
    },
    OptionSpec(
      name: "--wall-name", value: "NAME",
      help: "how a wall following nats:// names itself in fleet; default the host name"
    ) { o, v throws(CLIError) in
      if let why = RelayAddress.problem(wall: v) { throw .usage("--wall-name: \(why)") }
      o.wallName = v
    },
    OptionSpec(
      name: "--stream-days", value: "N",
      help: "publish: the days the board's stream keeps its inputs (1–3650; default 30)"
    ) { o, v throws(CLIError) in
      o.streamDays = try wholeNumber("--stream-days", v, of: "days", in: 1...3650)
    },
    OptionSpec(
      name: "--stream-size", value: "MB",
      help: "publish: the most the board's stream keeps (16–1000000 MB; default 256)"
    ) { o, v throws(CLIError) in
      o.streamMegabytes = try wholeNumber("--stream-size", v, of: "megabytes", in: 16...1_000_000)
    },
    OptionSpec(name: "--json", value: nil, help: "fleet: the walls as JSON") { o, _ throws(CLIError) in
      o.json = true
    },
    OptionSpec(name: "--no-journal", value: nil, help: "keep no journal and restore none") {
      o, _ throws(CLIError) in o.noJournal = true
    },
    OptionSpec(
      name: "--journal-size", value: "MB",
      help: "past this size the journal compacts its older inputs into a snapshot (1–100000; default 50)"
    ) { o, v throws(CLIError) in
      o.journalMegabytes = try wholeNumber("--journal-size", v, of: "megabytes", in: 1...100_000)
    },
    OptionSpec(
      name: "--journal-sprints", value: "N",
      help: "sprints before the active one whose inputs the journal always keeps (0–100; default 3)"
    ) { o, v throws(CLIError) in
      o.journalSprints = try wholeNumber("--journal-sprints", v, in: 0...100)
    },
    OptionSpec(
      name: "--config", value: "PATH",
      help: "a file of these options, one `name value` per line; saved or SIGHUP: run applies all but source, "
        + "display, mode, size, rotate, fb-geometry, workflow, estimates, project, label, assignee and the journal's"
    ) { o, v throws(CLIError) in
      try nonEmpty("--config", v)
      o.config = v
    },
    OptionSpec(
      name: "--settle", value: "S", help: "snapshot/inspect with live sources: stop after S quiet seconds; default 1"
    ) { o, v throws(CLIError) in
      o.settle = try seconds("--settle", v)
    },
    OptionSpec(
      name: "--wait", value: "S", help: "snapshot/inspect with live sources: stop after at most S seconds; default 10"
    ) { o, v throws(CLIError) in
      o.wait = try seconds("--wait", v)
    },
    OptionSpec(
      name: "--out", value: "FILE.png",
      help: "where snapshot writes its PNG (a regular file or a link to one; replaced atomically)"
    ) { o, v throws(CLIError) in
      try nonEmpty("--out", v)
      o.out = v
    },
  ]

  static let byName: [String: OptionSpec] = Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0) })

  /// Every option the command line takes, in the table's order, for "did you mean …?".
  static let names = all.map(\.name) + ["--help", "--version"]

  /// Option `name`'s value as a whole number within `range`: digits only (no sign, no spaces),
  /// few enough that `Int` cannot overflow; anything else is a usage error naming the option.
  static func wholeNumber(
    _ name: String, _ v: String, of unit: String? = nil, in range: ClosedRange<Int>
  ) throws(CLIError) -> Int {
    guard v.utf8.count <= 9, !v.isEmpty, v.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
      let n = Int(v), range.contains(n)
    else {
      throw .usage(
        "\(name): \"\(v)\" is not a whole number\(unit.map { " of \($0)" } ?? "") "
          + "from \(range.lowerBound) to \(range.upperBound)")
    }
    return n
  }

  static func nonEmpty(_ name: String, _ v: String) throws(CLIError) {
    if v.isEmpty { throw .usage("\(name) needs a value") }
  }

  /// The longest `--project`, `--label` or `--assignee` value, and how many of each.
  static let maxFilterValueBytes = 200
  static let maxFilterValues = 64

  static func capped(_ name: String, _ v: String, max: Int) throws(CLIError) {
    guard v.utf8.count <= max else { throw .usage("\(name): \"\(SprintOption.clip(v))\" is longer than \(max) bytes") }
    if v.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
      throw .usage("\(name): \"\(SprintOption.clip(v))\" contains a control character")
    }
  }

  /// One value of a repeatable filter option: given once, however often it is repeated.
  static func filterValue(_ name: String, _ v: String, into list: inout [String]) throws(CLIError) {
    try nonEmpty(name, v)
    try capped(name, v, max: maxFilterValueBytes)
    if list.contains(v) { return }
    guard list.count < maxFilterValues else { throw .usage("\(name): more than \(maxFilterValues) values") }
    list.append(v)
  }

  static func oneOf(_ name: String, _ v: String, _ accepted: [String]) throws(CLIError) -> String {
    guard accepted.contains(v) else {
      throw .usage(
        "\(name): \"\(v)\" is not one of \(accepted.joined(separator: ", "))"
          + Suggestion.clause(for: v, among: accepted))
    }
    return v
  }

  /// `v` as one of an option's named values, or a usage error that lists them (and the nearest).
  static func choice<T: RawRepresentable & CaseIterable>(_ name: String, _ v: String, _: T.Type) throws(CLIError) -> T
  where T.RawValue == String {
    try T(rawValue: oneOf(name, v, T.allCases.map(\.rawValue)))!
  }

  static func seconds(_ name: String, _ v: String) throws(CLIError) -> Double {
    guard let s = Double(v), s.isFinite, (0...86_400).contains(s) else {
      throw .usage("\(name): \"\(v)\" is not a number of seconds from 0 to 86400")
    }
    return s
  }
}
