public import Foundation

/// Runs another program to its end for a test and gives back its exit status and output. The
/// output goes to files, not pipes, so a child that writes much to both streams cannot block.
public enum Command {
  public struct Result: Sendable {
    public var status: Int32
    public var out: String
    public var err: String
  }

  /// Runs `executable arguments` (in `directory`, with exactly `environment` when given, stdin
  /// from /dev/null) and waits for it.
  public static func run(
    _ executable: URL, _ arguments: [String], environment: [String: String]? = nil, in directory: URL? = nil
  ) throws -> Result {
    let scratch = FileManager.default.temporaryDirectory
    let out = scratch.appendingPathComponent("wallboard-command-out-\(UUID().uuidString)")
    let err = scratch.appendingPathComponent("wallboard-command-err-\(UUID().uuidString)")
    FileManager.default.createFile(atPath: out.path, contents: nil)
    FileManager.default.createFile(atPath: err.path, contents: nil)
    defer {
      try? FileManager.default.removeItem(at: out)
      try? FileManager.default.removeItem(at: err)
    }
    let p = Process()
    p.executableURL = executable
    p.arguments = arguments
    if let environment { p.environment = environment }
    if let directory { p.currentDirectoryURL = directory }
    p.standardInput = FileHandle.nullDevice
    p.standardOutput = try FileHandle(forWritingTo: out)
    p.standardError = try FileHandle(forWritingTo: err)
    try p.run()
    p.waitUntilExit()
    return Result(
      status: p.terminationStatus, out: try String(contentsOf: out, encoding: .utf8),
      err: try String(contentsOf: err, encoding: .utf8))
  }
}
