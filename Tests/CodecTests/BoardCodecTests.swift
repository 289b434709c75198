import TestSupport
import Testing

@testable import Codec
@testable import WallboardCore

/// `BoardCodec`: every input and a whole board, both ways, exactly; deterministic bytes; and a
/// decoder that refuses, never traps.
@Suite("The board codec")
struct BoardCodecTests {
  typealias S = CodecSamples

  // MARK: Round trips

  @Test func everyInputRoundTrips() throws {
    for input in S.inputs {
      let bytes = BoardCodec.encode(input)
      #expect(bytes.first == BoardCodec.version)
      #expect(try BoardCodec.decodeInput(bytes) == input)
    }
  }

  @Test func doublesComeBackBitExact() throws {
    for p in S.awkwardPoints {
      var f = S.bareFeature
      f.points = p
      let decoded = try BoardCodec.decodeInput(
        BoardCodec.encode(.event(Event(origin: "o", time: S.t0, body: .featureCreated(f)))))
      guard case .event(let e) = decoded, case .featureCreated(let g) = e.body else {
        Issue.record("not a featureCreated: \(decoded)")
        continue
      }
      #expect(g.points?.bitPattern == p.bitPattern)
    }
    // A patch's -0.0 too (== cannot tell it from 0.0).
    var patch = FeaturePatch(id: "X")
    patch.points = .some(-0.0)
    let decoded = try BoardCodec.decodeInput(
      BoardCodec.encode(.event(Event(origin: "o", time: S.t0, body: .featureUpdated(patch)))))
    guard case .event(let e) = decoded, case .featureUpdated(let q) = e.body, case .some(.some(let v)) = q.points else {
      Issue.record("not a patch with points: \(decoded)")
      return
    }
    #expect(v.bitPattern == (-0.0).bitPattern)
  }

  @Test func patchesKeepAbsentApartFromCleared() throws {
    for p in S.patches {
      let decoded = try BoardCodec.decodeInput(
        BoardCodec.encode(.event(Event(origin: "o", time: S.t0, body: .featureUpdated(p)))))
      guard case .event(let e) = decoded, case .featureUpdated(let q) = e.body else {
        Issue.record("not a patch: \(decoded)")
        continue
      }
      // Field by field, so that a nil/.some(nil) mix-up names itself.
      #expect(q.projectId == p.projectId)
      #expect(q.priority == p.priority)
      #expect(q.kind == p.kind)
      #expect(q.assignee == p.assignee)
      #expect(q.estimate == p.estimate)
      #expect(q.points == p.points)
      #expect(q.sprintId == p.sprintId)
      #expect(q == p)
    }
    #expect(S.patches[0].priority == nil && S.patches[2].priority == .some(nil))
  }

  @Test func aRichBoardRoundTripsWithEveryInternalField() throws {
    let s = S.richState
    // The sample exercises every field, so that a field the codec forgot cannot hide.
    #expect(!s.features.isEmpty && !s.sprints.isEmpty && !s.sprintOrder.isEmpty && !s.workflows.isEmpty)
    #expect(s.activeSprintId != nil && !s.history.isEmpty && !s.statusOrder.isEmpty && !s.statusSeen.isEmpty)
    #expect(!s.explicitSprints.isEmpty && !s.labelSprints.isEmpty && !s.hidden.isEmpty)
    #expect(!s.contributions.features.isEmpty && !s.contributions.sprints.isEmpty)
    #expect(!s.contributions.workflows.isEmpty && s.contributions.activeSprint != nil)
    #expect(s.origins["sim"]?.lastGap != nil && s.origins["sim"]?.duplicates == 1)
    #expect(s.origins["db"]?.historyFrom != nil && s.origins["db"]?.cursor.floor != nil)
    #expect(!s.recentBuffer.isEmpty && s.lastEventTime != nil && s.counters.rejected == 1)
    #expect(s.settings != BoardSettings())

    let bytes = BoardCodec.encode(s)
    let back = try BoardCodec.decodeState(bytes)
    #expect(back == s)
    #expect(back.statusSeen == s.statusSeen && back.hidden == s.hidden && back.contributions == s.contributions)
    #expect(back.explicitSprints == s.explicitSprints && back.labelSprints == s.labelSprints)
    #expect(back.recentBuffer == s.recentBuffer && back.origins == s.origins)
    #expect(BoardCodec.encode(back) == bytes)
    #expect(try BoardCodec.decodeState(BoardCodec.encode(BoardState())) == BoardState())
  }

