import Raster
import TestSupport
import Testing
import WallboardCore
import Widgets

/// A header too narrow for its title drops the projects before it cuts the sprint's name.
@Suite("The header's title")
struct HeaderTitleTests {
  @Test func theProjectGoesBeforeTheSprintsName() throws {
    let sprint = Make.sprint("14", start: "2026-11-02", end: "2026-11-13")
    var model = HeaderModel(
      projects: ["orchestra-upstream-platform"], sprint: sprint, burndown: nil, at: Make.t("2026-11-11T15:00:00Z"),
      zone: .utc)
    #expect(model.title == "orchestra-upstream-platform · Sprint 14")
    #expect(model.titleContext == "orchestra-upstream-platform · ")
    var painter = Painter(text: Fixtures.text())
    painter.recording = true
    var canvas = Canvas(width: 600, height: 120)
    HeaderWidget().draw(
      model, in: Rect(x: 0, y: 0, width: 600, height: 120), style: Fixtures.style("orchestra", height: 1080),
      painter: &painter, canvas: &canvas)
    #expect(painter.records.first?.text == "Sprint 14", "\(painter.records.map(\.text))")
    model.titleContext = ""
    model.title = "Sprint 14"
    #expect(model.title == "Sprint 14")
  }
}
