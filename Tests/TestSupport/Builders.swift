public import Foundation
public import WallboardCore

/// Short ways to write events in tests.
public enum Make {
  public static func t(_ s: String) -> Instant {
    do { return try Instant(rfc3339: s) } catch { preconditionFailure("bad test time \(s)") }
  }

  public static func d(_ s: String) -> CivilDate {
    guard let d = CivilDate(parsing: s) else { preconditionFailure("bad test date \(s)") }
    return d
  }

  public static func event(
    _ time: String, _ body: Event.Body, seq: Int64? = nil, origin: String = "test", publisher: String? = nil
  ) -> Event {
    Event(origin: origin, publisher: publisher, seq: seq, time: t(time), body: body)
  }

  public static func feature(
    _ id: String, status: String = "todo", points: Double? = nil, estimate: String? = nil,
    labels: [String] = [], sprintId: String? = nil, projectId: String? = nil
  ) -> Feature {
    Feature(
      id: id, projectId: projectId, title: "Feature \(id)", status: status, labels: labels,
      estimate: estimate, points: points, sprintId: sprintId)
  }

  public static func sprint(
    _ id: String, start: String, end: String, members: [String] = [], holidays: [String] = [],
    timeZone: String? = nil
  ) -> Sprint {
    Sprint(
      id: id, name: "Sprint \(id)", startDate: d(start), endDate: d(end), featureIds: members,
      holidays: Set(holidays.map(d)), timeZone: timeZone)
  }

  public static func status(_ time: String, _ id: String, _ status: String, seq: Int64? = nil) -> Event {
    event(time, .featureUpdated(FeaturePatch(id: id, status: status)), seq: seq)
  }

  /// Applies events to a fresh (or given) state.
  public static func state(_ events: [Event], from start: BoardState = BoardState()) -> BoardState {
    var s = start
    for e in events { Reducer.reduce(into: &s, e) }
    return s
  }
}

/// Paths in the checkout. Tests read nothing outside it.
public enum Paths {
  /// The repository root, found from this file's location.
  public static var repoRoot: URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
  }

  /// The `wallboard` binary of the build these tests belong to: beside the test bundle, in the
  /// products folder of its scratch path (`.build/debug`, or a sanitizer's own build).
  public static var binary: URL {
    let exe = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    return exe.deletingLastPathComponent().appendingPathComponent("wallboard")
  }

  /// `Tests/Fixtures/`: the project's copies of the reference files (see its README).
  public static var fixtures: URL { repoRoot.appendingPathComponent("Tests/Fixtures") }

  /// Reads `Tests/Fixtures/reference/examples/<name>`.
  public static func example(_ name: String) throws -> String {
    try String(contentsOf: fixtures.appendingPathComponent("reference/examples/\(name)"), encoding: .utf8)
  }
}
