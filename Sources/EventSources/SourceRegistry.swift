public import WallboardCore

/// What making a source may need from the process: where `HOME` is (Orchestra keeps its
/// databases under it), the current folder, the one clock.
public struct SourceContext: Sendable {
  public var locator: WorkspaceLocator
  public var clock: @Sendable () -> Instant
  public init(locator: WorkspaceLocator, clock: @escaping @Sendable () -> Instant) {
    self.locator = locator
    self.clock = clock
  }
}

/// Makes the source a `--source` spec names: the one place that knows every kind.
public enum SourceRegistry {
  /// The source for `spec`; an error for a kind this build does not have.
  public static func make(_ spec: SourceSpec, context: SourceContext) throws(SourceError) -> any EventSource {
    switch spec {
    case .sim(let seed, let speed, let start):
      return SimSource(team: SimulatedTeam(seed: seed, start: start), origin: spec.name, speed: speed)
    case .jsonl(let path):
      return JSONLinesSource(path: path, origin: spec.name)
    case .orchestra(let host, let port):
      return OrchestraSource(host: host, port: port, origin: spec.name, clock: context.clock)
    case .orchestraDB(let path):
      // A database file, or a workspace folder whose database the locator finds (again on every
      // try: it may appear later).
      let locator = context.locator
      return OrchestraDBSource(origin: spec.name, clock: context.clock) {
        if WorkspaceLocator.isDirectory(path) {
          let found = locator.locate(workspace: path)
          if case .database(let db) = found.store { return (db, found.detail) }
          return (nil, "\(found.workspace): no Orchestra database (\(locator.hashedDatabase(for: found.workspace)))")
        }
        let file = WorkspaceLocator.absolute(path, from: locator.currentDirectory)
        return WorkspaceLocator.isFile(file) ? (file, "SQLite \(file)") : (nil, "\(file): no such database yet")
      }
    case .replay:
      throw SourceError(
        source: spec.name, problem: "not available in this build yet (supported: sim, jsonl, orchestra, orchestra-db)")
    }
  }
}
