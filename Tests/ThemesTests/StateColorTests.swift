import Raster
import Testing
import Themes

@Suite("Workflow state colours")
struct StateColorTests {
  @Test(
    "the listed states have design-tokens.md's colours",
    arguments: [
      ("backlog", "#6b7280"), ("cancelled", "#6b7280"), ("todo", "#3b82f6"),
      ("ready-for-testing", "#eab308"), ("in-testing", "#f97316"), ("ready-for-docs", "#06b6d4"),
      ("in-docs", "#14b8a6"), ("documented", "#22c55e"), ("done", "#22c55e"),
      ("in-review", "#6366f1"), ("blocked", "#ef4444"), ("rejected", "#ef4444"),
      ("needs-edits", "#e11d48"),
    ])
  func listed(state: String, hex: String) throws {
    let catalog = try Fixtures.loadCatalog()
    for theme in catalog.themes {
      #expect(catalog.color(forState: state, theme: theme).hex == hex, "\(state) in \(theme.id)")
    }
  }

  @Test("in-progress is the theme's accent, unless the theme gives it a colour of its own")
  func inProgressIsAccent() throws {
    let catalog = try Fixtures.loadCatalog()
    for theme in catalog.themes where catalog.stateColors.perTheme[theme.id]?["in-progress"] == nil {
      #expect(
        catalog.stateColors.color(forState: "in-progress", theme: theme) == theme.accent,
        "\(theme.id)")
    }
    #expect(catalog.stateColors.perTheme.count < catalog.themes.count / 2, "the accent stays the rule")
    let orchestra = try #require(catalog.theme(id: "orchestra"))
    #expect(catalog.color(forState: "in-progress", theme: orchestra).hex == "#a900ff")
  }

  /// Expected indices come from 64-bit FNV-1a computed outside Swift, so a per-process seeded
  /// hash (Swift's `Hasher`) would fail here.
  @Test(
    "an unlisted state takes a palette colour fixed by the FNV-1a hash of its name",
    arguments: [
      ("orchestra", "on-hold", "#c792ea"),  // index 6, purple
      ("orchestra", "waiting", "#82aaff"),  // index 0, blue
      ("orchestra", "qa", "#4fd6be"),  // index 7, teal
      ("github-light", "on-hold", "#6f42c1"),
      ("matrix", "on-hold", "#6aad80"),
    ])
  func unlisted(themeID: String, state: String, hex: String) throws {
    let catalog = try Fixtures.loadCatalog()
    let theme = try #require(catalog.theme(id: themeID))
    let color = catalog.color(forState: state, theme: theme)
    #expect(color.hex == hex)
    #expect(catalog.color(forState: state, theme: theme) == color, "stable within a run")
    #expect(catalog.palette(for: theme).seriesColors.contains(color))
  }

  @Test("unlisted states spread over all eight series colours (blue … teal)")
  func unlistedSpread() throws {
    let catalog = try Fixtures.loadCatalog()
    let theme = try #require(catalog.theme(id: "orchestra"))
    let colors = Set((0..<200).map { catalog.color(forState: "state-\($0)", theme: theme) })
    #expect(colors == Set(catalog.palette(for: theme).seriesColors))
  }
}
