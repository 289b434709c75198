public import Raster

/// A terminal-sized picture: `columns × rows` half-block cells, each two stacked pixels.
///
/// A cell is drawn as `▀` (U+2580 UPPER HALF BLOCK) with the foreground set to the top pixel's
/// colour and the background set to the bottom pixel's, so a grid of `columns × rows` cells shows
/// a picture of `columns × 2·rows` roughly square pixels.
public struct CellGrid: Equatable, Sendable {
  /// One character cell: the colours of its upper and lower halves (always opaque).
  public struct Cell: Hashable, Sendable {
    /// The upper half, drawn as the foreground of `▀`.
    public var top: RGBA
    /// The lower half, drawn as the background of `▀`.
    public var bottom: RGBA

    public init(top: RGBA, bottom: RGBA) {
      self.top = top
      self.bottom = bottom
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

  private func inBounds(_ column: Int, _ row: Int) -> Bool {
    column >= 0 && column < columns && row >= 0 && row < rows
  }
}
