internal import Clock
internal import EventSources
internal import Layout
internal import Runtime
internal import SourceKit
internal import Themes

/// Hot reload: on SIGHUP, or when the layout file, the config file or a theme file changes, the
/// config is read again under the original command line and the scene loaded again from it: the
/// layout, the themes, the theme and variant (when the file changed them; until then a key's
/// choice stays), the scale, and `LiveSettings`, handed to the run loop as a `LiveLoop.Reload`. A
/// broken file keeps the old scene and leaves an error line on the board; the next frame shows
/// the change with no blank frame in between.
struct ReloadWatch {
  let options: Options
  let resources: Resources
  /// The board's size the scene is loaded for (`Scene.board`).
  let board: (width: Int, height: Int)?
  /// The options after the last good reload (`LiveSettings` are taken from them).
  private(set) var latest: Options
  /// The files whose change reloads the board, watched on a thread of their own.
  private let files: ReloadFiles
  /// Whether SIGHUP asked for a reload since the last call (`StopRequest.takeHangup`).
  private let hangup: @Sendable () -> Bool

  /// - Parameter wake: called on the watcher's thread when a file changed (wakes the run loop).
  init(
    options: Options, resources: Resources, board: (width: Int, height: Int)? = nil, clock: Clock,
    hangup: @escaping @Sendable () -> Bool = { false },
    wake: @escaping @Sendable () -> Void = {}
  ) {
    self.options = options
    self.resources = resources
    self.board = board
    self.latest = options
    self.hangup = hangup
    files = ReloadFiles(clock: clock, wake: wake)
    files.watch(Self.watched(options, resources: resources))
  }

  /// The paths whose change reloads the board: the config file, the layout file (with `auto`,
  /// the bundled layouts' folder) and the themes folder (a theme file written, added or removed).
  static func watched(_ options: Options, resources: Resources) -> [String] {
    var paths: [String] = []
    if let c = options.config { paths.append(c) }
    if options.layout == LayoutIndex.automaticName {
      // The layout `auto` picks depends on the screen: every bundled one is watched.
      paths.append(resources.layouts)
    } else if let l = try? Scene.layoutPath(options.layout, resources: resources) {
      paths.append(l)
    }
    paths.append(resources.themes)
    return paths
  }

  /// Reloads when asked to (SIGHUP, or `force`) or when a watched file changed (the watcher
  /// says so within its debounce, 0.2 s, of the last write): the scene (for the board size the
  /// first was loaded for) and the live settings. Nil when nothing was reloaded.
  mutating func check(force: Bool = false) -> LiveLoop.Reload? {
    let changed = files.takeChange()
    let signalled = hangup() || force
    guard signalled || changed else { return nil }
    do {
      var o = options
      if let config = options.config {
        let text = try TextFile.read(config, what: "config file")
        o = try ArgumentParser.applyConfig(text, file: config, under: options.commandLine)
        o.commandLine = options.commandLine
      }
      let fresh = try Scene.load(o, resources: resources, board: board)
      defer { latest = o }
      // A layout the config now names is watched too.
      files.watch(Self.watched(o, resources: resources))
      return .reloaded(
        fresh, settings: LiveSettings(o), themeChanged: o.theme != latest.theme,
        variantChanged: o.variant != latest.variant)
    } catch {
      return .failed(LiveLoop.ReloadFailure(reason: error.message))
    }
  }
}

/// The reload files' watcher and the thread that waits in it: a change sets a flag the run
/// loop takes. The thread ends when this goes away.
final class ReloadFiles {
  /// What the thread and the run loop share.
  private final class Shared: @unchecked Sendable {
    let watcher: FileWatcher
    init(clock: Clock) { watcher = FileWatcher(mode: .automatic, pollInterval: 1.0, debounce: 0.2, clock: clock) }
    let lock = Lock()
    var changed = false
    var stopped = false
  }
  private let shared: Shared

  init(clock: Clock, wake: @escaping @Sendable () -> Void = {}) {
    let shared = Shared(clock: clock)
    self.shared = shared
    Threads.start(named: "reload") { [shared] in
      while !shared.lock.withLock({ shared.stopped }) {
        if !shared.watcher.wait(timeout: 60).isEmpty {
          shared.lock.withLock { shared.changed = true }
          wake()
        }
      }
    }
  }

  deinit {
    shared.lock.withLock { shared.stopped = true }
    shared.watcher.wake()
  }

  func watch(_ paths: [String]) { for p in paths { shared.watcher.watch(p) } }

  /// Whether a watched file changed since the last call.
  func takeChange() -> Bool {
    shared.lock.withLock {
      defer { shared.changed = false }
      return shared.changed
    }
  }
}
