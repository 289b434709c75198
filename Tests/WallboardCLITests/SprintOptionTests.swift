import Foundation
import TestSupport
import Testing
import WallboardCLI
import WallboardCore
import Wire

/// `--sprint`, `--active-sprint` and the filters, on the command line and in the config file.
@Suite("Declared sprints and filters: parsing")
struct SprintOptionTests {
  typealias M = Make

  static let good = "id=s3,name=Sprint 3,start=2026-11-02,end=2026-11-13,label=team-a-s3"

  @Test func aFullSpec() throws {
    let o = try ArgumentParser.parse([
      "--sprint",
      Self.good
        + ",goal=Ship the checkout,holidays=2026-11-05;2026-11-06,non_working=fri;saturday;Sun,tz=Europe/Berlin,"
        + "features=FEAT-1; FEAT-2;FEAT-1",
    ])
    let s = try #require(o.sprints.first)
    #expect(s.id == "s3")
    #expect(s.name == "Sprint 3")
    #expect(s.goal == "Ship the checkout")
    #expect(s.startDate == M.d("2026-11-02") && s.endDate == M.d("2026-11-13"))
    #expect(s.membershipLabel == "team-a-s3")
    #expect(s.activation == .dates)
    #expect(s.holidays == [M.d("2026-11-05"), M.d("2026-11-06")])
    #expect(s.nonWorkingDays == [.fri, .sat, .sun])
    #expect(s.timeZone == "Europe/Berlin")
    #expect(s.featureIds == ["FEAT-1", "FEAT-2"])
    #expect(s.startedAt == nil && s.closedAt == nil)
  }

  @Test func theDefaults() throws {
    let s = try #require(try ArgumentParser.parse(["--sprint=id=s1,start=2026-11-02,end=2026-11-13"]).sprints.first)
    #expect(s.name == "s1")
    #expect(s.membershipLabel == "sprint:s1", "the existing convention")
    #expect(s.nonWorkingDays == [.sat, .sun])
    #expect(s.goal == nil && s.timeZone == nil && s.holidays.isEmpty && s.featureIds.isEmpty)
    let none = try ArgumentParser.parse(["--sprint", "id=s1,start=2026-11-02,end=2026-11-13,non_working=none"])
    #expect(none.sprints.first?.nonWorkingDays == [])
  }

  @Test func repeatableInOrder() throws {
    let o = try ArgumentParser.parse([
      "--sprint", "id=a,start=2026-11-02,end=2026-11-13", "--sprint", "id=b,start=2026-11-16,end=2026-11-27",
      "--active-sprint", "b",
    ])
    #expect(o.sprints.map(\.id) == ["a", "b"])
    #expect(o.activeSprint == "b")
  }

  static let long = String(repeating: "x", count: 201)

  @Test(arguments: [
    ("start=2026-11-02,end=2026-11-13", "--sprint: id is missing"),
    ("id=s1,end=2026-11-13", "--sprint s1: start is missing"),
    ("id=s1,start=2026-11-02", "--sprint s1: end is missing"),
    ("id=s1,start=2026-11-31,end=2026-12-13", "--sprint s1: start: \"2026-11-31\" is not a date"),
    ("id=s1,start=2026-11-02,end=13.11.2026", "--sprint s1: end: \"13.11.2026\" is not a date"),
    ("id=s1,start=2026-11-13,end=2026-11-02", "--sprint s1: end 2026-11-02 is before start 2026-11-13"),
    ("id=s1,start=2026-01-01,end=2027-01-02", "is 367 days; a sprint lasts at most 366"),
    ("id=s1,start=2026-11-02,end=2026-11-13,colour=red", "--sprint: unknown key \"colour\" (accepted: id, name"),
    ("id=s1,start=2026-11-02,end=2026-11-13,sprint", "--sprint: \"sprint\" is not KEY=VALUE"),
    ("id=s1,id=s2,start=2026-11-02,end=2026-11-13", "--sprint: the key id is given twice"),
    ("id=s1,name=,start=2026-11-02,end=2026-11-13", "--sprint: name needs a value"),
    ("id=s 1,start=2026-11-02,end=2026-11-13", "--sprint: id \"s 1\" may hold only letters"),
    ("id=\(String(repeating: "i", count: 65)),start=2026-11-02,end=2026-11-13", "--sprint: id is longer than 64"),
    ("id=s1,start=2026-11-02,end=2026-11-13,label=\(long)", "--sprint s1: label is longer than 200"),
    ("id=s1,start=2026-11-02,end=2026-11-13,goal=\(String(repeating: "g", count: 401))", "goal is longer than 400"),
    ("id=s1,start=2026-11-02,end=2026-11-13,name=\(String(repeating: "n", count: 121))", "name is longer than 120"),
    ("id=s1,start=2026-11-02,end=2026-11-13,holidays=2026-11-05;xmas", "--sprint s1: holidays: \"xmas\" is not a date"),
    ("id=s1,start=2026-11-02,end=2026-11-13,non_working=caturday", "--sprint s1: non_working: \"caturday\" is not"),
    (
      "id=s1,start=2026-11-02,end=2026-11-13,non_working=mon;tue;wed;thu;fri;sat;sun",
      "every day of the week is non-working"
    ),
    ("id=s1,start=2026-11-02,end=2026-11-13,tz=Mars/Olympus", "--sprint s1: tz: \"Mars/Olympus\" is not an IANA"),
    ("id=s1,start=2026-11-02,end=2026-11-13,features=\(String(repeating: "f", count: 129))", "features: \"fff"),
    ("id=s1,start=2026-11-02,end=2026-11-13,name=a\u{7}b", "--sprint: name contains the control character U+7"),
  ])
  func everyBadKeyIsNamed(spec: String, message: String) {
    do {
      _ = try ArgumentParser.parse(["--sprint", spec])
      Issue.record("expected a usage error for \(spec)")
    } catch {
      #expect(error.exitCode == 2)
      #expect(error.description.contains(message), "\(error.description)")
    }
  }

