internal import Foundation

/// A `~/.orchestra/db/global.db` as upstream keeps it, written by a second process
/// (`SQLWriter`): `session_locks` beside the tables the board must never read (`secrets`,
/// `accounts`) and `workflows`.
public enum GlobalDatabase {
  /// Upstream's tables (`globaldb`): `session_locks` one lock per (project, feature).
  public static let ddl = """
    CREATE TABLE workflows (project_id TEXT, states TEXT NOT NULL, initial_state TEXT, transitions TEXT);
    CREATE TABLE secrets (name TEXT PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE accounts (id TEXT PRIMARY KEY, email TEXT, token TEXT);
    CREATE TABLE session_locks (project_id TEXT NOT NULL, feature_id TEXT NOT NULL, session_id TEXT NOT NULL,
      locked_at DATETIME NOT NULL DEFAULT (datetime('now')), PRIMARY KEY (project_id, feature_id));
    INSERT INTO secrets VALUES ('anthropic', 'sk-never-read');
    INSERT INTO accounts VALUES ('u1', 'zoe@example.com', 'tok-never-read');
    """

  /// Creates the database at `path` (its folder made) and returns its writer, still open.
  public static func make(_ path: String, withLocks: Bool = true) throws -> SQLWriter {
    try FileManager.default.createDirectory(
      atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    let w = try SQLWriter(path: path)
    if withLocks {
      try w.script(ddl)
    } else {
      try w.script("CREATE TABLE workflows (project_id TEXT, states TEXT NOT NULL); CREATE TABLE secrets (v TEXT)")
    }
    return w
  }

  /// Takes or refreshes a lock, as `AcquireLock` does.
  public static func lock(
    _ w: SQLWriter, project: String, feature: String, session: String, at lockedAt: String
  ) throws {
    try w.sql(
      "INSERT OR REPLACE INTO session_locks (project_id, feature_id, session_id, locked_at) VALUES (?, ?, ?, ?)",
      [project, feature, session, lockedAt])
  }
}
