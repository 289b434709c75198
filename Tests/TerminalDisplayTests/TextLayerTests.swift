import DisplayCore
import Raster
import TerminalDisplay
import Testing

/// `TextLayer`: the frame's text written into the cells as characters (issue 20, item 13).
@Suite struct TextLayerTests {
  static let bg = RGBA(r: 10, g: 20, b: 30)
  static let ink = RGBA(r: 240, g: 240, b: 230)

  /// A text drawn in `box` (pixels), its glyphs `inkWidth` wide, fitted by a rule like the
  /// painter's: a number kept whole, a label shortened with "…".
  static func text(
    _ s: String, box: Rect, inkWidth: Double? = nil, align: DisplayText.Align = .left,
    role: DisplayText.Role = .label
  ) -> DisplayText {
    let w = inkWidth ?? min(box.width, Double(s.count) * 9)
    let x =
      switch align {
      case .left: box.minX
      case .right: box.maxX - w
      case .center: box.midX - w / 2
      }
    let ascender = 12.0
    let descender = 3.0
    let baseline = (box.midY + (ascender - descender) / 2).rounded()
    return DisplayText(
      text: s, box: box, ink: Rect(x: x, y: baseline - ascender, width: w, height: ascender + descender),
      baseline: baseline, color: ink, background: bg, align: align, role: role,
      fitted: { width, measure in
        if role == .number || measure(s) <= width { return s }
        var cut = s
        while !cut.isEmpty && measure(cut + "…") > width { cut.removeLast() }
        return cut.isEmpty ? "" : cut + "…"
      })
  }

  /// A grid of "pixels" drawn on the canvas: every half-cell a glyph-grey blob.
  static func blobs(columns: Int, rows: Int) -> CellGrid {
    let grey = RGBA(r: 120, g: 120, b: 120)
    return CellGrid(columns: columns, rows: rows, fill: CellGrid.Cell(top: grey, bottom: grey))
  }

  @Test func aLabelIsWrittenAsCharactersWhereItsBoxIsAndNoBlobIsLeftUnderIt() {
    var grid = Self.blobs(columns: 40, rows: 10)
    // 8 × 16 pixels a cell: the box starts at column 2, row 3.
    TextLayer.write(
      [Self.text("Done", box: Rect(x: 16, y: 48, width: 120, height: 16))], into: &grid, canvasWidth: 320,
      canvasHeight: 160)
    #expect(grid.text(row: 3).hasPrefix("▀▀Done▀"), "\(grid.text(row: 3))")
    for c in 2..<6 {
      #expect(grid[c, 3].top == Self.ink && grid[c, 3].bottom == Self.bg)
    }
    // Where the glyphs were drawn, the text's background, not grey.
    #expect(grid[6, 3].top == Self.bg || grid[6, 3].bottom == Self.bg)
    #expect(grid[20, 3].top != Self.bg, "cells past the ink keep the picture")
  }

  @Test func rightAndCentredTextKeepTheirAlignmentInCells() {
    var grid = Self.blobs(columns: 40, rows: 4)
    TextLayer.write(
      [
        Self.text("42", box: Rect(x: 0, y: 0, width: 160, height: 16), align: .right, role: .number),
        Self.text("14:05", box: Rect(x: 160, y: 16, width: 160, height: 16), align: .center, role: .number),
      ], into: &grid, canvasWidth: 320, canvasHeight: 64)
    let top = Array(grid.text(row: 0))
    #expect(String(top[18..<20]) == "42", "\(grid.text(row: 0))")
    let middle = Array(grid.text(row: 1))
    #expect(String(middle[27..<32]) == "14:05", "\(grid.text(row: 1))")
  }

