public import DisplayCore
internal import Raster

/// Writes a frame's text into its cell grid as characters, over the half-block picture.
///
/// The canvas maps onto the grid evenly: a cell is `canvas width / columns` pixels across and
/// `canvas height / rows` down. For each line of text (`DisplayText`):
///
/// - **No blobs behind letters.** Each half-cell whose centre lies on the text's glyphs (its ink
///   box) shows the text's background instead of the downsampled glyph pixels.
/// - **Where.** The characters go on the row holding the middle of the ink, across the columns
///   its box covers (its left and right edges rounded to the nearest column), aligned in them as
///   it was in pixels (left, centre, right).
/// - **Fitting.** The text is fitted anew into those columns by its own rules
///   (`DisplayText.fitted`: secondary pieces dropped, a label shortened with "…", a number never
///   cut): cells are usually wider apart than glyphs, so a label the pixels shortened may be
///   whole here. A number still wider than its columns runs past them into free cells.
/// - **Collisions.** Text is placed most important first (`DisplayText.Role`: numbers, then
///   titles, then labels; in frame order among equals). A later text whose anchor (its left
///   edge, its right edge or its middle) is taken moves to the row above or below when its box
///   is free there (lines of pixels closer than a row of cells), else is left out (set beside
///   the other, it would read as part of it). A text whose anchor is free keeps to the free
///   cells around it, one blank cell from any other text, and is fitted to those, or left out
///   when nothing of it fits.
/// - **Characters.** Control and format characters (which a terminal would act on) are dropped;
///   East Asian wide characters and emoji take two columns (`TextLayer.width(of:)`).
public enum TextLayer {
  /// `grid` with `texts` (in the pixels of a `canvasWidth`×`canvasHeight` canvas) written in.
  public static func write(
    _ texts: [DisplayText], into grid: inout CellGrid, canvasWidth: Int, canvasHeight: Int
  ) {
    guard !texts.isEmpty, canvasWidth > 0, canvasHeight > 0 else { return }
    let cw = Double(canvasWidth) / Double(grid.columns)
    let ch = Double(canvasHeight) / Double(grid.rows)
    // Backgrounds first, least important first, so that the more important text's wins.
    let order = texts.indices.sorted { (texts[$0].role, -$0) > (texts[$1].role, -$1) }
    for i in order.reversed() { clearInk(texts[i], in: &grid, cw: cw, ch: ch) }
    var claimed = [Bool](repeating: false, count: grid.columns * grid.rows)
    for i in order { place(texts[i], in: &grid, claimed: &claimed, cw: cw, ch: ch) }
  }

  /// The columns a terminal gives `character`: 0 for a control or format character (dropped), 2
  /// for an East Asian wide or full-width one or an emoji shown as such, else 1.
  public static func width(of character: Character) -> Int {
    let scalars = character.unicodeScalars
    for s in scalars {
      switch s.properties.generalCategory {
      case .control, .lineSeparator, .paragraphSeparator: return 0
      case .format where s.value != 0x200D: return 0
      default: break
      }
    }
    guard let first = scalars.first else { return 0 }
    if first.properties.isEmojiPresentation || scalars.contains(where: { $0.value == 0xFE0F }) { return 2 }
    return isWide(first.value) ? 2 : 1
  }

  /// The columns `text` takes (`width(of:)` summed).
  public static func width(of text: String) -> Int { text.reduce(0) { $0 + width(of: $1) } }

  /// East Asian Wide and Fullwidth blocks (Unicode's EastAsianWidth W and F, by block).
  private static func isWide(_ v: UInt32) -> Bool {
    switch v {
    case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
      0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1F64F,
      0x1F900...0x1F9FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
      true
    default: false
    }
  }

