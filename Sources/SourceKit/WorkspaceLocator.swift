internal import Wire
internal import WorkspaceFormats

/// Where an Orchestra workspace keeps its truth (`orchestra-storage.md` §1a, §2a): the storage
/// plugin's SQLite database under `~/.orchestra/db/`, else the markdown tree `<ws>/.projects/`.
public struct WorkspaceLocation: Hashable, Sendable {
  /// The store a source reads.
  public enum Store: Hashable, Sendable {
    /// The SQLite database file.
    case database(String)
    /// The `.projects/` folder.
    case markdown(String)
    /// Neither is there (yet): why, naming the path.
    case missing(Missing)
  }

  /// Why a workspace has no store to read (yet), each naming the path that is not there.
  public enum Missing: Hashable, Sendable, CustomStringConvertible {
    /// Nothing at the workspace's path.
    case noFolder(String)
    /// A file at the workspace's path.
    case notAFolder(String)
    /// The folder is there, with no `.projects/` in it (`tree`) and, when `database` is given,
    /// no database for it where the hash rule names one.
    case noStore(workspace: String, tree: String, database: String?)

    public var description: String {
      switch self {
      case .noFolder(let path): "\(path): no such folder"
      case .notAFolder(let path): "\(path): not a folder"
      case .noStore(let workspace, _, let database?):
        "\(workspace): no .projects folder and no Orchestra database (\(database))"
      case .noStore(let workspace, _, nil): "\(workspace): no .projects folder"
      }
    }
  }

  /// The workspace as an absolute, cleaned path (symbolic links not resolved, as upstream hashes it).
  public var workspace: String
  public var store: Store
  /// How it was found, for the source's detail: "SQLite ~/.orchestra/db/8fe0db68781ee67c.db
  /// (index.json)".
  public var detail: String

  public init(workspace: String, store: Store, detail: String) {
    self.workspace = workspace
    self.store = store
    self.detail = detail
  }
}

/// Finds a workspace's store. Pure but for the file-system look-ups it is given (the live ones:
/// `WorkspaceLocator.live` in EventSources).
public struct WorkspaceLocator: Sendable {
  /// `$HOME` (its `.orchestra/` holds the databases).
  public var home: String
  /// The folder a relative workspace path is taken from.
  public var currentDirectory: String
  /// Whether a regular file (or, for folders, a directory) is at a path.
  public var fileExists: @Sendable (String) -> Bool
  public var directoryExists: @Sendable (String) -> Bool
  /// A small file's bytes (at most `maxIndexBytes`), or nil.
  public var read: @Sendable (String) -> [UInt8]?

  /// `index.json` is a few lines per workspace; a larger one is not read.
  public static let maxIndexBytes = 1 << 20

  public init(
    home: String, currentDirectory: String,
    fileExists: @escaping @Sendable (String) -> Bool,
    directoryExists: @escaping @Sendable (String) -> Bool,
    read: @escaping @Sendable (String) -> [UInt8]?
  ) {
    self.home = home
    self.currentDirectory = currentDirectory
    self.fileExists = fileExists
    self.directoryExists = directoryExists
    self.read = read
  }

  public func hashedDatabase(for workspace: String) -> String {
    "\(home)/.orchestra/db/\(SHA256.hex(Array(workspace.utf8)).prefix(16)).db"
  }

  /// Finds the store of `path` (a workspace folder): the database `index.json` maps to it, else
  /// the one the hash rule names, else the markdown tree.
  public func locate(workspace path: String) -> WorkspaceLocation {
    let ws = WorkspaceLocator.absolute(path, from: currentDirectory)
    let dbDir = "\(home)/.orchestra/db"
    let hashed = hashedDatabase(for: ws)
    // Several hashes may map to one workspace (the standalone binary registers the literal "."
    // too): the one the hash rule names — what `orchestra serve` opens — comes first.
    let indexed = indexEntries(for: ws, in: dbDir).map { "\(dbDir)/\($0).db" }
    let preferred = indexed.contains(hashed) ? [hashed] + indexed.filter { $0 != hashed } : indexed
    if let found = preferred.first(where: fileExists) {
      return WorkspaceLocation(workspace: ws, store: .database(found), detail: "SQLite \(found) (index.json)")
    }
    if fileExists(hashed) {
      return WorkspaceLocation(workspace: ws, store: .database(hashed), detail: "SQLite \(hashed)")
    }
    let tree = WorkspaceLocator.tree(of: ws)
    if directoryExists(tree) {
      return WorkspaceLocation(workspace: ws, store: .markdown(tree), detail: "markdown \(tree) (no database)")
    }
    let missing =
      Self.folderMissing(ws, fileExists: fileExists, directoryExists: directoryExists)
      ?? .noStore(workspace: ws, tree: tree, database: hashed)
    return WorkspaceLocation(workspace: ws, store: .missing(missing), detail: missing.description)
  }

