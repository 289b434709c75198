import TestSupport
import Testing
import WallboardCore
import WorkspaceFormats

/// A `features` row's plain values → a feature or a typed problem, without SQLite: what the
/// database reader hands the decoder.
@Suite("Feature rows: values to a feature or a typed problem")
struct FeatureRowTests {
  typealias M = Make
  typealias T = TrailText

  /// A row of `FeatureRow.columns`: id, project_id, title, status, priority, kind, assignee,
  /// estimate, labels, version, created_at, updated_at, depends_on.
  static func row(
    id: FeatureRow.Value = .text("FEAT-A"), labels: FeatureRow.Value = .text(#"["sprint:s1","area:ui"]"#),
    dependsOn: FeatureRow.Value = .null, body: String? = nil
  ) -> [FeatureRow.Value] {
    var values: [FeatureRow.Value] = [
      id, .text("web"), .text("Login"), .text("done"), .text("P1"), .text("feature"), .null, .text("M"), labels,
      .integer(3), .text("2026-03-09 08:00:00"), .text("2026-03-12T09:00:00Z"), dependsOn,
    ]
    if let body { values += [.text(body), .integer(0)] }
    return values
  }

  @Test func aRowReadsAsTheFeatureItHolds() throws {
    let decoded = FeatureRow(values: Self.row(dependsOn: .text(#"["FEAT-B",""]"#))).decode(history: nil)
    let f = try decoded.feature.get()
    #expect(f.key == FeatureKey(project: "web", id: "FEAT-A"))
    #expect(f.title == "Login" && f.status == "done" && f.estimate == "M" && f.assignee == nil)
    #expect(f.labels == ["sprint:s1", "area:ui"] && f.dependsOn == ["FEAT-B"])
    #expect(f.createdAt == M.t("2026-03-09T08:00:00Z") && f.updatedAt == M.t("2026-03-12T09:00:00Z"))
    #expect(decoded.history.isEmpty && decoded.setAside == nil)
  }

  @Test func eachWayARowFailsIsAReasonNamingTheRow() {
    func reason(_ values: [FeatureRow.Value], _ oversize: [FeatureRow.Oversize] = []) -> FeatureRow.Problem? {
      guard case .failure(let p) = FeatureRow(values: values, oversize: oversize).decode(history: nil).feature
      else { return nil }
      return p
    }
    #expect(reason(Array(Self.row().prefix(5)))?.reason == .width(count: 5))
    #expect(reason(Self.row(id: .text("")))?.reason == .id)
    let notAList = reason(Self.row(labels: .text("sprint:s1")))
    #expect(notAList?.reason == .notAList(column: "labels", start: "sprint:s1"))
    #expect(notAList?.name == "web/FEAT-A" && notAList?.kept == false)
    #expect(reason(Self.row(dependsOn: .integer(7)))?.reason == .notText(column: "depends_on"))
    let big = FeatureRow.Oversize(index: 2, column: "title", bytes: 300_000)
    let over = reason(Self.row(), [big])
    #expect(over?.reason == .oversize([big]))
    #expect(over?.problem == "title holds 300000 bytes: more than the 262144 a value may hold")
  }

  @Test func withHistoryTheTrailGivesThePastAndADateOutsideItsLifetimeIsKeptAside() throws {
    let now = M.t("2026-03-20T00:00:00Z")
    let body =
      T.created + T.gated("in-progress", "in-review", "2026-03-10T12:00:00Z", "x")
      + T.review("approved", "9999-12-31T00:00:00Z", "far future")
    let decoded = FeatureRow(values: Self.row(body: body)).decode(history: (now: now, initialState: "todo"))
    #expect(try decoded.feature.get().id == "FEAT-A")
    #expect(
      decoded.history == [
        StatusMove(at: M.t("2026-03-09T08:00:00Z"), status: "in-progress"),
        StatusMove(at: M.t("2026-03-10T12:00:00Z"), status: "in-review"),
        StatusMove(at: M.t("2026-03-12T09:00:00Z"), status: "done"),
      ])
    let aside = try #require(decoded.setAside)
    #expect(aside.kept && aside.name == "web/FEAT-A")
    #expect(aside.problem.hasPrefix("audit trail: the move to done dated 9999-12-31T00:00:00Z, after the read"))
  }
}
