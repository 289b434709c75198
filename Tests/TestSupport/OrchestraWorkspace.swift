internal import Foundation

/// A real-format Orchestra workspace database, built from the storage reference
/// (`orchestra-storage.md` §1c–1d) by a second process that writes as the plugin does.
public final class OrchestraWorkspace {
  /// The plugin's DDL for the tables the board reads.
  public static let ddl = """
    CREATE TABLE IF NOT EXISTS projects (slug TEXT PRIMARY KEY, name TEXT NOT NULL, description TEXT DEFAULT '',
      metadata TEXT DEFAULT '{}', body TEXT DEFAULT '', version INTEGER DEFAULT 1,
      created_at TEXT NOT NULL DEFAULT (datetime('now')), updated_at TEXT NOT NULL DEFAULT (datetime('now')));
    CREATE TABLE IF NOT EXISTS features (id TEXT PRIMARY KEY,
      project_id TEXT NOT NULL REFERENCES projects(slug) ON DELETE CASCADE, title TEXT NOT NULL,
      description TEXT DEFAULT '', status TEXT DEFAULT 'backlog', priority TEXT DEFAULT 'P2',
      kind TEXT DEFAULT 'feature', assignee TEXT DEFAULT '', estimate TEXT DEFAULT '', labels TEXT DEFAULT '[]',
      depends_on TEXT DEFAULT '[]', body TEXT DEFAULT '', version INTEGER DEFAULT 1,
      created_at TEXT NOT NULL DEFAULT (datetime('now')), updated_at TEXT NOT NULL DEFAULT (datetime('now')));
    CREATE INDEX IF NOT EXISTS idx_features_project ON features(project_id);
    CREATE TABLE IF NOT EXISTS change_log (id INTEGER PRIMARY KEY AUTOINCREMENT, entity_type TEXT NOT NULL,
      entity_id TEXT NOT NULL, action TEXT NOT NULL, version INTEGER NOT NULL,
      timestamp TEXT NOT NULL DEFAULT (datetime('now')), synced INTEGER DEFAULT 0);
    CREATE TABLE IF NOT EXISTS sync_state (key TEXT PRIMARY KEY, value TEXT DEFAULT '');
    """

  /// The folder it made for the database (nil when it was given a path).
  public let dir: TempDir?
  public let path: String
  public let writer: SQLWriter

  /// A database file in a folder of its own, with the DDL (or `ddl`) applied.
  public init(name: String = "8fe0db68781ee67c.db", ddl: String = OrchestraWorkspace.ddl) throws {
    let dir = try TempDir("wallboard-workspace")
    self.dir = dir
    path = dir.url.appendingPathComponent(name).path
    writer = try SQLWriter(path: path)
    try writer.script(ddl)
  }

  /// The database at `path` (its folder exists), with the DDL (or `ddl`) applied.
  public init(at path: String, ddl: String = OrchestraWorkspace.ddl) throws {
    dir = nil
    self.path = path
    writer = try SQLWriter(path: path)
    try writer.script(ddl)
  }

  deinit { writer.stop() }

  /// `create_project`: the project row, before its features (foreign keys are on).
  public func project(_ slug: String, at time: String = "2026-11-01T09:00:00Z") throws {
    try writer.sql(
      "INSERT OR IGNORE INTO projects (slug, name, created_at, updated_at) VALUES (?, ?, ?, ?)",
      [slug, slug, time, time])
  }

  /// The plugin's write of one feature: three autocommit statements, no transaction — the CAS
  /// read, the upsert (never `project_id` or `created_at` on update; `updated_at` the plugin's
  /// now), then the change-log row.
  public func write(
    id: String, project: String = "web", title: String? = nil, status: String, estimate: String = "",
    labels: String = "[]", at time: String = "2026-11-03T10:00:00Z", logged: Bool = true
  ) throws {
    let version =
      (try writer.send(["query": "SELECT version FROM features WHERE id = ?", "args": [id]]).first)
      .flatMap { Int($0.dropFirst(5).dropLast()) }.map { $0 + 1 } ?? 1
    try writer.sql(
      """
      INSERT INTO features (id, project_id, title, status, estimate, labels, version, created_at, updated_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT(id) DO UPDATE SET title = excluded.title, status = excluded.status, estimate = excluded.estimate,
      labels = excluded.labels, version = excluded.version, updated_at = excluded.updated_at
      """, [id, project, title ?? "Feature \(id)", status, estimate, labels, version, time, time])
    if logged {
      try writer.sql(
        "INSERT INTO change_log (entity_type, entity_id, action, version, timestamp) VALUES ('features', ?, 'upsert', ?, ?)",
        [id, version, time])
    }
  }

  /// The plugin's delete: the row, then a change-log row with version 0.
  public func delete(id: String, at time: String = "2026-11-03T11:00:00Z") throws {
    try writer.sql("DELETE FROM features WHERE id = ?", [id])
    try writer.sql(
      "INSERT INTO change_log (entity_type, entity_id, action, version, timestamp) VALUES ('features', ?, 'delete', 0, ?)",
      [id, time])
  }
}

/// The database path upstream's hash rule gives a workspace (computed independently, by Python).
public enum EventSourcesLocator {
  public static func hashed(home: String, workspace: String) -> String {
    let hex =
      (try? Python.run(
        "import hashlib, sys; print(hashlib.sha256(sys.argv[1].encode()).hexdigest()[:16])", arguments: [workspace]))?
      .trimmingCharacters(in: .whitespacesAndNewlines) ?? "python-failed"
    return "\(home)/.orchestra/db/\(hex).db"
  }
}
