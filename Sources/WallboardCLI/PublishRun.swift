internal import Clock
internal import EventSources
internal import NATS
internal import Relay
internal import Runtime
internal import SourceKit
internal import WallboardCore

/// `wallboard publish --source … --to nats://HOST:PORT/BOARD`: a board with no screen whose
/// every input goes to the board's stream on NATS JetStream, for the walls that follow it.
///
/// It first reaches the broker (trying again, and saying so, while it is away: nothing is taken
/// meanwhile) and reads back what the walls have — the published board and the stream after it
/// — so that a restarted publisher goes on from there: its sources resume as after a journal
/// (`JournalPlace.keep`), and the walls see no change. A board it cannot read back, or one
/// published under other settings, is replaced: the sources start again and the walls are
/// given the new board whole. It then follows its sources as `run` does, and publishes every
/// input it takes (`BoardPublisher`).
///
/// It ends when every source has ended (standard input closed, a replay done) and the broker
/// acknowledged everything — exit 0 — or when stopped (SIGTERM, SIGINT): then it waits up to
/// `drainSeconds` for the broker to acknowledge what it took, puts the last board, and exits as
/// `run` does; what the broker never acknowledged is said.
struct PublishRun {
  let options: Options
  let console: Console
  let environment: [String: String]
  let clock: Clock
  var stop = StopRequest.never
  /// How long a stopped publisher waits for the broker's acknowledgements.
  static let drainSeconds = 10.0

  func run() throws(CLIError) {
    guard let to = options.to else { throw .usage("publish needs --to nats://HOST:PORT/BOARD") }
    guard !options.sources.isEmpty else { throw .usage("publish needs at least one --source") }
    if let relayed = options.sources.first(where: { $0.configuration is RelayBoardSource.Spec }) {
      throw .usage("publish: \(relayed.name) is a published board already; a wall shows it, nothing republishes it")
    }
    stop.arm()
    let nats: NATSOptions
    do throws(SourceError) {
      nats = try RelayLink.options(
        to, role: "publisher", credentials: options.nats.credentials, ca: options.nats.ca, clock: clock)
    } catch { throw .source(error) }
    let say = console.error
    guard
      let hub = RelayHub.open(
        to, options: nats,
        retention: RelayHub.Retention(days: options.streamDays, megabytes: options.streamMegabytes), clock: clock,
        say: say, stopped: { [stop] in stop.requested() != nil })
    else { return }
    defer { hub.connection.close() }
    var store = BoardStore(settings: options.boardSettings)
    let published = readBack(hub, into: &store)
    let made = try SourceSet.make(
      options.effectiveSources, declared: options.sprints, projects: options.filter.projects,
      settings: options.boardSettings, restored: store.state.origins, certificates: options.certificates,
      nats: options.nats, environment: environment, clock: clock)
    JournalPlace.keep(&store, to: made, at: store.clock)
    let publisher = BoardPublisher(link: hub, clock: clock, say: say)
    // The board at start goes to the bucket; to the stream as well when the walls' boards must
    // change to it (nothing published yet, another board, other settings, sources no longer named).
    publisher.take(store.state == published ? .board(store.state) : .gap(store.state))
    store.recorder = publisher
    publisher.start()
    defer { publisher.stop() }
    for i in SourceSet.announce(made, at: clock.now()) { store.apply(i) }
    let inbox = Inbox(clock: clock)
    let sources = SourceSet.start(made, inbox: inbox)
    let boardTime = sources.clock(real: { [clock] in clock.now() })
    let origins = made.filter { !($0 is DeclaredSprintsSource) }.map(\.origin)
    while stop.requested() == nil {
      inbox.wait(timeout: 0.25)
      for i in inbox.take() { store.apply(i, at: boardTime()) }
      if publisher.boardDue { publisher.save(store.state, at: boardTime()) }
      if origins.allSatisfy({ store.state.origins[$0]?.connection == .ended }) { break }
    }
    sources.stop()
    for i in inbox.take() { store.apply(i, at: boardTime()) }
    // The last board, after everything taken.
    publisher.save(store.state, at: boardTime())
    let stopped = stop.requested() != nil
    let deadline = clock.monotonic().adding(seconds: stopped ? Self.drainSeconds : .infinity)
    guard publisher.drain(until: deadline, clock: clock, stopped: { [stop] in !stopped && stop.requested() != nil })
    else {
      let left = publisher.unacknowledged
      throw .runtime(
        "publish: the broker did not acknowledge \(left) of the inputs and boards taken; the walls lack them")
    }
  }

  /// Reads back what the walls have into `store`; the board it is (nil: none to go on from).
  private func readBack(_ hub: RelayHub, into store: inout BoardStore) -> BoardState? {
    switch hub.readBack(timeout: 60, clock: clock) {
    case .nothing:
      return nil
    case .unreadable(let why):
      console.error("wallboard publish: \(why): the board starts from its sources, and the walls are given it whole")
      return nil
    case .board(let back):
      var s = BoardStore(state: back.state)
      for i in back.inputs { s.apply(i, asOfRule: .none) }
      guard s.state.settings == options.boardSettings else {
        console.error(
          "wallboard publish: \(hub.address) was published under other settings (workflow, estimates, filters): "
            + "the board starts from its sources, and the walls are given it whole")
        return nil
      }
      store = BoardStore(state: s.state)
      return s.state
    }
  }
}
