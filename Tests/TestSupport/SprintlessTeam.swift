public import WallboardCore

/// A team without sprints on upstream's 7-state workflow, as Orchestra teams are: features created
/// every half day or so from `start`, each moving on through the states (some sent back for edits,
/// one parked in a state the workflow does not know) at seeded, deterministic moments.
public enum SprintlessTeam {
  public static let start = Make.t("2026-10-20T08:00:00Z")

  /// The board's settings for this team: upstream's workflow.
  public static var settings: BoardSettings { BoardSettings(workflow: .upstream) }

  /// Every event up to and including `through`, oldest first, one feature's change per event.
  public static func events(through: Instant, features: Int = 48, seed: UInt64 = 7) -> [Event] {
    var rng = TestRandom(state: seed)
    var out: [(Instant, Int, Event.Body)] = []
    let path = ["in-progress", "in-testing", "in-review", "done"]
    for i in 0..<features {
      let id = "F\(i + 1)"
      var t = start.adding(seconds: Double(i) * 11 * 3600 + Double(rng.below(3600)))
      guard t <= through else { break }
      let estimate = ["S", "M", "L", "XL"][rng.below(4)]
      out.append((t, out.count, .featureCreated(Make.feature(id, status: "todo", estimate: estimate))))
      var step = 0
      while step < path.count {
        t = t.adding(seconds: Double(4 + rng.below(40)) * 3600)
        guard t <= through else { break }
        var status = path[step]
        if status == "done" && rng.below(4) == 0 {
          status = "needs-edits"
          step = 0
        } else if i == 5 && step == 1 {
          // A legacy status the workflow does not know, kept as written: it stays there.
          out.append((t, out.count, .featureUpdated(FeaturePatch(id: id, status: "parked"))))
          break
        } else {
          step += 1
        }
        out.append((t, out.count, .featureUpdated(FeaturePatch(id: id, status: status))))
      }
    }
    out.sort { ($0.0, $0.1) < ($1.0, $1.1) }
    return out.map { Event(origin: "team", publisher: nil, seq: nil, time: $0.0, body: $0.2) }
  }

  /// The board after `events(through:)`.
  public static func state(through: Instant) -> BoardState {
    Make.state(events(through: through), from: BoardState(settings: settings))
  }
}
