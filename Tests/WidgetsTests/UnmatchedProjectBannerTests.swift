import Projections
import TestSupport
import Testing
import WallboardCore
import Widgets

/// Issue 20, item 11: a `--project` that matches nothing the sources hold shows a board that
/// says so, not an empty board with every source live and no banner.
@Suite struct UnmatchedProjectBannerTests {
  static let at = Make.t("2026-11-05T12:00:00Z")

  /// A board under `projects`, with one live source that delivered two `web` features.
  static func board(_ projects: [String], status: ConnectionStatus = .live) -> BoardState {
    var s = BoardState(settings: BoardSettings(filter: FeatureFilter(projects: projects)))
    Reducer.reduce(into: &s, .connection(origin: "orchestra:/ws", status: status, at: at, detail: "markdown"))
    for id in ["FEAT-A", "FEAT-B"] {
      Reducer.reduce(
        into: &s,
        .event(
          Event(
            origin: "orchestra:/ws", time: at, body: .featureCreated(Make.feature(id, status: "todo", projectId: "web"))
          )))
    }
    return s
  }

  static func banner(_ s: BoardState) -> String? {
    FrameModel(state: s, at: at, now: at, zone: .utc, unit: .auto).banner
  }

  @Test func aProjectNoSourceHoldsIsSaidAcrossTheBoard() {
    #expect(Self.banner(Self.board(["nosuch"])) == "No features in project nosuch")
    #expect(Self.banner(Self.board(["nosuch", "other"])) == "No features in projects nosuch, other")
  }

  @Test func aProjectTheSourcesHoldShowsNoBanner() {
    #expect(Self.banner(Self.board(["web"])) == nil)
    #expect(Self.banner(Self.board(["web", "nosuch"])) == nil, "one of them matches: the board shows it")
    #expect(Self.banner(Self.board([])) == nil)
  }

  @Test func whileASourceIsStillConnectingNothingIsJudged() {
    // Issue 21, item 4: a source still connecting is not connected — that banner, not a verdict.
    #expect(Self.banner(Self.board(["nosuch"], status: .connecting))?.hasPrefix("Not connected") == true)
    #expect(Self.banner(BoardState(settings: BoardSettings(filter: FeatureFilter(projects: ["nosuch"])))) == nil)
  }

  @Test func anOfflineSourceKeepsItsOwnBanner() {
    #expect(Self.banner(Self.board(["nosuch"], status: .offline))?.hasPrefix("Not connected") == true)
  }
}
