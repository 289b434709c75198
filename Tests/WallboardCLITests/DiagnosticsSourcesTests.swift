import Clock
import Projections
import TestSupport
import Testing
import WallboardCore

@testable import Runtime
@testable import WallboardCLI

/// The diagnostics panel (`d`) says what each source rejected, in full: how much, and the last
/// reason with the whole path the board's line shortens.
@Suite("Diagnostics: what the sources rejected")
struct DiagnosticsSourcesTests {
  static let path = "/home/ana/work/shop/.projects/go/features/FEAT-BAD.md"

  static func sources() -> [SourceStatus] {
    let at = Make.t("2026-11-11T15:00:00Z")
    var state = BoardState()
    let md = "orchestra-md:/home/ana/work/shop"
    Reducer.reduce(into: &state, .rejected(origin: md, at: at, reason: "\(path):8: a tab in the indentation"))
    Reducer.reduce(
      into: &state,
      .connection(
        origin: md, status: .live, at: at,
        detail:
          "1 feature file unreadable: FEAT-BAD.md:8: a tab in the indentation · markdown /home/ana/work/shop/.projects"
      ))
    Reducer.reduce(into: &state, .connection(origin: "sim", status: .live, at: at, detail: "simulated"))
    return SourceStatus.compute(state: state, now: at)
  }

  @Test func thePanelListsEachSourceThatRejectedInput() {
    var diagnostics = Diagnostics(enabled: true, clock: TestClock().clock)
    diagnostics.sources = Self.sources()
    #expect(
      diagnostics.lines.contains(
        "orchestra-md:/home/ana/work/shop: 1 rejected · last: \(Self.path):8: a tab in the indentation"))
    #expect(!diagnostics.lines.contains { $0.hasPrefix("sim:") }, "nothing rejected, nothing said")
  }

  @Test func offTheSourcesAreOnlyOnTheirLine() {
    var diagnostics = Diagnostics(enabled: false, clock: TestClock().clock)
    diagnostics.sources = Self.sources()
    #expect(diagnostics.lines.isEmpty && !diagnostics.visible)
  }
}
