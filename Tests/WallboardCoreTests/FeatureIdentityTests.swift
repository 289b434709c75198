import TestSupport
import Testing

@testable import Codec
@testable import WallboardCore

/// A feature is (project, id): upstream's ids are unique only within a project, and a real tree
/// holds the same id in two projects (different features, or a copy left with another status).
@Suite("Feature identity is (project, id)")
struct FeatureIdentityTests {
  typealias M = Make

  static func f(_ project: String, _ id: String, _ status: String) -> Feature {
    var f = M.feature(id, status: status, projectId: project)
    f.title = "\(project) \(id)"
    return f
  }

  /// The same id in two projects, as two files of a markdown tree or two rows give them.
  static let colliding = [f("web", "FEAT-1", "done"), f("api", "FEAT-1", "todo"), f("api", "FEAT-2", "todo")]

  @Test func aSnapshotWithAnIdInTwoProjectsCountsBoth() {
    let s = M.state([M.event("2026-11-03T09:00:00Z", .boardSnapshot(BoardSnapshot(features: Self.colliding)))])
    #expect(s.features.count == 3)
    #expect(s.features[FeatureKey(project: "web", id: "FEAT-1")]?.status == "done")
    #expect(s.features[FeatureKey(project: "api", id: "FEAT-1")]?.status == "todo")
    // No transition that never happened: neither feature moved.
    #expect(s.recent.isEmpty)
  }

  @Test func createdEventsOfTwoProjectsAreTwoFeaturesAndNoTransition() {
    let s = M.state([
      M.event("2026-11-03T09:00:00Z", .featureCreated(Self.colliding[0])),
      M.event("2026-11-03T09:01:00Z", .featureCreated(Self.colliding[1])),
    ])
    #expect(s.features.count == 2)
    #expect(s.recent.map(\.project) == ["web", "api"])
    #expect(s.recent.map(\.from) == [nil, nil])
  }

  @Test func anEventNamingTheProjectChangesThatProjectsFeature() {
    var patch = FeaturePatch(id: "FEAT-1", status: "in-review")
    patch.projectId = .some("api")
    let s = M.state([
      M.event("2026-11-03T09:00:00Z", .boardSnapshot(BoardSnapshot(features: Self.colliding))),
      M.event("2026-11-03T10:00:00Z", .featureUpdated(patch)),
      M.event(
        "2026-11-03T11:00:00Z",
        .workflowTransitioned(featureId: "FEAT-1", to: "blocked", from: nil, at: nil, project: "web")),
    ])
    #expect(s.features[FeatureKey(project: "api", id: "FEAT-1")]?.status == "in-review")
    #expect(s.features[FeatureKey(project: "web", id: "FEAT-1")]?.status == "blocked")
    #expect(s.features.count == 3)
  }

  @Test func anEventWithoutAProjectFindsTheOneProjectThatHoldsTheId() {
    let s = M.state([
      M.event("2026-11-03T09:00:00Z", .boardSnapshot(BoardSnapshot(features: Self.colliding))),
      M.status("2026-11-03T10:00:00Z", "FEAT-2", "done"),
    ])
    #expect(s.features[FeatureKey(project: "api", id: "FEAT-2")]?.status == "done")
    #expect(s.features.count == 3)
  }

