extension String {
  /// At most `max` bytes of UTF-8, cut on a character boundary — never half a sequence, which
  /// would show as U+FFFD. Both workspace stores cut long values with it, so they agree.
  public func prefix(utf8Bytes max: Int) -> String {
    guard utf8.count > max else { return self }
    var end = utf8.index(utf8.startIndex, offsetBy: Swift.max(0, max))
    while end > utf8.startIndex && utf8[end] & 0xC0 == 0x80 { end = utf8.index(before: end) }
    return String(self[..<end])
  }
}
