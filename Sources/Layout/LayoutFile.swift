public import Raster

/// A parsed layout: a grid, and one or more pages of widgets placed on it.
///
/// The format (documented in `docs/layouts.md`) is line-based, so errors name a line:
///
///     name = wall
///     description = Everything on one 16:9 screen
///     grid = 12 x 8
///     gap = 16
///     margin = 24
///
///     page overview
///       duration = 30
///       header   0 0 12 1
///       burndown 0 1 8 5 mode=burnup
public struct LayoutFile: Hashable, Sendable {
  public var name: String
  public var description: String
  public var columns: Int
  public var rows: Int
  /// Space between cells, in design units (1 unit = 1/1080 of the frame height).
  public var gap: Double
  /// Space around the grid, in design units.
  public var margin: Double
  public var pages: [Page]

  /// A screenful of widgets, shown for `duration` seconds when the layout rotates pages.
  public struct Page: Hashable, Sendable {
    public var name: String
    public var duration: Double
    public var widgets: [Placement]
  }

  /// One widget on the grid: cells `column..<column+width` × `row..<row+height`.
  public struct Placement: Hashable, Sendable {
    public var kind: String
    public var column: Int
    public var row: Int
    public var width: Int
    public var height: Int
    public var options: [String: String]
    /// Where it was declared, for messages.
    public var line: Int
  }

  /// Rectangles in pixels for each widget of `page` on a frame of `width`×`height`, scaled by
  /// `scale` (design units per 1/1080 of the frame height).
  ///
  /// `unitHeight` is the height design units are measured against when the grid gets only part
  /// of the frame (the rest taken by a banner); it defaults to `height`.
  public func frames(
    page: Int, width: Int, height: Int, scale: Double = 1, unitHeight: Int? = nil
  )
    -> [(Placement, Rect)]
  {
    precondition(pages.indices.contains(page), "layout \(name) has no page \(page)")
    let unit = Double(unitHeight ?? height) / 1080 * scale
    let m = (margin * unit).rounded()
    let g = (gap * unit).rounded()
    let cellW = (Double(width) - 2 * m - g * Double(columns - 1)) / Double(columns)
    let cellH = (Double(height) - 2 * m - g * Double(rows - 1)) / Double(rows)
    return pages[page].widgets.map { p in
      let x = (m + Double(p.column) * (cellW + g)).rounded()
      let y = (m + Double(p.row) * (cellH + g)).rounded()
      let x1 = (m + Double(p.column + p.width) * (cellW + g) - g).rounded()
      let y1 = (m + Double(p.row + p.height) * (cellH + g) - g).rounded()
      return (p, Rect(x: x, y: y, width: max(0, x1 - x), height: max(0, y1 - y)))
    }
  }
}

/// What a layout file may contain: the widget kinds and, for each, the options it takes with
/// their accepted values (`nil` = any text).
public struct WidgetVocabulary: Sendable {
  public var kinds: [String: [String: [String]?]]
  public init(kinds: [String: [String: [String]?]]) { self.kinds = kinds }
}

/// A layout file that could not be read, naming the file and the line.
public struct LayoutError: Error, Hashable, Sendable, CustomStringConvertible {
  public var file: String
  public var line: Int?
  public var problem: String
  public init(file: String, line: Int?, problem: String) {
    self.file = file
    self.line = line
    self.problem = problem
  }
  public var description: String { line.map { "\(file):\($0): \(problem)" } ?? "\(file): \(problem)" }
}
