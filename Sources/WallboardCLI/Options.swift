internal import DRMDisplay
public import Displays
internal import EventSources
public import Kiosk
public import Projections
public import SourceKit
public import Themes
public import WallboardCore

/// The commands of `cli.md`.
public enum Command: String, Sendable, CaseIterable {
  case run, snapshot, inspect, themes, layouts, help, version
  /// `publish --source … --to nats://HOST:PORT/BOARD` and `fleet --source nats://…/BOARD`.
  case publish, fleet
}

/// `--nats-creds` and `--nats-ca`: who a board is on a NATS broker, and the CA that checks it.
public struct NATSAccess: Hashable, Sendable {
  public var credentials: String?
  public var ca: String?
  public init(credentials: String? = nil, ca: String? = nil) {
    self.credentials = credentials
    self.ca = ca
  }
}

/// Everything the command line (and a `--config` file) can say.
public struct Options: Sendable {
  public var command: Command = .run
  public var sources: [SourceSpec] = []
  public var layout = "auto"
  public var theme = "orchestra"
  public var variant = VariantName.default
  /// `--display`, parsed once (`DisplayRegistry`).
  public var display: any DisplayConfiguration = AutoKind.Auto()
  public var fbGeometry: (width: Int, height: Int, bpp: Int)?
  /// `--mode`: the DRM display's mode instead of the preferred one.
  var mode: DRMModeRequest?

  /// Refuses options that do not go together, once the command line and the config file are
  /// both read: `--mode` with a display that is never DRM.
  func checkCombinations() throws(CLIError) {
    if mode != nil && !display.mayUseDRM {
      throw .usage("--mode is for --display drm (or console or auto, when they take DRM), not \(display.name)")
    }
    // A wall shows the board a publisher made, whole: anything of its own beside it would be
    // replaced at every whole board, and what makes the board belongs on the publisher.
    if command != .publish, command != .fleet,
      let relayed = sources.first(where: { $0.configuration is RelayBoardSource.Spec })
    {
      if sources.count > 1 {
        throw .usage("\(relayed.name) is a whole published board: it is the only --source of a wall")
      }
      let own: [(String, Bool)] = [
        ("--sprint", !sprints.isEmpty), ("--project", !filter.projects.isEmpty), ("--label", !filter.labels.isEmpty),
        ("--assignee", !filter.assignees.isEmpty), ("--workflow", workflow != .seed),
        ("--estimates", estimateScale != .standard),
      ]
      if let (name, _) = own.first(where: { $0.1 }) {
        throw .usage("\(name) makes the board: give it to the publisher of \(relayed.name), not to a wall")
      }
    }
  }
  public var rotate = 0
  public var scale = 1.0
  public var size: (width: Int, height: Int)?
  public var at: Instant?
  public var timeZone: Zone?
  public var unit: UnitChoice = .auto
  /// The cumulative flow's window when no sprint is active, in days (`Flow.dayRange`).
  public var flowDays = Flow.defaultDays
  /// `--certs`: the TLS certificate folder of `orchestra+quic://` sources (nil: `~/.orchestra/certs`).
  public var certificates: String?
  /// `--nats-creds`, `--nats-ca`.
  public var nats = NATSAccess()
  /// `--to`: the board `publish` publishes to.
  public var to: RelayAddress?
  /// `--wall-name`: how a wall following `nats://` names itself (nil: the host name).
  public var wallName: String?
  /// `--json`: `fleet` as JSON.
  public var json = false
  /// `--stream-days`, `--stream-size`: how long and how much the published board's stream keeps.
  public var streamDays = 30
  public var streamMegabytes = 256
  /// `--journal`: the journal to restore from and record to.
  public var journal: String?
  public var noJournal = false
  /// The journal's size bound (`--journal-size`), in MiB.
  public var journalMegabytes = 50
  /// Sprints before the active one the journal always keeps (`--journal-sprints`).
  public var journalSprints = 3
  public var config: String?
  public var settle = 1.0
  public var wait = 10.0
  public var out: String?
  /// The default workflow: the seed's 13 states, or upstream's 7.
  public var workflow: Workflow = .seed
  public var estimateScale: EstimateScale = .standard
  /// Night rules (`mon-fri 19:00-07:30 dim=20`), in order.
  public var night: [NightSchedule.Rule] = []
  /// Burn-in protection: `auto` = on when the board fills the screen (fullscreen SDL, fb).
  public var pixelShift = PixelShiftMode.auto
  /// Show the diagnostics panel from the start (the `d` key toggles it).
  public var diagnostics = false
  /// Declared sprints (`--sprint`), in the order given.
  public var sprints: [Sprint] = []
  /// The sprint the board shows whatever the dates say (`--active-sprint`).
  public var activeSprint: String?
  /// Which features the board shows (`--project`, `--label`, `--assignee`).
  public var filter = FeatureFilter.all
  /// The arguments these options came from (a config file reloads under them).
  public var commandLine: [String] = []

  public init() {}

  /// The reducer's settings these options ask for.
  public var boardSettings: BoardSettings {
    BoardSettings(workflow: workflow, estimateScale: estimateScale, filter: filter)
  }

  /// The sources, or the simulated team when none was named — none when a journal was named
  /// instead: the board it holds is then shown alone.
  public var effectiveSources: [SourceSpec] {
    guard sources.isEmpty else { return sources }
    return journal != nil && !noJournal ? [] : [SourceSpec(SimSource.Spec())]
  }
}
