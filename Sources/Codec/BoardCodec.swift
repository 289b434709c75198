public import WallboardCore

/// The board's binary codec: every `BoardInput` and a whole `BoardState`, both ways, exactly
/// (`decodeState(encode(s)) == s`), for the journal.
///
/// Format (version 6; versions 1 to 5 are read too). A blob is the version byte, then one value. Numbers are LEB128 varints,
/// signed ones zig-zagged; doubles are eight bytes little-endian (their bit pattern); strings are
/// a byte count and UTF-8; an optional field is a bit in its struct's leading flags varint, a
/// "set to nil" optional (`FeaturePatch.priority`, `SprintPatch.goal`) two bits (0 not
/// mentioned, 1 cleared, 2 set). Enums are a one-byte tag. Lists are a count and the elements;
/// dictionaries and sets are written in ascending order of their keys (`String` `<`, dates by
/// day), so that equal values give equal bytes. An `Instant` is its milliseconds, a `CivilDate`
/// its day since 1970-01-01.
///
/// Decoding is a state machine with caps: every count and length is checked against the bytes
/// left before anything is allocated (and no more than a few thousand elements are reserved
/// ahead), strings are at most 1 MiB of valid UTF-8, flags and tags outside the known ones are
/// errors, trailing bytes are an error. Nesting is bounded by the format itself: no value
/// contains itself (`BoardInput.restored` holds a state, which holds no input), so the depth is
/// fixed. It never traps: whatever the bytes, it returns a value or throws a `CodecError` that
/// names the byte offset and the path of what was wrong. It also refuses what the reducer never
/// makes and would trip over: NaN, instants outside 1970…9999 (the range `Instant(rfc3339:)`
/// accepts), dates outside it, a workflow without states, a gap whose end is before its start,
/// negative or huge limits, tallies beyond ±2^53 (which `+= 1` would one day overflow), and a state's sprint that ends before it starts or lasts longer
/// than its limit.
///
/// Equal values give equal bytes up to the spelling of strings: two canonically equivalent
/// strings are `==` in Swift but keep their own bytes.
public enum BoardCodec {
  /// The format version written as the first byte of every blob.
  ///
  /// Version 2 keys features by (project, id) (`FeatureKey`): a dictionary keyed by feature is
  /// the count, then each key's project and id and its value; `feature.deleted` and
  /// `workflow.transitioned` carry the project the event named, and a transition in the recent
  /// list its feature's project. Version 1 keyed features by id alone: its blobs are read and
  /// brought forward (each key takes the project of the feature it keyed), so a journal written
  /// by an older build is a migration, not a reset. Version 3 adds a feature's and a patch's
  /// `dependsOn` (one more flag bit each); older blobs simply have none. Version 4 adds the
  /// `fileRead` input (tag 4) and an origin's file position (flag bit 12, then the position and
  /// `linesPastFile`); older blobs have neither, and an older build refuses a version 4 blob
  /// (and the journal's meta says so before any is read).
  /// Version 5 adds the `relayed` input (tag 5: the wall's origin, the stream position, then the
  /// input it carries, which is never itself relayed) and an origin's relay position (flag bit
  /// 13).
  /// Version 6 adds the `agents.locks` body (tag 12: its locks) and, after everything else in a
  /// state, `agentLocks` (a dictionary by origin of lock lists, each at most
  /// `AgentLock.maxPerSource`); older blobs have no locks.
  public static let version: UInt8 = 6
  /// The format versions this build decodes.
  public static let readable: ClosedRange<UInt8> = 1...version
  /// The longest string a blob may hold, in bytes of UTF-8: the decoder refuses a longer one.
  public static let maxStringBytes = 1 << 20

  /// One input's encoding, checked against what the decoder accepts: no string over
  /// `maxStringBytes` and at most `maxBytes` in all; else the error says which (and nothing is
  /// returned to keep). For a store that must read back what it keeps (the journal).
  public static func encode(_ input: BoardInput, maxBytes: Int) throws(CodecError) -> [UInt8] {
    var w = ByteWriter()
    w.bytes.reserveCapacity(input.isRestored ? 4096 : 128)
    w.byte(version)
    w.input(input)
    try w.check(maxBytes: maxBytes, "input")
    return w.bytes
  }

  /// A whole board's encoding, checked as `encode(_:maxBytes:)` checks an input's.
  public static func encode(_ state: BoardState, maxBytes: Int) throws(CodecError) -> [UInt8] {
    var w = ByteWriter()
    w.bytes.reserveCapacity(256 + 256 * (state.features.count + state.hidden.count))
    w.byte(version)
    w.state(state)
    try w.check(maxBytes: maxBytes, "state")
    return w.bytes
  }