  @Test func aDecodedBoardGoesOnAsTheOriginalDoes() throws {
    var original = S.richState
    var decoded = try BoardCodec.decodeState(BoardCodec.encode(original))
    let more: [Event] = [
      Event(origin: "sim", publisher: "p", seq: 13, time: S.t0.adding(seconds: 300), body: .featureDeleted(id: "A")),
      Event(
        origin: "sim", publisher: "p", seq: 14, time: S.t0.adding(seconds: 360),
        body: .featureUpdated(FeaturePatch(id: "H", status: "doing"))),
    ]
    for e in more {
      #expect(Reducer.reduce(into: &original, e) == Reducer.reduce(into: &decoded, e))
    }
    #expect(decoded == original)
  }

  // MARK: Deterministic bytes

  @Test func equalBoardsBuiltInDifferentOrdersGiveEqualBytes() throws {
    let ids = (0..<200).map { "F-\($0)" }
    var a = BoardState()
    var b = BoardState()
    b.features.reserveCapacity(5000)
    b.history.reserveCapacity(5000)
    b.statusSeen.reserveCapacity(5000)
    b.sprints.reserveCapacity(100)
    for id in ids {
      a.features[FeatureKey(id: id)] = Feature(id: id, status: "s\(id.count)")
      a.history[FeatureKey(id: id)] = FeatureHistory(versions: [
        FeatureVersion(at: S.t0, status: "x", points: 1, sprints: [], exists: true)
      ])
      a.statusSeen.insert(id)
    }
    for id in ids.reversed() {
      b.features[FeatureKey(id: id)] = Feature(id: id, status: "s\(id.count)")
      b.history[FeatureKey(id: id)] = FeatureHistory(versions: [
        FeatureVersion(at: S.t0, status: "x", points: 1, sprints: [], exists: true)
      ])
      b.statusSeen.insert(id)
    }
    for k in 0..<20 {
      var s = S.bareSprint
      s.id = "S\(k)"
      s.holidays = Set((0..<30).map { CivilDate(daysSinceEpoch: 20_000 + $0 * 7 + k) })
      a.sprints[s.id] = s
    }
    for k in (0..<20).reversed() {
      var s = S.bareSprint
      s.id = "S\(k)"
      s.holidays = Set((0..<30).reversed().map { CivilDate(daysSinceEpoch: 20_000 + $0 * 7 + k) })
      b.sprints[s.id] = s
    }
    #expect(a == b)
    // The dictionaries really do iterate in different orders: the codec must sort.
    #expect(Array(a.features.keys) != Array(b.features.keys))
    #expect(Array(a.statusSeen) != Array(b.statusSeen))
    #expect(BoardCodec.encode(a) == BoardCodec.encode(b))
    // And an input holding them: the snapshot's history, the workflow's aliases.
    var h1: [FeatureKey: [StatusMove]] = [:]
    var h2: [FeatureKey: [StatusMove]] = [:]
    h2.reserveCapacity(5000)
    for id in ids { h1[FeatureKey(id: id)] = [StatusMove(at: S.t0, status: id)] }
    for id in ids.reversed() { h2[FeatureKey(id: id)] = [StatusMove(at: S.t0, status: id)] }
    #expect(Array(h1.keys) != Array(h2.keys))
    let e1 = BoardInput.event(Event(origin: "o", time: S.t0, body: .boardSnapshot(BoardSnapshot(history: h1))))
    let e2 = BoardInput.event(Event(origin: "o", time: S.t0, body: .boardSnapshot(BoardSnapshot(history: h2))))
    #expect(BoardCodec.encode(e1) == BoardCodec.encode(e2))
  }

