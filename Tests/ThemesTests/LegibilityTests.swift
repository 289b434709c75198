import Raster
import Testing
import Themes

@Suite("Text stays legible in every theme (WCAG AA, 4.5:1)")
struct LegibilityTests {
  @Test(
    "readableText on bg and bgAlt reaches 4.5:1",
    arguments: [ThemeToken.bg, .bgAlt])
  func readableTextContrast(background: ThemeToken) throws {
    let catalog = try Fixtures.loadCatalog()
    try #require(!catalog.themes.isEmpty)
    for theme in catalog.themes {
      let bg = theme[background]
      let text = ThemeCatalog.readableText(on: bg, theme: theme)
      let ratio = RGBA.contrastRatio(text, bg)
      #expect(
        ratio >= 4.5,
        "\(theme.id): text \(text) on \(background.rawValue) \(bg) has only \(ratio):1")
    }
  }

  @Test("readableText picks whichever of fg and fgBright contrasts more")
  func picksTheBetterOfTwo() throws {
    let catalog = try Fixtures.loadCatalog()
    let light = try #require(catalog.theme(id: "solarized-light"))
    // fg #657b83 on bgAlt #eee8d5 is 3.64:1; fgBright #002b36 is 12.25:1.
    #expect(ThemeCatalog.readableText(on: light.bgAlt, theme: light) == light.fgBright)
    let white = RGBA(r: 255, g: 255, b: 255)
    let black = RGBA(r: 0, g: 0, b: 0)
    let dark = try #require(catalog.theme(id: "orchestra"))
    #expect(ThemeCatalog.readableText(on: black, theme: dark) == dark.fgBright)
    var mixed = dark
    mixed.fg = black
    mixed.fgBright = white
    #expect(ThemeCatalog.readableText(on: RGBA(r: 250, g: 250, b: 250), theme: mixed) == black)
    #expect(ThemeCatalog.readableText(on: RGBA(r: 5, g: 5, b: 5), theme: mixed) == white)
    // Dracula's fg and fgBright are the same colour: a tie gives fg.
    let dracula = try #require(catalog.theme(id: "dracula"))
    #expect(ThemeCatalog.readableText(on: dracula.bg, theme: dracula) == dracula.fg)
  }

  @Test("a translucent background is judged composited onto the theme's bg")
  func translucentBackground() throws {
    var theme = try #require(try Fixtures.loadCatalog().theme(id: "orchestra"))
    theme.bg = RGBA(r: 255, g: 255, b: 255)
    theme.fg = RGBA(r: 0, g: 0, b: 0)
    theme.fgBright = RGBA(r: 255, g: 255, b: 255)
    // Black at 10 % over white is near white: black text wins, though the colour itself is black.
    #expect(ThemeCatalog.readableText(on: RGBA(r: 0, g: 0, b: 0, a: 26), theme: theme) == theme.fg)
  }
}
