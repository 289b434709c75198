import Projections
import Raster
import TestSupport
import Testing
import WallboardCore
import Widgets

/// Text that does not fit is shortened where it carries the least, and never overlaps.
@Suite("Shortened text")
struct ShorteningTests {
  typealias M = Make

  static let host = "orchestra://build-server.team.example.internal:50101"
  static let file = "jsonl:/var/lib/wallboard/imports/platform-team/events.jsonl"

  static func frame() -> FrameModel {
    let at = M.t("2026-11-11T15:00:00Z")
    var s = BoardState()
    for name in [host, file] {
      Reducer.reduce(into: &s, .connection(origin: name, status: .live, at: at, detail: nil))
      Reducer.reduce(
        into: &s, Event(origin: name, time: at.adding(seconds: -3 * 3600), receivedAt: at, body: .heartbeat))
    }
    Reducer.reduce(
      into: &s,
      Event(
        origin: file, time: at.adding(seconds: -600),
        body: .featureCreated(M.feature("FEAT-A-VERY-LONG-IDENTIFIER-1234", status: "ready-for-testing"))))
    Reducer.reduce(
      into: &s,
      Event(
        origin: file, time: at.adding(seconds: -60),
        body: .featureUpdated(FeaturePatch(id: "FEAT-A-VERY-LONG-IDENTIFIER-1234", status: "in-testing"))))
    return FrameModel(state: s, at: at, now: at, zone: .utc, unit: .auto)
  }

  static func records(_ widget: some Widget, width: Double, height: Double) -> [Painter.Record] {
    var painter = Painter(text: Fixtures.text())
    painter.recording = true
    var canvas = Canvas(width: Int(width), height: Int(height))
    let frame = frame()
    widget.draw(
      widget.model(frame), in: Rect(x: 0, y: 0, width: width, height: height),
      style: Fixtures.style("orchestra", height: 480), painter: &painter, canvas: &canvas)
    return painter.records
  }

  /// No two pieces of text on one line overlap, and none leaves its box.
  static func expectNoOverlap(_ records: [Painter.Record], _ what: String) {
    for r in records {
      #expect(r.x >= r.box.minX - 0.5 && r.x + r.width <= r.box.maxX + 1, "\(what): \"\(r.text)\" leaves its box")
    }
    for (i, a) in records.enumerated() {
      for b in records[(i + 1)...] where a.box.minY < b.box.maxY && b.box.minY < a.box.maxY {
        let apart = a.x + a.width <= b.x + 0.5 || b.x + b.width <= a.x + 0.5
        #expect(apart, "\(what): \"\(a.text)\" and \"\(b.text)\" overlap")
      }
    }
  }

  @Test(arguments: [240.0, 330, 480])
  func aSourceKeepsItsHostAndPortAndItsFileName(width: Double) throws {
    let records = Self.records(ConnectionsWidget(), width: width, height: 140)
    let host = try #require(records.first { $0.text.contains("50101") })
    #expect(host.text.hasSuffix("example.internal:50101") || host.text.hasSuffix(":50101"))
    #expect(!host.text.contains("orchestra://") || host.text == Self.host)
    let file = try #require(records.first { $0.text.contains("events.jsonl") }, "\(records.map(\.text))")
    #expect(file.text.hasSuffix("events.jsonl"))
    #expect(records.contains { $0.text.hasPrefix("live") }, "the status is never dropped")
    Self.expectNoOverlap(records, "connections at \(width)")
  }

  @Test(arguments: [200.0, 330])
  func aRecentChangeKeepsItsNewState(width: Double) throws {
    let records = Self.records(RecentWidget(), width: width, height: 120)
    let row = try #require(records.first { $0.text.contains("→") }, "\(records.map(\.text))")
    #expect(row.text.hasSuffix("→ In testing"))
    Self.expectNoOverlap(records, "recent at \(width)")
  }

  @Test func aStateKeepsItsEnd() throws {
    let records = Self.records(TalliesWidget(), width: 170, height: 300)
    let label = try #require(
      records.first { $0.text.contains("testing") && $0.text.hasPrefix("…") }, "\(records.map(\.text))")
    #expect(label.text.hasSuffix("for testing"))
    Self.expectNoOverlap(records, "tallies")
  }
}
