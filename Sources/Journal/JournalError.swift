public import SQLite

/// What went wrong with a journal, naming the file.
public enum JournalError: Error, Hashable, Sendable, CustomStringConvertible {
  /// It cannot be opened or created (a missing folder, no permission).
  case cannotOpen(path: String, reason: String)
  /// It is an SQLite file but not a Wallboard journal (another program's database).
  case notAJournal(path: String, reason: String)
  /// A later version of Wallboard wrote it: this one does not know its schema.
  case newerSchema(path: String, found: Int, known: Int)
  /// Its boards are encoded in another version of the board codec than this build reads.
  case otherEncoding(path: String, found: Int, known: Int)
  /// It was compacted under other settings (`--project`, `--label`, `--estimates`…) than the
  /// board's: its base cannot be rebuilt under these.
  case otherSettings(path: String)
  /// It is damaged: a page, a row or a blob could not be read.
  case damaged(path: String, detail: String)
  /// Another board is writing it.
  case inUse(path: String)
  /// A call to SQLite failed while reading or writing it.
  case sqlite(path: String, SQLiteError)
  /// `--at` asks for a moment before the oldest the journal still holds.
  case before(path: String, oldest: String)

  public var path: String {
    switch self {
    case .cannotOpen(let p, _), .notAJournal(let p, _), .newerSchema(let p, _, _), .otherEncoding(let p, _, _),
      .otherSettings(let p), .damaged(let p, _), .inUse(let p), .sqlite(let p, _), .before(let p, _):
      p
    }
  }

  public var description: String {
    switch self {
    case .cannotOpen(let p, let r): "journal \(p): cannot be opened: \(r)"
    case .notAJournal(let p, let r): "journal \(p): not a Wallboard journal: \(r)"
    case .newerSchema(let p, let found, let known):
      "journal \(p): written by a newer Wallboard (schema \(found); this one knows up to \(known))"
    case .otherEncoding(let p, let found, let known):
      "journal \(p): its boards are encoded in version \(found); this Wallboard reads version \(known)"
    case .otherSettings(let p):
      "journal \(p): compacted under other settings (filters, estimates or workflow) than these; "
        + "its older history cannot be rebuilt under them"
    case .damaged(let p, let d): "journal \(p): damaged: \(d)"
    case .inUse(let p): "journal \(p): another board is writing it"
    case .sqlite(let p, let e): "journal \(p): \(e)"
    case .before(let p, let oldest): "journal \(p): holds the board from \(oldest) on; --at is earlier"
    }
  }
}