  @Test(arguments: [
    (
      ["--sprint", "id=a,start=2026-11-02,end=2026-11-13", "--sprint", "id=a,start=2026-11-16,end=2026-11-27"],
      "--sprint a: the id is declared twice"
    ),
    (["--active-sprint", ""], "--active-sprint needs a value"),
    (["--project", ""], "--project needs a value"),
    (["--label", String(repeating: "l", count: 201)], "--label: \"lll"),
    (["--assignee", "a\u{1B}b"], "--assignee: \"a\u{1B}b\" contains a control character"),
  ])
  func otherUsageErrors(args: [String], message: String) {
    do {
      _ = try ArgumentParser.parse(args)
      Issue.record("expected a usage error for \(args)")
    } catch {
      #expect(error.exitCode == 2)
      #expect(error.description.contains(message), "\(error.description)")
    }
  }

  @Test func manySpecsAreCapped() {
    let args = (0...256).flatMap { ["--sprint", "id=s\($0),start=2026-11-02,end=2026-11-13"] }
    #expect(throws: CLIError.self) { try ArgumentParser.parse(args) }
    let spec = "id=s1,start=2026-11-02,end=2026-11-13,features=" + String(repeating: "F;", count: 40_000)
    do {
      _ = try ArgumentParser.parse(["--sprint", spec])
      Issue.record("expected the spec cap")
    } catch {
      #expect(error.description.contains("longer than 65536 bytes"), "\(error.description)")
    }
  }

  @Test func filtersAreRepeatableAndReachTheBoardSettings() throws {
    let o = try ArgumentParser.parse([
      "--project", "web", "--project", "api", "--project", "web", "--label", "team:web", "--assignee", "ana",
    ])
    #expect(o.filter == FeatureFilter(projects: ["web", "api"], labels: ["team:web"], assignees: ["ana"]))
    #expect(o.boardSettings.filter == o.filter)
    #expect(try ArgumentParser.parse([]).boardSettings.filter.isEmpty)
  }

  @Test func configLines() throws {
    let text = """
      sprint id=s1,name=Sprint 1,start=2026-11-02,end=2026-11-13,label=team-a-s1
      sprint = id=s2,start=2026-11-16,end=2026-11-27,holidays=2026-11-20
      active-sprint s2
      project web
      project api
      label team:web
      assignee ana
      """
    let o = try ArgumentParser.applyConfig(text, file: "k.conf", under: ["inspect"])
    #expect(o.sprints.map(\.id) == ["s1", "s2"])
    #expect(o.sprints[0].name == "Sprint 1" && o.sprints[0].membershipLabel == "team-a-s1")
    #expect(o.sprints[1].holidays == [M.d("2026-11-20")])
    #expect(o.activeSprint == "s2")
    #expect(o.filter == FeatureFilter(projects: ["web", "api"], labels: ["team:web"], assignees: ["ana"]))

    // The command line's sprints and filters replace the file's; the others stay.
    let under = try ArgumentParser.applyConfig(
      text, file: "k.conf",
      under: ["--sprint", "id=cli,start=2026-11-02,end=2026-11-13", "--label=area:ui"])
    #expect(under.sprints.map(\.id) == ["cli"])
    #expect(under.filter == FeatureFilter(projects: ["web", "api"], labels: ["area:ui"], assignees: ["ana"]))
  }

  @Test(arguments: [
    (
      "sprint id=s1,start=2026-11-02,end=2026-11-13\nsprint id=s1,start=2026-11-16,end=2026-11-27",
      "k.conf:2: --sprint s1: the id is declared twice"
    ),
    ("theme nord\nsprint id=s1,start=2026-11-02,end=2026-11-13,tz=Nowhere", "k.conf:2: --sprint s1: tz: \"Nowhere\""),
    ("sprint id=s1,start=2026-11-02,end=2026-11-13,when=now", "k.conf:1: --sprint: unknown key \"when\""),
    ("\n\nproject\n", "k.conf:3: project needs a value"),
    ("label \(String(repeating: "l", count: 300))", "k.conf:1: --label:"),
  ])
  func configErrorsNameTheLineAndKey(text: String, message: String) {
    do {
      _ = try ArgumentParser.applyConfig(text, file: "k.conf", under: [])
      Issue.record("expected an error")
    } catch {
      #expect(error.exitCode == 3)
      #expect(error.description.contains(message), "\(error.description)")
    }
  }
}
