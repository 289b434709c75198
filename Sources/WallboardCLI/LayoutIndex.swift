internal import EventSources
internal import Layout
internal import Posix
internal import Runtime
internal import SourceKit
internal import WallboardCore
internal import Widgets

/// The bundled layouts: every `Layouts/<name>.layout`, parsed and checked as `run` would; which
/// one `--layout auto` picks for a screen, and whether a layout fits one.
enum LayoutIndex {
  struct Entry: Equatable {
    var name: String
    var description: String
  }

  /// The name `--layout` takes for "the bundled layout that suits the screen".
  static let automaticName = "auto"

  static func list(directory: String) throws(CLIError) -> [Entry] {
    guard let names = FileSystem.names(in: directory) else {
      throw .runtime("cannot list layouts in \(directory)")
    }
    let files = names.filter { $0.hasSuffix(".layout") }.sorted()
    return try files.map { file throws(CLIError) in
      let layout = try Scene.loadLayout(directory + "/" + file)
      return Entry(name: String(file.dropLast(".layout".count)), description: layout.description)
    }
  }

  /// The bundled layout `--layout auto` shows on a `width`×`height` board: `portrait` on a
  /// screen taller than wide, else `wall`.
  static func automatic(width: Int, height: Int) -> String { height > width ? "portrait" : "wall" }

  /// The board layouts are checked against: the simulated team in the second week of its
  /// first sprint, so that a layout is refused or accepted the same way whatever the data.
  static let specimen: FrameModel = {
    let at = Instant(millis: 1_794_409_200_000)  // 2026-11-11T15:00:00Z
    var state = BoardState()
    for input in SimSource.inputs(team: SimulatedTeam(seed: 1), origin: "sim", through: at) {
      Reducer.reduce(into: &state, input)
    }
    return FrameModel(state: state, at: at, now: at, zone: .utc, unit: .auto)
  }()

  /// Refuses `layout` when its widgets cannot show their text on a `width`×`height` board drawn
  /// by `scene`, suggesting the first bundled layout in `directory` that fits (the automatic
  /// one first).
  static func check(
    _ layout: LayoutFile, scene: Scene, width: Int, height: Int, directory: String
  ) throws(LayoutFitError) {
    func problems(_ l: LayoutFile) -> [LayoutFit.Problem] {
      LayoutFit.problems(
        l, frame: specimen, width: width, height: height, style: scene.style(height: height),
        painter: scene.renderer.painter, scale: scene.scale)
    }
    let found = problems(layout)
    guard !found.isEmpty else { return }
    let names = ((try? list(directory: directory)) ?? []).map(\.name)
    let first = automatic(width: width, height: height)
    let candidates = names.filter { $0 == first } + names.filter { $0 != first && $0 != layout.name }
    let suggestion = candidates.first { name in
      guard let l = try? Scene.loadLayout(directory + "/" + name + ".layout") else { return false }
      return problems(l).isEmpty
    }
    throw LayoutFitError(layout: layout.name, width: width, height: height, problems: found, suggestion: suggestion)
  }
}
