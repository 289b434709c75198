import TestSupport
import Testing

@testable import Codec
@testable import WallboardCore

/// `depends_on`, resolved within the depending feature's project (ids are unique only there).
@Suite("Dependencies")
struct DependencyTests {
  typealias M = Make

  static func feature(_ id: String, _ project: String?, dependsOn: [String]) -> Feature {
    Feature(id: id, projectId: project, status: "todo", dependsOn: dependsOn)
  }

  static let board = M.state([
    M.event(
      "2026-11-03T09:00:00Z",
      .boardSnapshot(
        BoardSnapshot(features: [
          feature("A", "web", dependsOn: ["B", "C", "", "B", "api/C", "api/"]),
          feature("B", "web", dependsOn: []),
          feature("C", "api", dependsOn: ["A"]),
          feature("X", nil, dependsOn: ["A", "web/A"]),
        ])))
  ])

  @Test func aBareIdStaysInItsProject() {
    let deps = Self.board.dependencies(of: FeatureKey(project: "web", id: "A"))
    #expect(
      deps.map(\.key) == [
        FeatureKey(project: "web", id: "B"), FeatureKey(project: "web", id: "C"),
        FeatureKey(project: "api", id: "C"), FeatureKey(project: "web", id: "api/"),
      ], "empty entries and repeats skipped; a slash with no id is an id of its own")
    #expect(deps.map(\.known) == [true, false, true, false], "web/C is not api's C, even though only api has a C")
    // api's C waits on api's A, which does not exist: web's A is not guessed.
    #expect(Self.board.dependencies(of: FeatureKey(project: "api", id: "C")).map(\.known) == [false])
    // A feature without a project: its bare ids are features without a project.
    let x = Self.board.dependencies(of: "X")
    #expect(x.map(\.key) == [FeatureKey(id: "A"), FeatureKey(project: "web", id: "A")])
    #expect(x.map(\.known) == [false, true])
    #expect(Self.board.dependencies(of: "nothing").isEmpty)
  }

  @Test func anUpdateReplacesTheList() {
    var patch = FeaturePatch(id: "A")
    patch.projectId = "web"
    patch.dependsOn = ["B"]
    var s = Self.board
    Reducer.reduce(into: &s, M.event("2026-11-03T10:00:00Z", .featureUpdated(patch)))
    #expect(s.dependencies(of: FeatureKey(project: "web", id: "A")).map(\.written) == ["B"])
    patch.dependsOn = nil
    patch.status = "done"
    Reducer.reduce(into: &s, M.event("2026-11-03T11:00:00Z", .featureUpdated(patch)))
    #expect(s.features[FeatureKey(project: "web", id: "A")]?.dependsOn == ["B"], "not mentioned: kept")
  }

  /// A journal of format 2 (before `dependsOn`) reads as features without dependencies; a
  /// format-2 blob with the new bit is refused, not misread.
  @Test func olderBlobsHaveNoDependencies() throws {
    var f = Feature(id: "A", projectId: "web", status: "todo")
    let event = Event(origin: "o", time: M.t("2026-11-03T09:00:00Z"), body: .featureCreated(f))
    var v2 = BoardCodec.encode(.event(event))
    #expect(v2[0] == BoardCodec.version)
    v2[0] = 2
    guard case .event(let back) = try BoardCodec.decodeInput(v2) else {
      Issue.record("not an event")
      return
    }
    #expect(back.body == .featureCreated(f))
    f.dependsOn = ["B"]
    var withBit = BoardCodec.encode(.event(Event(origin: "o", time: event.time, body: .featureCreated(f))))
    withBit[0] = 2
    #expect(throws: CodecError.self) { try BoardCodec.decodeInput(withBit) }
  }
}
