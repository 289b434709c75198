import Foundation
import Projections
import Raster
import TestSupport
import Testing
import WallboardCore
import Widgets

/// A board without sprints: the team of `SprintlessTeam` at the widgets' usual moment, its
/// source live.
enum FlowFixtures {
  static let state: BoardState = {
    var s = SprintlessTeam.state(through: Fixtures.at)
    Reducer.reduce(into: &s, .connection(origin: "team", status: .live, at: Fixtures.at, detail: nil))
    return s
  }()

  /// The frame, its forecast pinned to one of the backlog (so that the goldens do not follow the
  /// projection's simulation).
  static func frame(days: Int = Flow.defaultDays, state: BoardState = state) -> FrameModel {
    var frame = FrameModel(state: state, at: Fixtures.at, now: Fixtures.at, zone: .utc, unit: .auto, flowDays: days)
    frame.forecast = .backlog(days: 14, p50: 14, p85: 9)
    return frame
  }

  /// Everything drawn for `frame` by a renderer of `layout` on a `width`×`height` canvas.
  static func records(
    _ layout: String, theme: String, width: Int, height: Int, frame: FrameModel = frame()
  ) throws -> [Painter.Record] {
    var painter = Painter(text: Fixtures.text())
    painter.recording = true
    var renderer = BoardRenderer(layout: try Fixtures.bundled(layout), painter: painter)
    let style = Fixtures.style(theme, height: height)
    var canvas = Canvas(width: width, height: height, background: style.theme.bg)
    for page in renderer.layout.pages.indices {
      renderer.show(page: page)
      renderer.render(frame, style: style, into: &canvas)
    }
    return renderer.painter.records
  }
}

