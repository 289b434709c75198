import TestSupport
import Testing
import WallboardCore

/// Sprints whose members carry a label (`Sprint.membershipLabel`), declared beside another
/// source's features.
@Suite("Membership by label")
struct LabelMembershipTests {
  typealias M = Make

  static func declared(_ id: String, label: String, start: String = "2026-11-02", end: String = "2026-11-13") -> Sprint
  {
    var s = M.sprint(id, start: start, end: end)
    s.membershipLabel = label
    s.activation = .dates
    return s
  }

  static func declaredSnapshot(_ time: String, _ sprints: [Sprint]) -> Event {
    M.event(time, .boardSnapshot(BoardSnapshot(sprints: sprints)), origin: "declared")
  }

  static func workspace(_ time: String, _ fs: [Feature], seq: Int64 = 1) -> Event {
    M.event(time, .boardSnapshot(BoardSnapshot(features: fs, seq: seq)), origin: "orchestra-db:/ws")
  }

  static let features = [
    M.feature("A", labels: ["team-a-s3"], projectId: "web"),
    M.feature("B", labels: ["sprint:s3"], projectId: "web"),
    M.feature("C", labels: ["other"], projectId: "web"),
  ]

  @Test func featuresCarryingTheLabelAreMembersAsAreThoseNamingTheSprint() throws {
    let s = M.state([
      Self.declaredSnapshot("2026-11-02T08:00:00Z", [Self.declared("s3", label: "team-a-s3")]),
      Self.workspace("2026-11-02T09:00:00Z", Self.features),
    ])
    let sprint = try #require(s.sprints["s3"])
    #expect(members(s, sprint.id) == ["A", "B"])
    #expect(
      s.history(of: "A")?.versions.first?.sprints == ["s3"], "history records the membership from the first version")
    #expect(s.history(of: "C")?.versions.first?.sprints == [])
  }

  @Test(arguments: [true, false])
  func neitherSourceErasesTheOther(declaredFirst: Bool) throws {
    let d = Self.declaredSnapshot("2026-11-02T08:00:00Z", [Self.declared("s3", label: "team-a-s3")])
    let w = Self.workspace("2026-11-02T09:00:00Z", Self.features)
    var s = M.state(declaredFirst ? [d, w] : [w, d])
    #expect(s.features.keys.map(\.id).sorted() == ["A", "B", "C"])
    #expect(s.sprints.keys.sorted() == ["s3"])
    #expect(members(s, try #require(s.sprints["s3"]).id) == ["A", "B"])
    // A new workspace snapshot keeps the sprint; a new declared one keeps the features.
    Reducer.reduce(into: &s, Self.workspace("2026-11-03T09:00:00Z", Array(Self.features.prefix(2)), seq: 2))
    #expect(s.sprints["s3"] != nil)
    Reducer.reduce(into: &s, Self.declaredSnapshot("2026-11-03T10:00:00Z", [Self.declared("s4", label: "other")]))
    #expect(s.sprints.keys.sorted() == ["s4"])
    #expect(s.features.keys.map(\.id).sorted() == ["A", "B"])
  }

  @Test func aLabelChangeOnAFeatureMovesItInAndOut() throws {
    var s = M.state([
      Self.declaredSnapshot("2026-11-02T08:00:00Z", [Self.declared("s3", label: "team-a-s3")]),
      M.event("2026-11-02T09:00:00Z", .featureCreated(M.feature("C", labels: ["other"]))),
    ])
    var p = FeaturePatch(id: "C")
    p.labels = ["team-a-s3"]
    Reducer.reduce(into: &s, M.event("2026-11-04T09:00:00Z", .featureUpdated(p)))
    #expect(s.history(of: "C")?.versions.map(\.sprints) == [[], ["s3"]])
    p.labels = []
    Reducer.reduce(into: &s, M.event("2026-11-05T09:00:00Z", .featureUpdated(p)))
    #expect(s.history(of: "C")?.versions.map(\.sprints) == [[], ["s3"], []])
    #expect(members(s, try #require(s.sprints["s3"]).id).isEmpty)
  }

  @Test func aSprintsNewLabelRecordsWhoCarriesEitherLabel() throws {
    var s = M.state([
      Self.workspace("2026-11-02T09:00:00Z", Self.features),
      Self.declaredSnapshot("2026-11-02T10:00:00Z", [Self.declared("s9", label: "team-a-s3")]),
    ])
    #expect(s.history(of: "A")?.versions.last?.sprints == ["s9"])
    Reducer.reduce(into: &s, Self.declaredSnapshot("2026-11-03T10:00:00Z", [Self.declared("s9", label: "other")]))
    #expect(s.history(of: "A")?.versions.last?.sprints == [])
    #expect(s.history(of: "C")?.versions.last?.sprints == ["s9"])
    #expect(members(s, try #require(s.sprints["s9"]).id) == ["C"])
  }

  @Test func twoSprintsMayShareALabel() throws {
    let s = M.state([
      Self.declaredSnapshot(
        "2026-11-02T08:00:00Z",
        [
          Self.declared("s1", label: "other"),
          Self.declared("s2", label: "other", start: "2026-11-16", end: "2026-11-27"),
        ]),
      Self.workspace("2026-11-02T09:00:00Z", Self.features),
    ])
    let c = try #require(s.feature("C"))
    #expect(s.membership(of: c) == ["s1", "s2"])
  }
}
