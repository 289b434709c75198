internal import EventSources
internal import Foundation
internal import WallboardCore

/// The live sources of a running board (or of `inspect`/`snapshot` following live sources):
/// each runs on its own thread and puts its inputs in one inbox.
final class SourceSet {
  private(set) var sims: [SimDriver] = []
  private(set) var orchestras: [OrchestraSource] = []
  private var followers: [JSONLinesFollower] = []
  /// Closed on `stop()`, so that a source waiting for room in it wakes and ends.
  private var inbox: Inbox?

  /// Starts `specs`. With `liveOnly`, the finite ones (sim, jsonl files) are left to the caller.
  static func start(_ specs: [SourceSpec], inbox: Inbox, liveOnly: Bool = false) throws(CLIError) -> SourceSet {
    let set = SourceSet()
    set.inbox = inbox
    for spec in specs {
      switch spec {
      case .sim(let seed, let speed, let start):
        if liveOnly { continue }
        let d = SimDriver(team: SimulatedTeam(seed: seed, start: start), origin: spec.name, speed: speed)
        d.start { inbox.put($0) }
        set.sims.append(d)
      case .jsonl(let path):
        if liveOnly && path != "-" { continue }
        let f = JSONLinesFollower(path: path, origin: spec.name)
        f.start { inbox.put($0) }
        set.followers.append(f)
      case .orchestra(let host, let port):
        let o = OrchestraSource(host: host, port: port, origin: spec.name)
        o.start { inbox.put($0) }
        set.orchestras.append(o)
      case .orchestraDB, .replay:
        set.stop()
        throw .runtime("the source \(spec.name) is not available in this build yet (supported: sim, jsonl, orchestra)")
      }
    }
    return set
  }

  /// Whether any source is live (followed rather than read to its end).
  static func hasLive(_ specs: [SourceSpec]) -> Bool {
    specs.contains {
      switch $0 {
      case .orchestra: true
      case .jsonl(let path): path == "-"
      default: false
      }
    }
  }

  /// When each waiting source will try again, by name.
  var reconnectAt: [String: Instant] {
    var out: [String: Instant] = [:]
    for o in orchestras { if let t = o.nextAttemptAt { out[o.origin] = t } }
    return out
  }

  func stop() {
    inbox?.close()
    sims.forEach { $0.stop() }
    orchestras.forEach { $0.stop() }
    followers.forEach { $0.stop() }
  }
}
