public import WallboardCore

/// The audit trail Orchestra's feature tools append to a feature's body
/// (`orchestra-storage.md` §4), read back as moves: a pure, hand-written scanner.
///
/// An entry is the line right after a separator line `---` that follows a blank line (the tools
/// append `\n\n---\n` + the entry). Every generation is read:
///
/// - `**{from} -> {to}** ({ts}):` (with evidence on the next lines, or ` Gate skipped for kind=…`)
/// - `**Rejected ({from} -> needs-edits)** ({ts}): {reason}`
/// - `**Self-Review ({from} -> in-review)** ({ts}):` (v1.0.0–v1.0.2)
/// - `**Review (approved|needs-edits)** ({ts}): {comment}` (`approved` is a move to `done`, from
///   `in-review`, where `submit_review` must start)
/// - v0.1's forms of the same without ` ({ts})`: moves whose time is unknown.
///
/// States are `[a-z][a-z-]*` (at most 64 bytes); timestamps RFC 3339. A line that does not have
/// this exact shape is not an entry, wherever it is: evidence that starts lines with `**`
/// (`**svc package** (…)`), a `---` rule of its own followed by prose, `## Note (ts)` sections.
/// Only evidence that itself writes a separator and then an entry-shaped line could be mistaken
/// for an entry; the tools' own text never does. CRLF line ends are read like LF.
public enum AuditTrail {
  /// The most of a body that is read: a longer one is read from its end (the newest entries),
  /// starting at the first separator inside that window, and the result says `truncated`.
  public static let maxBodyBytes = 256 * 1024
  /// The most entries kept: with more, the newest are kept and the result says `truncated`.
  public static let maxEntries = 512
  /// The longest state name read.
  static let maxStateBytes = 64

  /// What a body's trail says, in body order (oldest first).
  public struct Parsed: Hashable, Sendable {
    public var moves: [TrailMove]
    /// Older entries were left out (a body past `maxBodyBytes`, or more than `maxEntries`): the
    /// first move is then not the feature's first.
    public var truncated: Bool

    public init(moves: [TrailMove], truncated: Bool) {
      self.moves = moves
      self.truncated = truncated
    }
  }

  /// Reads the trail of a body.
  ///
  /// - Parameter tail: the text is only the end of a longer body (a reader cut it): its first,
  ///   partial line is skipped and the result is `truncated`.
  public static func parse(_ body: String, tail: Bool = false) -> Parsed {
    if let parsed = body.utf8.withContiguousStorageIfAvailable({ parse($0, tail: tail) }) { return parsed }
    var copy = body
    copy.makeContiguousUTF8()
    return copy.utf8.withContiguousStorageIfAvailable { parse($0, tail: tail) }!
  }

  /// Reads the trail of a body given as UTF-8 bytes (see `parse(_:tail:)`).
  public static func parse(_ bytes: UnsafeBufferPointer<UInt8>, tail: Bool = false) -> Parsed {
    var truncated = false
    var i = 0
    let end = bytes.count
    // Whether the line before the current one was blank (a separator follows a blank line). At
    // the start of the body there is no line before: a body may begin with its first separator.
    var previousBlank = true
    if end > maxBodyBytes || tail {
      truncated = true
      i = max(0, end - maxBodyBytes)
      // Skip the partial line the window starts in.
      while i < end && bytes[i] != newline { i += 1 }
      i += 1
      previousBlank = false
    }
    var moves: [TrailMove] = []
    // Whether the current line is the one right after a separator.
    var entryLine = false
    while i < end {
      var e = i
      while e < end && bytes[e] != newline { e += 1 }
      var lineEnd = e
      if lineEnd > i && bytes[lineEnd - 1] == carriageReturn { lineEnd -= 1 }
      let length = lineEnd - i
      if entryLine, let move = entry(bytes, from: i, to: lineEnd) { moves.append(move) }
      let isSeparator =
        length == 3 && bytes[i] == dash && bytes[i + 1] == dash && bytes[i + 2] == dash && previousBlank
      entryLine = isSeparator
      previousBlank = length == 0
      i = e + 1
    }
    if moves.count > maxEntries {
      moves.removeFirst(moves.count - maxEntries)
      truncated = true
    }
    return Parsed(moves: moves, truncated: truncated)
  }

