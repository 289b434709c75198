/// What a terminal shows as plain characters after a stream of the bytes `TerminalRenderer`
/// writes: cursor moves (`ESC[r;cH`), clears (`ESC[2J`) and the alternate screen
/// (`ESC[?1049h`/`l`) are followed, every other escape sequence (colours, bold, the cursor's
/// look) is stripped. One column a character; autowrap is taken as off (the board turns it off).
public struct PlainTerminal {
  public let columns: Int
  public let rows: Int
  /// The screen shown now, and the one kept while the alternate screen shows.
  public private(set) var screen: [[Character]]
  private var saved: [[Character]]?
  private var row = 0
  private var column = 0
  /// Whether the alternate screen shows.
  public var onAlternateScreen: Bool { saved != nil }

  public init(columns: Int, rows: Int) {
    self.columns = columns
    self.rows = rows
    screen = Self.blank(columns, rows)
  }

  private static func blank(_ columns: Int, _ rows: Int) -> [[Character]] {
    Array(repeating: Array(repeating: " ", count: columns), count: rows)
  }

  /// The screen's rows, trailing spaces dropped.
  public var lines: [String] {
    screen.map { line in
      var s = String(line)
      while s.last == " " { s.removeLast() }
      return s
    }
  }

  /// The screen's text, a line a row.
  public var text: String { lines.joined(separator: "\n") + "\n" }

  /// Feeds `bytes` (UTF-8 and escape sequences).
  public mutating func feed(_ bytes: [UInt8]) {
    var i = 0
    var text: [UInt8] = []
    func flush() {
      for c in String(decoding: text, as: UTF8.self) { put(c) }
      text = []
    }
    while i < bytes.count {
      let b = bytes[i]
      if b == 0x1B, i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "[") {
        flush()
        var j = i + 2
        while j < bytes.count, !(0x40...0x7E).contains(bytes[j]) { j += 1 }
        guard j < bytes.count else { break }
        control(String(decoding: bytes[(i + 2)..<j], as: UTF8.self), final: bytes[j])
        i = j + 1
      } else if b == 0x0D {
        flush()
        column = 0
        i += 1
      } else if b == 0x0A {
        flush()
        row = min(rows - 1, row + 1)
        i += 1
      } else {
        text.append(b)
        i += 1
      }
    }
    flush()
  }

  private mutating func put(_ c: Character) {
    guard row < rows, column < columns else { return }
    screen[row][column] = c
    column = min(columns, column + 1)
  }

  private mutating func control(_ parameters: String, final: UInt8) {
    switch (final, parameters) {
    case (UInt8(ascii: "H"), _):
      let p = parameters.split(separator: ";").map { Int($0) ?? 1 }
      row = max(0, min(rows - 1, (p.first ?? 1) - 1))
      column = max(0, min(columns - 1, (p.count > 1 ? p[1] : 1) - 1))
    case (UInt8(ascii: "J"), "2"):
      screen = Self.blank(columns, rows)
    case (UInt8(ascii: "h"), "?1049"):
      if saved == nil {
        saved = screen
        screen = Self.blank(columns, rows)
      }
    case (UInt8(ascii: "l"), "?1049"):
      if let s = saved {
        screen = s
        saved = nil
      }
    default:
      break
    }
  }
}
