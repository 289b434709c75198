import Foundation
import TestSupport
import Testing
import WallboardCore

@testable import Codec

/// Each format version's committed blobs (`Tests/Fixtures/codec/v<N>`, written by that version's
/// own codec: see `Tests/Fixtures/README.md`) read today, and the field tables drive encode,
/// decode and these tests.
@Suite("The codec's format versions and field tables")
struct BoardCodecFixtureTests {
  static func fixture(_ version: Int, _ name: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: Paths.fixtures.appendingPathComponent("codec/v\(version)/\(name)")))
  }

  /// The inputs of a fixture: each blob after its 4-byte little-endian length.
  static func inputs(_ version: Int) throws -> [[UInt8]] {
    let bytes = try fixture(version, "inputs.bin")
    var out: [[UInt8]] = []
    var i = 0
    while i + 4 <= bytes.count {
      let n = Int(bytes[i]) | Int(bytes[i + 1]) << 8 | Int(bytes[i + 2]) << 16 | Int(bytes[i + 3]) << 24
      out.append(Array(bytes[(i + 4)..<(i + 4 + n)]))
      i += 4 + n
    }
    return out
  }

  @Test(arguments: 1...Int(BoardCodec.version))
  func eachVersionsFixtureIsReadAndIsTheBoardItsInputsMakeToday(version: Int) throws {
    let blobs = try Self.inputs(version)
    #expect(blobs.count >= 9)
    var replayed = BoardState(settings: BoardSettings())
    for b in blobs {
      #expect(b.first == UInt8(version))
      _ = Reducer.reduce(into: &replayed, try BoardCodec.decodeInput(b))
    }
    let state = try Self.fixture(version, "state.bin")
    #expect(state.first == UInt8(version))
    let decoded = try BoardCodec.decodeState(state)
    #expect(decoded == replayed)
    #expect(decoded.features.count == 2 && decoded.sprints["S1"] != nil && decoded.recent.count >= 1)
    if version >= 2 {
      // Nothing in these blobs is new in a later version: today's bytes are theirs, but for the
      // version byte — and, before format 6, the empty `agentLocks` count a state now ends with.
      let tail: [UInt8] = version < 6 ? [0] : []
      #expect(Array(BoardCodec.encode(decoded).dropFirst()) == Array(state.dropFirst()) + tail)
    }
  }

  @Test func theCurrentVersionsFixtureIsByteForByteWhatTheCodecWrites() throws {
    let version = Int(BoardCodec.version)
    for b in try Self.inputs(version) {
      #expect(BoardCodec.encode(try BoardCodec.decodeInput(b)) == b)
    }
    let state = try Self.fixture(version, "state.bin")
    #expect(BoardCodec.encode(try BoardCodec.decodeState(state)) == state)
    #expect(try BoardCodec.decodeState(state).origins["jsonl:team"]?.file != nil, "a version 4 field is there")
    #expect(
      try BoardCodec.decodeState(state).origins["nats://hub:4222/TEAM"]?.relayed?.sequence == 42,
      "a version 5 field is there")
    let locks = try BoardCodec.decodeState(state).agentLocks["orchestra:/ws"]
    #expect(locks?.count == 2 && locks?.first?.feature == FeatureKey(project: "ops", id: "F-1"), "a version 6 field")
  }

  /// Each field changed alone, to a value other than the empty struct's.
  static let featureChanges: [String: @Sendable (inout Feature) -> Void] = [
    "id": { $0.id = "F-ü" }, "title": { $0.title = "Zürich ✓" }, "status": { $0.status = "done" },
    "labels": { $0.labels = ["a", ""] }, "projectId": { $0.projectId = "" }, "priority": { $0.priority = "high" },
    "kind": { $0.kind = "bug" }, "assignee": { $0.assignee = "Zoë" }, "estimate": { $0.estimate = "XL" },
    "points": { $0.points = -0.0 }, "sprintId": { $0.sprintId = "S1" },
    "createdAt": { $0.createdAt = Instant(millis: 0) }, "updatedAt": { $0.updatedAt = CodecSamples.lastMoment },
    "dependsOn": { $0.dependsOn = ["P/F-1"] },
  ]

  static let sprintChanges: [String: @Sendable (inout Sprint) -> Void] = [
    "id": { $0.id = "S-ü" }, "name": { $0.name = "Sprint ✓" },
    "startDate": { $0.startDate = CivilDate(year: 2026, month: 11, day: 2) },
    "endDate": { $0.endDate = CivilDate(year: 9999, month: 12, day: 31) }, "featureIds": { $0.featureIds = ["F-1"] },
    "nonWorkingDays": { $0.nonWorkingDays = [.fri] },
    "holidays": { $0.holidays = [CivilDate(year: 2026, month: 12, day: 25)] }, "goal": { $0.goal = "" },
    "timeZone": { $0.timeZone = "Europe/Zurich" }, "startedAt": { $0.startedAt = CodecSamples.t0 },
    "closedAt": { $0.closedAt = CodecSamples.lastMoment }, "membershipLabel": { $0.membershipLabel = "s:1" },
    "activation": { $0.activation = .dates },
  ]

  @Test func everyFeatureFieldChangedAloneRoundTrips() throws {
    try Self.roundTrips(
      Field.feature, empty: Field.emptyFeature, changes: Self.featureChanges,
      wrap: { .event(Event(origin: "o", time: CodecSamples.t0, body: .featureCreated($0))) })
  }

  @Test func everySprintFieldChangedAloneRoundTrips() throws {
    try Self.roundTrips(
      Field.sprint, empty: Field.emptySprint, changes: Self.sprintChanges,
      wrap: { .event(Event(origin: "o", time: CodecSamples.t0, body: .sprintCreated($0))) })
  }

  /// Iterates the table: every field has a change, each changed alone differs from the empty
  /// value and round-trips, and a field with a bit sets exactly its bit; no two fields share one.
  static func roundTrips<V: Equatable>(
    _ table: [Field<V>], empty: V, changes: [String: @Sendable (inout V) -> Void], wrap: (V) -> BoardInput
  ) throws {
    let names = table.map { $0.name.description }
    #expect(Set(names) == Set(changes.keys), "a change for every field, and a field for every change")
    let bits = table.compactMap(\.bit)
    #expect(Set(bits).count == bits.count, "one bit a field")
    #expect(try BoardCodec.decodeInput(BoardCodec.encode(wrap(empty))) == wrap(empty))
    for field in table {
      let change = try #require(changes[field.name.description])
      var v = empty
      change(&v)
      #expect(v != empty, "\(field.name) changed")
      #expect(try BoardCodec.decodeInput(BoardCodec.encode(wrap(v))) == wrap(v), "\(field.name)")
      if let b = field.bit {
        var w = ByteWriter()
        FieldTable.write(table, v, into: &w)
        // The flags varint's first byte: the bit itself, or (bit 7 on) the continuation bit alone.
        #expect(w.bytes.first == (b < 7 ? UInt8(1 << b) : 0x80), "\(field.name): its bit alone")
        #expect(field.isSet(v) && !field.isSet(empty), "\(field.name)")
      }
    }
  }

  @Test func aFieldNewerThanTheBlobsVersionIsRefused() throws {
    let dependsOn = try #require(Field.feature.first { $0.name.description == "dependsOn" })
    #expect(FieldTable.allowed(Field.feature, format: dependsOn.since - 1) & (1 << UInt64(dependsOn.bit!)) == 0)
    var f = Field.emptyFeature
    f.dependsOn = ["F-1"]
    var bytes = BoardCodec.encode(.event(Event(origin: "o", time: CodecSamples.t0, body: .featureCreated(f))))
    bytes[0] = dependsOn.since - 1
    #expect(throws: CodecError.self) { try BoardCodec.decodeInput(bytes) }
  }
}
