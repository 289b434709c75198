import Clock
import DisplayCore
import EventSources
import Foundation
import Journal
import SourceKit
import TestSupport
import Testing
import WallboardCore

@testable import Runtime
@testable import WallboardCLI

/// Issue 20, item 8: what a journal restores agrees with the sources running now. A second run
/// of the simulated team resumes it from the journal's moment (tallies and burndown of one
/// moment), a `--sprint` no longer declared is gone, a changed one takes effect, and a source no
/// longer named is not shown.
@Suite(.serialized) struct RestoreAgreesTests {
  /// The simulation at its fastest, so that a few seconds of `run` are weeks of its time.
  static let fastSim = "sim:speed=1000000"
  static let now = Make.t("2026-11-20T10:00:00Z")

  /// Runs `run` in process on the tests' in-memory display until `seconds` have passed, with
  /// `environment` (where the default journal goes) and a clock from `now` on at the real pace
  /// (the real one: nil), so that the ages on the board move and frames keep coming.
  static func run(
    _ args: [String], seconds: Double, environment: [String: String] = [:], now: Instant? = nil
  ) -> (code: Int32, err: String) {
    let c = Captured()
    let display = MemoryDisplay(width: 320, height: 180, traits: DisplayTraits(fillsScreen: false))
    let started = Date()
    display.afterPresent = { d in
      if Date().timeIntervalSince(started) >= seconds { d.queued = [.quit] }
    }
    var env = environment
    env["WALLBOARD_HOME"] = Paths.repoRoot.path
    var app = App(
      console: c.console, environment: env,
      now: { now.map { $0.adding(seconds: Date().timeIntervalSince(started)) } ?? Clock.system.now() })
    app.openDisplay = { (_, _, _) throws(CLIError) in display }
    let code = app.main(["run", "--tz", "UTC", "--pixel-shift", "off"] + args)
    return (code, c.err)
  }