  @Test func batchingAppendsExactlyEachInputsBlob() throws {
    var out: [UInt8] = [0xAA]
    var ends: [Int] = []
    for input in S.inputs {
      BoardCodec.encode(input, into: &out)
      ends.append(out.count)
    }
    #expect(out.first == 0xAA)
    var start = 1
    for (input, end) in zip(S.inputs, ends) {
      #expect(Array(out[start..<end]) == BoardCodec.encode(input))
      #expect(try BoardCodec.decodeInput(Array(out[start..<end])) == input)
      start = end
    }
  }

  // MARK: Refusals

  @Test func anotherVersionIsRefused() throws {
    var bytes = BoardCodec.encode(.event(Event(origin: "o", time: S.t0, body: .heartbeat)))
    bytes[0] = BoardCodec.version &+ 1
    let e = try #require(throws: CodecError.self) { try BoardCodec.decodeInput(bytes) }
    #expect(e.path == "input.version" && e.offset == 0 && e.problem.contains("version \(BoardCodec.version &+ 1)"))
    var state = BoardCodec.encode(BoardState())
    state[0] = 0
    let f = try #require(throws: CodecError.self) { try BoardCodec.decodeState(state) }
    #expect(f.path == "state.version")
    #expect(throws: CodecError.self) { try BoardCodec.decodeState([]) }
    #expect(throws: CodecError.self) { try BoardCodec.decodeInput([]) }
  }

  @Test func everyTruncationIsAnErrorAndTrailingBytesToo() throws {
    var blobs = S.inputs.map { BoardCodec.encode($0) }
    blobs.append(BoardCodec.encode(.restored(S.richState)))
    var cut = 0
    for blob in blobs {
      for n in 0..<blob.count {
        #expect(throws: CodecError.self) { try BoardCodec.decodeInput(Array(blob[..<n])) }
        cut += 1
      }
      let e = try #require(throws: CodecError.self) { try BoardCodec.decodeInput(blob + [0]) }
      #expect(e.problem.contains("left over") && e.offset == blob.count)
    }
    let state = BoardCodec.encode(S.richState)
    for n in 0..<state.count {
      #expect(throws: CodecError.self) { try BoardCodec.decodeState(Array(state[..<n])) }
    }
    #expect(cut > 5000)
  }

