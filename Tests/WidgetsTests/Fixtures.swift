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
    return FrameModel(state: state, at: at, now: at, zone: .utc, unit: .auto)
  }

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
