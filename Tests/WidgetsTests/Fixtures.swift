import EventSources
import Foundation
import Glyphs
import Layout
import Projections
import Raster
import SourceKit
import TestSupport
import Themes
import WallboardCore
import Widgets

/// Shared, expensive things: themes, fonts, a board at a known moment.
enum Fixtures {
  static let catalog: ThemeCatalog = {
    do { return try ThemeCatalog.load(directory: Paths.repoRoot.appendingPathComponent("assets/themes").path) } catch {
      preconditionFailure("themes: \(error)")
    }
  }()

  static func text() -> TextRenderer {
    do { return try TextRenderer(fontsDirectory: Paths.repoRoot.appendingPathComponent("assets/fonts").path) } catch {
      preconditionFailure("fonts: \(error)")
    }
  }

  static let at = Make.t("2026-11-11T15:00:00Z")

  /// The simulated team in the second week of its first sprint, with one source gone stale.
  static let state: BoardState = {
    var s = BoardState()
    for i in SimSource.inputs(team: SimulatedTeam(seed: 1), origin: "sim", through: at) { Reducer.reduce(into: &s, i) }
    Reducer.reduce(
      into: &s,
      .connection(
        origin: "orchestra://build-server:50101", status: .live, at: Make.t("2026-11-11T14:02:00Z"), detail: nil))
    return s
  }()

  static func frame(banner: Bool = false) -> FrameModel {
    var state = self.state
    if !banner {
      Reducer.reduce(
        into: &state, .connection(origin: "orchestra://build-server:50101", status: .live, at: at, detail: nil))
    }
    var frame = FrameModel(state: state, at: at, now: at, zone: .utc, unit: .auto)
    // The forecast is pinned, so that the goldens do not follow the projection's simulation:
    // nothing drawn unless a test asks for one (`filledFrame`).
    frame.forecast = .sprintDone
    return frame
  }

  /// `frame(banner:)` with the issue-26 parts built by hand (a blocked feature, a lapsed lock,
  /// one past P85, two in rework; eight features in progress; three locks, one lapsed; a
  /// forecast whose P85 falls after the sprint's end), as the widgets' goldens show them.
  static func filledFrame(banner: Bool = false) -> FrameModel {
    var frame = self.frame(banner: banner)
    frame.attention = attention
    frame.aging = aging
    frame.agents = agents
    frame.forecast = forecast
    return frame
  }

  static let attention = AttentionModel(rows: [
    AttentionRow(kind: .blocked, featureId: "FEAT-7", title: "Checkout page", detail: "waits on FEAT-3"),
    AttentionRow(kind: .lapsed, featureId: "FEAT-12", title: "Search index", detail: "lock lapsed 40 min ago"),
    AttentionRow(kind: .aging, featureId: "FEAT-4", title: "Export to CSV", detail: "12 d in progress"),
    AttentionRow(kind: .rework, featureId: "FEAT-9", title: "Login flow", detail: "back 2×"),
    AttentionRow(kind: .rework, featureId: "FEAT-15", title: "Dark mode", detail: "back 1×"),
  ])

  static let aging = AgingChart(
    columns: [
      .init(state: "in-progress", label: "In progress"), .init(state: "in-testing", label: "In testing"),
      .init(state: "in-docs", label: "In docs"), .init(state: "in-review", label: "In review"),
    ],
    dots: [
      .init(featureId: "FEAT-4", title: "Export to CSV", column: 0, days: 12, pastP85: true),
      .init(featureId: "FEAT-5", column: 0, days: 3, pastP85: false),
      .init(featureId: "FEAT-6", column: 0, days: 3, pastP85: false),
      .init(featureId: "FEAT-8", column: 0, days: 1, pastP85: false),
      .init(featureId: "FEAT-10", column: 1, days: 6, pastP85: false),
      .init(featureId: "FEAT-11", column: 1, days: 10, pastP85: true),
      .init(featureId: "FEAT-13", column: 3, days: 2, pastP85: false),
      .init(featureId: "FEAT-14", column: 3, days: 0, pastP85: false),
    ],
    cycleTime: CycleTime(p50Days: 4, p85Days: 9.5, samples: 23, windowDays: 90))

  static let agents = [
    AgentStripRow(session: "a1b2c3d4", featureId: "FEAT-10", title: "Billing API", held: "for 2 h", lapsed: false),
    AgentStripRow(session: "9f8e7d6c", featureId: "FEAT-13", title: "Onboarding", held: "for 12 min", lapsed: false),
    AgentStripRow(
      session: "0badc0de", featureId: "FEAT-12", title: "Search index", held: "lapsed 40 min ago", lapsed: true),
  ]

  static let forecast = Forecast.Outcome.sprint(
    remaining: 7, p50: CivilDate(year: 2026, month: 11, day: 12), p85: CivilDate(year: 2026, month: 11, day: 17))

  static func style(_ themeID: String, height: Int, unit: Double? = nil) -> Style {
    Style(
      theme: catalog.theme(id: themeID)!, catalog: catalog, variant: catalog.variant(named: "default")!,
      unit: unit ?? Double(height) / 1080, frameHeight: Double(height))
  }

  /// A one-widget layout filling the canvas.
  static func single(_ kind: String, options: String = "") throws -> LayoutFile {
    try LayoutParser.parse(
      "name = one\ndescription = one widget\ngrid = 1 x 1\nmargin = 0\n\(kind) 0 0 1 1 \(options)", file: "one",
      vocabulary: WidgetRegistry.vocabulary)
  }

  static func bundled(_ name: String) throws -> LayoutFile {
    let url = Paths.repoRoot.appendingPathComponent("Layouts/\(name).layout")
    return try LayoutParser.parse(
      String(contentsOf: url, encoding: .utf8), file: url.path, vocabulary: WidgetRegistry.vocabulary)
  }

  static let goldens = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Goldens")
}
