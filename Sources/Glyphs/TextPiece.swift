/// A part of a line of text, by what `TextRenderer.fit(_:width:size:weight:tabular:)` may do to it
/// when the line does not fit: a number and its glue are kept whole, secondary parts (a count's
/// points, a feature's id beside its title) are dropped whole, a label is shortened.
public struct TextPiece: Hashable, Sendable {
  /// What a piece is, for fitting.
  public enum Kind: Hashable, Sendable {
    /// Kept whole, never shortened or dropped: a number, and the words that make it read.
    case fixed
    /// Shortened with "…" (keeping its start or end) once every secondary piece is dropped, and
    /// dropped whole when not one of its characters fits.
    case label(TextRenderer.Keep)
    /// Dropped whole, before any label is shortened; the lowest rank first.
    case secondary(rank: Int)
  }

  public var text: String
  public var kind: Kind

  public init(_ text: String, _ kind: Kind) {
    self.text = text
    self.kind = kind
  }

  /// A piece kept whole.
  public static func fixed(_ text: String) -> TextPiece { TextPiece(text, .fixed) }
  /// A piece shortened with "…" where it does not fit.
  public static func label(_ text: String, keep: TextRenderer.Keep = .start) -> TextPiece {
    TextPiece(text, .label(keep))
  }
  /// A piece dropped whole where it does not fit, the lowest `rank` first.
  public static func secondary(_ text: String, rank: Int = 0) -> TextPiece { TextPiece(text, .secondary(rank: rank)) }
}

/// What `TextRenderer.fit` made of a line of pieces.
public struct FittedText: Hashable, Sendable {
  /// The pieces kept, in order, a label perhaps shortened.
  public var pieces: [TextPiece]
  /// False when even the fixed pieces are wider than the width: they are all that is kept, and
  /// they overflow (draw them smaller, or not at all).
  public var fits: Bool
  /// The pieces' text, joined.
  public var text: String { pieces.map(\.text).joined() }

  public init(pieces: [TextPiece], fits: Bool) {
    self.pieces = pieces
    self.fits = fits
  }
}

extension TextRenderer {
  /// Fits a line made of `pieces` into `width` pixels at `size`: first every secondary piece is
  /// dropped, lowest rank first (the later of equal ranks first), until the line fits; then the
  /// widest label is shortened with "…" to what is left, or dropped when nothing of it fits, and
  /// so on. Fixed pieces are never touched: when they alone do not fit, they are what comes
  /// back, with `fits` false.
  public func fit(
    _ pieces: [TextPiece], width: Double, size: Double, weight: Weight = .regular, tabular: Bool = false
  ) -> FittedText {
    TextRenderer.fit(pieces, width: width) { measure($0, size: size, weight: weight, tabular: tabular).width }
  }

  /// `fit(_:width:size:weight:tabular:)` with any measure of width: the same rules for a line
  /// written in other units (a terminal's character cells). `measure` gives a string's width in
  /// the units of `width`.
  public static func fit(_ pieces: [TextPiece], width: Double, measure w: (String) -> Double) -> FittedText {
    var kept: [TextPiece?] = pieces
    func line() -> String { kept.compactMap { $0?.text }.joined() }
    if w(line()) <= width { return FittedText(pieces: pieces, fits: true) }
    let secondary = pieces.indices.compactMap { i -> (rank: Int, index: Int)? in
      if case .secondary(let rank) = pieces[i].kind { return (rank, i) }
      return nil
    }
    for s in secondary.sorted(by: { ($0.rank, -$0.index) < ($1.rank, -$1.index) }) {
      kept[s.index] = nil
      if w(line()) <= width { return FittedText(pieces: kept.compactMap { $0 }, fits: true) }
    }
    while w(line()) > width {
      let labels = kept.indices.filter { i in
        if case .label = kept[i]?.kind { return true }
        return false
      }
      guard let widest = labels.max(by: { w(kept[$0]!.text) < w(kept[$1]!.text) }),
        case .label(let keep) = kept[widest]!.kind
      else { break }
      let label = kept[widest]!
      kept[widest] = nil
      let others = w(line())
      let room = width - others
      let shortened = room > 0 ? fit(label.text, width: room, keep: keep, measure: w) : ""
      // A label of nothing but the ellipsis says nothing: it goes.
      if !shortened.isEmpty && shortened != TextRenderer.ellipsis {
        kept[widest] = TextPiece(shortened, label.kind)
        // Kerning across the join can widen the line; then the label goes.
        if w(line()) > width { kept[widest] = nil }
      }
    }
    let result = kept.compactMap { $0 }
    return FittedText(pieces: result, fits: w(result.map(\.text).joined()) <= width)
  }
}
