import Clock
import DisplayCore
import Displays
import EventSources
import Foundation
import Journal
import Kiosk
import PNG
import Posix
import SourceKit
import TestSupport
import Testing
import Themes
import WallboardCore

@testable import Runtime
@testable import WallboardCLI

/// Each layer's error reaches the edge as its own value inside a `CLIError` case, and options
/// are parsed once into types: tests match the cases, not the text.
@Suite("Typed options and errors at the edge")
struct CLIErrorTests {
  @Test func theKioskOptionsAreParsedOnceIntoTypes() throws {
    let o = try ArgumentParser.parse([
      "--variant", "compact", "--pixel-shift", "on", "--night", "mon-fri 19:00-07:30 dim=20", "--night",
      "sat,sun 00:00-24:00 blank",
    ])
    #expect(o.variant == .compact)
    #expect(o.pixelShift == .on)
    #expect(o.night.count == 2)
    #expect(o.night[0] == (try NightSchedule.parse(rule: "mon-fri 19:00-07:30 dim=20")))
    #expect(LiveSettings(o).night == o.night, "no rule is parsed again, nor dropped")
    #expect(LiveSettings(o).shifts(fillsScreen: false))
    #expect(Options().variant == .default && Options().pixelShift == .auto && Options().night.isEmpty)
  }

  @Test(arguments: [
    (["--pixel-shift", "offf"], "--pixel-shift: \"offf\" is not one of auto, on, off; did you mean off?"),
    (["--variant", "compat"], "--variant: \"compat\" is not one of default, compact, modern; did you mean compact?"),
  ])
  func aValueNotAmongTheChoicesIsAUsageCase(args: [String], message: String) {
    #expect(throws: CLIError.usage(message)) { try ArgumentParser.parse(args) }
  }

  @Test func aNightRuleThatDoesNotParseIsAUsageCase() {
    let error = #expect(throws: CLIError.self) { try ArgumentParser.parse(["--night", "mon-fri 25:00-07:30 dim=20"]) }
    guard case .usage(let m) = error else {
      Issue.record("\(String(describing: error))")
      return
    }
    #expect(m.hasPrefix("--night: "))
  }

  @Test(arguments: PixelShiftMode.allCases)
  func thePixelShiftModeDecidesByTheScreen(mode: PixelShiftMode) {
    #expect(mode.shifts(fillsScreen: true) == (mode != .off))
    #expect(mode.shifts(fillsScreen: false) == (mode == .on))
  }

  /// One exit-code switch, one message switch: what each case says and returns.
  @Test func eachCaseHasItsExitCodeAndItsMessage() {
    let journal = JournalError.cannotOpen(path: "/j.db", reason: "no such folder")
    let cases: [(CLIError, Int32, String)] = [
      (.usage("--unit: bad"), 2, "wallboard: --unit: bad\nTry 'wallboard --help'."),
      (.badValue("no project x"), 2, "wallboard: no project x"),
      (.badInput("a.layout:3: bad"), 3, "wallboard: a.layout:3: bad"),
      (
        .source(SourceError(source: "orchestra:/w", problem: "no .orchestra")), 3,
        "wallboard: orchestra:/w: no .orchestra"
      ),
      (.display(DisplayOpenError(.failed, "no DRM device")), 1, "wallboard: no DRM device"),
      (.display(DisplayOpenError(.usage, "--size: too big")), 2, "wallboard: --size: too big\nTry 'wallboard --help'."),
      (.displayLost(DisplayError("the window server went away")), 1, "wallboard: the window server went away"),
      (.journal(journal), 1, "wallboard: \(journal)"),
      (.output(PNGError(.io, "open /o.png: denied"), option: "--out"), 1, "wallboard: --out: open /o.png: denied"),
      (.runtime("cannot find Wallboard's assets"), 1, "wallboard: cannot find Wallboard's assets"),
      (
        .system(SystemCallError(call: "open", path: "/c/x", errno: ENOTDIR), what: "the config file"), 3,
        "wallboard: cannot read the config file: open /c/x: Not a directory"
      ),
    ]
    for (error, code, text) in cases {
      #expect(error.exitCode == code, "\(error)")
      #expect(error.description == text)
    }
  }

  @Test func aNamedJournalThatCannotOpenIsTheJournalsOwnError() throws {
    let dir = try TempDir()
    let path = dir.url.appendingPathComponent("no/such/folder/j.db").path
    var store = BoardStore(settings: BoardSettings())
    let error = #expect(throws: CLIError.self) {
      try JournalPlace.open(path, options: Options(), into: &store, named: true, clock: .system) { _ in }
    }
    guard case .journal(.cannotOpen(let p, _)) = error else {
      Issue.record("\(String(describing: error))")
      return
    }
    #expect(p == path)
  }

  @Test func aSourcesMissingFolderIsTheSourcesOwnError() throws {
    let dir = try TempDir()
    let missing = dir.url.appendingPathComponent("gone").path
    let spec = try SourceRegistry.standard.parse("orchestra:" + missing)
    let context = SourceSet.context(projects: [], settings: nil, environment: ["HOME": dir.url.path], clock: .system)
    let error = #expect(throws: CLIError.self) { try SourceSet.checkPaths([spec], context: context) }
    guard case .source(let e) = error else {
      Issue.record("\(String(describing: error))")
      return
    }
    #expect(e.source == "orchestra:" + missing)
    #expect(error?.exitCode == 3)
  }

  /// A config that cannot be opened is the call that failed, with its errno (not a guess at
  /// why); one that is there but not a regular file, or too large, is a bad input, and never read.
  @Test func aConfigThatCannotBeReadSaysWhichCallFailedAndWhy() throws {
    let dir = try TempDir()
    let file = dir.url.appendingPathComponent("plain").path
    try Data("x".utf8).write(to: URL(fileURLWithPath: file))
    let under = file + "/wallboard.conf"
    #expect(
      throws: CLIError.system(SystemCallError(call: "open", path: under, errno: ENOTDIR), what: "the config file")
    ) {
      try TextFile.read(under, what: "config file")
    }
    let fifo = dir.url.appendingPathComponent("fifo").path
    #expect(mkfifo(fifo, 0o600) == 0)
    #expect(throws: CLIError.badInput("\(fifo): the config file is a FIFO, not a regular file")) {
      try TextFile.read(fifo, what: "config file")
    }
    let gone = dir.url.appendingPathComponent("gone").path
    #expect(throws: CLIError.badInput("\(gone): no such config file")) { try TextFile.read(gone, what: "config file") }
    #expect(CLIError.system(SystemCallError(call: "open", path: under, errno: ENOTDIR), what: "x").exitCode == 3)
  }
}
