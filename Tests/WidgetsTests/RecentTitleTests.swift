import Projections
import Raster
import TestSupport
import Testing
import WallboardCore
import Widgets

/// Recent changes name features by their titles, shortened to fit; the id where there is room
/// or no title.
@Suite("Titles in lists of features")
struct RecentTitleTests {
  static func rows(width: Double, rows: [RecentRow]) -> [String] {
    var painter = Painter(text: Fixtures.text())
    painter.recording = true
    var canvas = Canvas(width: Int(width), height: 300)
    RecentWidget().draw(
      rows, in: Rect(x: 0, y: 0, width: width, height: 300), style: Fixtures.style("orchestra", height: 1080),
      painter: &painter, canvas: &canvas)
    return painter.records.map(\.text).filter { $0.contains("→") }
  }

  static let titled = RecentRow(
    featureId: "FEAT-AAU", title: "Speed up feature flags for every tenant", to: "in-docs", age: "1 min ago")

  @Test func aWideListSaysTheTitleAndTheId() {
    #expect(
      Self.rows(width: 900, rows: [Self.titled]) == ["Speed up feature flags for every tenant (FEAT-AAU) → in-docs"])
  }

  @Test(arguments: [420.0, 560, 700])
  func aNarrowOneShortensTheTitleAndKeepsTheState(width: Double) throws {
    let row = try #require(Self.rows(width: width, rows: [Self.titled]).first)
    #expect(row.hasPrefix("Speed up"), "\(row)")
    #expect(row.hasSuffix("… → in-docs"), "\(row)")
    #expect(!row.contains("FEAT-AAU"), "\(row)")
  }

  @Test func withoutATitleTheIdIsTheName() {
    let row = RecentRow(featureId: "FEAT-AAU", title: "  ", to: "done", age: "1 min ago")
    #expect(Self.rows(width: 900, rows: [row]) == ["FEAT-AAU → done"])
  }

  @Test func theFrameCarriesEachTransitionsTitle() throws {
    let recent = Fixtures.frame().recent
    #expect(!recent.isEmpty)
    for row in recent { #expect(!row.title.isEmpty, "\(row.featureId)") }
  }

  @Test func textListsShortenTheTitleByCharacters() {
    #expect(FeatureName.text(id: "FEAT-1", title: "Login") == "Login (FEAT-1)")
    #expect(FeatureName.text(id: "FEAT-1", title: "") == "FEAT-1")
    #expect(FeatureName.text(id: "FEAT-1", title: "A title that is far too long", limit: 10) == "A title t… (FEAT-1)")
  }

  /// An id two projects hold is listed with its project; an id only one project holds is bare.
  @Test func theFrameQualifiesAnIdOfTwoProjects() {
    var s = BoardState()
    for e in [
      Make.event(
        "2026-11-16T09:00:00Z", .featureCreated(Feature(id: "A", projectId: "web", title: "Login", status: "todo"))),
      Make.event(
        "2026-11-16T09:00:00Z", .featureCreated(Feature(id: "A", projectId: "api", title: "Quota", status: "todo"))),
      Make.event(
        "2026-11-16T09:00:00Z", .featureCreated(Feature(id: "B", projectId: "api", title: "Keys", status: "todo"))),
      Make.event(
        "2026-11-18T11:00:00Z", .workflowTransitioned(featureId: "A", to: "done", from: nil, at: nil, project: "web")),
      Make.status("2026-11-18T11:05:00Z", "B", "done"),
    ] {
      Reducer.reduce(into: &s, e)
    }
    let at = Make.t("2026-11-19T12:00:00Z")
    let frame = FrameModel(state: s, at: at, now: at, zone: .utc, unit: .auto)
    #expect(frame.recent.prefix(2).map(\.featureId) == ["B", "web/A"])
    #expect(frame.recent.prefix(2).map(\.title) == ["Keys", "Login"])
    #expect(frame.recent.map(\.featureId).contains("api/A"), "the creations are listed too")
  }
}
