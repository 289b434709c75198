import EventSources
import SourceKit
import TestSupport
import Testing
import WallboardCLI
import WallboardCore

@Suite("Argument parsing")
struct ArgumentParserTests {
  @Test func defaults() throws {
    let o = try ArgumentParser.parse([])
    #expect(o.command == .run)
    #expect(o.theme == "orchestra")
    #expect(o.layout == "auto")
    #expect(o.effectiveSources.map(\.name) == ["sim"])
  }

  @Test func commandsAndOptions() throws {
    let o = try ArgumentParser.parse([
      "inspect", "--source", "sim:seed=3,speed=60", "--source=jsonl:/tmp/x.jsonl", "--at", "2026-11-05T18:00:00Z",
      "--tz", "UTC", "--unit", "count", "--theme", "dracula", "--size", "800x480", "--no-journal",
    ])
    #expect(o.command == .inspect)
    #expect(o.sources.map(\.name) == ["sim:seed=3,speed=60", "jsonl:/tmp/x.jsonl"])
    #expect(o.at == Make.t("2026-11-05T18:00:00Z"))
    #expect(o.timeZone?.identifier == "UTC")
    #expect(o.unit == .count)
    #expect(o.theme == "dracula")
    #expect(o.size?.width == 800 && o.size?.height == 480)
    #expect(o.noJournal)
  }

  @Test(arguments: [
    (["--bogus"], "unknown option --bogus"),
    (["--unit", "hours"], "--unit: \"hours\" is not one of auto, points, count"),
    (["--at", "yesterday"], "--at: \"yesterday\" is not an RFC 3339 time"),
    (["--tz", "Mars/Olympus"], "--tz: \"Mars/Olympus\" is not an IANA time zone"),
    (["--size", "10x10"], "--size: \"10x10\" is not WxH"),
    (["--source", "ftp://x"], "--source \"ftp://x\": unknown kind of source"),
    (["--source", "sim:seed=-1"], "seed must be a whole number"),
    (["--source", "orchestra://host"], "expected orchestra://HOST:PORT"),
    (["--rotate", "45"], "--rotate: \"45\" is not one of 0, 90, 180, 270"),
    (["--display", "vga"], "--display: \"vga\" is not one of"),
    (["--theme"], "--theme needs a value"),
    (["frobnicate"], "unknown command \"frobnicate\""),
    (["inspect", "extra"], "unexpected argument \"extra\""),
    (["--no-journal=yes"], "--no-journal takes no value"),
  ])
  func usageErrorsNameTheOption(args: [String], message: String) {
    do {
      _ = try ArgumentParser.parse(args)
      Issue.record("expected a usage error for \(args)")
    } catch {
      #expect(error.exitCode == 2)
      #expect(error.description.contains(message), "\(error.description)")
    }
  }

  @Test func workflowAndEstimates() throws {
    let o = try ArgumentParser.parse(["--workflow", "upstream", "--estimates", "S=2,M=4,L=8,XL=13"])
    #expect(o.boardSettings.workflow == .upstream)
    #expect(o.boardSettings.estimateScale.points(points: nil, estimate: "XL") == 13)
    #expect(try ArgumentParser.parse([]).boardSettings.workflow == .seed)
    #expect(throws: CLIError.self) { try ArgumentParser.parse(["--estimates", "S=big"]) }
    #expect(throws: CLIError.self) { try ArgumentParser.parse(["--workflow", "kanban"]) }
  }

  @Test func helpAndVersionWinOverEverythingAfter() throws {
    #expect(try ArgumentParser.parse(["inspect", "--help", "--bogus"]).command == .help)
    #expect(try ArgumentParser.parse(["--version"]).command == .version)
  }

  @Test func configFileUnderTheCommandLine() throws {
    let text = """
      # a kiosk
      theme = nord
      source sim:seed=2
      --unit count
      tz UTC
      """
    let o = try ArgumentParser.applyConfig(text, file: "k.conf", under: ["inspect", "--theme", "dracula"])
    #expect(o.command == .inspect)
    #expect(o.theme == "dracula", "the command line wins")
    #expect(o.unit == .count)
    #expect(o.sources.map(\.name) == ["sim:seed=2"])
    let replaced = try ArgumentParser.applyConfig(text, file: "k.conf", under: ["--source", "sim:seed=9"])
    #expect(replaced.sources.map(\.name) == ["sim:seed=9"])
  }

  @Test(arguments: [
    ("colour = red", "k.conf:1: unknown option colour"),
    ("\n\nunit", "k.conf:3: unit needs a value"),
    ("unit = hours", "k.conf:1: --unit: \"hours\" is not one of"),
  ])
  func badConfigNamesFileAndLine(text: String, message: String) {
    do {
      _ = try ArgumentParser.applyConfig(text, file: "k.conf", under: [])
      Issue.record("expected an error")
    } catch {
      #expect(error.exitCode == 3)
      #expect(error.description.contains(message), "\(error.description)")
    }
  }
}

/// Issue 9, item 16: values the board silently changed are usage errors.
@Suite("Arguments the board would have changed")
struct SilentlyChangedArgumentTests {
  @Test(arguments: [
    ("sim:start=2026-11-04", "start 2026-11-04 is a Wednesday", "such as 2026-11-02"),
    ("sim:seed=3,start=2026-11-08", "start 2026-11-08 is a Sunday", "such as 2026-11-02"),
    ("sim:start=2027-01-01", "start 2027-01-01 is a Friday", "such as 2026-12-28"),
  ])
  func aSimulationStartThatIsNoMonday(spec: String, problem: String, hint: String) {
    do {
      _ = try ArgumentParser.parse(["--source", spec])
      Issue.record("expected an error")
    } catch {
      #expect(error.exitCode == 2)
      #expect(error.description.contains(problem) && error.description.contains(hint), "\(error.description)")
    }
  }

  @Test func aSimulationStartOnAMondayIsAccepted() throws {
    let o = try ArgumentParser.parse(["--source", "sim:start=2027-01-04"])
    #expect(o.sources.map(\.name) == ["sim:start=2027-01-04"])
  }

  @Test(arguments: [
    ("2016-12-31T23:59:60Z", "is a leap second"), ("9999-12-31T23:30:00-01:00", "is out of range"),
    ("1970-01-01T00:30:00+01:00", "is out of range"),
  ])
  func anAtTheBoardWouldChange(at: String, problem: String) {
    do {
      _ = try ArgumentParser.parse(["--at", at])
      Issue.record("expected an error")
    } catch {
      #expect(error.exitCode == 2)
      #expect(error.description.contains("--at: \"\(at)\" \(problem)"), "\(error.description)")
    }
  }
}
