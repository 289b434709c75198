public import Clock
internal import DisplayCore
internal import EventSources
internal import Glibc
internal import Posix
internal import Projections
internal import SourceKit
internal import Themes
public import WallboardCore
internal import ZoneFiles

/// The executable's entry: parses arguments, runs a command, turns errors into messages and
/// exit codes. Output goes through `Console` so tests can read it.
public struct App {
  public static let version = "0.1.0"
  /// What `--version` prints. The executable prints it itself when `--version` comes first (as
  /// `ArgumentParser` reads it: then nothing after it counts), before anything is set up.
  public static var versionLine: String { "wallboard \(version)" }
  public var console: Console
  public var environment: [String: String]
  /// The one clock, passed down to everything below (`.system` in the executable).
  public var clock: Clock
  /// The clock's wall time.
  public var now: @Sendable () -> Instant { { [clock] in clock.now() } }
  /// What stops `run` (and reloads it): `.signals` in the executable; `.never` by default, so
  /// tests calling `main` in process install no signal handler.
  public var stop: StopRequest
  /// Opens `run`'s display (the tests' in-memory one in tests).
  var openDisplay: (Options, [String: String], Console) throws(CLIError) -> any Display

  /// - Parameter clock: the one clock; the real one unless a test passes its own.
  public init(
    console: Console = .standard, environment: [String: String]? = nil, clock: Clock = .system,
    stop: StopRequest = .never
  ) {
    self.console = console
    self.environment = environment ?? ProcessFacts.environment()
    self.clock = clock
    self.stop = stop
    self.openDisplay = { (o, environment, console) throws(CLIError) in
      try o.openDisplay(environment: environment, console: console, clock: clock)
    }
  }

  /// As `init(console:environment:clock:stop:)`, with the system clock's waits and another wall
  /// time (a test's).
  public init(
    console: Console = .standard, environment: [String: String]? = nil, now: @escaping @Sendable () -> Instant,
    stop: StopRequest = .never
  ) {
    self.init(console: console, environment: environment, clock: Clock.system.stamping(with: now), stop: stop)
  }

  /// Runs the command line; returns the exit code. A `run` stopped by a signal returns normally
  /// (everything flushed and closed), says so on stderr and exits 0 for `SIGTERM`, 130 for
  /// `SIGINT` (`StopSignals.exitStatus`).
  public func main(_ args: [String]) -> Int32 {
    do throws(CLIError) {
      var options = try ArgumentParser.parse(args)
      if let config = options.config {
        let text = try TextFile.read(config, what: "config file")
        options = try ArgumentParser.applyConfig(text, file: config, under: args)
      }
      options.commandLine = args
      try options.checkCombinations()
      try run(options)
      if options.command == .run || options.command == .publish, let signo = stop.requested() {
        console.error("wallboard: stopped by \(StopSignals.name(signo))")
        return StopSignals.exitStatus(for: signo)
      }
      return 0
    } catch {
      console.error(error.description)
      return error.exitCode
    }
  }

  func run(_ o: Options) throws(CLIError) {
    switch o.command {
    case .help: console.out(Help.text)
    case .version: console.out(App.versionLine)
    case .themes: try themes()
    case .layouts: try layouts()
    case .inspect: try inspect(o)
    case .snapshot: try Snapshot.run(o, resources: try Resources.locate(environment: environment), clock: clock)
    case .publish:
      try PublishRun(options: o, console: console, environment: environment, clock: clock, stop: stop).run()
    case .fleet: try FleetCommand.run(o, console: console, clock: clock)
    case .run:
      try LiveRun(
        options: o, console: console, environment: environment, clock: clock, stop: stop, openDisplay: openDisplay
      ).run()
    }
  }

  func inspect(_ o: Options) throws(CLIError) {
    let wall = now()
    let load = try FiniteLoad.load(o, now: wall, environment: environment, clock: clock)
    for w in load.warnings { console.error(w) }
    // As of `--at` when it is given: staleness is judged at that moment, as `snapshot` draws it.
    let json = InspectReport.json(
      state: load.state, at: load.at, now: o.at ?? now(), zone: o.timeZone ?? .current, unit: o.unit,
      activeSprint: o.activeSprint, flowDays: o.flowDays, sprintZones: ZoneBook.read(for: load.state),
      afterAt: load.tally.afterAsOf > 0 ? load.tally.afterAsOf : nil)
    console.out(json.serialized(pretty: true))
  }

  func themes() throws(CLIError) {
    let res = try Resources.locate(environment: environment)
    let catalog: ThemeCatalog
    do { catalog = try ThemeCatalog.load(directory: res.themes) } catch { throw .badInput(error.description) }
    for t in catalog.themes {
      console.out("\(t.id)\t\(t.label)\t\(t.isLight ? "light" : "dark")")
    }
  }

  func layouts() throws(CLIError) {
    let res = try Resources.locate(environment: environment)
    for entry in try LayoutIndex.list(directory: res.layouts) {
      console.out("\(entry.name)\t\(entry.description)")
    }
  }
}

/// Where messages go: stdout carries only requested output, stderr the rest.
public struct Console: Sendable {
  public var out: @Sendable (String) -> Void
  public var error: @Sendable (String) -> Void

  public init(out: @escaping @Sendable (String) -> Void, error: @escaping @Sendable (String) -> Void) {
    self.out = out
    self.error = error
  }

  /// Standard output and error, unbuffered: each message is one `write(2)`, so a pipe (journald)
  /// sees every frame of the text board at once and loses nothing when the process is stopped.
  public static let standard = Console(
    out: { writeLine($0, to: STDOUT_FILENO) },
    error: { writeLine($0, to: STDERR_FILENO) })

  /// `line` and a new line in one `write(2)` (as many as a short write takes); a closed pipe
  /// loses the rest of that line and nothing else.
  private static func writeLine(_ line: String, to fd: Int32) {
    var bytes = Array(line.utf8)
    bytes.append(0x0A)
    bytes.withUnsafeBytes { raw in
      var offset = 0
      while offset < raw.count {
        let n = write(fd, raw.baseAddress! + offset, raw.count - offset)
        if n > 0 {
          offset += n
        } else if n < 0 && errno == EINTR {
          continue
        } else {
          return
        }
      }
    }
  }
}
