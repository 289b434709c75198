internal import Raster

/// Appends ANSI escape sequences, half-block characters and text to a byte buffer.
struct ANSIWriter {
  var bytes: [UInt8] = []

  mutating func reserve(_ count: Int) { bytes.reserveCapacity(count) }

  /// `ESC [` followed by `tail` (ASCII).
  mutating func csi(_ tail: StaticString) {
    bytes.append(0x1B)
    bytes.append(UInt8(ascii: "["))
    tail.withUTF8Buffer { bytes.append(contentsOf: $0) }
  }

  /// CUP: `ESC[row;columnH`, both 1-based.
  mutating func moveTo(row: Int, column: Int) {
    bytes.append(0x1B)
    bytes.append(UInt8(ascii: "["))
    decimal(row)
    bytes.append(UInt8(ascii: ";"))
    decimal(column)
    bytes.append(UInt8(ascii: "H"))
  }

  /// SGR with one 24-bit colour: `ESC[38;2;r;g;bm` (foreground) or `ESC[48;2;r;g;bm` (background).
  mutating func color(_ selector: Int, _ c: RGBA) {
    bytes.append(0x1B)
    bytes.append(UInt8(ascii: "["))
    colorParameters(selector, c)
    bytes.append(UInt8(ascii: "m"))
  }

  /// SGR with both colours: `ESC[38;2;r;g;b;48;2;r;g;bm`.
  mutating func colors(foreground: RGBA, background: RGBA) {
    bytes.append(0x1B)
    bytes.append(UInt8(ascii: "["))
    colorParameters(38, foreground)
    bytes.append(UInt8(ascii: ";"))
    colorParameters(48, background)
    bytes.append(UInt8(ascii: "m"))
  }

  /// `▀` (U+2580) in UTF-8.
  mutating func upperHalfBlock() {
    bytes.append(0xE2)
    bytes.append(0x96)
    bytes.append(0x80)
  }

  /// `character` in UTF-8.
  mutating func character(_ character: Character) {
    bytes.append(contentsOf: character.utf8)
  }

  private mutating func colorParameters(_ selector: Int, _ c: RGBA) {
    decimal(selector)
    bytes.append(UInt8(ascii: ";"))
    bytes.append(UInt8(ascii: "2"))
    bytes.append(UInt8(ascii: ";"))
    decimal(Int(c.r))
    bytes.append(UInt8(ascii: ";"))
    decimal(Int(c.g))
    bytes.append(UInt8(ascii: ";"))
    decimal(Int(c.b))
  }

  /// A non-negative integer in decimal ASCII.
  private mutating func decimal(_ n: Int) {
    precondition(n >= 0, "escape parameters are non-negative, not \(n)")
    if n >= 10 { decimal(n / 10) }
    bytes.append(UInt8(ascii: "0") + UInt8(n % 10))
  }
}
