internal import Codec
internal import SQLite
internal import WallboardCore

/// The journal's tables, versioned by `PRAGMA user_version`: a new file gets every migration, an
/// older one the migrations past its version, all in one transaction; a newer one is refused.
/// Nothing is changed in a file before it is known to be a journal (or empty).
enum JournalSchema {
  /// The migrations, in order: entry `i` takes the schema from version `i` to `i + 1`.
  static let migrations: [String] = [
    // 1: inputs, snapshots, and what the file is.
    """
    CREATE TABLE meta(key TEXT PRIMARY KEY, value ANY NOT NULL) WITHOUT ROWID;
    CREATE TABLE inputs(
      id INTEGER PRIMARY KEY,
      at INTEGER NOT NULL,
      kind INTEGER NOT NULL,
      origin TEXT NOT NULL,
      seq INTEGER,
      time INTEGER NOT NULL,
      topic TEXT,
      outcome INTEGER NOT NULL,
      body BLOB NOT NULL);
    CREATE TABLE snapshots(
      id INTEGER PRIMARY KEY,
      through INTEGER NOT NULL,
      at INTEGER NOT NULL,
      gap INTEGER NOT NULL DEFAULT 0,
      state BLOB NOT NULL);
    INSERT INTO meta(key, value) VALUES ('format', 'wallboard-journal');
    """
  ]

  static var version: Int { migrations.count }

  /// Checks that the file is a journal this build can read (its format, schema and codec
  /// versions) and, when `writable`, brings an older schema up to date.
  static func prepare(_ file: JournalFile, writable: Bool) throws(JournalError) {
    let path = file.path
    let db = file.db
    let found = try file.guarded { () throws(SQLiteError) in Int(try db.scalar("PRAGMA user_version")?.integer ?? 0) }
    guard found <= version else { throw .newerSchema(path: path, found: found, known: version) }
    if found == 0 {
      let tables = try file.guarded { () throws(SQLiteError) in
        try db.rows("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").compactMap { $0.first?.text }
      }
      guard tables.isEmpty else {
        throw .notAJournal(path: path, reason: "it has tables of its own (\(tables.prefix(5).joined(separator: ", ")))")
      }
      guard writable else { throw .notAJournal(path: path, reason: "it is empty") }
      // Fixed once the first table exists: compaction gives pages back.
      try file.guarded { () throws(SQLiteError) in try db.execute("PRAGMA auto_vacuum=INCREMENTAL") }
    } else {
      let format = try file.guarded { () throws(SQLiteError) in
        try db.scalar("SELECT value FROM meta WHERE key = 'format'")?.text
      }
      guard format == "wallboard-journal" else {
        throw .notAJournal(path: path, reason: "its meta table does not say format = wallboard-journal")
      }
    }
    if found < version {
      guard writable else {
        throw .notAJournal(path: path, reason: "schema \(found) needs migrating; open it to write")
      }
      try file.guarded { () throws(SQLiteError) in
        try db.transaction { () throws(SQLiteError) in
          for step in found..<version { try db.execute(migrations[step]) }
          try db.execute("PRAGMA user_version = \(version)")
          try db.execute(
            "INSERT OR REPLACE INTO meta(key, value) VALUES ('codec', \(BoardCodec.version))")
        }
      }
    }
    let codecValue = try file.guarded { () throws(SQLiteError) in
      try db.scalar("SELECT value FROM meta WHERE key = 'codec'")
    }
    guard let codecValue else { throw .notAJournal(path: path, reason: "its meta table names no encoding") }
    // Every blob names its own format: a codec row that is no number is skipped and named
    // (each blob is still checked by its own version byte), and written again when writing.
    let codec: Int64
    if let c = codecValue.integer {
      codec = c
    } else {
      file.metaSkips.append(
        JournalFile.Skip(
          table: "meta", row: "codec", reason: "\(shown(codecValue)) is not a codec version; each blob's own is read"))
      codec = Int64(BoardCodec.version)
      if writable {
        try file.guarded { () throws(SQLiteError) in
          try db.execute("UPDATE meta SET value = \(BoardCodec.version) WHERE key = 'codec'")
        }
      }
    }
    // A `compacted_through` that is no row id is skipped and named: the journal is read as if
    // never compacted (its base snapshot, a gap, still starts a replay).
    if let through = try file.guarded({ () throws(SQLiteError) in
      try db.scalar("SELECT value FROM meta WHERE key = 'compacted_through'")
    }), through != .null, through.integer == nil {
      file.metaSkips.append(
        JournalFile.Skip(table: "meta", row: "compacted_through", reason: "\(shown(through)) is not a row id; ignored"))
    }
    // Every blob carries its own format version, and this build reads the older ones (see
    // `BoardCodec.version`): a journal an older build wrote is read as it is, and once this build
    // writes to it the meta says the newest encoding it may hold.
    guard (Int64(BoardCodec.readable.lowerBound)...Int64(BoardCodec.version)).contains(codec) else {
      throw .otherEncoding(path: path, found: Int(clamping: codec), known: Int(BoardCodec.version))
    }
    file.openedEncoding = Int(codec)
    if writable, codec < Int64(BoardCodec.version) {
      try file.guarded { () throws(SQLiteError) in
        try db.execute("UPDATE meta SET value = \(BoardCodec.version) WHERE key = 'codec'")
      }
    }
  }

  /// A value as a skip names it: text quoted and cut at 40 characters.
  static func shown(_ v: Value) -> String {
    switch v {
    case .text(let t): (t.count > 40 ? String(t.prefix(40)) + "…" : t).debugDescription
    case .blob(let b): "a blob of \(b.count) bytes"
    case .null: "null"
    default: v.text ?? "?"
    }
  }
}