  static let newline = UInt8(ascii: "\n")
  static let carriageReturn = UInt8(ascii: "\r")
  static let dash = UInt8(ascii: "-")
  static let star = UInt8(ascii: "*")

  /// The move an entry line records, or nil when the line is not an entry.
  static func entry(_ b: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> TrailMove? {
    var p = start
    func eat(_ literal: StaticString) -> Bool {
      let n = literal.utf8CodeUnitCount
      guard end - p >= n else { return false }
      let ok = literal.withUTF8Buffer { lit in
        for k in 0..<n where b[p + k] != lit[k] { return false }
        return true
      }
      if ok { p += n }
      return ok
    }
    /// `[a-z][a-z-]*`, at most `maxStateBytes`.
    func state() -> String? {
      let s = p
      guard p < end, b[p] >= 0x61, b[p] <= 0x7A else { return nil }
      p += 1
      while p < end, (b[p] >= 0x61 && b[p] <= 0x7A) || b[p] == dash { p += 1 }
      guard p - s <= maxStateBytes else { return nil }
      return String(decoding: UnsafeBufferPointer(rebasing: b[s..<p]), as: UTF8.self)
    }

    guard eat("**") else { return nil }
    let from: String
    let to: String
    if eat("Review (") {
      if eat("approved") {
        to = "done"
      } else if eat("needs-edits") {
        to = "needs-edits"
      } else {
        return nil
      }
      from = "in-review"
      guard eat(")**") else { return nil }
    } else {
      let wrapped = eat("Self-Review (") || eat("Rejected (")
      guard let f = state(), eat(" -> "), let t = state() else { return nil }
      if wrapped { guard eat(")") else { return nil } }
      guard eat("**") else { return nil }
      from = f
      to = t
    }
    var at: Instant?
    if eat(" (") {
      // `YYYY-MM-DDTHH:MM:SSZ`; an offset or fractions are read too, up to 40 bytes.
      let s = p
      while p < end, p - s <= 40, b[p] != UInt8(ascii: ")") { p += 1 }
      guard p < end, b[p] == UInt8(ascii: ")"),
        let t = utcSeconds(b, s, p) ?? (try? Instant(rfc3339: Array(b[s..<p])))
      else { return nil }
      p += 1
      at = t
    }
    guard eat(":") else { return nil }
    return TrailMove(from: from, to: to, at: at)
  }
}

extension AuditTrail {
  /// `YYYY-MM-DDTHH:MM:SSZ`, the form the tools write (`NowISO()`), read without the general
  /// RFC 3339 parser (the trail's hot path); nil for anything else, which that parser then reads.
  static func utcSeconds(_ b: UnsafeBufferPointer<UInt8>, _ s: Int, _ e: Int) -> Instant? {
    guard e - s == 20, b[s + 4] == dash, b[s + 7] == dash, b[s + 10] == UInt8(ascii: "T"),
      b[s + 13] == UInt8(ascii: ":"), b[s + 16] == UInt8(ascii: ":"), b[s + 19] == UInt8(ascii: "Z")
    else { return nil }
    func number(_ at: Int, _ n: Int) -> Int? {
      var v = 0
      for k in at..<(at + n) {
        let d = Int(b[s + k]) - 0x30
        guard d >= 0 && d <= 9 else { return nil }
        v = v * 10 + d
      }
      return v
    }
    guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2), let hour = number(11, 2),
      let minute = number(14, 2), let second = number(17, 2), (1970...9999).contains(year), (1...12).contains(month),
      day >= 1, day <= CivilDate.daysIn(month: month, year: year), hour < 24, minute < 60, second < 60
    else { return nil }
    let days = Int64(CivilDate(year: year, month: month, day: day).daysSinceEpoch)
    return Instant(seconds: days * 86_400 + Int64(hour * 3600 + minute * 60 + second))
  }
}

/// One move an audit-trail entry records: from one state to another, at a moment (nil for v0.1's
/// entries, which carry none).
public struct TrailMove: Hashable, Sendable {
  public var from: String
  public var to: String
  public var at: Instant?

  public init(from: String, to: String, at: Instant?) {
    self.from = from
    self.to = to
    self.at = at
  }
}
