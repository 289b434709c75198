import Foundation
import Testing
import Themes

/// `ThemeCatalog.load(directory:only:)`: the shown theme alone, read and checked as `load` reads
/// and checks it, so that a board's first frame need not wait for the other themes.
@Suite struct OneThemeLoadTests {
  /// A copy of the shipped themes directory, to break files in.
  static func copiedThemes() throws -> URL {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("wallboard-one-theme-\(UUID())")
    try FileManager.default.copyItem(atPath: Fixtures.assetsDirectory, toPath: dir.path)
    return dir
  }

  @Test(arguments: ["orchestra", "dracula", "solarized-light"])
  func theOneThemeIsTheWholeCatalogsOwn(id: String) throws {
    let whole = try Fixtures.loadCatalog()
    let one = try #require(try ThemeCatalog.load(directory: Fixtures.assetsDirectory, only: id))
    #expect(one.themes == [try #require(whole.theme(id: id))])
    #expect(one.variants == whole.variants)
    #expect(one.palettes == whole.palettes)
    #expect(one.semantic == whole.semantic)
    #expect(one.stateColors == whole.stateColors)
  }

  @Test func aThemeOrderDoesNotListIsNil() throws {
    #expect(try ThemeCatalog.load(directory: Fixtures.assetsDirectory, only: "nord") == nil)
  }

  @Test func anotherBrokenThemeIsLeftToTheWholeLoad() throws {
    let dir = try Self.copiedThemes()
    defer { try? FileManager.default.removeItem(at: dir) }
    try "id = dracula\n".write(to: dir.appendingPathComponent("dracula.theme"), atomically: true, encoding: .utf8)
    let one = try ThemeCatalog.load(directory: dir.path, only: "orchestra")
    #expect(one?.themes.map(\.id) == ["orchestra"])
    #expect(throws: ThemeLoadError.self) { try ThemeCatalog.load(directory: dir.path) }
  }

  @Test func theShownThemeBrokenFailsAsTheWholeLoadDoes() throws {
    let dir = try Self.copiedThemes()
    defer { try? FileManager.default.removeItem(at: dir) }
    let file = dir.appendingPathComponent("dracula.theme")
    let text = try String(contentsOf: file, encoding: .utf8)
    try text.replacingOccurrences(of: "syntax", with: "syntex").write(to: file, atomically: true, encoding: .utf8)
    Self.expectTheSameError(loading: "dracula", from: dir.path)
  }

  @Test func theShownThemesMissingFileFailsAsTheWholeLoadDoes() throws {
    let dir = try Self.copiedThemes()
    defer { try? FileManager.default.removeItem(at: dir) }
    try FileManager.default.removeItem(at: dir.appendingPathComponent("dracula.theme"))
    Self.expectTheSameError(loading: "dracula", from: dir.path)
  }

  /// Loading `theme` alone fails, and with the whole load's words.
  static func expectTheSameError(loading theme: String, from dir: String) {
    var whole: ThemeLoadError?
    do { _ = try ThemeCatalog.load(directory: dir) } catch { whole = error }
    var one: ThemeLoadError?
    do { _ = try ThemeCatalog.load(directory: dir, only: theme) } catch { one = error }
    #expect(one != nil)
    #expect(one?.description == whole?.description)
  }
}
