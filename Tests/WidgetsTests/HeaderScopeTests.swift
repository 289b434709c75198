import Projections
import Raster
import TestSupport
import Testing
import WallboardCore
import Widgets

/// The header says which projects the board shows and the filter when set, and a forced sprint
/// the board does not have.
@Suite("The header's scope")
struct HeaderScopeTests {
  static let at = Make.t("2026-11-11T15:00:00Z")
  static let sprint = Make.sprint("s1", start: "2026-11-02", end: "2026-11-13")

  static func header(_ filter: FeatureFilter, project: String? = "demo", missing: String? = nil) -> HeaderModel {
    HeaderModel(
      projects: project.map { [$0] } ?? [], sprint: missing == nil ? sprint : nil, burndown: nil, at: at, zone: .utc,
      filter: filter,
      missingSprint: missing)
  }

  /// Several projects and no filter: the workspace and how many, never the largest one's slug.
  @Test func severalProjectsAreCountedUnderTheWorkspaceName() {
    let several = HeaderModel(
      projects: ["api", "ops", "web"], workspace: "shop", sprint: nil, burndown: nil, at: Self.at, zone: .utc)
    #expect(several.title == "shop · 3 projects · No sprint")
    let unnamed = HeaderModel(projects: ["api", "web"], sprint: nil, burndown: nil, at: Self.at, zone: .utc)
    #expect(unnamed.title == "2 projects · No sprint")
    let one = HeaderModel(projects: ["web"], workspace: "shop", sprint: nil, burndown: nil, at: Self.at, zone: .utc)
    #expect(one.title == "web · No sprint")
  }

  @Test func theWorkspaceIsNamedByItsFolder() {
    var state = BoardState()
    Reducer.reduce(
      into: &state, .connection(origin: "orchestra:/home/ana/work/shop/", status: .live, at: Self.at, detail: nil))
    #expect(HeaderModel.workspaceName(state) == "shop")
    Reducer.reduce(
      into: &state, .connection(origin: "orchestra-md:/srv/other", status: .live, at: Self.at, detail: nil))
    #expect(HeaderModel.workspaceName(state) == nil)
  }

  @Test func projectsInTheTitleTheRestOnTheScopeLine() {
    #expect(Self.header(.all).title == "demo · Sprint s1")
    #expect(Self.header(.all).scope == "")
    #expect(Self.header(FeatureFilter(projects: ["web", "api"])).title == "web · api · Sprint s1")
    #expect(Self.header(FeatureFilter(projects: ["web", "api"])).scope == "")
    let many = Self.header(FeatureFilter(projects: ["web", "api", "ops"]))
    #expect(many.title == "3 projects · Sprint s1")
    #expect(many.scope == "projects web, api, ops")
    let labelled = Self.header(FeatureFilter(labels: ["team:web"], assignees: ["ana", "bo"]))
    #expect(labelled.title == "demo · Sprint s1")
    #expect(labelled.scope == "label team:web  ·  assignees ana, bo")
  }

  @Test func aForcedSprintTheBoardLacksIsSaid() {
    #expect(Self.header(.all, project: nil, missing: "s9").title == "Sprint s9 not found")
    #expect(Self.header(.all, project: nil).title == "Sprint s1")
  }

  @Test func theFrameCarriesTheBoardsFilter() {
    let s = BoardState(settings: BoardSettings(filter: FeatureFilter(projects: ["web"], labels: ["team:web"])))
    let frame = FrameModel(state: s, at: Self.at, now: Self.at, zone: .utc, unit: .auto, activeSprint: "s9")
    #expect(frame.header.title == "web · Sprint s9 not found")
    #expect(frame.header.scope == "label team:web")
  }

  @Test func theScopeLineIsDrawnWhenThereIsRoom() {
    let style = Fixtures.style("orchestra", height: 1080)
    var painter = Painter(text: Fixtures.text())
    func draw(_ m: HeaderModel) -> [UInt32] {
      var canvas = Canvas(width: 1200, height: 160, background: style.theme.bg)
      HeaderWidget().draw(m, in: canvas.bounds.rect, style: style, painter: &painter, canvas: &canvas)
      return canvas.pixels
    }
    #expect(draw(Self.header(FeatureFilter(labels: ["team:web"]))) != draw(Self.header(.all)))
  }
}
