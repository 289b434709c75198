public import WallboardCore

/// Makes the source a `--source` spec names: the one place that knows every kind.
public enum SourceRegistry {
  /// The source for `spec`; an error for a kind this build does not have.
  public static func make(_ spec: SourceSpec) throws(SourceError) -> any EventSource {
    switch spec {
    case .sim(let seed, let speed, let start):
      return SimSource(team: SimulatedTeam(seed: seed, start: start), origin: spec.name, speed: speed)
    case .jsonl(let path):
      return JSONLinesSource(path: path, origin: spec.name)
    case .orchestra(let host, let port):
      return OrchestraSource(host: host, port: port, origin: spec.name)
    case .orchestraDB, .replay:
      throw SourceError(
        source: spec.name, problem: "not available in this build yet (supported: sim, jsonl, orchestra)")
    }
  }
}
