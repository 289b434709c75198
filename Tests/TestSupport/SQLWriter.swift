internal import Foundation

/// A second process writing an SQLite database as Orchestra's storage plugin does
/// (`Tests/WorkspaceWriter/sqlwriter.py`, on Python's own sqlite3): tests read what it wrote.
public final class SQLWriter {
  public struct Failed: Error, CustomStringConvertible {
    public var description: String
  }

  private let process: WriterProcess

  public init(path: String) throws {
    process = try WriterProcess(script: "sqlwriter", argument: path)
  }

  deinit { stop() }

  /// Ends the writer (its connection closes; the WAL is checkpointed as SQLite does on close).
  public func stop() { process.stop() }

  /// Sends one command and returns the lines of its answer; throws on `ERR`.
  @discardableResult
  public func send(_ command: [String: Any]) throws -> [String] { try process.send(command) }

  /// One statement in autocommit, as the plugin writes.
  public func sql(_ sql: String, _ args: [Any] = []) throws { try send(["sql": sql, "args": args]) }

  public func script(_ sql: String) throws { try send(["script": sql]) }
}
