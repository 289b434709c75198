import Layout
import Raster
import TestSupport
import Testing
import Widgets

/// A layout whose widgets cannot show their text on a screen is found out before it is shown.
@Suite("Layouts that fit a screen")
struct LayoutFitTests {
  static func problems(_ layout: String, _ width: Int, _ height: Int) throws -> [LayoutFit.Problem] {
    LayoutFit.problems(
      try Fixtures.bundled(layout), frame: Fixtures.filledFrame(), width: width, height: height,
      style: Fixtures.style("orchestra", height: height), painter: Painter(text: Fixtures.text()))
  }

  /// The screens a bundled layout is refused on.
  static let refused: Set<String> = ["wall 1080x1920"]

  @Test(arguments: TextFitTests.cases)
  func aBundledLayoutFitsTheScreensItIsFor(layout: String, width: Int, height: Int) throws {
    let problems = try Self.problems(layout, width, height)
    let name = "\(layout) \(width)x\(height)"
    #expect(problems.isEmpty == !Self.refused.contains(name), "\(name): \(problems.map(\.description))")
  }

  @Test func theWallOnAPortraitScreenIsRefusedForItsKeyNumber() throws {
    let problems = try Self.problems("wall", 1080, 1920)
    let progress = try #require(problems.first { $0.kind == "progress" }, "\(problems)")
    #expect(progress.reason == .overflows)
    #expect(progress.text == "67%")
    #expect(progress.line == 12)
    let error = LayoutFitError(layout: "wall", width: 1080, height: 1920, problems: problems, suggestion: "portrait")
    #expect(error.description.hasPrefix("layout wall cannot show its text on a 1080x1920 screen: progress (line 12)"))
    #expect(error.description.hasSuffix("try --layout portrait, which fits"))
  }

  @Test func aCellTooSmallForItsTextIsFound() throws {
    let layout = try LayoutParser.parse(
      "name = cramped\ndescription = d\ngrid = 24 x 12\nmargin = 0\nprogress 0 0 1 6\nrecent 1 0 23 12\n", file: "c",
      vocabulary: WidgetRegistry.vocabulary)
    let problems = LayoutFit.problems(
      layout, frame: Fixtures.frame(), width: 1920, height: 1080, style: Fixtures.style("orchestra", height: 1080),
      painter: Painter(text: Fixtures.text()))
    #expect(problems.map(\.kind).contains("progress"))
    #expect(!problems.map(\.kind).contains("recent"))
  }
}
