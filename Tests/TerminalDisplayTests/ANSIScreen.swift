import Raster
import TerminalDisplay

/// A minimal terminal emulator for the sequences `TerminalRenderer` emits, and nothing more.
///
/// Handles CUP (`ESC[r;cH`), SGR `0`, `1`, `22`, `38;2;r;g;b` and `48;2;r;g;b`, ED 2
/// (`ESC[2J`), cursor hide/show (`ESC[?25l`/`h`), autowrap off/on (`ESC[?7l`/`h`), the alternate
/// screen (`ESC[?1049h`/`l`: the main screen and cursor kept, then given back), CR, LF and
/// printable characters.
/// Anything else is recorded in `unknown`, so a test can insist the output held nothing else.
/// With `eagerWrap` it models terminals that scroll as soon as the bottom-right cell is written
/// with autowrap on, rather than at the next character.
struct ANSIScreen {
  struct Cell: Equatable {
    var char: Character = " "
    var fg: RGBA?
    var bg: RGBA?
    var bold = false
  }

  let columns: Int
  let rows: Int
  var eagerWrap = false
  var cells: [Cell]
  var row = 0
  var column = 0
  var pendingWrap = false
  var fg: RGBA?
  var bg: RGBA?
  var cursorVisible = true
  var autowrap = true
  var bold = false
  /// The main screen and its cursor while the alternate screen shows.
  var mainScreen: (cells: [Cell], row: Int, column: Int)?
  var onAlternateScreen: Bool { mainScreen != nil }
  /// Counts of what was seen.
  var printed = 0
  var scrolls = 0
  var cursorMoves = 0
  var clears = 0
  var unknown: [String] = []

  init(columns: Int, rows: Int, eagerWrap: Bool = false) {
    self.columns = columns
    self.rows = rows
    self.eagerWrap = eagerWrap
    self.cells = Array(repeating: Cell(), count: columns * rows)
  }

  subscript(column: Int, row: Int) -> Cell { cells[row * columns + column] }

  /// Feeds bytes to the screen.
  mutating func feed(_ bytes: [UInt8]) {
    var i = 0
    while i < bytes.count {
      let b = bytes[i]
      if b == 0x1B {
        i = escape(bytes, from: i)
      } else if b == 0x0D {
        column = 0
        pendingWrap = false
        i += 1
      } else if b == 0x0A {
        lineFeed()
        i += 1
      } else {
        let length = b < 0x80 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4
        let scalar = String(decoding: bytes[i..<min(bytes.count, i + length)], as: UTF8.self)
        put(Character(scalar))
        i += length
      }
    }
  }

  /// The screen as a cell grid, if every cell has both colours set (`▀` a picture cell, any
  /// other character a text cell).
  func grid() -> CellGrid? {
    var out: [CellGrid.Cell] = []
    for cell in cells {
      guard let fg = cell.fg, let bg = cell.bg else { return nil }
      out.append(
        cell.char == "▀" && !cell.bold
          ? CellGrid.Cell(top: fg, bottom: bg)
          : CellGrid.Cell(character: cell.char, color: fg, background: bg, bold: cell.bold))
    }
    return CellGrid(columns: columns, rows: rows, cells: out)
  }

  private mutating func put(_ char: Character) {
    if pendingWrap && autowrap {
      column = 0
      lineFeed()
    }
    pendingWrap = false
    cells[row * columns + column] = Cell(char: char, fg: fg, bg: bg, bold: bold)
    printed += 1
    if column + 1 < columns {
      column += 1
    } else if autowrap {
      if eagerWrap {
        column = 0
        lineFeed()
      } else {
        pendingWrap = true
      }
    }
  }

  private mutating func lineFeed() {
    if row + 1 < rows {
      row += 1
    } else {
      scrolls += 1
      cells.removeFirst(columns)
      cells.append(contentsOf: Array(repeating: Cell(), count: columns))
    }
  }

  /// Parses one CSI sequence starting at `start` (the ESC); returns the index after it.
  private mutating func escape(_ bytes: [UInt8], from start: Int) -> Int {
    guard start + 1 < bytes.count, bytes[start + 1] == UInt8(ascii: "[") else {
      unknown.append("ESC without [")
      return start + 1
    }
    var end = start + 2
    while end < bytes.count, !(0x40...0x7E).contains(bytes[end]) { end += 1 }
    guard end < bytes.count else {
      unknown.append("truncated CSI")
      return bytes.count
    }
    let body = String(decoding: bytes[(start + 2)..<end], as: UTF8.self)
    let final = Character(UnicodeScalar(bytes[end]))
    csi(body, final)
    return end + 1
  }

  private mutating func csi(_ body: String, _ final: Character) {
    switch (body, final) {
    case ("?25", "l"): cursorVisible = false
    case ("?25", "h"): cursorVisible = true
    case ("?7", "l"): autowrap = false
    case ("?7", "h"): autowrap = true
    case ("?1049", "h"):
      guard mainScreen == nil else { return }
      mainScreen = (cells, row, column)
      cells = Array(repeating: Cell(), count: columns * rows)
    case ("?1049", "l"):
      guard let main = mainScreen else { return }
      (cells, row, column) = main
      mainScreen = nil
      pendingWrap = false
    case ("2", "J"):
      clears += 1
      cells = Array(repeating: Cell(), count: columns * rows)
    case (_, "H"):
      let p = body.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) ?? 1 }
      guard p.count == 2 else { return unknown.append("CUP \(body)") }
      row = min(max(p[0], 1), rows) - 1
      column = min(max(p[1], 1), columns) - 1
      pendingWrap = false
      cursorMoves += 1
    case (_, "m"): sgr(body.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) ?? -1 })
    default: unknown.append("CSI \(body)\(final)")
    }
  }

  private mutating func sgr(_ p: [Int]) {
    var i = 0
    while i < p.count {
      switch p[i] {
      case 0:
        fg = nil
        bg = nil
        bold = false
        i += 1
      case 1:
        bold = true
        i += 1
      case 22:
        bold = false
        i += 1
      case 38, 48:
        guard i + 4 < p.count, p[i + 1] == 2, p[(i + 2)...(i + 4)].allSatisfy({ (0...255).contains($0) }) else {
          unknown.append("SGR \(p)")
          return
        }
        let c = RGBA(r: UInt8(p[i + 2]), g: UInt8(p[i + 3]), b: UInt8(p[i + 4]))
        if p[i] == 38 { fg = c } else { bg = c }
        i += 5
      default:
        unknown.append("SGR \(p)")
        return
      }
    }
  }
}

/// Counts occurrences of an ASCII needle in bytes.
func occurrences(of needle: String, in bytes: [UInt8]) -> Int {
  let n = Array(needle.utf8)
  guard bytes.count >= n.count else { return 0 }
  var count = 0
  for i in 0...(bytes.count - n.count) where bytes[i..<(i + n.count)].elementsEqual(n) { count += 1 }
  return count
}
