import Raster
import Testing
import Themes

@Suite("The shipped themes match the reference themes.tsv")
struct CatalogTests {
  @Test("the ids, in ORDER's order, are the tsv's ids in the tsv's order")
  func orderMatchesTSV() throws {
    let catalog = try Fixtures.loadCatalog()
    let rows = try Fixtures.tsvRows()
    #expect(catalog.themes.map(\.id) == rows.map { $0["id"] ?? "" })
    #expect(Set(catalog.themes.map(\.id)).count == rows.count)
  }

  @Test("every token of every theme equals the tsv's value")
  func everyValueMatchesTSV() throws {
    let catalog = try Fixtures.loadCatalog()
    let rows = try Fixtures.tsvRows()
    try #require(!rows.isEmpty)
    for row in rows {
      let id = try #require(row["id"])
      let theme = try #require(catalog.theme(id: id), "no theme \(id)")
      #expect(theme.label == row["label"], "\(id) label")
      #expect(theme.group == row["group"], "\(id) group")
      #expect(String(theme.isLight) == row["isLight"], "\(id) isLight")
      #expect(theme.syntax == row["syntax"], "\(id) syntax")
      for token in ThemeToken.allCases {
        #expect(theme[token].hex == row[token.rawValue], "\(id) \(token.rawValue)")
      }
      #expect(row.count == ThemeCatalog.themeKeys.count, "tsv columns are the theme keys")
    }
    #expect(Set(rows.first?.keys.map { $0 } ?? []) == Set(ThemeCatalog.themeKeys))
  }

  @Test func defaultThemeExistsAndComesFirst() throws {
    let catalog = try Fixtures.loadCatalog()
    #expect(catalog.themes.first?.id == ThemeCatalog.defaultThemeID)
    #expect(catalog.theme(id: "dracula")?.label == "Dracula")
    #expect(catalog.theme(id: "nord") == nil)
  }

  @Test("palettes.tokens holds design-tokens.md's palettes and semantic colours")
  func palettes() throws {
    let catalog = try Fixtures.loadCatalog()
    let expected: [String: [String]] = [
      "dark": [
        "#82aaff", "#89ddff", "#c3e88d", "#ffcb6b", "#f78c6c", "#ff5370", "#c792ea", "#4fd6be",
        "#ff5370",
      ],
      "light": [
        "#0366d6", "#0598bc", "#22863a", "#b08800", "#d73a49", "#d73a49", "#6f42c1", "#0598bc",
        "#d73a49",
      ],
      "matrix": [
        "#5a9e70", "#60b888", "#4a9e5e", "#7ab878", "#508c60", "#b85050", "#6aad80", "#60b888",
        "#b85050",
      ],
    ]
    #expect(Set(catalog.palettes.keys) == Set(expected.keys))
    for (name, colors) in expected {
      #expect(catalog.palettes[name]?.colors.map(\.hex) == colors, "palette \(name)")
    }
    #expect(catalog.palettes["dark"]?.teal.hex == "#4fd6be")
    #expect(catalog.palettes["light"]?["purple"]?.hex == "#6f42c1")
    #expect(catalog.semantic.success.hex == "#22c55e")
    #expect(catalog.semantic.warning.hex == "#f59e0b")
    #expect(catalog.semantic.error.hex == "#ef4444")
    #expect(catalog.semantic.info.hex == "#3b82f6")
  }

  @Test(
    "variants.tokens holds design-tokens.md's variants",
    arguments: [
      ("default", [44.0, 24, 6, 10, 14]),
      ("compact", [36.0, 20, 3, 5, 8]),
      ("modern", [48.0, 28, 4, 8, 12]),
    ])
  func variant(name: String, metrics: [Double]) throws {
    let catalog = try Fixtures.loadCatalog()
    let variant = try #require(catalog.variant(named: name))
    #expect(
      [
        variant.topBarHeight, variant.statusBarHeight, variant.radiusSm, variant.radiusMd,
        variant.radiusLg,
      ]
        == metrics)
  }

  @Test func exactlyThreeVariantsInOrder() throws {
    #expect(try Fixtures.loadCatalog().variants.map(\.name) == ["default", "compact", "modern"])
  }
}
