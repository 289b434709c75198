import DisplayCore
import Foundation
import TerminalDisplay
import TestSupport
import Testing
import WallboardCore
import Wire

@testable import Runtime
@testable import WallboardCLI

/// The terminal view draws text as text (issue 20, item 13): the real run loop on a terminal
/// behind `TerminalSyscalls`, its bytes read back as plain characters (every colour stripped).
@Suite(.serialized, .timeLimit(.minutes(1))) struct TerminalTextTests {
  /// A pretend terminal: keeps what is written, reports `size`, raises `SIGWINCH` and hands out
  /// typed keys on demand.
  final class FakeTTY: @unchecked Sendable {
    var written: [UInt8] = []
    var size: (columns: Int, rows: Int)
    var resizePending = false
    var typed: [UInt8] = []

    init(columns: Int, rows: Int) { size = (columns, rows) }

    var syscalls: TerminalSyscalls {
      TerminalSyscalls(
        write: { [self] _, bytes in
          written += bytes
          return bytes.count
        },
        waitWritable: { _ in true },
        windowSize: { [self] _ in size },
        installResizeHandler: {},
        takeResize: { [self] in
          defer { resizePending = false }
          return resizePending
        },
        read: { [self] _, buffer in
          let n = min(buffer.count, typed.count)
          for i in 0..<n { buffer[i] = typed[i] }
          typed.removeFirst(n)
          return n
        },
        enterKeyMode: { _ in true })
    }

    /// What the terminal shows now, as plain characters.
    func screen() -> PlainTerminal {
      var t = PlainTerminal(columns: size.columns, rows: size.rows)
      t.feed(written)
      return t
    }
  }

  /// The terminal as the board's display, calling `afterPresent` after each frame.
  final class Watched: Display {
    let screen: TerminalScreen
    var presents = 0
    var afterPresent: (Watched) -> Void = { _ in }
    init(_ screen: TerminalScreen) { self.screen = screen }
    var size: (width: Int, height: Int) { screen.size }
    var traits: DisplayTraits { screen.traits }
    func present(_ frame: DisplayFrame) throws(DisplayError) {
      try screen.present(frame)
      presents += 1
      afterPresent(self)
    }
    func events() -> [DisplayEvent] { screen.events() }
    func close() { screen.close() }
  }

  /// The worked example at a moment: a finite source, so that `inspect` says what the board
  /// shows, and the board's clock is the wall's.
  static let at = "2026-11-06T12:00:00Z"
  static var example: String {
    "jsonl:" + Paths.fixtures.appendingPathComponent("reference/examples/worked-example.jsonl").path
  }
  /// The simulated team, for the golden (at a thousandth of a second a second, its clock stands
  /// still for the test).
  static let simAt = "2026-11-11T15:00:00Z"

  /// Runs the board on `tty` until `frames` frames were presented since the screen first showed
  /// what `until` waits for (then `q`; at most 30 frames more when it never does), with `extra`
  /// options; `between` runs after each of those frames, counted from 1. The board's first frame
  /// comes before any source is read (what the journal kept, here nothing): a test of what the
  /// board shows of its sources waits for it.
  static func run(
    _ tty: FakeTTY, frames: Int = 1, _ extra: [String] = [], source: String = example, at: String = at,
    until: @escaping (PlainTerminal) -> Bool = { _ in true }, between: @escaping (Int, FakeTTY) -> Void = { _, _ in }
  ) -> (code: Int32, err: String) {
    let captured = Captured()
    var app = App(
      console: captured.console, environment: ["WALLBOARD_HOME": Paths.repoRoot.path],
      now: { try! Instant(rfc3339: at) })
    app.openDisplay = { (_, _, _) throws(CLIError) in
      let d = Watched(TerminalScreen(TerminalDisplay(output: 7, input: 8, syscalls: tty.syscalls)))
      var shown = 0
      d.afterPresent = { w in
        if shown > 0 || until(tty.screen()) {
          shown += 1
          between(shown, tty)
        }
        if shown >= frames || w.presents >= frames + 30 { tty.typed = Array("q".utf8) }
      }
      return d
    }
    let code = app.main(
      ["run", "--no-journal", "--source", source, "--at", at, "--tz", "UTC", "--pixel-shift", "off"] + extra)
    return (code, captured.err)
  }

  /// The sprint's name, the tallies and the progress `inspect` reports for the same board.
  static func expected() throws -> (title: String, counts: [(label: String, count: Int)]) {
    let r = Captured.run(["inspect", "--source", example, "--at", at, "--tz", "UTC"])
    let json = try JSONParser.parse(r.out)
    guard case .object(let root) = json, case .string(let title)? = root["title"],
      case .array(let tallies)? = root["tallies"]
    else {
      Issue.record("no title or tallies in \(r.out.prefix(300))")
      return ("", [])
    }
    let counts = tallies.compactMap { t -> (String, Int)? in
      guard case .object(let o) = t, case .string(let label)? = o["label"], case .number(let n)? = o["count"] else {
        return nil
      }
      return (label, Int(n))
    }
    return (title, counts)
  }

  static func check(_ lines: [String], title: String, counts: [(label: String, count: Int)], columns: Int) {
    let missing = problems(lines, title: title, counts: counts, columns: columns)
    #expect(missing.isEmpty, "\(missing.joined(separator: "; ")):\n\(lines.joined(separator: "\n"))")
    #expect(counts.contains { $0.count > 0 })
  }

  /// What `lines` lacks of the board `inspect` reports: nothing when it shows it all.
  static func problems(
    _ lines: [String], title: String, counts: [(label: String, count: Int)], columns: Int
  ) -> [String] {
    var out: [String] = []
    if !lines.prefix(6).contains(where: { $0.contains("12:00") }) { out.append("the clock, as characters") }
    if !lines.contains(where: { $0.contains("Done") }) { out.append("the Done state's name") }
    // The sprint's name: whole, or shortened with "…" on a narrow terminal.
    let shortTitle = String(title.prefix(min(title.count, 8)))
    if !lines.contains(where: { $0.contains(shortTitle) }) { out.append("the sprint's name \"\(title)\"") }
    for (label, count) in counts where count > 0 {
      // The tally row of the state holds its count, a number of its own after the name.
      let row = lines.first { line in
        guard let r = line.range(of: label) else { return false }
        let rest = Array(line[r.upperBound...])
        let digits = Array(String(count))
        return rest.indices.contains { i in
          i + digits.count <= rest.count && Array(rest[i..<(i + digits.count)]) == digits
            && (i == 0 || !rest[i - 1].isNumber) && (i + digits.count == rest.count || !rest[i + digits.count].isNumber)
        }
      }
      if row == nil { out.append("\(label): \(count) on its row") }
    }
    if !lines.allSatisfy({ $0.count <= columns }) { out.append("lines within \(columns) columns") }
    return out
  }

  @Test(arguments: [("wall", 120, 40), ("portrait", 90, 60), ("wall", 80, 24)])
  func theBoardsWordsAndNumbersAreCharacters(_ layout: String, _ columns: Int, _ rows: Int) throws {
    let (title, counts) = try Self.expected()
    let tty = FakeTTY(columns: columns, rows: rows)
    let r = Self.run(tty, ["--layout", layout]) {
      Self.problems($0.lines, title: title, counts: counts, columns: columns).isEmpty
    }
    #expect(r.code == 0, "\(r.err)")
    var screen = PlainTerminal(columns: columns, rows: rows)
    // The board as it was before `q` handed the terminal back (the alternate screen).
    screen.feed(Array(tty.written[..<Self.lastFrameEnd(tty.written)]))
    Self.check(screen.lines, title: title, counts: counts, columns: columns)
    // And the terminal is back: the screen from before the board.
    var after = PlainTerminal(columns: columns, rows: rows)
    after.feed(tty.written)
    #expect(!after.onAlternateScreen)
  }

  /// Where the bytes that hand the terminal back start (`ESC[0m ESC[?7h`).
  static func lastFrameEnd(_ bytes: [UInt8]) -> Int {
    let marker = Array("\u{1B}[0m\u{1B}[?7h".utf8)
    var i = bytes.count - marker.count
    while i >= 0 {
      if Array(bytes[i..<(i + marker.count)]) == marker { return i }
      i -= 1
    }
    return bytes.count
  }

  @Test func aResizeLaysTheTextOutAgainForTheNewCells() throws {
    let (title, counts) = try Self.expected()
    let tty = FakeTTY(columns: 120, rows: 40)
    var before: [UInt8] = []
    let ready = { (t: PlainTerminal) in Self.problems(t.lines, title: title, counts: counts, columns: 120).isEmpty }
    let r = Self.run(tty, frames: 2, until: ready) { n, tty in
      if n == 1 {
        before = tty.written
        tty.written = []
        tty.size = (80, 24)
        tty.resizePending = true
      }
    }
    #expect(r.code == 0, "\(r.err)")
    var wide = PlainTerminal(columns: 120, rows: 40)
    wide.feed(before)
    Self.check(wide.lines, title: title, counts: counts, columns: 120)
    var narrow = PlainTerminal(columns: 80, rows: 24)
    narrow.feed(Array(tty.written[..<Self.lastFrameEnd(tty.written)]))
    Self.check(narrow.lines, title: title, counts: counts, columns: 80)
  }

  /// The cell text of the simulated team at a fixed moment, as a golden plain-text file.
  @Test func theSimulatedTeamsCellTextMatchesItsGolden() throws {
    let tty = FakeTTY(columns: 120, rows: 40)
    // The simulation's history is on the board once its row says it is live and the workflow
    // counts the team's 21 features (a frame may come while the history is still arriving).
    let r = Self.run(tty, ["--layout", "wall"], source: "sim:seed=1,speed=0.001", at: Self.simAt) { screen in
      screen.text.contains("live ·") && screen.text.contains("Workflow · 21 features")
    }
    #expect(r.code == 0, "\(r.err)")
    var screen = PlainTerminal(columns: 120, rows: 40)
    screen.feed(Array(tty.written[..<Self.lastFrameEnd(tty.written)]))
    Golden.checkText(
      screen.text, named: "terminal-sim-wall-120x40",
      directory: Paths.repoRoot.appendingPathComponent("Tests/WallboardCLITests/Goldens"))
  }
}
