import Projections
import Raster
import Testing
import Widgets

/// Every widget drawn from a frame whose numbers are NaN, infinite or huge: the board shows
/// something and never stops (issue 9, item 1: a burndown axis of 1.8e308 put its labels at
/// y = NaN and `snapshot` died in a Double → Int conversion).
@Suite("Frames with non-finite numbers")
struct NonFiniteFrameTests {
  static let values: [Double] = [.nan, .infinity, -.infinity, 1e308, -1e308, 1.7976931348623157e308, 9.3e18]

  @Test(arguments: values)
  func theAxisIsFiniteWhateverTheData(_ v: Double) {
    let axis = BurndownWidget.niceAxis(v)
    #expect(axis.max.isFinite && axis.max > 0, "\(v) → \(axis)")
    #expect(axis.step.isFinite && axis.step > 0, "\(v) → \(axis)")
    #expect((1...6).contains(axis.ticks), "\(v) → \(axis)")
  }

  /// Each value in turn in every number of the frame, drawn by every bundled layout.
  @Test(arguments: values)
  func everyLayoutDrawsAFrameOfOddNumbers(_ v: Double) throws {
    var frame = Fixtures.frame()
    if var b = frame.burndown {
      b.committed = v
      b.startScope = v
      b.startCompleted = -v
      b.ideal = b.ideal.map { _ in v }
      b.remaining = b.remaining.map { $0.map { _ in v } }
      b.scope = b.scope.map { $0.map { _ in v } }
      b.completed = b.completed.map { $0.map { _ in v } }
      b.steps = b.steps.map { s in
        var s = s
        s.scope = v
        s.scopeDelta = v
        s.completed = -v
        return s
      }
      b.scopeChanges = b.scopeChanges.map { c in
        var c = c
        c.delta = v
        return c
      }
      frame.burndown = b
    }
    frame.progress.percent = v
    frame.progress.totalPoints = v
    frame.progress.donePoints = v
    frame.progress.completedPoints = v
    frame.tallies = frame.tallies.map { t in
      var t = t
      t.points = v
      return t
    }
    for name in ["wall", "glance", "tv", "portrait"] {
      for (w, h) in [(800, 480), (1920, 1080)] {
        var renderer = BoardRenderer(layout: try Fixtures.bundled(name), painter: Painter(text: Fixtures.text()))
        var canvas = Canvas(width: w, height: h)
        let dirty = renderer.render(frame, style: Fixtures.style("orchestra", height: h), into: &canvas)
        #expect(dirty.allSatisfy { $0.intersection(canvas.bounds) == $0 }, "\(name) \(w)x\(h) at \(v)")
      }
    }
  }
}
