import EventSources
import Foundation
import Layout
import Projections
import Raster
import SourceKit
import TestSupport
import Testing
import WallboardCore
import Widgets

/// The acceptance fuzz of issue 9 for layouts: the bundled layouts, mutated at the byte and
/// token level (numbers made huge, lines duplicated and dropped, CRLF, NUL, broken UTF-8) and
/// parsed; an error names the file and a line of it, and a layout that parses fits its grid, has
/// no overlapping widgets, tiles a frame inside it, and draws. No case may crash or take 2 s.
@Suite("Fuzz: layouts")
struct LayoutFuzzTests {
  static let shards = 2

  /// The worked example at a moment inside its sprint: what the mutated layouts draw.
  static let frame: FrameModel = {
    var state = BoardState()
    let text =
      (try? Data(contentsOf: Paths.fixtures.appendingPathComponent("reference/examples/worked-example.jsonl")))
      .map { [UInt8]($0) } ?? []
    var decoder = LineDecoder(origin: "jsonl:example", label: "example")
    let at = Make.t("2026-11-06T12:00:00Z")
    for input in decoder.push(text, receivedAt: at) + decoder.finish(receivedAt: at) {
      Reducer.reduce(into: &state, input)
    }
    return FrameModel(state: state, at: at, now: at, zone: .utc, unit: .auto)
  }()

  @Test(arguments: 0..<shards)
  func mutatedLayouts(shard: Int) throws {
    let config = FuzzConfig.current
    let kit = try RenderKit()
    let corpus = kit.layouts.map { Array($0.text.utf8) }
    var budget = TimeBudget()
    var parsed = 0
    let cases = config.cases(config.layoutCases, shard: shard, of: Self.shards)
    for index in cases {
      if config.trace { print("fuzz layouts case \(index)") }
      var m = Mutator(seed: config.caseSeed(index, kind: 2))
      let base = corpus[index % corpus.count]
      let bytes = m.mutate(base, corpus: corpus, most: 3)
      budget.run(index) {
        if Self.runCase(bytes, index: index, kit: kit) { parsed += 1 }
      }
    }
    fuzzCheck(
      budget.overBudget.isEmpty, "layouts", budget.overBudget.first ?? -1, "over 2 s: cases \(budget.overBudget)")
    print(
      "fuzz layouts shard \(shard): \(cases.count) cases (\(parsed) parsed), slowest \(budget.milliseconds) ms "
        + "(case \(budget.slowestCase)), \(budget.overBudget.count) over 2 s")
  }

  /// Parses one mutated layout and checks it; true when it parsed.
  static func runCase(_ bytes: [UInt8], index: Int, kit: RenderKit) -> Bool {
    let text = String(decoding: bytes, as: UTF8.self)
    let lineCount = text.utf8.split(separator: 0x0A, omittingEmptySubsequences: false).count
    let layout: LayoutFile
    do {
      layout = try LayoutParser.parse(text, file: "fuzz.layout", vocabulary: WidgetRegistry.vocabulary)
    } catch {
      fuzzCheck(
        error.file == "fuzz.layout" && (error.line.map { (1...lineCount).contains($0) } ?? true), "layouts", index,
        "error \(error) names no line of the \(lineCount): \(shown(bytes))")
      return false
    }
    fuzzCheck((1...16).contains(layout.pages.count), "layouts", index, "\(layout.pages.count) pages")
    for page in layout.pages {
      fuzzCheck((1...64).contains(page.widgets.count), "layouts", index, "\(page.widgets.count) widgets")
      for (i, a) in page.widgets.enumerated() {
        fuzzCheck(
          a.column >= 0 && a.row >= 0 && a.width >= 1 && a.height >= 1 && a.column + a.width <= layout.columns
            && a.row + a.height <= layout.rows, "layouts", index, "\(a) outside the grid: \(shown(bytes))")
        for b in page.widgets[(i + 1)...] {
          let overlap =
            a.column < b.column + b.width && b.column < a.column + a.width && a.row < b.row + b.height
            && b.row < a.row + a.height
          fuzzCheck(!overlap, "layouts", index, "\(a.kind) and \(b.kind) overlap: \(shown(bytes))")
        }
      }
    }
    let size = [(320, 180), (180, 320), (800, 480)][index % 3]
    for page in layout.pages.indices {
      for (p, r) in layout.frames(page: page, width: size.0, height: size.1) {
        fuzzCheck(
          r.minX.isFinite && r.minY.isFinite && r.width >= 0 && r.height >= 0 && r.minX >= -1 && r.minY >= -1
            && r.maxX <= Double(size.0) + 1 && r.maxY <= Double(size.1) + 1, "layouts", index,
          "\(p.kind) at \(r) leaves the \(size) frame: \(shown(bytes))")
      }
    }
    let dirty = kit.render(frame, layout: layout, width: size.0, height: size.1, theme: index)
    let bounds = IRect(x: 0, y: 0, width: size.0, height: size.1)
    fuzzCheck(dirty.allSatisfy { $0.intersection(bounds) == $0 }, "layouts", index, "drew outside the frame")
    return true
  }
}
