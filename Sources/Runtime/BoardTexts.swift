internal import DisplayCore
internal import Glyphs
internal import Kiosk
internal import Raster
internal import Widgets

/// The lines of text a frame shows, for a display that writes text as characters (the
/// terminal): what the painter recorded as the widgets drew, turned into `DisplayText`s.
enum BoardTexts {
  /// The board's texts with the diagnostics panel's (drawn over them, in `panel`) on top: a
  /// board text under the panel is left out, as its pixels are.
  static func texts(board: [Painter.Record], panel: (rect: IRect, records: [Painter.Record])?) -> [DisplayText] {
    var kept = board
    if let panel {
      let r = Rect(
        x: Double(panel.rect.x), y: Double(panel.rect.y), width: Double(panel.rect.width),
        height: Double(panel.rect.height))
      kept = kept.filter { !overlaps($0.box, r) }
      kept += panel.records
    }
    return kept.compactMap(DisplayText.init(record:))
  }

  /// `texts` as they land on the screen frame of a board turned by `rotation` and moved by
  /// `offset`, at `night`: moved and dimmed with the pixels; none when the board is turned (the
  /// terminal then shows the turned pixels alone) or blanked.
  static func onScreen(
    _ texts: [DisplayText], rotation: Int, offset: (dx: Int, dy: Int), night: NightSchedule.State
  ) -> [DisplayText] {
    guard rotation == 0 else { return [] }
    switch night {
    case .blank: return []
    case .day: return texts.map { $0.moved(dx: Double(offset.dx), dy: Double(offset.dy)) }
    case .dim(let keeping):
      return texts.map {
        var t = $0.moved(dx: Double(offset.dx), dy: Double(offset.dy))
        t.color = dimmed(t.color, keeping: keeping)
        t.background = dimmed(t.background, keeping: keeping)
        return t
      }
    }
  }

  /// `color` as `Canvas.dim(keeping:)` dims a pixel of it.
  static func dimmed(_ color: RGBA, keeping: Double) -> RGBA {
    var c = Canvas(width: 1, height: 1, background: color)
    c.dim(keeping: keeping)
    let p = c[x: 0, y: 0]
    return RGBA(r: UInt8((p >> 16) & 0xFF), g: UInt8((p >> 8) & 0xFF), b: UInt8(p & 0xFF))
  }

  private static func overlaps(_ a: Rect, _ b: Rect) -> Bool {
    a.minX < b.maxX && b.minX < a.maxX && a.minY < b.maxY && b.minY < a.maxY
  }
}

extension DisplayText {
  /// The text a painter's record says was drawn; nil when nothing of it was (it did not fit).
  ///
  /// Its role: a title when drawn as one; a number when it was a key number (the clock, a
  /// percentage) or made of nothing but kept and droppable pieces (a count and its points);
  /// else a label. It is fitted anew by `TextRenderer.fit`'s rules over the pieces the widget
  /// asked for.
  init?(record r: Painter.Record) {
    guard !r.text.isEmpty else { return nil }
    let role: Role
    let hasLabel = r.requested.contains {
      if case .label = $0.kind { return true }
      return false
    }
    if r.title {
      role = .title
    } else if r.role == .key || !hasLabel {
      role = .number
    } else {
      role = .label
    }
    let align: Align =
      switch r.align {
      case .left: .left
      case .center: .center
      case .right: .right
      }
    let requested = r.requested
    self.init(
      text: r.text, box: r.box,
      ink: Rect(x: r.x, y: r.baseline - r.ascender, width: r.width, height: r.ascender + r.descender),
      baseline: r.baseline, color: r.color, background: r.background, bold: r.bold, align: align, role: role,
      fitted: { width, measure in
        TextRenderer.fit(requested, width: Double(width)) { Double(measure($0)) }.text
      })
  }
}
