import TestSupport
import Testing
import WallboardCore

@testable import Codec

/// Issue 26, item 4: format 6 carries the agents' locks, in an input and in a whole board
/// (journal snapshots, a relay's bootstrap), capped as the reducer caps them.
@Suite("The codec: agents' locks")
struct AgentLocksCodecTests {
  static let t = Make.t("2026-11-02T09:00:00Z")

  static func lock(_ n: Int, project: String = "web") -> AgentLock {
    AgentLock(
      feature: FeatureKey(project: project, id: "F-\(n)"), session: "sess-\(n) ✓",
      lockedAt: Instant(millis: t.millis + Int64(n) * 1000), since: Instant(millis: t.millis - 60_000))
  }

  @Test func anAgentsLocksInputRoundTrips() throws {
    let input = BoardInput.event(
      Event(origin: "orchestra:/ws", time: Self.t, body: .agentLocks([Self.lock(1), Self.lock(2, project: "")])))
    #expect(try BoardCodec.decodeInput(BoardCodec.encode(input)) == input)
    let empty = BoardInput.event(Event(origin: "o", time: Self.t, body: .agentLocks([])))
    #expect(try BoardCodec.decodeInput(BoardCodec.encode(empty)) == empty)
  }

  @Test func aBoardsLocksSurviveItsRoundTrip() throws {
    var s = BoardState()
    Reducer.reduce(into: &s, Event(origin: "a", time: Self.t, body: .agentLocks([Self.lock(1), Self.lock(2)])))
    Reducer.reduce(into: &s, Event(origin: "b", time: Self.t, body: .agentLocks([Self.lock(3)])))
    #expect(s.agentLocks.count == 2)
    let back = try BoardCodec.decodeState(BoardCodec.encode(s))
    #expect(back == s)
    // A restored board is an input like the others.
    #expect(try BoardCodec.decodeInput(BoardCodec.encode(.restored(s))) == .restored(s))
  }

  @Test func moreLocksThanTheCapAndAnOlderFormatsTagAreRefused() throws {
    var w = ByteWriter()
    w.byte(BoardCodec.version)
    w.input(.event(Event(origin: "o", time: Self.t, body: .heartbeat)))
    var bytes = Array(w.bytes.dropLast())  // the heartbeat's tag
    bytes.append(12)
    var list = ByteWriter()
    list.agentLocks((0...AgentLock.maxPerSource).map { Self.lock($0) })
    #expect(throws: CodecError.self) { try BoardCodec.decodeInput(bytes + list.bytes) }
    do {
      _ = try BoardCodec.decodeInput(bytes + list.bytes)
    } catch {
      #expect(error.problem.contains("limit is \(AgentLock.maxPerSource)"), "\(error)")
    }
    var five = BoardCodec.encode(.event(Event(origin: "o", time: Self.t, body: .agentLocks([Self.lock(1)]))))
    five[0] = 5
    #expect(throws: CodecError.self) { try BoardCodec.decodeInput(five) }
  }
}