  /// Why the folder `workspace` (absolute) is not one: nothing there, or a file; nil when it
  /// is a folder.
  public static func folderMissing(
    _ workspace: String, fileExists: (String) -> Bool, directoryExists: (String) -> Bool
  ) -> WorkspaceLocation.Missing? {
    if directoryExists(workspace) { return nil }
    return fileExists(workspace) ? .notAFolder(workspace) : .noFolder(workspace)
  }

  /// Why the markdown tree of the folder `workspace` (absolute) cannot be read: no folder, a
  /// file, or no `.projects/` in it; nil when the tree is there.
  public static func treeMissing(
    _ workspace: String, fileExists: (String) -> Bool, directoryExists: (String) -> Bool
  ) -> WorkspaceLocation.Missing? {
    let tree = WorkspaceLocator.tree(of: workspace)
    if directoryExists(tree) { return nil }
    return folderMissing(workspace, fileExists: fileExists, directoryExists: directoryExists)
      ?? .noStore(workspace: workspace, tree: tree, database: nil)
  }

  /// A workspace's markdown tree, `<ws>/.projects`.
  public static func tree(of workspace: String) -> String {
    workspace.hasSuffix("/") ? workspace + ".projects" : workspace + "/.projects"
  }

  /// `~/.orchestra/db/global.db`: workflows per project (and accounts, locks: not read).
  public var globalDatabase: String { "\(home)/.orchestra/db/global.db" }

  /// The workspace `index.json` maps a database under `~/.orchestra/db/` to, if any.
  public func workspace(ofDatabase file: String) -> String? {
    let dbDir = "\(home)/.orchestra/db"
    guard file.hasPrefix(dbDir + "/"), file.hasSuffix(".db") else { return nil }
    let hash = String(file.dropFirst(dbDir.count + 1).dropLast(3))
    guard let bytes = read("\(dbDir)/index.json"),
      case .object(let map)? = try? JSONParser.parse(bytes, limits: JSONLimits(maxContainerElements: 10_000)),
      case .string(let ws)? = map[hash], ws.hasPrefix("/")
    else { return nil }
    return WorkspaceLocator.absolute(ws, from: "/")
  }

  /// The hashes `index.json` maps to `workspace`, sorted.
  public func indexEntries(for workspace: String, in dbDir: String) -> [String] {
    guard let bytes = read("\(dbDir)/index.json"),
      case .object(let map)? = try? JSONParser.parse(bytes, limits: JSONLimits(maxContainerElements: 10_000))
    else { return [] }
    return map.members.filter { member in
      if case .string(let p) = member.value { return WorkspaceLocator.absolute(p, from: "/") == workspace }
      return false
    }.map(\.key).filter { $0.count == 16 && $0.allSatisfy(\.isHexDigit) }.sorted()
  }

  /// `path` made absolute from `base` and cleaned like Go's `filepath.Abs`: no `.`, no `..`, no
  /// double or trailing `/`; links are not followed.
  public static func absolute(_ path: String, from base: String) -> String {
    let full = path.hasPrefix("/") ? path : base + "/" + path
    var parts: [Substring] = []
    for part in full.split(separator: "/", omittingEmptySubsequences: true) {
      switch part {
      case ".": continue
      case "..": if !parts.isEmpty { parts.removeLast() }
      default: parts.append(part)
      }
    }
    return "/" + parts.joined(separator: "/")
  }
}
