internal import Posix
public import SourceKit

#if canImport(Glibc)
  internal import Glibc
#endif

/// The file-system look-ups a `WorkspaceLocator` is given on a live machine.
extension WorkspaceLocator {
  /// A locator that looks at this machine's files.
  public init(home: String, currentDirectory: String) {
    self.init(
      home: home, currentDirectory: currentDirectory, fileExists: Self.isFile, directoryExists: Self.isDirectory,
      read: Self.readSmall)
  }

  /// The locator of this process: `HOME` from `environment` (respected, so tests and services
  /// can point it elsewhere), the current directory.
  public static func live(environment: [String: String]) -> WorkspaceLocator {
    WorkspaceLocator(
      home: environment["HOME"] ?? passwordHome(), currentDirectory: FileSystem.currentDirectory)
  }

  /// The home directory the password database gives this user (a service started without `HOME`).
  private static func passwordHome() -> String {
    guard let entry = getpwuid(getuid()), let dir = entry.pointee.pw_dir else { return "/" }
    return String(cString: dir)
  }

  /// The database upstream's hash rule names: `~/.orchestra/db/` + the first 16 hex digits of
  /// SHA-256 of the absolute workspace path + `.db`.
  /// Why the folder `workspace` (absolute) is not one, on this machine's files.
  public static func folderMissing(_ workspace: String) -> WorkspaceLocation.Missing? {
    folderMissing(workspace, fileExists: isFile, directoryExists: isDirectory)
  }

  /// Why the markdown tree of the folder `workspace` (absolute) cannot be read, on this
  /// machine's files.
  public static func treeMissing(_ workspace: String) -> WorkspaceLocation.Missing? {
    treeMissing(workspace, fileExists: isFile, directoryExists: isDirectory)
  }

  public static let isFile: @Sendable (String) -> Bool = { path in
    var st = stat()
    return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFREG
  }

  public static let isDirectory: @Sendable (String) -> Bool = { path in
    var st = stat()
    return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR
  }

  /// A small regular file's bytes (`index.json`, a server's `.info`), read without ever
  /// blocking (`RegularFile.read`): nil for a FIFO, a device, a link or more than `maxIndexBytes`.
  public static let readSmall: @Sendable (String) -> [UInt8]? = { path in
    try? RegularFile.read(path, limit: maxIndexBytes, followLinks: false).get()
  }
}
