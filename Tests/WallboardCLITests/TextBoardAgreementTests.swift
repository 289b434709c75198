import Projections
import TestSupport
import Testing
import WallboardCore
import Widgets

@testable import Runtime
@testable import WallboardCLI

/// The text board says what the pixel board draws: the same percentage and the same words
/// (issue 20, item 13).
@Suite("The text board agrees with the frame model")
struct TextBoardAgreementTests {
  /// A sprint of five working days (Mon 16 to Fri 20 Nov 2026) with `statuses` as its features.
  static func state(_ statuses: [String]) -> BoardState {
    let ids = statuses.indices.map { "F\($0)" }
    var events = [
      Make.event(
        "2026-11-16T08:00:00Z", .sprintCreated(Make.sprint("S", start: "2026-11-16", end: "2026-11-20", members: ids)))
    ]
    for (id, status) in zip(ids, statuses) {
      events.append(Make.event("2026-11-16T08:30:00Z", .featureCreated(Make.feature(id, sprintId: "S"))))
      if status != "todo" { events.append(Make.status("2026-11-17T09:00:00Z", id, status)) }
    }
    return Make.state(events)
  }

  static let cases: [[String]] = [
    ["done", "todo", "todo"],
    ["done", "rejected", "todo"],
    ["done", "done", "cancelled", "todo", "in-progress", "todo", "todo"],
    ["rejected"],
    ["done", "done", "done"],
    [],
  ]

  @Test(arguments: cases)
  func theTextBoardShowsTheFrameModelsPercentage(_ statuses: [String]) throws {
    let s = Self.state(statuses)
    let at = Make.t("2026-11-18T12:00:00Z")
    let frame = FrameModel(state: s, at: at, now: at, zone: .utc, unit: .auto)
    let text = TextBoard.render(state: s, at: at, now: at, zone: .utc, unit: .auto)
    let progress = try #require(text.split(separator: "\n").first { $0.hasPrefix("Progress:") })
    let percents = progress.split(separator: " ").filter { $0.contains("%") }.map {
      String($0.filter { $0.isNumber || $0 == "." || $0 == "%" })
    }
    #expect(percents == [ProgressText.donePercent(frame.progress)], "\(progress)")
    #expect(progress.contains(ProgressText.summary(frame.progress)), "\(progress)")
  }

  @Test func oneWorkingDayLeftIsSingular() throws {
    let s = Self.state(["done", "todo"])
    // Thursday: only Friday is left.
    let at = Make.t("2026-11-19T12:00:00Z")
    let frame = FrameModel(state: s, at: at, now: at, zone: .utc, unit: .auto)
    #expect(frame.burndown?.daysLeft == 1)
    let text = TextBoard.render(state: s, at: at, now: at, zone: .utc, unit: .auto)
    #expect(text.contains("1 working day left"), "\(text)")
    #expect(!text.contains("1 working days"), "\(text)")
    #expect(frame.header.daysLeft == "1 working day left")
    let numbers = NumbersWidget().model(frame)
    let days = try #require(numbers.items.first { $0.label.hasPrefix("working day") })
    #expect(days.value == "1" && days.label == "working day left", "\(days)")
  }

  @Test func oneFeatureIsSingular() throws {
    let s = Self.state(["todo"])
    let at = Make.t("2026-11-18T12:00:00Z")
    let frame = FrameModel(state: s, at: at, now: at, zone: .utc, unit: .auto)
    let numbers = NumbersWidget().model(frame)
    #expect(numbers.items.first?.label == "feature left", "\(numbers.items)")
  }
}
