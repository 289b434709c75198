internal import CSQLite

/// What a statement being prepared asks to do, as SQLite's authorizer tells it
/// (`sqlite3_set_authorizer`): the action code and its up to four names.
public struct AuthorizerRequest: Hashable, Sendable, CustomStringConvertible {
  /// The action code (`SQLITE_SELECT` = 21, `SQLITE_READ` = 20, `SQLITE_PRAGMA` = 19, …).
  public var code: Int32
  /// The action's two names (for `SQLITE_READ` the table and the column; for `SQLITE_PRAGMA` the
  /// pragma and its argument), then the database (`main`) and the trigger or view, if any.
  public var names: [String?]

  public init(code: Int32, names: [String?]) {
    self.code = code
    self.names = names
  }

  /// What the request is, for the cases a guard tells apart.
  public enum Action: Hashable, Sendable {
    /// A `SELECT` statement (its reads are asked for one by one).
    case select
    /// Reading `column` of `table` in `database`, directly (not through a view or trigger).
    case read(table: String, column: String, database: String)
    /// A pragma and its argument.
    case pragma(name: String, argument: String?)
    /// Anything else: every write, schema change, function call, attach, transaction…
    case other
  }

  public var action: Action {
    let n = names + Array(repeating: nil, count: max(0, 4 - names.count))
    switch code {
    case SQLITE_SELECT: return .select
    case SQLITE_READ where n[3] == nil:
      return .read(table: n[0] ?? "", column: n[1] ?? "", database: n[2] ?? "")
    case SQLITE_PRAGMA: return .pragma(name: (n[0] ?? "").lowercased(), argument: n[1])
    default: return .other
    }
  }

  /// `20 session_locks feature_id main`.
  public var description: String { ([String(code)] + names.map { $0 ?? "-" }).joined(separator: " ") }
}

/// What an authorizer answers (`SQLITE_OK`, `SQLITE_DENY`).
public enum AuthorizerVerdict: Hashable, Sendable {
  /// The statement may do it.
  case allow
  /// The statement is refused: its preparation fails with `SQLITE_AUTH` ("not authorized").
  case deny
}

/// The Swift function behind the C callback: held by the connection, handed to SQLite unretained.
final class AuthorizerBox {
  let decide: (AuthorizerRequest) -> AuthorizerVerdict
  init(_ decide: @escaping (AuthorizerRequest) -> AuthorizerVerdict) { self.decide = decide }
}

extension Database {
  /// Sets the function asked, while each statement is prepared, about every table and column it
  /// would read or write, every pragma and every other action (`sqlite3_set_authorizer`); nil
  /// removes it. A `deny` makes the statement fail to prepare (`SQLITE_AUTH`), so a guard that
  /// allows only what a reader needs keeps a bug in that reader from touching anything else on
  /// the connection. It is asked on the connection's own thread, during `prepare`.
  public func setAuthorizer(_ decide: ((AuthorizerRequest) -> AuthorizerVerdict)?) {
    guard let decide else {
      sqlite3_set_authorizer(handle, nil, nil)
      authorizer = nil
      return
    }
    let box = AuthorizerBox(decide)
    authorizer = box
    sqlite3_set_authorizer(
      handle,
      { context, code, a, b, c, d in
        guard let context else { return SQLITE_DENY }
        let box = Unmanaged<AuthorizerBox>.fromOpaque(context).takeUnretainedValue()
        let names = [a, b, c, d].map { $0.map { String(cString: $0) } }
        return box.decide(AuthorizerRequest(code: code, names: names)) == .allow ? SQLITE_OK : SQLITE_DENY
      }, Unmanaged.passUnretained(box).toOpaque())
  }
}

extension SQLiteError {
  /// The statement was refused by the connection's authorizer (`SQLITE_AUTH`; SQLite says
  /// "not authorized" with `SQLITE_ERROR` for a refused table-valued function).
  public var isNotAuthorized: Bool { code == 23 || message == "not authorized" }
}