@Suite("Flow chart in the burndown's slot")
struct FlowWidgetTests {
  @Test func theSlotShowsTheFlowWithoutASprintAndTheBurndownWithOne() throws {
    let sprintless = FlowFixtures.frame()
    #expect(sprintless.burndown == nil)
    let flow = try #require(sprintless.flow)
    let forecast = ForecastText.flowSummary(sprintless.forecast)
    #expect(forecast == "next 14 d: 9–14")
    #expect(BurndownWidget().model(sprintless) == .flow(flow, forecast: forecast))
    #expect(BurndownWidget(mode: .burnup).model(sprintless) == .flow(flow, forecast: forecast))
    let withSprint = Fixtures.frame()
    #expect(withSprint.flow == nil)
    guard case .sprint = BurndownWidget().model(withSprint) else {
      Issue.record("a board with a sprint shows its burndown")
      return
    }
    #expect(
      BurndownWidget().model(
        FrameModel(state: BoardState(), at: Fixtures.at, now: Fixtures.at, zone: .utc, unit: .auto)) != .empty)
  }

  @Test func theHeaderNamesTheWindowNotAMissingSprint() {
    let h = FlowFixtures.frame().header
    #expect(h.title == "Flow · last 14 days")
    #expect(h.dates == "29 Oct – 11 Nov")
    #expect(h.daysLeft.isEmpty)
    #expect(FlowFixtures.frame(days: 7).header.title == "Flow · last 7 days")
    #expect(FlowFixtures.frame(days: 1).header.title == "Flow · today")
    #expect(FlowFixtures.frame(days: 1).header.dates.isEmpty)
  }

  @Test func theChartSaysTheThroughputAndEachStateCountToday() throws {
    let frame = FlowFixtures.frame()
    let flow = try #require(frame.flow)
    let texts = try FlowFixtures.records("wall", theme: "orchestra", width: 1920, height: 1080, frame: frame).map(
      \.text)
    #expect(texts.contains("Flow · last 14 days"), "the header")
    #expect(texts.contains("Cumulative flow · 14 days"), "the chart")
    let portrait = try FlowFixtures.records("portrait", theme: "orchestra", width: 1080, height: 1920).map(\.text)
    #expect(portrait.contains("Flow · 14 days"), "the short title where the throughput needs the room")
    #expect(portrait.contains(FlowWidget.throughputText(flow)))
    #expect(texts.contains(FlowWidget.throughputText(flow) + " · next 14 d: 9–14"), "and the forecast where it fits")
    #expect(FlowWidget.throughputText(flow) == "\(flow.throughput) done · \(Numbers.short(flow.throughputPerDay))/day")
    // The legend: every band's state and its count today, in stack order (done at the bottom).
    let stack = FlowWidget.stackOrder(flow)
    #expect(flow.states[stack.last!].done)
    #expect(!flow.states[stack.first!].known, "the state the workflow does not know is on top")
    for i in stack {
      let s = flow.states[i]
      let label = s.known ? s.label : "\(s.label) (unknown)"
      let at = try #require(texts.firstIndex(of: label), "legend names \(label)")
      #expect(texts[at + 1] == String(flow.days.last!.counts[i]), "\(label)'s count today")
    }
    #expect(!texts.contains("No sprint to chart yet"))
    #expect(!texts.contains { $0.contains("No sprint") })
  }

  @Test func theNumbersSayTheThroughputWithoutASprint() throws {
    let frame = FlowFixtures.frame()
    let flow = try #require(frame.flow)
    let items = NumbersWidget().model(frame).items
    #expect(items.last?.value == Numbers.short(flow.throughputPerDay))
    #expect(items.last?.label == "done per day")
    #expect(NumbersWidget().model(Fixtures.frame()).items.last?.label == "working days left")
  }

  @Test func anUnchangedFlowIsNotRedrawnAndAMoveIs() throws {
    var renderer = BoardRenderer(layout: try Fixtures.single("burndown"), painter: Painter(text: Fixtures.text()))
    let style = Fixtures.style("orchestra", height: 600)
    var canvas = Canvas(width: 960, height: 600, background: style.theme.bg)
    #expect(!renderer.render(FlowFixtures.frame(), style: style, into: &canvas).isEmpty)
    #expect(renderer.render(FlowFixtures.frame(), style: style, into: &canvas).isEmpty)
    let moved = Make.state(
      [Make.event("2026-11-11T14:59:00Z", .featureCreated(Make.feature("NEW")))],
      from: FlowFixtures.state)
    #expect(!renderer.render(FlowFixtures.frame(state: moved), style: style, into: &canvas).isEmpty)
  }

  @Test func anEmptyBoardSaysSoInsteadOfDrawingAChart() throws {
    let empty = FrameModel(state: BoardState(), at: Fixtures.at, now: Fixtures.at, zone: .utc, unit: .auto)
    let texts = try FlowFixtures.records("wall", theme: "orchestra", width: 1920, height: 1080, frame: empty).map(
      \.text)
    #expect(texts.contains("No features yet"))
  }

  @Test(arguments: Fixtures.catalog.themes.map(\.id))
  func legibleAcrossARoomInEveryTheme(theme: String) throws {
    for layout in ["wall", "tv", "portrait"] {
      let (w, h) = layout == "portrait" ? (1080, 1920) : (1920, 1080)
      let records = try FlowFixtures.records(layout, theme: theme, width: w, height: h)
      #expect(records.contains { $0.text.contains("/day") }, "\(layout): the throughput is drawn")
      for r in records {
        let ratio = RGBA.contrastRatio(r.color, r.background)
        #expect(ratio >= 4.5, "\(theme) \(layout): \"\(r.text)\" at \(ratio):1")
        #expect(r.size >= 0.016 * Double(h), "\(theme) \(layout): \"\(r.text)\" is \(r.size) px")
        #expect(r.width <= r.box.width + 0.5, "\(theme) \(layout): \"\(r.text)\" overflows its box")
      }
    }
  }

  /// The layouts with a chart slot (`glance` has none).
  @Test(arguments: ["wall", "tv", "portrait"])
  func nothingOverflowsAt800x480(layout: String) throws {
    let (w, h) = layout == "portrait" ? (480, 800) : (800, 480)
    for days in [1, 14, 90] {
      let records = try FlowFixtures.records(
        layout, theme: "orchestra", width: w, height: h, frame: FlowFixtures.frame(days: days))
      #expect(records.contains { $0.text.contains("/day") }, "\(layout) \(days): the flow is drawn")
      for r in records {
        #expect(r.width <= r.box.width + 0.5, "\(layout) \(days): \"\(r.text)\" is \(r.width) wide in \(r.box.width)")
        #expect(r.size <= r.box.height * 1.25 + 0.5, "\(layout) \(days): \"\(r.text)\" at \(r.size) px")
        #expect(r.size >= 0.016 * Double(h), "\(layout) \(days): \"\(r.text)\" is \(r.size) px")
      }
    }
  }
}

/// The flow chart of a sprintless board in three themes at two sizes, and the wall layout
/// without a sprint, against goldens in `Goldens/`.
@Suite("Flow goldens")
struct FlowGoldenTests {
  @Test(arguments: GoldenTests.themes)
  func chart(theme: String) throws {
    for (w, h, frameHeight) in GoldenTests.sizes {
      var renderer = BoardRenderer(layout: try Fixtures.single("burndown"), painter: Painter(text: Fixtures.text()))
      let style = Fixtures.style(theme, height: frameHeight)
      var canvas = Canvas(width: w, height: h, background: style.theme.bg)
      renderer.render(FlowFixtures.frame(), style: style, into: &canvas)
      Golden.check(canvas, named: "widget-flow-\(theme)-\(w)x\(h)", directory: Fixtures.goldens)
    }
  }

  @Test func wallWithoutASprint() throws {
    for (w, h, factor) in [(800, 480, 1), (1920, 1080, 2)] {
      var renderer = BoardRenderer(layout: try Fixtures.bundled("wall"), painter: Painter(text: Fixtures.text()))
      let style = Fixtures.style("orchestra", height: h)
      var canvas = Canvas(width: w, height: h, background: style.theme.bg)
      renderer.render(FlowFixtures.frame(), style: style, into: &canvas)
      Golden.check(canvas.downscaled(by: factor), named: "layout-wall-nosprint-\(w)x\(h)", directory: Fixtures.goldens)
    }
  }
}