  @Test func anEventWithoutAProjectForAnIdOfTwoProjectsIsIgnoredWithAReason() {
    var s = M.state([M.event("2026-11-03T09:00:00Z", .boardSnapshot(BoardSnapshot(features: Self.colliding)))])
    let before = s.features
    let r = Reducer.reduce(into: &s, M.status("2026-11-03T10:00:00Z", "FEAT-1", "done"))
    #expect(r == .ignored(.ambiguousFeature(topic: "feature.updated", id: "FEAT-1", projects: ["api", "web"])))
    #expect(
      s.origins["test"]?.lastError
        == "feature.updated: FEAT-1 is a feature of 2 projects (api, web); the event names none")
    #expect(s.features == before)
    let d = Reducer.reduce(into: &s, M.event("2026-11-03T10:00:00Z", .featureDeleted(id: "FEAT-1")))
    #expect(d == .ignored(.ambiguousFeature(topic: "feature.deleted", id: "FEAT-1", projects: ["api", "web"])))
    let gone = Reducer.reduce(into: &s, M.event("2026-11-03T10:00:00Z", .featureDeleted(id: "FEAT-1", project: "web")))
    #expect(gone == .applied)
    #expect(
      s.features.keys.sorted() == [FeatureKey(project: "api", id: "FEAT-1"), FeatureKey(project: "api", id: "FEAT-2")])
    // Now one project holds it: the unqualified event finds it.
    Reducer.reduce(into: &s, M.status("2026-11-03T11:00:00Z", "FEAT-1", "done"))
    #expect(s.features[FeatureKey(project: "api", id: "FEAT-1")]?.status == "done")
  }

  @Test func aSprintListNamesOneProjectsFeatureOrAnIdInEveryProject() {
    let sprint = M.sprint("s1", start: "2026-11-02", end: "2026-11-13", members: ["web/FEAT-1", "FEAT-2"])
    let s = M.state([
      M.event("2026-11-01T09:00:00Z", .sprintCreated(sprint), origin: "jsonl:sprints"),
      M.event("2026-11-03T09:00:00Z", .boardSnapshot(BoardSnapshot(features: Self.colliding))),
    ])
    let members = s.features.values.filter { s.membership(of: $0).contains("s1") }.map(\.key).sorted()
    #expect(members == [FeatureKey(project: "api", id: "FEAT-2"), FeatureKey(project: "web", id: "FEAT-1")])
  }

  @Test func theCodecKeepsEveryKey() throws {
    var patch = FeaturePatch(id: "FEAT-1", status: "in-review")
    patch.projectId = .some("api")
    let s = M.state([
      M.event(
        "2026-11-03T09:00:00Z",
        .boardSnapshot(
          BoardSnapshot(
            features: Self.colliding,
            history: [
              FeatureKey(project: "web", id: "FEAT-1"): [StatusMove(at: M.t("2026-11-01T09:00:00Z"), status: "todo")]
            ]))),
      M.event("2026-11-03T10:00:00Z", .featureUpdated(patch)),
    ])
    let back = try BoardCodec.decodeState(BoardCodec.encode(s))
    #expect(back == s)
    for body: Event.Body in [
      .featureDeleted(id: "FEAT-1", project: "web"),
      .workflowTransitioned(featureId: "FEAT-1", to: "done", from: "todo", at: nil, project: "api"),
    ] {
      let input = BoardInput.event(M.event("2026-11-03T09:00:00Z", body))
      #expect(try BoardCodec.decodeInput(BoardCodec.encode(input)) == input)
    }
  }

  /// A journal written by a build of codec format 1 (ids alone) is read, each key taking its
  /// feature's project: a migration, not a reset.
  @Test func formatOneIsReadAndBroughtForward() throws {
    let s = M.state([
      M.event(
        "2026-11-01T09:00:00Z",
        .sprintCreated(M.sprint("s1", start: "2026-11-02", end: "2026-11-13", members: ["FEAT-1"]))),
      M.event("2026-11-03T09:00:00Z", .boardSnapshot(BoardSnapshot(features: [Self.colliding[0], Self.colliding[2]]))),
      M.status("2026-11-03T10:00:00Z", "FEAT-2", "done"),
    ])
    #expect(!s.recent.isEmpty)
    let v1 = Self.formatOne(s)
    #expect(v1.first == 1)
    let back = try BoardCodec.decodeState(v1)
    #expect(back == s)

    // An input of format 1: a deletion and a transition without a project.
    var w = ByteWriter()
    w.byte(1)
    w.byte(0)
    w.varint(0)
    w.string("o")
    w.instant(M.t("2026-11-03T09:00:00Z"))
    w.byte(3)
    let flagsAt = w.bytes.count
    w.byte(1)
    w.string("FEAT-1")
    w.string("done")
    w.string("todo")
    let input = try BoardCodec.decodeInput(w.bytes)
    #expect(
      input
        == .event(
          Event(
            origin: "o", time: M.t("2026-11-03T09:00:00Z"),
            body: .workflowTransitioned(featureId: "FEAT-1", to: "done", from: "todo", at: nil))))
    // Format 1 knew no project flag: bit 2 is an error there.
    w.bytes[flagsAt] = 5
    #expect(throws: CodecError.self) { try BoardCodec.decodeInput(w.bytes) }
  }

  /// `ByteWriter.state` as format 1 wrote it: feature-keyed dictionaries keyed by id alone, a
  /// transition's flags a bool.
  static func formatOne(_ s: BoardState) -> [UInt8] {
    var w = ByteWriter()
    w.byte(1)
    w.settings(s.settings)
    func byId<V>(_ d: [FeatureKey: V]) -> [String: V] {
      Dictionary(uniqueKeysWithValues: d.map { ($0.key.id, $0.value) })
    }
    w.dictionary(byId(s.features)) { $0.feature($1) }
    w.dictionary(s.sprints) { $0.sprint($1) }
    w.strings(s.sprintOrder)
    w.dictionary(s.workflows) { $0.workflow($1) }
    w.bool(s.activeSprintId != nil)
    if let v = s.activeSprintId { w.string(v) }
    w.dictionary(byId(s.history)) { w, h in
      w.count(h.versions.count)
      for v in h.versions { w.version(v) }
    }
    w.strings(s.statusOrder)
    w.strings(s.statusSeen.sorted())
    w.dictionary(s.explicitSprints) { $0.strings($1) }
    w.dictionary(s.labelSprints) { $0.strings($1) }
    w.dictionary(byId(s.hidden)) { w, h in
      w.feature(h.feature)
      w.string(h.origin)
    }
    w.dictionary(byId(s.contributions.features)) { $0.string($1) }
    w.dictionary(s.contributions.sprints) { $0.string($1) }
    w.dictionary(s.contributions.workflows) { $0.string($1) }
    w.bool(s.contributions.activeSprint != nil)
    if let v = s.contributions.activeSprint { w.string(v) }
    w.dictionary(s.origins) { $0.origin($1) }
    w.int(s.counters.applied)
    w.int(s.counters.duplicates)
    w.int(s.counters.rejected)
    w.int(s.counters.ignored)
    w.count(s.recentBuffer.count)
    for t in s.recentBuffer {
      w.bool(t.from != nil)
      w.string(t.featureId)
      w.string(t.title)
      if let v = t.from { w.string(v) }
      w.string(t.to)
      w.instant(t.at)
    }
    w.bool(s.lastEventTime != nil)
    if let v = s.lastEventTime { w.instant(v) }
    return w.bytes
  }
}
