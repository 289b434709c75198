import Layout
import Projections
import Raster
import TestSupport
import Testing
import WallboardCore

@testable import Widgets

/// A source that cannot read something says so on its line of the board: the markdown tree's
/// unreadable feature file (in its detail), a file's rejected line (its last error) — in the
/// connections card and, on the default board, in the Attention card. Where the connections
/// card is too tight for every source's detail, those of the sources that need attention stay;
/// the text fits its box and stays legible.
@Suite("A source's problem on its line of the board")
struct SourceProblemTests {
  static let markdown = "orchestra-md:/home/ana/work/shop"
  static let jsonl = "jsonl:/var/lib/wallboard/events.jsonl"
  static let problem = "1 feature file unreadable: FEAT-BAD.md:8: a tab in the indentation"

  /// The fixture board (the simulated team, "simulated"), the markdown tree with an unreadable
  /// file, and with `more` a server and a file with a rejected line: four sources.
  static func frame(more: Bool) -> FrameModel {
    var state = Fixtures.state
    let at = Fixtures.at
    Reducer.reduce(
      into: &state,
      .rejected(
        origin: markdown, at: at,
        reason: "/home/ana/work/shop/.projects/go/features/FEAT-BAD.md:8: a tab in the indentation"))
    Reducer.reduce(
      into: &state,
      .connection(
        origin: markdown, status: .live, at: at, detail: problem + " · markdown /home/ana/work/shop/.projects"))
    if more {
      Reducer.reduce(
        into: &state, .connection(origin: "orchestra://build-server:50101", status: .live, at: at, detail: nil))
      Reducer.reduce(into: &state, .connection(origin: jsonl, status: .live, at: at, detail: nil))
      Reducer.reduce(
        into: &state, .rejected(origin: jsonl, at: at, reason: "events.jsonl:12: `feature_id` is missing"))
    }
    return FrameModel(state: state, at: at, now: at, zone: .utc, unit: .auto)
  }

  static func records(
    _ layout: LayoutFile, frame: FrameModel, width: Int, height: Int, theme: String = "orchestra"
  ) -> (Canvas, [Painter.Record]) {
    var painter = Painter(text: Fixtures.text())
    painter.recording = true
    var renderer = BoardRenderer(layout: layout, painter: painter)
    let style = Fixtures.style(theme, height: height)
    var canvas = Canvas(width: width, height: height, background: style.theme.bg)
    renderer.render(frame, style: style, into: &canvas)
    return (canvas, renderer.painter.records)
  }

  /// No two pieces of text overlap where their glyphs are (a band of 1.2 × the size about their
  /// box's middle, where the painter centres them; DejaVu's ascender to descender is 1.17 em),
  /// and none leaves its box sideways.
  static func expectNoTextOverlaps(_ records: [Painter.Record], _ what: String) {
    for r in records {
      #expect(r.x >= r.box.minX - 0.5 && r.x + r.width <= r.box.maxX + 1, "\(what): \"\(r.text)\" leaves its box")
    }
    for (i, a) in records.enumerated() {
      for b in records[(i + 1)...] {
        let apartY = abs(a.box.midY - b.box.midY) >= 0.6 * (a.size + b.size)
        let apartX = a.x + a.width <= b.x + 0.5 || b.x + b.width <= a.x + 0.5
        #expect(apartY || apartX, "\(what): \"\(a.text)\" and \"\(b.text)\" overlap")
      }
    }
  }

  @Test func theModelCarriesTheProblemAndWhoNeedsAttention() throws {
    let frame = Self.frame(more: true)
    let md = try #require(frame.sources.first { $0.name == Self.markdown })
    #expect(md.detail?.hasPrefix(Self.problem) == true)
    #expect(md.needsAttention, "it rejected the file")
    let file = try #require(frame.sources.first { $0.name == Self.jsonl })
    #expect(file.detail == "events.jsonl:12: `feature_id` is missing" && file.needsAttention)
    let sim = try #require(frame.sources.first { $0.name == "sim" })
    #expect(sim.detail == "simulated" && !sim.needsAttention)
    // The Attention card lists the two that need a look, first, by name and problem.
    let rows = frame.attention.rows.filter { $0.kind == .source }
    #expect(Set(rows.map(\.featureId)) == ["/home/ana/work/shop", "/var/lib/wallboard/events.jsonl"])
    #expect(rows.contains { $0.detail.hasPrefix(Self.problem) })
    #expect(frame.attention.rows.first?.kind == .source)
  }

