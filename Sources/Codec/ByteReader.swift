internal import WallboardCore

/// Reads the codec's primitives (see `ByteWriter`) from a borrowed buffer, checking every length
/// and count against the bytes left before anything is allocated.
///
/// A reader is valid only while its buffer is (inside the `withUnsafeBytes` that made it). Each
/// read names the field it reads, so that a failure says where: the error's path is that
/// field, and the callers above prefix their own names (`CodecError.within`).
struct ByteReader {
  /// The longest string a blob may hold: 1 MiB of UTF-8 (`BoardCodec.maxStringBytes`).
  static let maxStringBytes = BoardCodec.maxStringBytes
  /// The most elements reserved ahead of reading them; longer lists grow as they are read, so a
  /// count is never more memory than the bytes that back it.
  static let maxReserve = 4096

  let base: UnsafeRawBufferPointer
  /// The next byte to read.
  private(set) var offset = 0
  /// The format version of the blob (its first byte, see `BoardCodec.readable`): the readers of
  /// values whose shape changed read each version's.
  var format = BoardCodec.version

  init(_ base: UnsafeRawBufferPointer) { self.base = base }

  var remaining: Int { base.count - offset }

  func fail(_ field: StaticString, at start: Int, _ problem: String) -> CodecError {
    CodecError(offset: start, path: field.description, problem: problem)
  }

  /// Throws unless every byte has been read.
  func finish() throws(CodecError) {
    guard offset == base.count else {
      throw CodecError(offset: offset, path: "", problem: "\(remaining) bytes left over after the value")
    }
  }

  mutating func byte(_ field: StaticString) throws(CodecError) -> UInt8 {
    guard offset < base.count else { throw fail(field, at: offset, "the blob ends here") }
    defer { offset += 1 }
    return base[offset]
  }

  /// A LEB128 varint of at most 10 bytes whose value fits in 64 bits.
  mutating func varint(_ field: StaticString) throws(CodecError) -> UInt64 {
    let start = offset
    if start < base.count, base[start] < 0x80 {
      offset = start + 1
      return UInt64(base[start])
    }
    var result: UInt64 = 0
    var shift: UInt64 = 0
    var i = start
    while true {
      guard i < base.count else { throw fail(field, at: start, "the blob ends inside a number") }
      let b = base[i]
      i += 1
      if i - start == 10 && b > 1 { throw fail(field, at: start, "a number longer than 64 bits") }
      result |= UInt64(b & 0x7F) << shift
      if b < 0x80 {
        offset = i
        return result
      }
      shift += 7
    }
  }

  /// A zig-zagged signed number.
  mutating func int64(_ field: StaticString) throws(CodecError) -> Int64 {
    let z = try varint(field)
    return Int64(bitPattern: (z >> 1) ^ (0 &- (z & 1)))
  }

  mutating func int(_ field: StaticString) throws(CodecError) -> Int {
    let start = offset
    let v = try int64(field)
    guard let n = Int(exactly: v) else { throw fail(field, at: start, "\(v) does not fit an Int") }
    return n
  }

  mutating func bool(_ field: StaticString) throws(CodecError) -> Bool {
    let start = offset
    switch try byte(field) {
    case 0: return false
    case 1: return true
    case let b: throw fail(field, at: start, "\(b) is not a boolean (0 or 1)")
    }
  }

  /// A set of presence bits; a bit outside `allowed` is an error.
  mutating func flags(_ field: StaticString, allowed: UInt64) throws(CodecError) -> UInt64 {
    let start = offset
    let f = try varint(field)
    guard f & ~allowed == 0 else {
      throw fail(
        field, at: start, "unknown flags 0x\(String(f & ~allowed, radix: 16)) (known: 0x\(String(allowed, radix: 16)))")
    }
    return f
  }

  /// A double, bit-exact; NaN (which the board never holds, and which equals nothing) is an
  /// error.
  mutating func double(_ field: StaticString) throws(CodecError) -> Double {
    let start = offset
    guard remaining >= 8 else { throw fail(field, at: start, "the blob ends inside a number") }
    var bits: UInt64 = 0
    for k in 0..<8 { bits |= UInt64(base[start + k]) << (8 * UInt64(k)) }
    offset = start + 8
    let d = Double(bitPattern: bits)
    guard !d.isNaN else { throw fail(field, at: start, "NaN is not a number the board holds") }
    return d
  }

