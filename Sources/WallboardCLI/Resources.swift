internal import Foundation

/// Finds the data Wallboard ships with (`assets/`, `Layouts/`).
///
/// Looked for, in order: `$WALLBOARD_HOME`; beside the executable and in each folder above it
/// (a build tree: `.build/debug/wallboard` finds the checkout); `../share/wallboard` beside the
/// executable (an installed tree); `/usr/local/share/wallboard`; `/usr/share/wallboard`.
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
    let exe = URL(fileURLWithPath: CommandLine.arguments.first ?? ".").resolvingSymlinksInPath()
    var dir = exe.deletingLastPathComponent()
    candidates.append(dir.appendingPathComponent("../share/wallboard").standardized.path)
    for _ in 0..<6 {
      candidates.append(dir.path)
      dir = dir.deletingLastPathComponent()
    }
    candidates += ["/usr/local/share/wallboard", "/usr/share/wallboard"]
    let fm = FileManager.default
    for c in candidates where fm.fileExists(atPath: c + "/assets/themes/ORDER") {
      return Resources(root: c)
    }
    throw .runtime(
      "cannot find Wallboard's assets (looked in: \(candidates.joined(separator: ", "))); set WALLBOARD_HOME")
  }
}
