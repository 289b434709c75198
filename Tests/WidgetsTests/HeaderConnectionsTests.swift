import Glyphs
import Projections
import Raster
import TestSupport
import Testing
import WallboardCore
import Widgets

/// The header's line of the connections: each source by name, status word and age, shortened
/// to counts where room is short, read from the same rows the connections widget reads, so that
/// a change of a source shows in the next frame's header.
@Suite("The header's connections line")
struct HeaderConnectionsTests {
  static let at = Fixtures.at

  @Test func itReadsTheConnectionsRowsAndChangesWithThem() throws {
    var state = Fixtures.state
    let live = FrameModel(state: state, at: Self.at, now: Self.at, zone: .utc, unit: .auto)
    let line = try #require(live.header.connections)
    #expect(line == ConnectionsLine(live.sources))
    #expect(line.forms.last == ConnectionsLine.counts(live.sources))
    #expect(line.forms[0].contains("orchestra://build-server:50101 · stale · 58 min"), "\(line.forms)")
    // The source reconnects: the very next model's header says so.
    Reducer.reduce(
      into: &state, .connection(origin: "orchestra://build-server:50101", status: .live, at: Self.at, detail: nil))
    let next = FrameModel(state: state, at: Self.at, now: Self.at, zone: .utc, unit: .auto)
    let after = try #require(next.header.connections)
    #expect(after != line)
    #expect(after.forms[0].contains("orchestra://build-server:50101 · live · 0 s"), "\(after.forms)")
    #expect(HeaderWidget().model(next) != HeaderWidget().model(live))
  }

  @Test func manySourcesAreCountedByStatusWord() {
    var state = BoardState()
    for (i, n) in ["a", "b", "c", "d"].enumerated() {
      Reducer.reduce(
        into: &state, .connection(origin: "jsonl:\(n)", status: i == 3 ? .offline : .live, at: Self.at, detail: nil))
    }
    let rows = FrameModel(state: state, at: Self.at, now: Self.at, zone: .utc, unit: .auto).sources
    #expect(ConnectionsLine(rows)?.forms.last == "1 offline · 3 live")
    #expect(ConnectionsLine([]) == nil)
    #expect(ConnectionsLine.shortAge("updated 3 h ago") == "3 h")
    #expect(ConnectionsLine.shortAge("never heard") == "never heard")
  }

  /// In every bundled layout with a header, at each size, the header draws a connections form
  /// whole, with its status word.
  @Test(arguments: ["wall", "portrait"])
  func theHeaderShowsTheLineAtEverySize(layout: String) throws {
    for (w, h) in [(800, 480), (1920, 1080), (3840, 2160)] {
      let (fw, fh) = layout == "portrait" ? (h, w) : (w, h)
      var painter = Painter(text: Fixtures.text())
      painter.recording = true
      var renderer = BoardRenderer(layout: try Fixtures.bundled(layout), painter: painter)
      let style = Fixtures.style("orchestra", height: fh)
      var canvas = Canvas(width: fw, height: fh, background: style.theme.bg)
      let frame = Fixtures.frame(banner: true)
      renderer.render(frame, style: style, into: &canvas)
      let forms = try #require(frame.header.connections).forms
      let drawn = renderer.painter.records.first { r in forms.contains { r.text.hasSuffix($0) } }
      #expect(drawn != nil, "\(layout) \(fw)x\(fh): \(renderer.painter.records.map(\.text))")
      #expect(drawn.map { $0.text.contains("stale") } == true)
    }
  }

  /// A header too low for a line under its title says the counts after the title.
  @Test func aLowHeaderSaysTheCountsAfterItsTitle() throws {
    let frame = Fixtures.frame(banner: true)
    let style = Fixtures.style("orchestra", height: 1080)
    var painter = Painter(text: Fixtures.text())
    painter.recording = true
    var canvas = Canvas(width: 1600, height: 60, background: style.theme.bg)
    HeaderWidget().draw(
      frame.header, in: Rect(x: 0, y: 0, width: 1600, height: 60), style: style, painter: &painter, canvas: &canvas)
    let counts = try #require(frame.header.connections?.forms.last)
    #expect(painter.records.contains { $0.text.hasSuffix("  ·  " + counts) }, "\(painter.records.map(\.text))")
  }
}