  @Test func hugeCountsAndLengthsAreRefusedBeforeAllocating() throws {
    // An event whose scope change claims 2^60 added ids, in ten bytes.
    var w = ByteWriter()
    w.byte(BoardCodec.version)
    w.byte(0)  // BoardInput.event
    w.varint(0)  // no optional envelope fields
    w.string("o")
    w.instant(S.t0)
    w.byte(7)  // sprintScopeChanged
    w.string("S1")
    w.varint(1 << 60)
    let e = try #require(throws: CodecError.self) { try BoardCodec.decodeInput(w.bytes) }
    #expect(e.path == "input.event.body.sprintScopeChanged.added")
    #expect(e.problem.contains("count of \(UInt64(1) << 60)"))
    // A string of 2^60 bytes, and one just over 1 MiB.
    for n in [UInt64(1) << 60, UInt64(1 << 20) + 1] {
      var v = ByteWriter()
      v.byte(BoardCodec.version)
      v.byte(2)  // connection
      v.bool(false)
      v.varint(n)
      let f = try #require(throws: CodecError.self) { try BoardCodec.decodeInput(v.bytes) }
      #expect(f.path == "input.connection.origin" && f.problem.contains("1 MiB"))
    }
    // A varint longer than 64 bits.
    let g = try #require(throws: CodecError.self) {
      try BoardCodec.decodeInput([BoardCodec.version, 1, 0, 0] + Array(repeating: 0xFF, count: 10) + [1])
    }
    #expect(g.path == "input.rejected.at" && g.problem.contains("64 bits"))
  }

  // MARK: Errors name their place

  /// `blob` with the one occurrence of `find` replaced.
  func replacing(_ blob: [UInt8], _ find: [UInt8], with new: [UInt8]) throws -> [UInt8] {
    let starts = (0...(blob.count - find.count)).filter { Array(blob[$0..<$0 + find.count]) == find }
    try #require(starts.count == 1, "\(find) occurs \(starts.count) times")
    return Array(blob[..<starts[0]]) + new + Array(blob[(starts[0] + find.count)...])
  }

  func error(input: [UInt8]) throws -> CodecError {
    try #require(throws: CodecError.self) { try BoardCodec.decodeInput(input) }
  }

  func error(state: [UInt8]) throws -> CodecError {
    try #require(throws: CodecError.self) { try BoardCodec.decodeState(state) }
  }

  @Test func invalidUTF8IsRefusedWithItsPath() throws {
    var s = BoardState()
    s.features["F-1"] = Feature(id: "F-1", title: "TITLE-MARKER")
    let bad = try replacing(BoardCodec.encode(s), Array("TITLE-MARKER".utf8), with: Array("TITLE-MARKE".utf8) + [0xFF])
    let e = try error(state: bad)
    #expect(e.path == "state.features[\"F-1\"].title" && e.problem == "not valid UTF-8")
    #expect(e.description.contains("state.features[\"F-1\"].title at byte \(e.offset)"))

    let sprint = Sprint(id: "S", name: "NAME-MARKER", startDate: S.fullSprint.startDate, endDate: S.fullSprint.endDate)
    let input = BoardCodec.encode(.event(Event(origin: "o", time: S.t0, body: .sprintCreated(sprint))))
    // A lone continuation byte, and an over-long encoding of "/".
    for junk: [UInt8] in [[0x80] + Array("NAME-MARKE".utf8), [0xC0, 0xAF] + Array("NAME-MARK".utf8)] {
      let f = try error(input: try replacing(input, Array("NAME-MARKER".utf8), with: junk))
      #expect(f.path == "input.event.body.sprintCreated.name" && f.problem == "not valid UTF-8")
    }
  }

  /// The codec's own UTF-8 check agrees with the standard library's on random bytes biased to
  /// the awkward ones (continuations, lead bytes, surrogates, the top of the code space).
  @Test func theUTF8CheckAgreesWithTheStandardLibrary() {
    let awkward: [UInt8] = [
      0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1, 0xEC, 0xED, 0xEE, 0xEF,
      0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xFF,
    ]
    var rng = TestRandom(state: 0x07F8)
    var valid = 0
    for _ in 0..<20_000 {
      let n = rng.below(7)
      let bytes = (0..<n).map { _ in
        rng.below(3) == 0 ? UInt8(truncatingIfNeeded: rng.next()) : awkward[rng.below(awkward.count)]
      }
      let expected = String(validating: bytes, as: UTF8.self) != nil
      let got = bytes.withUnsafeBufferPointer { UTF8Check.isValid($0) }
      #expect(got == expected, "\(bytes)")
      if expected { valid += 1 }
    }
    #expect(valid > 1000)
    for s in ["", "a", "é", "日本語", "🚀", "\u{10FFFF}", "\u{D7FF}\u{E000}"] {
      #expect(Array(s.utf8).withUnsafeBufferPointer { UTF8Check.isValid($0) }, "\(s)")
    }
  }

  @Test func unknownTagsAreNamed() throws {
    var heartbeat = BoardCodec.encode(.event(Event(origin: "o", time: S.t0, body: .heartbeat)))
    #expect(heartbeat.last == 10)
    heartbeat[heartbeat.count - 1] = 200
    let e = try error(input: heartbeat)
    #expect(e.path == "input.event.body.tag" && e.problem.contains("200") && e.offset == heartbeat.count - 1)

    var input = BoardCodec.encode(.rejected(origin: "o", at: S.t0, reason: ""))
    input[1] = 9
    #expect(try error(input: input).path == "input.tag")

    let live = BoardCodec.encode(.connection(origin: "ORIGIN", status: .ended, at: S.t0, detail: nil))
    let g = try error(input: try replacing(live, Array("ORIGIN".utf8) + [4], with: Array("ORIGIN".utf8) + [5]))
    #expect(g.path == "input.connection.status" && g.problem.contains("tag 5"))
  }

  @Test func aRelayedInputWithinARelayedInputIsRefused() throws {
    let inner = BoardInput.connection(origin: "sim", status: .live, at: S.t0, detail: nil)
    let once = BoardInput.relayed(via: "V", position: RelayPosition(stream: 7, sequence: 8), input: inner)
    // Built by hand: the encoder writes what it is given; the decoder refuses the nesting.
    var twice = BoardCodec.encode(once)
    let head = Array(twice.prefix(1)) + [5, 1, UInt8(ascii: "W"), 14, 16]
    twice = head + twice.dropFirst()
    let e = try error(input: twice)
    #expect(e.path == "input.relayed.input" && e.problem.contains("relayed input within a relayed input"), "\(e)")
    #expect(try BoardCodec.decodeInput(BoardCodec.encode(once)) == once)
  }

  @Test func valuesTheReducerNeverMakesAreRefused() throws {
    // NaN points: the decoder must not crash on them, and refuses them.
    var f = S.bareFeature
    f.points = .nan
    let nan = try error(input: BoardCodec.encode(.event(Event(origin: "o", time: S.t0, body: .featureCreated(f)))))
    #expect(nan.path == "input.event.body.featureCreated.points" && nan.problem.contains("NaN"))

    // Instants outside 1970…9999.
    for ms in [Int64(-1), Instant.endOfYear9999, Int64.min, Int64.max] {
      let e = try error(
        input: BoardCodec.encode(.event(Event(origin: "o", time: Instant(millis: ms), body: .heartbeat))))
      #expect(e.path == "input.event.time" && e.problem.contains("1970…9999"))
    }

    // A workflow without states.
    let w = Workflow(states: [WorkflowState(id: "uniquestate")])
    let defined = BoardCodec.encode(
      .event(Event(origin: "o", time: S.t0, body: .workflowDefined(projectId: nil, workflow: w))))
    let empty = try error(input: try replacing(defined, [1, 11] + Array("uniquestate".utf8), with: [0]))
    #expect(
      empty.path == "input.event.body.workflowDefined.workflow.states" && empty.problem.contains("at least one state"))

    // A gap that ends before it starts (a ClosedRange would trap).
    var s = BoardState()
    var o = OriginState()
    o.lastGap = 123_456_789...123_456_790
    s.origins["sim"] = o
    var lo = ByteWriter()
    lo.int64(123_456_789)
    var hi = ByteWriter()
    hi.int64(123_456_790)
    let swapped = try replacing(BoardCodec.encode(s), lo.bytes + hi.bytes, with: hi.bytes + lo.bytes)
    let gap = try error(state: swapped)
    #expect(gap.path == "state.origins[\"sim\"].lastGap" && gap.problem.contains("ends before it starts"))

    // Limits the reducer's arithmetic would trap on.
    var negative = BoardState()
    negative.settings.limits.recentTransitions = -1
    #expect(try error(state: BoardCodec.encode(negative)).path == "state.settings.limits.recentTransitions")
    var huge = BoardState()
    huge.settings.limits.maxVersionsPerFeature = Int.max
    #expect(try error(state: BoardCodec.encode(huge)).path == "state.settings.limits.maxVersionsPerFeature")

    // A tally the reducer's `+= 1` would overflow.
    var tally = BoardState()
    tally.counters.applied = Int.max
    #expect(try error(state: BoardCodec.encode(tally)).path == "state.counters.applied")

    // A kept sprint the reducer would have refused: backwards, or longer than the limit.
    var backwards = BoardState()
    backwards.sprints["S"] = Sprint(id: "S", name: "", startDate: Make.d("2026-11-13"), endDate: Make.d("2026-11-02"))
    let b = try error(state: BoardCodec.encode(backwards))
    #expect(b.path == "state.sprints[\"S\"]" && b.problem.contains("before it starts"))
    var long = BoardState()
    long.sprints["S"] = S.bareSprint
    #expect(try error(state: BoardCodec.encode(long)).problem.contains("the limit is 366"))

    // Estimate sizes outside 0…1,000,000 points.
    var scale = BoardState()
    scale.settings.estimateScale = EstimateScale(unchecked: ["HUGE": 2e6])
    #expect(try error(state: BoardCodec.encode(scale)).path == "state.settings.estimateScale[\"HUGE\"]")
  }

  @Test func aKeyGivenTwiceIsRefused() throws {
    var s = BoardState()
    s.contributions.sprints = ["ZQ1": "a", "ZQ2": "b"]
    let twice = try replacing(BoardCodec.encode(s), Array("ZQ2".utf8), with: Array("ZQ1".utf8))
    let e = try error(state: twice)
    #expect(e.path == "state.contributions.sprints[\"ZQ1\"]" && e.problem.contains("twice"))
    var t = BoardState()
    t.statusSeen = ["ZQ1", "ZQ2"]
    let seen = try replacing(BoardCodec.encode(t), Array("ZQ2".utf8), with: Array("ZQ1".utf8))
    #expect(try error(state: seen).path == "state.statusSeen[1]")
  }

  // MARK: The decoder never traps

  /// Flips, overwrites, inserts, deletes and truncates bytes of real encodings, ~20,000 times:
  /// each mutant decodes to a value that itself round-trips, or is refused.
  @Test func mutatedBlobsDecodeOrThrowNeverTrap() throws {
    var small = CodecSamples.richState
    small.counters.applied = 3
    let inputs = S.inputs.map { BoardCodec.encode($0) }
    let state = BoardCodec.encode(small)
    var rng = TestRandom(state: 0xC0DEC)
    var decoded = 0
    var refused = 0
    for k in 0..<20_000 {
      let asState = k % 10 == 0
      var b = asState ? state : inputs[rng.below(inputs.count)]
      for _ in 0...rng.below(3) { Self.mutate(&b, &rng) }
      if asState {
        do {
          let s = try BoardCodec.decodeState(b)
          #expect(try BoardCodec.decodeState(BoardCodec.encode(s)) == s, "case \(k)")
          decoded += 1
        } catch { refused += 1 }
      } else {
        do {
          let i = try BoardCodec.decodeInput(b)
          #expect(try BoardCodec.decodeInput(BoardCodec.encode(i)) == i, "case \(k)")
          decoded += 1
        } catch { refused += 1 }
      }
    }
    // Both outcomes happen: the mutations reach past the version byte and the tags.
    #expect(decoded > 500 && refused > 5000)
  }

  static func mutate(_ b: inout [UInt8], _ rng: inout TestRandom) {
    guard !b.isEmpty else {
      b.append(UInt8(truncatingIfNeeded: rng.next()))
      return
    }
    let i = rng.below(b.count)
    switch rng.below(6) {
    case 0: b[i] ^= 1 << UInt8(rng.below(8))
    case 1: b[i] = UInt8(truncatingIfNeeded: rng.next())
    case 2: b.insert(UInt8(truncatingIfNeeded: rng.next()), at: i)
    case 3: b.remove(at: i)
    case 4: b.removeLast(rng.below(b.count) + 1)
    default:
      // A byte that makes a count or a length large.
      b[i] = [0x7F, 0xFF, 0x80, 0x00][rng.below(4)]
    }
  }
}
