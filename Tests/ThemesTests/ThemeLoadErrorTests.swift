import Foundation
import Raster
import Testing
import Themes

@Suite("ThemeLoadError names the file, the line and the key")
struct ThemeLoadErrorTests {
  static let file = "assets/themes/nord.theme"

  func themeError(_ text: String) -> ThemeLoadError? {
    do {
      _ = try ThemeCatalog.parse(themeFile: text, file: Self.file)
      return nil
    } catch {
      return error
    }
  }

  @Test func validFixtureParses() throws {
    let theme = try ThemeCatalog.parse(themeFile: Fixtures.themeText, file: Self.file)
    #expect(theme.id == "nord")
    #expect(theme.bgSelection.hex == "#88c0d040")
    #expect(theme.isLight == false)
  }

  @Test("the brief's example, word for word")
  func badColorExample() throws {
    let error = try #require(themeError(Fixtures.theme(replacing: "bg", with: "bg = #12345")))
    #expect(error.file == Self.file)
    #expect(error.line == 7)
    #expect(error.key == "bg")
    #expect(error.reason == .badColor("#12345"))
    #expect(
      error.description
        == ##"assets/themes/nord.theme:7: bg: "#12345" is not a #rrggbb or #rrggbbaa colour"##)
  }

  @Test(
    "each way a theme file can be wrong",
    arguments: [
      // (replaced key, new line, expected line, expected key, expected reason)
      ("isLight", "isLight = yes", 6, "isLight", ThemeLoadError.Reason.badBoolean("yes")),
      ("isLight", "isLight = True", 6, "isLight", .badBoolean("True")),
      ("accent", "accent = #88c0d0\nbg = #000000", 18, "bg", .duplicateKey(firstLine: 7)),
      ("border", "bordr = #3b4252", 16, "bordr", .unknownKey),
      ("border", "border", 16, nil, .notKeyValue("border")),
      ("border", "border =", 16, "border", .emptyValue),
      ("border", " = #3b4252", 16, nil, .emptyKey),
      ("fgDim", "fgDim = 4c566a", 13, "fgDim", .badColor("4c566a")),
      ("bg", "bg = #2e344080", 7, "bg", .translucentBackground("#2e344080")),
      ("id", "id = Nord", 3, "id", .badName("Nord")),
      ("syntax", "syntax = Dark Mode", 18, "syntax", .badName("Dark Mode")),
    ] as [(String, String, Int, String?, ThemeLoadError.Reason)])
  func themeFileErrors(
    key: String, line: String, expectedLine: Int, expectedKey: String?,
    reason: ThemeLoadError.Reason
  ) throws {
    let error = try #require(themeError(Fixtures.theme(replacing: key, with: line)))
    #expect(error.file == Self.file)
    #expect(error.line == expectedLine)
    #expect(error.key == expectedKey)
    #expect(error.reason == reason)
    let prefix = "\(Self.file):\(expectedLine): " + (expectedKey.map { "\($0): " } ?? "")
    #expect(error.description.hasPrefix(prefix), "\(error)")
  }

  @Test(
    "a missing key names the file and the key (there is no line)",
    arguments: ThemeCatalog.themeKeys)
  func missingKey(key: String) throws {
    let error = try #require(themeError(Fixtures.theme(replacing: key, with: "# removed")))
    #expect(error == ThemeLoadError(file: Self.file, key: key, reason: .missingKey))
    #expect(error.description == "\(Self.file): \(key): missing (the key is required)")
  }

  @Test("\\r\\n line ends and extra blanks are accepted")
  func lenientWhitespace() throws {
    let text = Fixtures.themeText.replacing("\n", with: "\r\n").replacing(" = ", with: "\t=   ")
    let theme = try ThemeCatalog.parse(themeFile: text, file: Self.file)
    #expect(theme == (try ThemeCatalog.parse(themeFile: Fixtures.themeText, file: Self.file)))
    #expect(themeError(Fixtures.theme(replacing: "bg", with: "bg = #zz0000\r"))?.line == 7)
  }

  // MARK: - The other files