  /// Appends one input's encoding to `out` (batching: one buffer, many inputs).
  public static func encode(_ input: BoardInput, into out: inout [UInt8]) {
    var w = ByteWriter()
    swap(&w.bytes, &out)
    w.byte(version)
    w.input(input)
    swap(&w.bytes, &out)
  }

  public static func encode(_ input: BoardInput) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(input.isRestored ? 4096 : 128)
    encode(input, into: &out)
    return out
  }

  public static func decodeInput(_ bytes: UnsafeRawBufferPointer) throws(CodecError) -> BoardInput {
    do throws(CodecError) {
      var r = ByteReader(bytes)
      try r.versionByte()
      let input = try r.input()
      try r.finish()
      return input
    } catch { throw error.within("input") }
  }

  public static func decodeInput(_ bytes: [UInt8]) throws(CodecError) -> BoardInput {
    // `withUnsafeBytes` rethrows untyped errors: carry the typed one out beside it.
    var failure: CodecError?
    let value = bytes.withUnsafeBytes { b -> BoardInput? in
      do throws(CodecError) { return try decodeInput(b) } catch {
        failure = error
        return nil
      }
    }
    guard let value else { throw failure! }
    return value
  }

  public static func encode(_ state: BoardState) -> [UInt8] {
    var w = ByteWriter()
    w.bytes.reserveCapacity(256 + 256 * (state.features.count + state.hidden.count))
    w.byte(version)
    w.state(state)
    return w.bytes
  }

  public static func decodeState(_ bytes: UnsafeRawBufferPointer) throws(CodecError) -> BoardState {
    do throws(CodecError) {
      var r = ByteReader(bytes)
      try r.versionByte()
      let state = try r.state()
      try r.finish()
      return state
    } catch { throw error.within("state") }
  }

  public static func decodeState(_ bytes: [UInt8]) throws(CodecError) -> BoardState {
    // `withUnsafeBytes` rethrows untyped errors: carry the typed one out beside it.
    var failure: CodecError?
    let value = bytes.withUnsafeBytes { b -> BoardState? in
      do throws(CodecError) { return try decodeState(b) } catch {
        failure = error
        return nil
      }
    }
    guard let value else { throw failure! }
    return value
  }

  /// The instants a blob may hold: those `Instant(rfc3339:)` accepts, 1970…9999.
  static let instants: Range<Int64> = 0..<Instant.endOfYear9999
  /// The dates a blob may hold, by day since 1970-01-01: those `CivilDate(parsing:)` accepts.
  static let days = 0...CivilDate(year: 9999, month: 12, day: 31).daysSinceEpoch
}

extension ByteWriter {
  /// Throws unless the decoder would take back what was written: its strings and its size.
  func check(maxBytes: Int, _ what: String) throws(CodecError) {
    guard longestString <= BoardCodec.maxStringBytes else {
      throw CodecError(
        offset: 0, path: what,
        problem: "it holds a string of \(longestString) bytes; the limit is \(BoardCodec.maxStringBytes) (1 MiB)")
    }
    guard bytes.count <= maxBytes else {
      throw CodecError(
        offset: 0, path: what, problem: "its encoding is \(bytes.count) bytes; the limit is \(maxBytes)")
    }
  }
}

extension BoardInput {
  fileprivate var isRestored: Bool {
    if case .restored = payload { return true }
    return false
  }
}

// MARK: - Inputs and the values every part uses

extension ByteWriter {
  mutating func input(_ input: BoardInput) {
    switch input {
    case .event(let e):
      byte(0)
      event(e)
    case .rejected(let origin, let at, let reason, let position):
      byte(1)
      bool(position != nil)
      string(origin)
      instant(at)
      string(reason)
      if let p = position {
        string(p.publisher)
        int64(p.seq)
      }
    case .connection(let origin, let status, let at, let detail):
      byte(2)
      bool(detail != nil)
      string(origin)
      byte(status.tag)
      instant(at)
      if let d = detail { string(d) }
    case .restored(let s):
      byte(3)
      state(s)
    case .fileRead(let origin, let at, let p):
      byte(4)
      string(origin)
      instant(at)
      filePosition(p)
    case .relayed(let via, let position, let inner):
      byte(5)
      string(via)
      relayPosition(position)
      self.input(inner)
    }
  }

  mutating func relayPosition(_ p: RelayPosition) {
    int64(p.stream)
    varint(p.sequence)
  }

  mutating func filePosition(_ p: FilePosition) {
    varint(p.device)
    varint(p.inode)
    int64(p.offset)
    int(p.line)
    varint(p.head)
    varint(p.tail)
  }

  mutating func instant(_ t: Instant) { int64(t.millis) }