  /// Paints the text's background over every half-cell whose centre is on its ink.
  private static func clearInk(_ t: DisplayText, in grid: inout CellGrid, cw: Double, ch: Double) {
    let ink = t.ink
    guard ink.width > 0, ink.height > 0 else { return }
    let c0 = max(0, Int(saturating: (ink.minX / cw - 0.5).rounded(.up)))
    let c1 = min(grid.columns - 1, Int(saturating: (ink.maxX / cw - 0.5).rounded(.down)))
    let h0 = max(0, Int(saturating: (ink.minY / (ch / 2) - 0.5).rounded(.up)))
    let h1 = min(2 * grid.rows - 1, Int(saturating: (ink.maxY / (ch / 2) - 0.5).rounded(.down)))
    guard c0 <= c1, h0 <= h1 else { return }
    for half in h0...h1 {
      let row = half / 2
      for column in c0...c1 {
        var cell = grid[column, row]
        if cell.glyph != .halfBlock { cell = CellGrid.Cell(top: cell.bottom, bottom: cell.bottom) }
        if half % 2 == 0 { cell.top = t.background } else { cell.bottom = t.background }
        grid[column, row] = cell
      }
    }
  }

  /// Writes the text's characters on its row, in the free cells of its box around its anchor.
  private static func place(
    _ t: DisplayText, in grid: inout CellGrid, claimed: inout [Bool], cw: Double, ch: Double
  ) {
    let columns = grid.columns
    let middle = (t.ink.height > 0 ? t.ink.midY : t.box.midY) / ch
    let home = Int(saturating: middle.rounded(.down))
    // The columns the box covers (and the ink, for a number drawn past its box).
    var a = Int(saturating: (min(t.box.minX, t.ink.width > 0 ? t.ink.minX : t.box.minX) / cw).rounded())
    var b = Int(saturating: (max(t.box.maxX, t.ink.width > 0 ? t.ink.maxX : t.box.maxX) / cw).rounded())
    a = max(0, a)
    b = min(columns, max(b, a + 1))
    guard a < columns else { return }
    let anchor: Int =
      switch t.align {
      case .left: a
      case .right: b - 1
      case .center: min(b - 1, max(a, Int(saturating: (t.box.midX / cw).rounded(.down))))
      }
    func free(_ row: Int, _ c: Int) -> Bool { c >= 0 && c < columns && !claimed[row * columns + c] }
    // Its own row, unless another text holds its anchor there: then the next row nearer its
    // middle, or the other, when the whole box is free there (two lines of pixels that share a
    // row of cells); else its own row, in what is free.
    var row = home
    if home >= 0 && home < grid.rows && !free(home, anchor) {
      let below = middle - Double(home) >= 0.5
      for r in below ? [home + 1, home - 1] : [home - 1, home + 1]
      where r >= 0 && r < grid.rows && (a..<b).allSatisfy({ free(r, $0) }) {
        row = r
        break
      }
    }
    guard row >= 0 && row < grid.rows else { return }
    // The free run of the box's columns around the anchor. Where another text holds the anchor
    // the text is left out: set beside it, it would read as part of it (two counts as one
    // number, a state's name in another state's row).
    guard free(row, anchor) else { return }
    var lo = anchor
    var hi = anchor + 1
    while lo > a && free(row, lo - 1) { lo -= 1 }
    while hi < b && free(row, hi) { hi += 1 }
    // One blank cell between this text and another's characters.
    if lo > 0 && !free(row, lo - 1) { lo += 1 }
    if hi < columns && !free(row, hi) { hi -= 1 }
    guard hi > lo else { return }
    let text = t.fitted(hi - lo, { width(of: $0) }).filter { width(of: $0) > 0 }
    let w = width(of: text)
    guard w > 0 else { return }
    // A number wider than its room runs on into free cells (one kept blank beside another
    // text): rightwards, or leftwards when it is aligned right.
    func extendLeft() { while hi - lo < w && free(row, lo - 1) && free(row, lo - 2) { lo -= 1 } }
    func extendRight() { while hi - lo < w && free(row, hi) && free(row, hi + 1) { hi += 1 } }
    if w > hi - lo {
      if t.align == .right {
        extendLeft()
        extendRight()
      } else {
        extendRight()
        extendLeft()
      }
    }
    var start: Int =
      switch t.align {
      case .left: lo
      case .right: hi - w
      case .center: lo + (hi - lo - w) / 2
      }
    start = max(lo, start)
    var c = start
    for character in text {
      let cw = width(of: character)
      guard c + cw <= hi else { break }
      grid[c, row] = CellGrid.Cell(character: character, color: t.color, background: t.background, bold: t.bold)
      claimed[row * columns + c] = true
      if cw == 2 {
        grid[c + 1, row] = .wideTail(background: t.background)
        claimed[row * columns + c + 1] = true
      }
      c += cw
    }
  }
}
