import Clock
import DisplayCore
import EventSources
import Foundation
import Journal
import Projections
import SourceKit
import TestSupport
import Testing
import WallboardCore
import Widgets

@testable import Runtime
@testable import WallboardCLI

/// Issue 20, item 11: `run` on a workspace folder that is not there starts the board, shows the
/// problem, keeps watching, and does not exit; the folder made later is picked up.
@Suite("run on a missing workspace", .serialized)
struct MissingPathRunTests {
  /// A stop the test asks for (as SIGTERM would).
  final class Stopper: @unchecked Sendable {
    private let lock = NSLock()
    private var asked = false
    func ask() { lock.withLock { asked = true } }
    var request: StopRequest {
      StopRequest(arm: {}, requested: { [self] in lock.withLock { asked } ? SIGTERM : nil }, takeHangup: { false })
    }
  }

  /// Runs `wallboard run` in process on an in-memory display, on a thread of its own: the
  /// exit code once it returns.
  final class Running: @unchecked Sendable {
    private let lock = NSLock()
    private var code: Int32?
    let stopper = Stopper()
    let done = DispatchSemaphore(value: 0)
    var exitCode: Int32? { lock.withLock { code } }

    init(_ args: [String], home: String) {
      let display = MemoryDisplay(width: 480, height: 270, traits: DisplayTraits(fillsScreen: false))
      var app = App(
        console: Captured().console, environment: ["WALLBOARD_HOME": Paths.repoRoot.path, "HOME": home],
        stop: stopper.request)
      app.openDisplay = { (_, _, _) throws(CLIError) in display }
      nonisolated(unsafe) let started = app
      let thread = Thread { [self] in
        let c = started.main(args)
        lock.withLock { code = c }
        done.signal()
      }
      thread.start()
    }
  }

  /// The connection inputs the journal kept for `origin`, in order.
  static func connections(_ journal: String, origin: String) throws -> [(ConnectionStatus, String?)] {
    var out: [(ConnectionStatus, String?)] = []
    _ = try JournalFile(path: journal, mode: .read).play(through: nil, settings: nil, from: .beginning) { input, _ in
      if case .connection(let o, let status, _, let detail) = input, o == origin { out.append((status, detail)) }
    }
    return out
  }

  @Test func theBoardSaysTheFolderIsMissingKeepsWatchingAndPicksItUp() throws {
    let home = try TempDir("wallboard-missing-run")
    let ws = home.url.appendingPathComponent("later-ws")
    let journal = home.url.appendingPathComponent("j.db").path
    let origin = "orchestra:\(ws.path)"
    let run = Running(
      ["run", "--journal", journal, "--source", origin, "--tz", "UTC", "--pixel-shift", "off"], home: home.url.path)
    // Started, and still running: a missing folder is no reason to exit.
    Thread.sleep(forTimeInterval: 1.5)
    #expect(run.exitCode == nil, "run exited on a missing folder")
    // The folder appears without a tree, then with one: the source looks again every 5 s.
    try FileManager.default.createDirectory(at: ws, withIntermediateDirectories: true)
    Thread.sleep(forTimeInterval: 6)
    #expect(run.exitCode == nil)
    try FileManager.default.copyItem(
      at: Paths.fixtures.appendingPathComponent("markdown/plugin/.projects"), to: ws.appendingPathComponent(".projects")
    )
    Thread.sleep(forTimeInterval: 6.5)
    #expect(run.exitCode == nil)
    run.stopper.ask()
    #expect(run.done.wait(timeout: .now() + 20) == .success, "run did not stop when asked")
    #expect(run.exitCode == 0)

    let seen = try Self.connections(journal, origin: origin)
    let details = seen.map { "\($0.0.rawValue): \($0.1 ?? "")" }
    // Listed from the first frame (issue 21, item 4), then what the source says.
    #expect(details.first == "connecting: not read yet", "\(details)")
    #expect(details.dropFirst().first == "offline: \(ws.path): no such folder", "\(details)")
    #expect(
      details.contains { $0.hasPrefix("offline: \(ws.path): no .projects folder and no Orchestra database (") },
      "\(details)")
    #expect(details.contains { $0.hasPrefix("live: markdown \(ws.path)/.projects") }, "\(details)")
    // And the features are on the board the journal kept.
    var store = BoardStore(settings: BoardSettings())
    _ = try JournalFile(path: journal, mode: .read).play(through: nil, settings: nil) { input, at in
      _ = store.apply(input, at: at)
    }
    #expect(store.state.features.keys.contains { $0.project == "orchestra-swift" })
  }

  /// The connections card's line and the diagnostics panel say the reason in full.
  @Test func theConnectionsLineAndTheDiagnosticsPanelSayWhy() throws {
    let at = Make.t("2026-11-05T12:00:00Z")
    var s = BoardState()
    Reducer.reduce(
      into: &s, .connection(origin: "orchestra:/srv/ws", status: .offline, at: at, detail: "/srv/ws: no such folder"))
    let statuses = SourceStatus.compute(state: s, now: at)
    #expect(Diagnostics.offline(statuses) == ["orchestra:/srv/ws: offline · /srv/ws: no such folder"])
    var panel = Diagnostics(enabled: true, clock: .system)
    panel.sources = statuses
    #expect(panel.lines.contains("orchestra:/srv/ws: offline · /srv/ws: no such folder"))
    let frame = FrameModel(state: s, at: at, now: at, zone: .utc, unit: .auto)
    #expect(frame.sources.first?.detail == "/srv/ws: no such folder")
    #expect(frame.banner?.hasPrefix("Not connected") == true)
  }
}