  mutating func date(_ d: CivilDate) { int(d.daysSinceEpoch) }
}

extension ByteReader {
  mutating func versionByte() throws(CodecError) {
    let v = try byte("version")
    guard BoardCodec.readable.contains(v) else {
      throw fail(
        "version", at: 0,
        "format version \(v); this build reads versions \(BoardCodec.readable.lowerBound) to \(BoardCodec.version)")
    }
    format = v
  }

  mutating func input() throws(CodecError) -> BoardInput {
    let start = offset
    switch try byte("tag") {
    case 0:
      do throws(CodecError) { return .event(try event()) } catch { throw error.within("event") }
    case 1:
      do throws(CodecError) {
        let hasPosition = try bool("hasPosition")
        let origin = try string("origin")
        let at = try instant("at")
        let reason = try string("reason")
        var position: StreamPosition?
        if hasPosition {
          do throws(CodecError) {
            let publisher = try string("publisher")
            position = StreamPosition(publisher: publisher, seq: try int64("seq"))
          } catch { throw error.within("position") }
        }
        return .rejected(origin: origin, at: at, reason: reason, position: position)
      } catch { throw error.within("rejected") }
    case 2:
      do throws(CodecError) {
        let hasDetail = try bool("hasDetail")
        let origin = try string("origin")
        let status = try connectionStatus("status")
        let at = try instant("at")
        let detail = hasDetail ? try string("detail") : nil
        return .connection(origin: origin, status: status, at: at, detail: detail)
      } catch { throw error.within("connection") }
    case 3:
      do throws(CodecError) { return .restored(try state()) } catch { throw error.within("restored") }
    case 4 where format >= 4:
      do throws(CodecError) {
        let origin = try string("origin")
        let at = try instant("at")
        return .fileRead(origin: origin, at: at, through: try filePosition())
      } catch { throw error.within("fileRead") }
    case 5 where format >= 5:
      do throws(CodecError) {
        let via = try string("via")
        let position = try relayPosition()
        let innerStart = offset
        let inner = try input()
        guard !inner.isRelayed else { throw fail("input", at: innerStart, "a relayed input within a relayed input") }
        return .relayed(via: via, position: position, input: inner)
      } catch { throw error.within("relayed") }
    case let tag:
      throw fail("tag", at: start, "unknown BoardInput tag \(tag)")
    }
  }

  /// A file position: its offset and line number are never negative.
  mutating func filePosition() throws(CodecError) -> FilePosition {
    let device = try varint("device")
    let inode = try varint("inode")
    var start = offset
    let at = try int64("offset")
    guard at >= 0 else { throw fail("offset", at: start, "a negative offset \(at)") }
    start = offset
    let line = try int("line")
    guard line >= 0 else { throw fail("line", at: start, "a negative line number \(line)") }
    return FilePosition(
      device: device, inode: inode, offset: at, line: line, head: try varint("head"), tail: try varint("tail"))
  }

  mutating func relayPosition() throws(CodecError) -> RelayPosition {
    RelayPosition(stream: try int64("stream"), sequence: try varint("sequence"))
  }

  mutating func connectionStatus(_ field: StaticString) throws(CodecError) -> ConnectionStatus {
    let start = offset
    let tag = try byte(field)
    guard let s = ConnectionStatus(tag: tag) else {
      throw fail(field, at: start, "unknown ConnectionStatus tag \(tag)")
    }
    return s
  }

  /// An instant within 1970…9999.
  mutating func instant(_ field: StaticString) throws(CodecError) -> Instant {
    let start = offset
    let ms = try int64(field)
    guard ms >= BoardCodec.instants.lowerBound && ms < BoardCodec.instants.upperBound else {
      throw fail(field, at: start, "\(ms) ms is outside the years 1970…9999")
    }
    return Instant(millis: ms)
  }

  /// A date within 1970…9999.
  mutating func date(_ field: StaticString) throws(CodecError) -> CivilDate {
    let start = offset
    let d = try int64(field)
    guard d >= 0, d <= Int64(BoardCodec.days.upperBound) else {
      throw fail(field, at: start, "day \(d) is outside the years 1970…9999")
    }
    return CivilDate(daysSinceEpoch: Int(d))
  }
}

extension ConnectionStatus {
  static let byTag: [ConnectionStatus] = [.connecting, .live, .reconnecting, .offline, .ended]

  var tag: UInt8 {
    switch self {
    case .connecting: 0
    case .live: 1
    case .reconnecting: 2
    case .offline: 3
    case .ended: 4
    }
  }

  init?(tag: UInt8) {
    guard Int(tag) < Self.byTag.count else { return nil }
    self = Self.byTag[Int(tag)]
  }
}