  @Test func paletteFileErrors() throws {
    let path = "assets/themes/palettes.tokens"
    func error(_ text: String) -> ThemeLoadError? {
      do {
        _ = try ThemeCatalog.parse(paletteFile: text, file: path)
        return nil
      } catch { return error }
    }
    let semantic =
      "semantic.success = #22c55e\nsemantic.warning = #f59e0b\nsemantic.error = #ef4444\nsemantic.info = #3b82f6\n"
    let palette = SyntaxPalette.colorNames.map { "palette.p.\($0) = #000000" }.joined(
      separator: "\n")
    let valid = semantic + palette + "\nstate.in-progress = accent\nstate.done = success\n"
    let tokens = try ThemeCatalog.parse(paletteFile: valid, file: path)
    #expect(tokens.states.listed["in-progress"] == .themeToken(.accent))
    #expect(tokens.states.listed["done"] == .color(tokens.semantic.success))

    // One theme's own colour for a state, possibly from its syntax palette.
    let perTheme = try ThemeCatalog.parse(
      paletteFile: valid + "state.in-progress.nord = syntax.purple\nstate.todo.nord = #123456\n", file: path)
    #expect(
      perTheme.states.perTheme["nord"] == [
        "in-progress": .syntaxColor("purple"), "todo": .color(RGBA(hex: "#123456")!),
      ])
    #expect(perTheme.states.listed["in-progress"] == .themeToken(.accent))
    #expect(
      error(valid + "state.todo.nord = syntax.pink")
        == ThemeLoadError(file: path, line: 16, key: "state.todo.nord", reason: .badStateColor("syntax.pink")))
    #expect(
      error(valid + "state.todo.nord.x = #000000")
        == ThemeLoadError(file: path, line: 16, key: "state.todo.nord.x", reason: .unknownKey))
    #expect(
      error(valid + "state.todo = bluish")
        == ThemeLoadError(file: path, line: 16, key: "state.todo", reason: .badStateColor("bluish"))
    )
    #expect(
      error(valid + "palette.p.pink = #000000")
        == ThemeLoadError(file: path, line: 16, key: "palette.p.pink", reason: .unknownKey))
    #expect(
      error(valid + "colour.x = #000000")
        == ThemeLoadError(file: path, line: 16, key: "colour.x", reason: .unknownKey))
    #expect(
      error(valid + "palette.q.blue = #000000")
        == ThemeLoadError(file: path, key: "palette.q.cyan", reason: .missingKey))
    #expect(
      error(palette) == ThemeLoadError(file: path, key: "semantic.success", reason: .missingKey))
    #expect(
      error(valid + "semantic.info = #3b82f6")
        == ThemeLoadError(
          file: path, line: 16, key: "semantic.info", reason: .duplicateKey(firstLine: 4)))
    #expect(
      error(valid + "semantic.info = #3b82f")
        == ThemeLoadError(
          file: path, line: 16, key: "semantic.info", reason: .duplicateKey(firstLine: 4)))
    let badColor = error(semantic.replacing("#f59e0b", with: "orange"))
    #expect(
      badColor
        == ThemeLoadError(file: path, line: 2, key: "semantic.warning", reason: .badColor("orange"))
    )
  }

  @Test func variantFileErrors() throws {
    let path = "assets/themes/variants.tokens"
    func error(_ text: String) -> ThemeLoadError? {
      do {
        _ = try ThemeCatalog.parse(variantFile: text, file: path)
        return nil
      } catch { return error }
    }
    let valid = Variant.metricNames.map { "v.\($0) = 4" }.joined(separator: "\n") + "\n"
    #expect(try ThemeCatalog.parse(variantFile: valid, file: path).map(\.name) == ["v"])
    #expect(
      error(valid.replacing("v.radiusMd = 4", with: "v.radiusMd = -1"))
        == ThemeLoadError(file: path, line: 4, key: "v.radiusMd", reason: .badNumber("-1")))
    #expect(
      error(valid.replacing("v.radiusMd = 4", with: "v.radiusMd = nan"))
        == ThemeLoadError(file: path, line: 4, key: "v.radiusMd", reason: .badNumber("nan")))
    // Lengths are capped: a radius of 1e308 made every number computed from it unbounded.
    for big in ["1e308", "401", "inf"] {
      #expect(
        error(valid.replacing("v.radiusMd = 4", with: "v.radiusMd = \(big)"))
          == ThemeLoadError(file: path, line: 4, key: "v.radiusMd", reason: .badNumber(big)))
    }
    #expect(try ThemeCatalog.parse(variantFile: valid.replacing("= 4", with: "= 400"), file: path).count == 1)
    #expect(
      error(valid.replacing("v.radiusMd = 4", with: "# gone"))
        == ThemeLoadError(file: path, key: "v.radiusMd", reason: .missingKey))
    #expect(
      error(valid + "v.radiusXl = 20")
        == ThemeLoadError(file: path, line: 6, key: "v.radiusXl", reason: .unknownKey))
  }

  // MARK: - Assembling a directory

  func assembleError(_ files: [String: String]) -> ThemeLoadError? {
    do {
      _ = try ThemeCatalog.assemble(directory: "assets/themes", files: files)
      return nil
    } catch { return error }
  }

  @Test func validDirectoryAssembles() throws {
    let catalog = try ThemeCatalog.assemble(directory: "assets/themes", files: Fixtures.directory())
    #expect(catalog.themes.map(\.id) == ["nord"])
  }

  /// A directory may hold fewer themes than palettes.tokens names (as this one does).
  @Test("a state colour for a theme the directory does not hold is not used")
  func stateColourForAnAbsentTheme() throws {
    var files = try Fixtures.directory()
    files["palettes.tokens"]! += "\nstate.todo.frost = syntax.purple\n"
    let catalog = try ThemeCatalog.assemble(directory: "assets/themes", files: files)
    let nord = try #require(catalog.theme(id: "nord"))
    #expect(catalog.color(forState: "todo", theme: nord).hex == "#3b82f6")
  }

  @Test("ORDER naming a missing file")
  func orderNamesMissingFile() throws {
    var files = try Fixtures.directory()
    files["ORDER"] = "# order\nnord\nfrost\n"
    let error = try #require(assembleError(files))
    #expect(
      error
        == ThemeLoadError(
          file: "assets/themes/ORDER", line: 3, reason: .orderNamesMissingFile("frost")))
    #expect(
      error.description == #"assets/themes/ORDER:3: lists "frost", but there is no frost.theme"#)
  }

  @Test("ORDER listing an id twice")
  func orderListsTwice() throws {
    var files = try Fixtures.directory()
    files["ORDER"] = "nord\n\nnord\n"
    #expect(
      assembleError(files)
        == ThemeLoadError(
          file: "assets/themes/ORDER", line: 3, reason: .listedTwice("nord", firstLine: 1)))
    files["ORDER"] = "# nothing\n"
    #expect(assembleError(files) == ThemeLoadError(file: "assets/themes/ORDER", reason: .noThemes))
  }

  @Test("a theme file not in ORDER")
  func themeNotInOrder() throws {
    var files = try Fixtures.directory()
    files["frost.theme"] = Fixtures.themeText.replacing("id          = nord", with: "id = frost")
    let error = try #require(assembleError(files))
    #expect(
      error == ThemeLoadError(file: "assets/themes/frost.theme", reason: .notInOrder("frost")))
    #expect(
      error.description == #"assets/themes/frost.theme: theme "frost" is not listed in ORDER"#)
  }

  @Test("a theme naming an unknown syntax palette")
  func unknownPalette() throws {
    var files = try Fixtures.directory()
    files["nord.theme"] = Fixtures.theme(replacing: "syntax", with: "syntax = nordic")
    let error = try #require(assembleError(files))
    #expect(
      error
        == ThemeLoadError(
          file: "assets/themes/nord.theme", line: 18, key: "syntax",
          reason: .unknownSyntaxPalette("nordic", known: ["dark", "light", "matrix"])))
    #expect(error.description.hasPrefix("assets/themes/nord.theme:18: syntax: "))
  }

  @Test("a theme whose id is not its file name")
  func idMismatch() throws {
    var files = try Fixtures.directory()
    files["nord.theme"] = Fixtures.theme(replacing: "id", with: "id = frost")
    #expect(
      assembleError(files)
        == ThemeLoadError(
          file: "assets/themes/nord.theme", line: 3, key: "id",
          reason: .idMismatch(id: "frost", fileName: "nord")))
  }

  @Test("a missing data file", arguments: ["ORDER", "palettes.tokens", "variants.tokens"])
  func missingFile(name: String) throws {
    var files = try Fixtures.directory()
    files[name] = nil
    #expect(
      assembleError(files)
        == ThemeLoadError(file: "assets/themes/\(name)", reason: .unreadable("no such file")))
  }

  @Test func loadReportsAMissingDirectory() {
    #expect(
      throws: ThemeLoadError(
        file: "/nonexistent/themes", reason: .unreadable("not a readable directory"))
    ) {
      try ThemeCatalog.load(directory: "/nonexistent/themes")
    }
  }

  @Test func loadRefusesAFileOverTheCapBeforeReadingIt() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("wallboard-themes-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let big = dir.appendingPathComponent("huge.theme")
    try Data(repeating: UInt8(ascii: "#"), count: ThemeCatalog.maxFileBytes + 1).write(to: big)
    #expect(
      throws: ThemeLoadError(
        file: big.path,
        reason: .unreadable("\(ThemeCatalog.maxFileBytes + 1) bytes, more than \(ThemeCatalog.maxFileBytes)"))
    ) {
      try ThemeCatalog.load(directory: dir.path)
    }
  }
}