  /// A string of at most `maxStringBytes` bytes of valid UTF-8.
  mutating func string(_ field: StaticString) throws(CodecError) -> String {
    let start = offset
    let n = try varint(field)
    guard n <= UInt64(Self.maxStringBytes) else {
      throw fail(field, at: start, "a string of \(n) bytes is longer than the limit of 1 MiB")
    }
    let count = Int(n)
    guard count <= remaining else {
      throw fail(field, at: start, "a string of \(count) bytes, but only \(remaining) bytes are left")
    }
    if count == 0 { return "" }
    // Bytes are bytes: viewing them as `UInt8` is what binding them would do.
    let bytes = UnsafeBufferPointer(
      start: base.baseAddress!.advanced(by: offset).assumingMemoryBound(to: UInt8.self), count: count)
    guard UTF8Check.isValid(bytes) else { throw fail(field, at: start, "not valid UTF-8") }
    offset += count
    return String(decoding: bytes, as: UTF8.self)
  }

  /// A count of items, each at least `minBytesEach` bytes long, checked against the bytes left.
  mutating func count(_ field: StaticString, minBytesEach: Int) throws(CodecError) -> Int {
    let start = offset
    let n = try varint(field)
    guard n <= UInt64(remaining / minBytesEach) else {
      throw fail(field, at: start, "a count of \(n), but only \(remaining) bytes are left")
    }
    return Int(n)
  }

  /// A list: its count, then each element, `[i]` in the path of a failure.
  mutating func array<T>(
    _ field: StaticString, minBytesEach: Int, _ element: (inout ByteReader) throws(CodecError) -> T
  ) throws(CodecError) -> [T] {
    let n = try count(field, minBytesEach: minBytesEach)
    var out: [T] = []
    out.reserveCapacity(min(n, Self.maxReserve))
    for i in 0..<n {
      do throws(CodecError) { out.append(try element(&self)) } catch {
        throw error.within("[\(i)]").within(field.description)
      }
    }
    return out
  }

  /// An array of strings.
  mutating func strings(_ field: StaticString) throws(CodecError) -> [String] {
    let n = try count(field, minBytesEach: 1)
    var out: [String] = []
    out.reserveCapacity(min(n, Self.maxReserve))
    for i in 0..<n {
      do throws(CodecError) { out.append(try string("")) } catch {
        throw error.within("[\(i)]").within(field.description)
      }
    }
    return out
  }

  /// A dictionary written by `ByteWriter.dictionary`: a key given twice is an error.
  mutating func dictionary<V>(
    _ field: StaticString, minValueBytes: Int, _ value: (inout ByteReader) throws(CodecError) -> V
  ) throws(CodecError) -> [String: V] {
    try dictionary(
      field, minKeyBytes: 1, minValueBytes: minValueBytes, { (r) throws(CodecError) in try r.string("key") },
      name: { $0 }, value)
  }

  /// A dictionary keyed by feature (see `ByteWriter.keyedDictionary`): each key its project and id.
  mutating func keyedDictionary<V>(
    _ field: StaticString, minValueBytes: Int, _ value: (inout ByteReader) throws(CodecError) -> V
  ) throws(CodecError) -> [FeatureKey: V] {
    try dictionary(
      field, minKeyBytes: 2, minValueBytes: minValueBytes,
      { (r) throws(CodecError) in
        let project = try r.string("project")
        return FeatureKey(project: project, id: try r.string("id"))
      }, name: \.qualified, value)
  }

  /// The one dictionary reader: the count checked against the bytes left, then each key and its
  /// value; a key given twice is an error, and a failure's path names the key (`name`).
  mutating func dictionary<K: Hashable, V>(
    _ field: StaticString, minKeyBytes: Int, minValueBytes: Int, _ key: (inout ByteReader) throws(CodecError) -> K,
    name: (K) -> String, _ value: (inout ByteReader) throws(CodecError) -> V
  ) throws(CodecError) -> [K: V] {
    let n = try count(field, minBytesEach: minKeyBytes + minValueBytes)
    var out: [K: V] = [:]
    out.reserveCapacity(min(n, Self.maxReserve))
    for i in 0..<n {
      let start = offset
      let k: K
      do throws(CodecError) { k = try key(&self) } catch { throw error.within("[\(i)]").within(field.description) }
      do throws(CodecError) {
        let v = try value(&self)
        guard out.updateValue(v, forKey: k) == nil else {
          throw CodecError(offset: start, path: "", problem: "the key is given twice")
        }
      } catch { throw error.within(CodecError.key(name(k))).within(field.description) }
    }
    return out
  }
}
