import Foundation
import Glyphs
import Layout
import Raster
import TestSupport
import Testing
import Themes
import Widgets

/// How much to fuzz. CI runs the defaults; `make fuzz-cases` sets `WALLBOARD_FUZZ_CASES` (event
/// files) and `WALLBOARD_FUZZ_LAYOUTS`, and may set `WALLBOARD_FUZZ_SEED`. To chase one case:
/// `WALLBOARD_FUZZ_ONLY=N` runs case N alone, `WALLBOARD_FUZZ_TRACE=1` prints each case number
/// before it runs (so that a crash names its case).
struct FuzzConfig: Sendable {
  /// Event files of 6 to 13 lines: about 5,300 mutated lines.
  var eventCases = 600
  var layoutCases = 1000
  var seed: UInt64 = 9
  var only: Int?
  var trace = false

  static let current: FuzzConfig = {
    var c = FuzzConfig()
    let env = ProcessInfo.processInfo.environment
    if let n = env["WALLBOARD_FUZZ_CASES"].flatMap(Int.init), n > 0 { c.eventCases = n }
    if let n = env["WALLBOARD_FUZZ_LAYOUTS"].flatMap(Int.init), n > 0 { c.layoutCases = n }
    if let s = env["WALLBOARD_FUZZ_SEED"].flatMap(UInt64.init) { c.seed = s }
    c.only = env["WALLBOARD_FUZZ_ONLY"].flatMap(Int.init)
    c.trace = env["WALLBOARD_FUZZ_TRACE"] == "1"
    return c
  }()

  /// The case numbers shard `shard` of `shards` runs.
  func cases(_ count: Int, shard: Int, of shards: Int) -> [Int] {
    if let only { return only % shards == shard && only < count ? [only] : [] }
    return Array(stride(from: shard, to: count, by: shards))
  }

  /// The generator seed of case `index` of a kind.
  func caseSeed(_ index: Int, kind: UInt64) -> UInt64 { (seed &* 0x9E37_79B9) ^ (kind << 40) ^ UInt64(index) }
}

/// The time budget: no case may take 2 s. A case over it is run again, and only a case slow
/// both times is a failure (the machine is shared; the inputs are deterministic). The slowest
/// case is reported either way.
struct TimeBudget {
  static let limit = Duration.seconds(2)
  var slowest = Duration.zero
  var slowestCase = -1
  var overBudget: [Int] = []

  /// Runs `body` for case `index`, timing it.
  mutating func run(_ index: Int, _ body: () -> Void) {
    let clock = ContinuousClock()
    var elapsed = clock.measure(body)
    if elapsed > Self.limit {
      let again = clock.measure(body)
      elapsed = min(elapsed, again)
      if elapsed > Self.limit { overBudget.append(index) }
    }
    if elapsed > slowest {
      slowest = elapsed
      slowestCase = index
    }
  }

  var milliseconds: Int {
    Int(slowest.components.seconds * 1000 + slowest.components.attoseconds / 1_000_000_000_000_000)
  }
}

/// What rendering needs, loaded once per shard: themes, fonts, the layouts.
struct RenderKit {
  let catalog: ThemeCatalog
  let text: TextRenderer
  let layouts: [(name: String, text: String, layout: LayoutFile)]

  init() throws {
    catalog = try ThemeCatalog.load(directory: Paths.repoRoot.appendingPathComponent("assets/themes").path)
    text = try TextRenderer(fontsDirectory: Paths.repoRoot.appendingPathComponent("assets/fonts").path)
    let dir = Paths.repoRoot.appendingPathComponent("Layouts")
    layouts = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".layout") }.sorted()
      .map { name in
        let text = try String(contentsOf: dir.appendingPathComponent(name), encoding: .utf8)
        return (name, text, try LayoutParser.parse(text, file: name, vocabulary: WidgetRegistry.vocabulary))
      }
  }

  func style(height: Int, theme: Int = 0) -> Style {
    let t = catalog.themes[theme % catalog.themes.count]
    return Style(
      theme: t, catalog: catalog, variant: catalog.variants[0], unit: Double(height) / 1080, frameHeight: Double(height)
    )
  }

  /// Draws every page of `layout` from `frame` on a `width` × `height` canvas; returns the
  /// rectangles drawn, for checks.
  func render(_ frame: FrameModel, layout: LayoutFile, width: Int, height: Int, theme: Int = 0) -> [IRect] {
    var renderer = BoardRenderer(layout: layout, painter: Painter(text: text))
    var canvas = Canvas(width: width, height: height, background: style(height: height, theme: theme).theme.bg)
    var dirty: [IRect] = []
    for page in layout.pages.indices {
      renderer.show(page: page)
      dirty += renderer.render(frame, style: style(height: height, theme: theme), into: &canvas)
    }
    return dirty
  }
}

/// A failed check of one case: says which case, so that it can be run again alone.
func fuzzCheck(
  _ condition: Bool, _ kind: String, _ index: Int, _ what: @autoclosure () -> String,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  guard !condition else { return }
  Issue.record(
    "\(kind) case \(index) (WALLBOARD_FUZZ_ONLY=\(index) WALLBOARD_FUZZ_SEED=\(FuzzConfig.current.seed)): \(what())",
    sourceLocation: sourceLocation)
}

/// Bytes for a message: printable ASCII as is, the rest escaped, at most `limit` bytes.
func shown(_ bytes: [UInt8], limit: Int = 600) -> String {
  var s = ""
  for b in bytes.prefix(limit) {
    switch b {
    case 0x0A: s += "\\n"
    case 0x0D: s += "\\r"
    case 0x20..<0x7F where b != 0x5C: s.append(Character(Unicode.Scalar(b)))
    default: s += "\\x" + String(b, radix: 16)
    }
  }
  return bytes.count > limit ? s + "…(\(bytes.count) bytes)" : s
}
