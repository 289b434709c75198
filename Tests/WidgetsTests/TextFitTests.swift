import Glyphs
import Layout
import Projections
import Raster
import TestSupport
import Testing
import WallboardCore
import Widgets

/// Text that does not fit its box loses its label's words, then its secondary parts, never a
/// digit of a number: checked on everything every bundled layout draws at common screen sizes.
@Suite("Text that does not fit")
struct TextFitTests {
  typealias M = Make

  static let layouts = ["wall", "portrait", "tv", "glance"]
  static let sizes = [(1920, 1080), (1080, 1920), (1280, 720), (800, 480), (3840, 2160)]
  static let cases: [(String, Int, Int)] = layouts.flatMap { l in sizes.map { (l, $0.0, $0.1) } }

  /// A big team: 250 features, 193 of them done, with points that do not fit "000 · 000 pt".
  static let bigFrame: FrameModel = {
    let at = M.t("2026-11-11T15:00:00Z")
    let ids = (1...250).map { "FEAT-\($0)" }
    var events: [Event] = [
      M.event(
        "2026-11-01T09:00:00Z", .sprintCreated(M.sprint("S1", start: "2026-11-02", end: "2026-11-13", members: ids)))
    ]
    for (i, id) in ids.enumerated() {
      events.append(
        M.event("2026-11-02T09:00:00Z", .featureCreated(M.feature(id, status: "todo", points: 6.4, sprintId: "S1"))))
      let status = i < 193 ? "done" : i < 230 ? "in-progress" : "ready-for-testing"
      events.append(M.status("2026-11-1\(i % 2)T1\(i % 5):00:00Z", id, status))
    }
    var s = M.state(events)
    Reducer.reduce(into: &s, .connection(origin: "sim", status: .live, at: at, detail: nil))
    return FrameModel(state: s, at: at, now: at, zone: .utc, unit: .auto)
  }()

  static func records(layout: String, width: Int, height: Int, frame: FrameModel) throws -> [Painter.Record] {
    var painter = Painter(text: Fixtures.text())
    painter.recording = true
    var renderer = BoardRenderer(layout: try Fixtures.bundled(layout), painter: painter)
    let style = Fixtures.style("orchestra", height: height)
    var canvas = Canvas(width: width, height: height, background: style.theme.bg)
    for page in renderer.layout.pages.indices {
      renderer.show(page: page)
      renderer.render(frame, style: style, into: &canvas)
    }
    return renderer.painter.records
  }

  /// The numbers of `text`, as the fitting sees them.
  static func numbers(_ text: String) -> [Substring] { TextRenderer.numberRuns(in: text).map { text[$0] } }

  /// Whether a number of `drawn` touches the ellipsis ("12…", "…34"): a number cut.
  static func cutsANumber(_ drawn: String) -> Bool {
    TextRenderer.numberRuns(in: drawn).contains { r in
      (r.lowerBound > drawn.startIndex && drawn[drawn.index(before: r.lowerBound)] == "…")
        || (r.upperBound < drawn.endIndex && drawn[r.upperBound] == "…")
    }
  }

  /// On every screen a bundled layout is not refused on (`LayoutFitTests.refused`), for the
  /// simulated team and a big one: no number touches an ellipsis, none overflows, every number
  /// asked for is drawn whole, and key numbers are never shortened.
  @Test(arguments: cases)
  func noDrawnNumberIsCut(layout: String, width: Int, height: Int) throws {
    guard !LayoutFitTests.refused.contains("\(layout) \(width)x\(height)") else { return }
    for frame in [Fixtures.frame(banner: true), Fixtures.filledFrame(banner: true), Self.bigFrame] {
      let records = try Self.records(layout: layout, width: width, height: height, frame: frame)
      #expect(records.count > 5)
      for r in records {
        #expect(!r.overflows, "\(layout) \(width)x\(height): \"\(r.text)\" overflows")
        for piece in r.requested where piece.kind == .fixed && !r.text.isEmpty {
          #expect(r.pieces.contains(piece), "\(layout) \(width)x\(height): \"\(piece.text)\" lost from \"\(r.text)\"")
        }
        #expect(!Self.cutsANumber(r.text), "\(layout) \(width)x\(height): \"\(r.text)\" cuts a number")
        if r.role == .key {
          #expect(!r.text.contains("…") && !r.text.isEmpty, "\(layout) \(width)x\(height): key \"\(r.text)\"")
        }
      }
    }
  }

  @Test func aTallyKeepsItsCountAndDropsItsPointsFirst() throws {
    let records = try Self.records(layout: "wall", width: 1920, height: 1080, frame: Self.bigFrame)
    let done = try #require(records.first { $0.text.hasPrefix("193") }, "\(records.map(\.text))")
    #expect(done.text == "193 · 1235.2 pt" || done.text == "193", "\(done.text)")
    #expect(records.contains { $0.text == "Done" })
  }
}