  /// The board a journal holds, and its moment, read as a restore reads it.
  static func board(_ path: String) throws -> (state: BoardState, at: Instant) {
    let file = try JournalFile(path: path, mode: .read)
    var store = BoardStore(settings: BoardSettings())
    let played = try file.play(through: nil, settings: nil) { input, at in
      store.apply(input, at: at, asOfRule: .none)
    }
    return (store.state, try #require(played.at))
  }

  static func inspect(_ args: [String]) throws -> String {
    let r = Captured.run(["inspect", "--tz", "UTC"] + args)
    try #require(r.code == 0, "inspect \(args): \(r.err)")
    return r.out
  }

  /// Writes JSON Lines of features (id, points), all to do, from publisher `source`.
  static func events(_ dir: TempDir, _ name: String, source: String, _ features: [(String, Int)]) throws -> String {
    let lines = features.enumerated().map { n, f in
      "{\"topic\":\"feature.created\",\"time\":\"2026-11-13T09:00:00Z\",\"seq\":\(n + 1),\"source\":\"\(source)\","
        + "\"payload\":{\"id\":\"\(f.0)\",\"title\":\"Feature \(f.0)\",\"status\":\"todo\",\"points\":\(f.1)}}"
    }
    let url = dir.url.appendingPathComponent(name)
    try (lines.joined(separator: "\n") + "\n").write(to: url, atomically: true, encoding: .utf8)
    return url.path
  }

  /// Two `make run`s of the demo against its default journal: the second resumes the
  /// simulation from the journal's moment, so every feature's tally is its history's at the
  /// board's moment (what the burndown reads), the board is the simulation's own up to the last
  /// event it holds, and nothing was taken twice.
  @Test func aSecondRunOfTheSimulationAgreesWithItself() throws {
    let dir = try TempDir()
    let env = ["XDG_STATE_HOME": dir.url.path]
    let first = Self.run(["--source", Self.fastSim], seconds: 4, environment: env)
    #expect(first.code == 0, "\(first.err)")
    let journal = dir.url.appendingPathComponent("wallboard/" + JournalPlace.defaultName(sources: [Self.fastSim])).path
    let (_, firstAt) = try Self.board(journal)
    let second = Self.run(["--source", Self.fastSim], seconds: 0.3, environment: env)
    #expect(second.code == 0, "\(second.err)")
    let (state, at) = try Self.board(journal)

    #expect(at >= firstAt, "the second run goes on from the first's moment \(firstAt.rfc3339), not from \(at.rfc3339)")
    #expect(Array(state.origins.keys) == [Self.fastSim])
    // Tallies (each feature's status) and the burndown (its history at the board's moment) agree.
    var ahead: [String] = []
    for (key, f) in state.features {
      let v = state.history[key]?.version(atOrBefore: at)
      if v?.status != f.status || v?.exists != true {
        ahead.append("\(key): \(f.status), at \(at.rfc3339) \(v?.status ?? "none")")
      }
    }
    #expect(ahead.isEmpty, "\(ahead.count) features are not at the board's moment: \(ahead.prefix(5))")
    // The simulation's own board, up to the last event the journal holds.
    let origin = try #require(state.origins[Self.fastSim])
    let last = try #require(origin.cursor.last["sim.team"])
    let through = try #require(origin.lastEventAt)
    var expected = BoardState()
    let team = SimulatedTeam(seed: 1)
    for input in SimSource.inputs(team: team, origin: Self.fastSim, through: through) {
      if case .event(let e) = input, let seq = e.seq, seq > last { continue }
      Reducer.reduce(into: &expected, input)
    }
    #expect(state.features.mapValues(\.status) == expected.features.mapValues(\.status))
    #expect(origin.duplicates == 0, "the journal's events are not delivered again")
  }

  /// A `--sprint` the second run does not declare is gone, on `run` and on `inspect` alike.
  @Test func aSprintNoLongerDeclaredIsGone() throws {
    let dir = try TempDir()
    let journal = dir.url.appendingPathComponent("board.db").path
    let events = try Self.events(dir, "a.jsonl", source: "a", [("A", 3), ("B", 5)])
    let sprint = "id=s9,name=Nine,start=2026-11-16,end=2026-11-27,features=A;B"
    let first = Self.run(
      ["--journal", journal, "--source", "jsonl:\(events)", "--sprint", sprint], seconds: 1.5, now: Self.now)
    #expect(first.code == 0, "\(first.err)")
    #expect(try Self.board(journal).state.sprints["s9"] != nil)
    let second = Self.run(["--journal", journal, "--source", "jsonl:\(events)"], seconds: 1.5, now: Self.now)
    #expect(second.code == 0, "\(second.err)")
    let state = try Self.board(journal).state
    #expect(state.sprints.isEmpty, "\(state.sprints.keys)")
    #expect(state.origins[DeclaredSprintsSource.name] == nil)
    #expect(state.features.count == 2)

    // `inspect` starting from a journal follows its own command line too.
    let other = dir.url.appendingPathComponent("inspect.db").path
    _ = try Self.inspect(["--journal", other, "--source", "jsonl:\(events)", "--sprint", sprint])
    let again = try Self.inspect(["--journal", other, "--source", "jsonl:\(events)"])
    #expect(!again.contains("\"s9\"") && !again.contains("Nine"), "\(again)")
    #expect(again.contains("\"declared_sprints\": []") && !again.contains("\"name\": \"declared\""), "\(again)")
  }

  /// A `--sprint` declared anew takes its current definition: its name and dates, and its
  /// members from now on, in the burndown as in the list.
  @Test func aChangedSprintTakesEffect() throws {
    let dir = try TempDir()
    let journal = dir.url.appendingPathComponent("board.db").path
    let events = try Self.events(dir, "a.jsonl", source: "a", [("A", 3), ("B", 5), ("C", 2)])
    let source = ["--journal", journal, "--source", "jsonl:\(events)"]
    let first = Self.run(
      source + ["--sprint", "id=s9,name=Nine,start=2026-11-16,end=2026-11-27,features=A;B"], seconds: 1.5,
      now: Self.now)
    #expect(first.code == 0, "\(first.err)")
    let second = Self.run(
      source + ["--sprint", "id=s9,name=Niner,start=2026-11-16,end=2026-11-30,features=C"], seconds: 1.5,
      now: Self.now)
    #expect(second.code == 0, "\(second.err)")
    let (state, at) = try Self.board(journal)
    let s9 = try #require(state.sprints["s9"])
    #expect(s9.name == "Niner" && s9.endDate == CivilDate(year: 2026, month: 11, day: 30))
    // What the burndown reads: each feature's sprints at the board's moment.
    func member(_ id: String) -> Bool {
      let key = FeatureKey(id: id)
      return state.history[key]?.version(atOrBefore: at)?.sprints.contains("s9") == true
    }
    #expect(!member("A") && !member("B") && member("C"), "members now: only C")
    #expect(state.membership(of: try #require(state.features[FeatureKey(id: "C")])) == ["s9"])
  }

  /// A JSON Lines source named by the first run and not the second is not on the second's
  /// board: neither its connection nor its features.
  @Test func aSourceRemovedBetweenRunsIsNotShown() throws {
    let dir = try TempDir()
    let journal = dir.url.appendingPathComponent("board.db").path
    let a = try Self.events(dir, "a.jsonl", source: "a", [("A", 3), ("B", 5)])
    let b = try Self.events(dir, "b.jsonl", source: "b", [("X", 1), ("Y", 2), ("Z", 3)])
    let first = Self.run(
      ["--journal", journal, "--source", "jsonl:\(a)", "--source", "jsonl:\(b)"], seconds: 1.5, now: Self.now)
    #expect(first.code == 0, "\(first.err)")
    #expect(try Self.board(journal).state.features.count == 5)
    let second = Self.run(["--journal", journal, "--source", "jsonl:\(a)"], seconds: 1.5, now: Self.now)
    #expect(second.code == 0, "\(second.err)")
    let state = try Self.board(journal).state
    #expect(Array(state.origins.keys) == ["jsonl:\(a)"])
    #expect(Set(state.features.keys.map(\.id)) == ["A", "B"])
    #expect(state.history.keys.allSatisfy { ["A", "B"].contains($0.id) })
    let shown = try Self.inspect(["--journal", journal])
    #expect(!shown.contains("b.jsonl"), "\(shown)")
  }
}
