public import Raster

/// A terminal-sized picture: `columns × rows` cells, each two stacked pixels or a character.
///
/// A picture cell is drawn as `▀` (U+2580 UPPER HALF BLOCK) with the foreground set to the top
/// pixel's colour and the background set to the bottom pixel's, so a grid of `columns × rows`
/// cells shows a picture of `columns × 2·rows` roughly square pixels. A text cell holds a
/// character (`TextLayer` writes the board's text so), in `top` on `bottom`; a wide one (two
/// columns) is followed by a `wideTail` cell.
public struct CellGrid: Equatable, Sendable {
  /// What a cell shows.
  public enum Glyph: Hashable, Sendable {
    /// `▀`: the cell's two halves.
    case halfBlock
    /// A character of one column, or the first column of a wide one.
    case character(Character)
    /// The second column of the wide character in the cell before: nothing is written for it.
    case wideTail
  }

  /// One character cell: the colours of its upper and lower halves (always opaque), or of a
  /// character and its background.
  public struct Cell: Hashable, Sendable {
    /// The upper half, drawn as the foreground of `▀`; a character's colour.
    public var top: RGBA
    /// The lower half, drawn as the background of `▀`; a character's background.
    public var bottom: RGBA
    public var glyph: Glyph
    /// Whether a character is written bold (SGR 1).
    public var bold: Bool

    public init(top: RGBA, bottom: RGBA) {
      self.top = top
      self.bottom = bottom
      self.glyph = .halfBlock
      self.bold = false
    }

    /// A cell showing `character` in `color` on `background`.
    public init(character: Character, color: RGBA, background: RGBA, bold: Bool = false) {
      self.top = color
      self.bottom = background
      self.glyph = .character(character)
      self.bold = bold
    }

    /// The second column of a wide character written on `background`.
    public static func wideTail(background: RGBA) -> Cell {
      var c = Cell(top: background, bottom: background)
      c.glyph = .wideTail
      return c
    }

    /// The character the cell shows, `▀` for a picture cell; nil for a wide character's tail.
    public var character: Character? {
      switch glyph {
      case .halfBlock: "\u{2580}"
      case .character(let c): c
      case .wideTail: nil
      }
    }
  }

  /// Cells per row.
  public let columns: Int
  /// Rows of cells.
  public let rows: Int
  /// The cells in row-major order: `cells[row * columns + column]`.
  public private(set) var cells: [Cell]

  /// A grid with every cell `fill` (black by default).
  public init(columns: Int, rows: Int, fill: Cell = Cell(top: RGBA(r: 0, g: 0, b: 0), bottom: RGBA(r: 0, g: 0, b: 0))) {
    precondition(columns > 0 && rows > 0, "a cell grid needs at least one column and one row, not \(columns)x\(rows)")
    self.columns = columns
    self.rows = rows
    self.cells = [Cell](repeating: fill, count: columns * rows)
  }

  /// A grid made of `cells` in row-major order; there must be exactly `columns × rows` of them.
  public init(columns: Int, rows: Int, cells: [Cell]) {
    precondition(columns > 0 && rows > 0, "a cell grid needs at least one column and one row, not \(columns)x\(rows)")
    precondition(cells.count == columns * rows, "\(cells.count) cells do not make a \(columns)x\(rows) grid")
    self.columns = columns
    self.rows = rows
    self.cells = cells
  }

  /// The cell at (`column`, `row`), both zero-based.
  public subscript(column: Int, row: Int) -> Cell {
    get {
      precondition(inBounds(column, row), "cell (\(column), \(row)) is outside \(columns)x\(rows)")
      return cells[row * columns + column]
    }
    set {
      precondition(inBounds(column, row), "cell (\(column), \(row)) is outside \(columns)x\(rows)")
      cells[row * columns + column] = newValue
    }
  }

  /// The characters of row `row`, `▀` for a picture cell: the row as a terminal shows it,
  /// without its colours.
  public func text(row: Int) -> String {
    precondition(row >= 0 && row < rows, "row \(row) is outside \(columns)x\(rows)")
    return String(cells[(row * columns)..<((row + 1) * columns)].compactMap(\.character))
  }

  private func inBounds(_ column: Int, _ row: Int) -> Bool {
    column >= 0 && column < columns && row >= 0 && row < rows
  }
}
