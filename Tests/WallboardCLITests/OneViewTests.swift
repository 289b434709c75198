import Projections
import TestSupport
import Testing
import WallboardCore
import Widgets
import Wire

@testable import Runtime
@testable import WallboardCLI

/// Issue 22, item 6: one view of the board a frame, read by the pixel board, the text board and
/// `inspect` — the same banner under one rule, the same numbers. Before, the text board took any
/// source that was not live as "Not connected: NAME is STATE" with the time it last heard, the
/// pixel board its own list of states and the oldest event's time, and `inspect` said nothing.
@Suite("One view of the board, every renderer")
struct OneViewTests {
  static let at = Make.t("2026-11-18T14:30:00Z")

  /// A board with one feature and a source `name` in `status`; it last heard at 14:02 and its
  /// last event was at 14:00 (or, with `yesterday`, the day before).
  static func state(_ status: ConnectionStatus, yesterday: Bool = false) -> BoardState {
    let day = yesterday ? "2026-11-17" : "2026-11-18"
    var s = Make.state([Make.event("\(day)T14:00:00Z", .featureCreated(Make.feature("F1")), origin: "jsonl:a")])
    Reducer.reduce(
      into: &s, .connection(origin: "jsonl:a", status: status, at: Make.t("\(day)T14:02:00Z"), detail: nil))
    return s
  }

  /// The banner each renderer shows: the frame model's, the text board's first line without
  /// its "!! ", and `inspect`'s `banner`.
  static func banners(_ view: BoardView) -> (pixel: String?, text: String?, inspect: String?) {
    let pixel = FrameModel(view: view).banner
    let first = TextBoard.render(view: view).split(separator: "\n").first.map(String.init)
    let text = first.flatMap { $0.hasPrefix("!! ") ? String($0.dropFirst(3)) : nil }
    guard case .object(let o) = InspectReport.json(view: view), case .string(let b)? = o["banner"] else {
      return (pixel, text, nil)
    }
    return (pixel, text, b)
  }

  @Test(arguments: [ConnectionStatus.connecting, .reconnecting, .offline])
  func aSourceNotLiveIsNotConnectedOnEveryRenderer(_ status: ConnectionStatus) {
    let view = BoardView(state: Self.state(status), at: Self.at, now: Self.at, zone: .utc)
    let b = Self.banners(view)
    #expect(b.pixel == "Not connected — showing data from 14:00", "\(status)")
    #expect(b.text == b.pixel, "\(status)")
    #expect(b.inspect == b.pixel, "\(status)")
  }

  @Test func aStaleSourceIsNotConnectedAfterTheSameSecondsEverywhere() {
    let s = Self.state(.live)
    let settings = ViewSettings(staleAfter: 600)
    // Stale after 600 s without news, on every renderer: 28 minutes after it last heard, it is.
    let quiet = BoardView(state: s, at: Self.at, now: Self.at, zone: .utc, settings: settings)
    #expect(Self.banners(quiet).pixel == "Not connected — showing data from 14:00")
    let fresh = BoardView(
      state: s, at: Self.at, now: Make.t("2026-11-18T14:05:00Z"), zone: .utc, settings: settings)
    let b = Self.banners(fresh)
    #expect(b.pixel == nil && b.text == nil, "live within its 600 s: \(b)")
    #expect(fresh.sources.first?.status == .live)
    #expect(TextBoard.render(view: fresh).contains("● jsonl:a: live"))
  }

  @Test func dataFromAnotherDayIsDated() {
    let view = BoardView(state: Self.state(.offline, yesterday: true), at: Self.at, now: Self.at, zone: .utc)
    let b = Self.banners(view)
    #expect(b.pixel == "Not connected — showing data from 17 Nov 14:00")
    #expect(b.text == b.pixel && b.inspect == b.pixel)
  }

  @Test func aLiveBoardHasNoBanner() {
    let now = Make.t("2026-11-18T14:02:10Z")
    let view = BoardView(state: Self.state(.live), at: now, now: now, zone: .utc)
    let b = Self.banners(view)
    #expect(b.pixel == nil && b.text == nil)
    guard case .object(let o) = InspectReport.json(view: view) else { Issue.record("not an object"); return }
    #expect(o["banner"] == .null)
  }

  @Test func aRestoredBoardSaysSoEverywhere() {
    let view = BoardView(
      state: Self.state(.connecting), at: Self.at, now: Self.at, zone: .utc,
      restoredFrom: Make.t("2026-11-18T13:55:00Z"))
    let b = Self.banners(view)
    #expect(b.pixel == "Last known board — showing data from 13:55")
    #expect(b.text == b.pixel && b.inspect == b.pixel)
  }

  /// The kept content is made once however many renderers read it.
  @Test func theRenderersShareTheFramesContent() {
    var memo = ProjectionMemo()
    let s = Self.state(.live)
    let content = memo.content(state: s, version: 1, at: Self.at, zone: .utc, settings: ViewSettings())
    let view = BoardView(content: content, at: Self.at, now: Self.at)
    let frame = FrameModel(view: view)
    _ = TextBoard.render(view: view)
    _ = InspectReport.json(view: view)
    let again = memo.content(state: s, version: 1, at: Self.at.adding(seconds: 1), zone: .utc, settings: ViewSettings())
    #expect(again === content)
    #expect(memo.computed == 1)
    #expect(frame.progress == content.progress)
  }
}
