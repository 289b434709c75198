import Testing
import WallboardCore
import Wire

/// Issue 26, item 4: `agents.locks` on the wire — both times upstream writes, caps, and errors
/// that name the JSON path.
@Suite("Event decoder: agents.locks")
struct AgentLocksDecoderTests {
  static func error(_ payload: String, limits: EventLimits = EventLimits()) -> EventDecodingError? {
    do throws(EventDecodingError) {
      _ = try body("agents.locks", payload, limits: limits)
      return nil
    } catch { return error }
  }

  @Test func readsBothTimesAndALockWithoutAProject() throws {
    let b = try body(
      "agents.locks",
      #"{"locks":[{"feature_id":"F-1","project_id":"web","session_id":"s1","locked_at":"2026-11-02T09:00:00Z"},{"feature_id":"F-2","session_id":"s2","locked_at":"2026-11-02 09:30:00"}]}"#
    )
    #expect(
      b
        == .agentLocks([
          AgentLock(feature: FeatureKey(project: "web", id: "F-1"), session: "s1", lockedAt: t("2026-11-02T09:00:00Z")),
          AgentLock(feature: FeatureKey(id: "F-2"), session: "s2", lockedAt: t("2026-11-02T09:30:00Z")),
        ]))
    #expect(try body("agents.locks", #"{"locks":[]}"#) == .agentLocks([]))
  }

  @Test(arguments: [
    (#"{}"#, "payload.locks", "missing"),
    (#"{"locks":{}}"#, "payload.locks", "expected an array of objects, found an object"),
    (#"{"locks":[1]}"#, "payload.locks[0]", "expected an object, found a number"),
    (
      #"{"locks":[{"feature_id":"F","session_id":"s","locked_at":"2026-11-02 09:00:00"},{"feature_id":"F","locked_at":"2026-11-02 09:00:00"}]}"#,
      "payload.locks[1].session_id", "missing"
    ),
    (
      #"{"locks":[{"feature_id":"","session_id":"s","locked_at":"2026-11-02 09:00:00"}]}"#,
      "payload.locks[0].feature_id", "must not be empty"
    ),
    (
      #"{"locks":[{"feature_id":"F","session_id":"s","locked_at":"2026-11-02 9:00"}]}"#, "payload.locks[0].locked_at",
      #""2026-11-02 9:00" is not an RFC 3339 or SQLite time (years 1970…9999)"#
    ),
  ])
  func errorsNameThePath(payload: String, path: String, problem: String) {
    let e = Self.error(payload)
    #expect(e?.path == path && e?.problem == problem, "\(String(describing: e))")
  }

  @Test func aLongIdAndTooManyLocksAreRefused() {
    let long = String(repeating: "x", count: 257)
    #expect(
      Self.error(#"{"locks":[{"feature_id":"F","session_id":"\#(long)","locked_at":"2026-11-02 09:00:00"}]}"#)?.path
        == "payload.locks[0].session_id")
    var limits = EventLimits()
    limits.maxAgentLocks = 1
    let two = #"{"feature_id":"F","session_id":"s","locked_at":"2026-11-02 09:00:00"}"#
    let e = Self.error(#"{"locks":[\#(two),\#(two)]}"#, limits: limits)
    #expect(e?.path == "payload.locks" && e?.problem == "more than 1 entries")
  }
}
