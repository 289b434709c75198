internal import SQLite
public import SourceKit

/// The projects a workspace's store holds, read without following it: for `snapshot` and
/// `inspect` to name them when a `--project` matches none.
extension WorkspaceLocation.Store {
  /// The most project names read (a workspace has a few dozen).
  public static let maxProjects = 10_000

  /// The projects of this store, sorted: the project folders of a markdown tree (those starting
  /// with `.` belong to other plugins), or the projects of a database's features; nil when the
  /// store is missing or cannot be read.
  public var projects: [String]? {
    switch self {
    case .markdown(let tree):
      guard let real = MarkdownTree.realPath(tree), let top = MarkdownTree.entries(of: tree, inside: real) else {
        return nil
      }
      let slugs = top.names.filter { $0.isDirectory && !$0.name.hasPrefix(".") }.map(\.name).sorted()
      return Array(slugs.prefix(Self.maxProjects))
    case .database(let path):
      return try? OrchestraDatabase(path: path).projects(limit: Self.maxProjects)
    case .missing:
      return nil
    }
  }
}

extension OrchestraDatabase {
  /// The projects the features belong to, sorted, at most `limit`; none without a `project_id`
  /// column.
  func projects(limit: Int) throws(SQLiteError) -> [String] {
    guard columns.contains("project_id") else { return [] }
    return try db.rows(
      "SELECT DISTINCT project_id FROM features WHERE project_id IS NOT NULL ORDER BY project_id LIMIT ?",
      [.integer(Int64(limit))], limit: limit
    ).compactMap { $0.first?.text }
  }
}
