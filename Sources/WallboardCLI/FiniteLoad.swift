internal import EventSources
internal import Foundation
internal import Projections
public import WallboardCore

/// Reads every source to the point `snapshot` and `inspect` show: finite sources to their end,
/// the simulated team up to `--at` (or its default present moment).
public struct FiniteLoad: Sendable {
  public var state: BoardState
  /// The moment to show.
  public var at: Instant

  /// How far past the real clock the default moment may go (a day: events from a zone ahead).
  public static let futureTolerance = 86_400.0

  /// Builds the board from `options`' sources. `now` is the receive time for events without
  /// a `time` and the moment shown when nothing else decides it.
  ///
  /// - Parameters:
  ///   - environment: for the sources that need it (`HOME`, where Orchestra keeps its databases).
  ///   - clock: the one clock live sources read.
  public static func load(
    _ options: Options, now: Instant, environment: [String: String]? = nil,
    clock: (@Sendable () -> Instant)? = nil
  ) throws(CLIError) -> FiniteLoad {
    var state = BoardState(settings: options.boardSettings)
    var present: Instant?
    // `--wait` bounds the whole load: an endless input (a device, a FIFO, a far-off `--at` for
    // the simulation) is cut off and shown as still being read.
    let started = Date()
    let deadline = started.addingTimeInterval(options.wait)
    func apply(_ input: BoardInput) { Reducer.reduce(into: &state, input) }
    let sources = try SourceSet.make(
      options.effectiveSources, declared: options.sprints, projects: options.filter.projects,
      environment: environment ?? ProcessInfo.processInfo.environment, clock: clock ?? SystemClock.now)
    for source in sources where source.isFinite {
      do throws(SourceError) {
        if let reached = try source.read(through: options.at, receivedAt: now, deadline: deadline, deliver: apply) {
          present = max(present ?? reached, reached)
        }
      } catch {
        throw .badInput(error.description)
      }
    }
    // Live sources: followed until nothing new for --settle seconds, or --wait at most.
    if sources.contains(where: { !$0.isFinite }) {
      let inbox = Inbox()
      let live = SourceSet.start(sources, inbox: inbox, liveOnly: true)
      let liveStarted = Date()
      while Date() < deadline {
        inbox.wait(timeout: 0.05)
        for input in inbox.take() { apply(input) }
        let quiet = Date().timeIntervalSince(max(inbox.lastNewsAt, liveStarted))
        if quiet >= options.settle { break }
      }
      live.stop()
      // Events still in flight count; the sources' own "stopped" does not: the output says
      // each source's status as it was.
      for input in inbox.take() {
        if case .connection = input { continue }
        apply(input)
      }
    }
    // The last event's time, but never more than a day past the real clock: one far-future
    // event does not stretch the present.
    let latest = state.lastEventTime.map { min($0, now.adding(seconds: FiniteLoad.futureTolerance)) }
    let at = options.at ?? present ?? latest ?? now
    return FiniteLoad(state: state, at: at)
  }
}