  @Test func aLabelWithFewerCellsThanCharactersIsShortenedAndANumberIsNeverCut() {
    var grid = Self.blobs(columns: 20, rows: 2)
    TextLayer.write(
      [
        Self.text("In progress for review", box: Rect(x: 0, y: 0, width: 64, height: 16)),
        Self.text("1234567", box: Rect(x: 80, y: 16, width: 24, height: 16), role: .number),
      ], into: &grid, canvasWidth: 160, canvasHeight: 32)
    #expect(grid.text(row: 0).hasPrefix("In prog…▀"), "\(grid.text(row: 0))")
    #expect(grid.text(row: 1).contains("1234567"), "\(grid.text(row: 1))")
  }

  @Test func whereTextsCollideTheNumberWinsAndTheLabelKeepsToTheFreeCells() {
    var grid = Self.blobs(columns: 30, rows: 1)
    // The label's box runs under the count's.
    TextLayer.write(
      [
        Self.text("Ready for testing", box: Rect(x: 0, y: 0, width: 240, height: 16)),
        Self.text("193", box: Rect(x: 64, y: 0, width: 40, height: 16), align: .right, role: .number),
      ], into: &grid, canvasWidth: 240, canvasHeight: 16)
    let row = grid.text(row: 0)
    #expect(row.contains("193"), "\(row)")
    #expect(row.hasPrefix("Ready fo…▀193"), "shortened to the cells before the count, one kept blank: \(row)")
    #expect(!row.contains("testing"), "\(row)")
  }

  @Test func twoLinesSharingARowOfCellsTakeTwoRowsAndTwoCountsNeverRunTogether() {
    var grid = Self.blobs(columns: 20, rows: 3)
    // Lines 8 pixels apart, in rows of cells 16 pixels tall.
    TextLayer.write(
      [
        Self.text("Ship it", box: Rect(x: 0, y: 16, width: 160, height: 8)),
        Self.text("2 days left", box: Rect(x: 0, y: 24, width: 160, height: 8)),
        Self.text("2", box: Rect(x: 120, y: 0, width: 40, height: 8), align: .right, role: .number),
        Self.text("1", box: Rect(x: 120, y: 8, width: 40, height: 8), align: .right, role: .number),
      ], into: &grid, canvasWidth: 160, canvasHeight: 48)
    #expect(grid.text(row: 1).hasPrefix("Ship it"), "\(grid.text(row: 1))")
    #expect(grid.text(row: 2).hasPrefix("2 days left"), "\(grid.text(row: 2))")
    #expect(!grid.text(row: 0).contains("21") && !grid.text(row: 0).contains("12"), "\(grid.text(row: 0))")
  }

  @Test func controlCharactersAreNeverWrittenAndWideOnesTakeTwoColumns() {
    #expect(TextLayer.width(of: "\u{1B}") == 0)
    #expect(TextLayer.width(of: "\u{202E}") == 0, "a bidi override is a format character")
    #expect(TextLayer.width(of: "漢") == 2)
    #expect(TextLayer.width(of: "a") == 1)
    #expect(TextLayer.width(of: "…") == 1)
    var grid = Self.blobs(columns: 20, rows: 1)
    TextLayer.write(
      [Self.text("a\u{1B}[2J漢b", box: Rect(x: 0, y: 0, width: 160, height: 16))], into: &grid, canvasWidth: 160,
      canvasHeight: 16)
    #expect(grid[0, 0].glyph == .character("a"))
    #expect(grid[1, 0].glyph == .character("["), "ESC is dropped, the printable rest is text")
    #expect(grid[4, 0].glyph == .character("漢"))
    #expect(grid[5, 0].glyph == .wideTail)
    #expect(grid[6, 0].glyph == .character("b"))
  }

  @Test func textOutsideTheGridIsLeftOut() {
    var grid = Self.blobs(columns: 10, rows: 2)
    let before = grid
    TextLayer.write(
      [Self.text("far", box: Rect(x: 0, y: 400, width: 80, height: 16))], into: &grid, canvasWidth: 80,
      canvasHeight: 32)
    #expect(grid == before)
  }
}
