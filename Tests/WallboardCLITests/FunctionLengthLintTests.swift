import Foundation
import Testing

/// `scripts/function-lengths.sh`, which `make lint` runs: a function in the command line longer
/// than 80 lines fails (issue 22: the command line is an edge).
@Suite struct FunctionLengthLintTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
  static let script = root.appendingPathComponent("scripts/function-lengths.sh").path

  /// Runs the script on `folder`; its exit status and output.
  static func run(_ folder: String, max: Int = 80) throws -> (status: Int32, output: String) {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/bin/sh")
    p.arguments = [script, folder, String(max)]
    let out = Pipe()
    p.standardOutput = out
    p.standardError = out
    try p.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    return (p.terminationStatus, String(decoding: data, as: UTF8.self))
  }

  /// A temporary folder holding `Planted.swift` with `text`.
  static func folder(_ text: String) throws -> String {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("function-lengths-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    try text.write(to: dir.appendingPathComponent("Planted.swift"), atomically: true, encoding: .utf8)
    return dir.path
  }

  /// A function of `lines` lines in all: its declaration, its body and its closing brace.
  static func function(_ decl: String, lines: Int) -> String {
    decl + " {\n" + String(repeating: "  _ = 1\n", count: lines - 2) + "}\n"
  }

  @Test(arguments: ["func run()", "  public static func load(_ o: Options) throws(CLIError) -> Int", "init(x: Int)"])
  func aFunctionOfEightyOneLinesFails(decl: String) throws {
    let text = "enum E {\n" + Self.function(decl, lines: 81) + "}\n"
    let (status, output) = try Self.run(try Self.folder(text))
    #expect(status == 1)
    #expect(output.contains("Planted.swift:2: 81 lines"), "\(output)")
  }

  @Test func eightyLinesBracesInStringsAndCommentsAndMultilineTextPass() throws {
    let body = String(repeating: "  let s = \"}}}\"  // }\n", count: 40)
    let text =
      "func a() {\n" + body + "}\n" + Self.function("func b()", lines: 80)
      + "let help = \"\"\"\n  func c() {\n  }}}\n  \"\"\"\n"
    let (status, output) = try Self.run(try Self.folder(text))
    #expect(status == 0, "\(output)")
  }

  @Test func theCommandLinesFunctionsAreAtMostEightyLines() throws {
    let (status, output) = try Self.run(Self.root.appendingPathComponent("Sources/WallboardCLI").path)
    #expect(status == 0, "\(output)")
  }
}
