import Foundation
import Testing
import Themes

/// Issue 9, item 14: theme data with CRLF line ends reads as with LF (one shared splitter).
@Suite("Theme files with CRLF")
struct ThemeCRLFTests {
  @Test func theWholeCatalogWithCRLFIsTheSameCatalog() throws {
    let lf = try Fixtures.loadCatalog()
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("themes-crlf-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    for name in try FileManager.default.contentsOfDirectory(atPath: Fixtures.assetsDirectory) {
      let text = try String(contentsOfFile: Fixtures.assetsDirectory + "/" + name, encoding: .utf8)
      let crlf = text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false)
        .map { String(String.UnicodeScalarView($0)) }.joined(separator: "\r\n")
      try crlf.write(to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8)
    }
    let crlf = try ThemeCatalog.load(directory: dir.path)
    #expect(crlf.themes.map(\.id) == lf.themes.map(\.id))
    #expect(crlf.themes == lf.themes)
    #expect(crlf.variants == lf.variants)
  }

  @Test func errorsKeepTheirLineNumbers() {
    let text = Fixtures.themeText.replacingOccurrences(of: "\n", with: "\r\n")
      .replacingOccurrences(of: "#2e3440", with: "#2e34")
    let error = #expect(throws: ThemeLoadError.self) { try ThemeCatalog.parse(themeFile: text, file: "nord.theme") }
    #expect(error?.line == 7, "\(String(describing: error))")
  }
}