  /// The default layout, at the sizes a board runs at, with two sources and with four.
  @Test(arguments: [(800, 480), (1280, 720), (1920, 1080), (3840, 2160)])
  func theUnreadableFileIsOnTheDefaultBoard(width: Int, height: Int) throws {
    for more in [false, true] {
      let (_, records) = Self.records(
        try Fixtures.bundled("wall"), frame: Self.frame(more: more), width: width, height: height)
      let what = "\(width)x\(height)\(more ? ", four sources" : "")"
      let line = try #require(records.first { $0.text.contains("feature file unreadable") }, "\(what)")
      #expect(line.text.hasPrefix(Self.problem), "the file, its line and why: \(line.text) at \(what)")
      #expect(line.width <= line.box.width + 0.5, "fits: \(what)")
      #expect(line.size >= 0.016 * Double(height), "legible: \(line.size) px at \(what)")
      #expect(RGBA.contrastRatio(line.color, line.background) >= 4.5)
      if more {
        #expect(records.contains { $0.text.hasPrefix("events.jsonl:12:") }, "the rejected line too: \(what)")
        #expect(!records.contains { $0.text == "simulated" }, "a plain detail gives way first: \(what)")
      }
      // Nothing in the card overlaps, and nothing leaves it: the Attention card, which the wall
      // shows in the Connections panel's place, a source's problem its first rows.
      let card = try #require(records.last { $0.text.hasPrefix("Attention") }).box
      let inCard = records.filter {
        $0.box.minX >= card.minX - 1 && $0.box.minY >= card.minY - 1 && $0.box.minX < card.maxX
      }
      #expect(inCard.count >= (more ? 7 : 4), "\(what): \(inCard.map(\.text))")
      Self.expectNoTextOverlaps(inCard, what)
    }
  }

  @Test(arguments: ["orchestra", "github-light", "solarized-light"])
  func legibleInEveryKindOfTheme(theme: String) throws {
    let (_, records) = Self.records(
      try Fixtures.bundled("wall"), frame: Self.frame(more: true), width: 1920, height: 1080, theme: theme)
    let line = try #require(records.first { $0.text.contains("feature file unreadable") })
    #expect(RGBA.contrastRatio(line.color, line.background) >= 4.5, "\(theme)")
  }

  /// Rows are laid out as before when every detail has room; tight, the details of sources that
  /// need attention come first, each row keeps its line, and nothing leaves the card.
  @Test func rowsMakeRoomForDetailsThatMatter() throws {
    func row(_ name: String, detail: String?, attention: Bool) -> SourceRow {
      var r = Self.frame(more: false).sources[0]
      r.name = name
      r.detail = detail
      r.needsAttention = attention
      return r
    }
    let rows = [
      row("a", detail: "plain", attention: false), row("b", detail: nil, attention: false),
      row("c", detail: "cannot read", attention: true), row("d", detail: "plain too", attention: false),
    ]
    let roomy = ConnectionsWidget.rows(rows, height: 400, size: 20, small: 17)
    #expect(roomy.map(\.y) == [0, 52, 104, 156] && roomy.allSatisfy { $0.detail && $0.line == 32 })
    // 4 lines of 28 (20 × 1.4) and room for one detail of 21.25 (17 × 1.25).
    let tight = ConnectionsWidget.rows(rows, height: 150, size: 20, small: 17)
    #expect(tight.map(\.detail) == [false, false, true, false])
    #expect(tight.allSatisfy { $0.line >= 28 && $0.line <= 32 && $0.below == 21.25 })
    let last = try #require(tight.last)
    #expect(last.y + last.line <= 150)
    // Room for two: the one that matters, then the first in order.
    #expect(ConnectionsWidget.rows(rows, height: 170, size: 20, small: 17).map(\.detail) == [true, false, true, false])
  }

  /// What the connections card looks like with the unreadable file: roomy, and as tight as the
  /// wall layout's card at 1920x1080 with four sources.
  @Test func golden() throws {
    let layout = try Fixtures.single("connections")
    for (w, h, frameHeight) in [(960, 600, 1080), (480, 300, 720), (771, 246, 1080)] {
      var renderer = BoardRenderer(layout: layout, painter: Painter(text: Fixtures.text()))
      let style = Fixtures.style("orchestra", height: frameHeight)
      var canvas = Canvas(width: w, height: h, background: style.theme.bg)
      renderer.render(Self.frame(more: w < 900), style: style, into: &canvas)
      Golden.check(canvas, named: "widget-connections-unreadable-orchestra-\(w)x\(h)", directory: Fixtures.goldens)
    }
  }
}
