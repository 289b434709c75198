internal import EventSources
internal import Foundation
internal import WallboardCore

/// The sources of a running board (or of `inspect`/`snapshot` following the live ones): each
/// runs on its own thread and puts its inputs in one inbox.
final class SourceSet {
  private(set) var sources: [any EventSource] = []
  /// Closed on `stop()`, so that a source waiting for room in it wakes and ends.
  private var inbox: Inbox?

  /// Makes every source `specs` name (an error names the first that cannot be made), after the
  /// declared sprints' source when there are any: first, so that every feature is recorded
  /// knowing their membership labels. `restored` is what a board restored from a journal holds
  /// of each origin (the simulation goes on from there).
  static func make(
    _ specs: [SourceSpec], declared: [Sprint] = [], projects: [String] = [], settings: BoardSettings? = nil,
    restored: [String: OriginState] = [:], environment: [String: String], clock: @escaping @Sendable () -> Instant
  ) throws(CLIError) -> [any EventSource] {
    // `--project`: the workspace sources leave other projects' features unread (the board's
    // filter would keep them aside anyway).
    let context = SourceContext(
      locator: .live(environment: environment), clock: clock, projects: projects.isEmpty ? nil : Set(projects),
      settings: settings, restored: restored)
    var out: [any EventSource] = declared.isEmpty ? [] : [DeclaredSprintsSource(sprints: declared, clock: clock)]
    for spec in specs {
      do throws(SourceError) { out.append(try SourceRegistry.make(spec, context: context)) } catch {
        throw .runtime(error.description)
      }
    }
    return out
  }

  /// Starts `sources`. With `liveOnly`, the finite ones are left to the caller (read to their end).
  static func start(_ sources: [any EventSource], inbox: Inbox, liveOnly: Bool = false) -> SourceSet {
    let set = SourceSet()
    set.inbox = inbox
    for s in sources where !(liveOnly && s.isFinite) {
      s.start { inbox.put($0) }
      set.sources.append(s)
    }
    return set
  }

  /// When each waiting source will try again, by name.
  var reconnectAt: [String: Instant] {
    var out: [String: Instant] = [:]
    for s in sources { if let t = s.nextAttemptAt { out[s.origin] = t } }
    return out
  }

  /// The board's clock: the sources' own (the simulation's) when every source has one, else `real`.
  /// Declared sprints are no source of time: they leave the choice to the others.
  func clock(real: @escaping @Sendable () -> Instant) -> @Sendable () -> Instant {
    let timed = sources.filter { !($0 is DeclaredSprintsSource) }
    let own = timed.compactMap(\.ownClock)
    return own.count == timed.count && !own.isEmpty ? own[0] : real
  }

  func stop() {
    inbox?.close()
    sources.forEach { $0.stop() }
  }
}
