import Foundation
import Themes

/// Paths and reference data shared by the suites.
enum Fixtures {
  /// The repository root: three levels above this file (`Tests/ThemesTests/Fixtures.swift`).
  static let repoRoot: String = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { url.deleteLastPathComponent() }
    return url.path
  }()

  static let assetsDirectory = repoRoot + "/assets/themes"

  /// The project's copy of the reference themes table (`Tests/Fixtures/README.md`).
  static let tsvPath = repoRoot + "/Tests/Fixtures/reference/themes.tsv"

  /// The tsv as rows of column → value, in file order.
  static func tsvRows() throws -> [[String: String]] {
    let text = try String(contentsOfFile: tsvPath, encoding: .utf8)
    let lines = text.split(separator: "\n").map {
      $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
    }
    guard let header = lines.first else { return [] }
    return lines.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(header, $0)) }
  }

  static func loadCatalog() throws -> ThemeCatalog {
    try ThemeCatalog.load(directory: assetsDirectory)
  }

  /// A valid theme file; tests replace lines to break it.
  static let themeText = """
    # Nord (Test, dark).
    # Laid out like the shipped files: bg is on line 7.
    id          = nord
    label       = Nord
    group       = Test
    isLight     = false
    bg          = #2e3440
    bgAlt       = #3b4252
    bgContrast  = #272c36
    bgActive    = #434c5e
    bgSelection = #88c0d040
    fg          = #d8dee9
    fgDim       = #4c566a
    fgMuted     = #616e88
    fgBright    = #eceff4
    border      = #3b4252
    accent      = #88c0d0
    syntax      = dark
    """

  /// `themeText` with the line starting with `key` (after the first `id`…) replaced.
  static func theme(replacing key: String, with line: String) -> String {
    themeText.split(separator: "\n", omittingEmptySubsequences: false)
      .map { $0.hasPrefix(key + " ") ? line : String($0) }
      .joined(separator: "\n")
  }

  /// A small valid themes directory, as file name → text.
  static func directory() throws -> [String: String] {
    [
      "ORDER": "# order\nnord\n",
      "nord.theme": themeText,
      "palettes.tokens": try String(
        contentsOfFile: assetsDirectory + "/palettes.tokens", encoding: .utf8),
      "variants.tokens": try String(
        contentsOfFile: assetsDirectory + "/variants.tokens", encoding: .utf8),
    ]
  }
}
