internal import Posix

/// Finds the data Wallboard ships with (`assets/`, `Layouts/`).
///
/// Looked for, in order: `$WALLBOARD_HOME`; `../share/wallboard` beside the executable (an
/// installed tree, whatever its prefix); beside the executable and in each folder above it (a
/// build tree: `.build/debug/wallboard` finds the checkout); `/usr/local/share/wallboard`;
/// `/usr/share/wallboard`. The executable is the file the process runs (`/proc/self/exe`), not
/// `argv[0]`, which is only a name when the binary was started through `PATH`.
public struct Resources: Sendable {
  /// The folder holding `assets/` and `Layouts/`.
  public let root: String

  public var themes: String { root + "/assets/themes" }
  public var layouts: String { root + "/Layouts" }
  public var fonts: String { root + "/assets/fonts" }

  public init(root: String) { self.root = root }

  /// Locates the resources, or says where it looked.
  public static func locate(environment: [String: String]) throws(CLIError) -> Resources {
    var candidates: [String] = []
    if let home = environment["WALLBOARD_HOME"], !home.isEmpty { candidates.append(home) }
    let exe = FileSystem.resolved(executablePath())
    var dir = FileSystem.parent(of: exe)
    candidates.append(FileSystem.parent(of: dir) + "/share/wallboard")
    for _ in 0..<6 {
      candidates.append(dir)
      dir = FileSystem.parent(of: dir)
    }
    candidates += ["/usr/local/share/wallboard", "/usr/share/wallboard"]
    for c in candidates where FileSystem.exists(c + "/assets/themes/ORDER") {
      return Resources(root: c)
    }
    throw .runtime(
      "cannot find Wallboard's assets (looked in: \(candidates.joined(separator: ", "))); set WALLBOARD_HOME")
  }

  /// The running executable's path: `/proc/self/exe` on Linux, else `argv[0]`.
  static func executablePath() -> String {
    if let path = FileSystem.linkTarget("/proc/self/exe") { return path }
    return CommandLine.arguments.first ?? "."
  }
}
