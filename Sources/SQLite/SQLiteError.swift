/// What went wrong in SQLite: the primary result code, the library's message, and what it was
/// doing (the SQL, or the file it opened).
public struct SQLiteError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The primary result code (`SQLITE_BUSY` = 5, `SQLITE_CANTOPEN` = 14, …).
  public var code: Int32
  /// The extended result code, when the library gave one.
  public var extendedCode: Int32
  public var message: String
  /// The SQL statement, or `open <path>`.
  public var context: String

  public init(code: Int32, extendedCode: Int32? = nil, message: String, context: String) {
    self.code = code
    self.extendedCode = extendedCode ?? code
    self.message = message
    self.context = context
  }

  /// Another connection holds a lock the call needed (`SQLITE_BUSY`, `SQLITE_LOCKED`): worth
  /// trying again later.
  public var isBusy: Bool { code == 5 || code == 6 }
  /// The file is not there or cannot be opened (`SQLITE_CANTOPEN`).
  public var isCannotOpen: Bool { code == 14 }
  /// The file is not a database, or is damaged (`SQLITE_NOTADB`, `SQLITE_CORRUPT`).
  public var isNotADatabase: Bool { code == 26 || code == 11 }

  /// The statement ran past the connection's `statementTimeout` and was interrupted
  /// (`SQLITE_INTERRUPT`, which nothing else here asks for).
  public var isPastDeadline: Bool { code == 9 }

  /// The error of a statement (`context`) interrupted after `seconds`.
  public static func pastDeadline(seconds: Double, context: String) -> SQLiteError {
    SQLiteError(code: 9, message: "stopped after \(seconds) s, its time limit", context: context)
  }

  /// `sqlite: database is locked (code 5) in SELECT …`.
  public var description: String { "sqlite: \(message) (code \(extendedCode)) in \(context)" }
}
