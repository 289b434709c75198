public import Raster

extension TextRenderer {
  /// The ellipsis `fit` appends: U+2026 HORIZONTAL ELLIPSIS.
  public static let ellipsis = "\u{2026}"

  /// Which part of a text that does not fit is kept.
  public enum Keep: Sendable, Hashable {
    /// The beginning, with "…" after it (a title).
    case start
    /// The end, with "…" before it: where the text carries the most at its end (a source's host
    /// and port, a file's name, a feature's new state).
    case end
  }

  /// `text` if it is at most `width` pixels wide at `size`, else its longest prefix (or, with
  /// `keep: .end`, suffix) that fits with "…" beside it, or "" when not even "…" fits.
  ///
  /// The cut falls on a grapheme-cluster boundary (an emoji sequence or a letter with its
  /// accents is kept whole or dropped whole), found by binary search, and white space beside the
  /// ellipsis is dropped.
  public func fit(
    _ text: String, width: Double, size: Double, weight: Weight = .regular, tabular: Bool = false,
    keep: Keep = .start
  ) -> String {
    func fits(_ candidate: String) -> Bool {
      measure(candidate, size: size, weight: weight, tabular: tabular).width <= width
    }
    func shortened(_ kept: Int, _ clusters: [Character]) -> String {
      switch keep {
      case .start:
        var part = clusters[..<kept]
        while let last = part.last, last.isWhitespace { part = part.dropLast() }
        return String(part) + TextRenderer.ellipsis
      case .end:
        var part = clusters[(clusters.count - kept)...]
        while let first = part.first, first.isWhitespace { part = part.dropFirst() }
        return TextRenderer.ellipsis + String(part)
      }
    }
    if fits(text) { return text }
    guard fits(TextRenderer.ellipsis) else { return "" }
    let clusters = Array(text)
    // Invariant: `low` clusters kept plus the ellipsis fit; `high` do not (`text` itself does
    // not fit, and adding the ellipsis only makes it wider).
    var low = 0
    var high = clusters.count
    while high - low > 1 {
      let middle = (low + high) / 2
      if fits(shortened(middle, clusters)) { low = middle } else { high = middle }
    }
    let result = shortened(low, clusters)
    // Kerning can make a shorter part wider; never return something that does not fit.
    return fits(result) ? result : TextRenderer.ellipsis
  }

  /// Fits `text` into `rect`'s width with an ellipsis, draws it aligned in `rect`, and returns
  /// the drawn text's advance width.
  ///
  /// With `verticalCenter`, the box from the face's descender to its ascender is centred in
  /// `rect`; otherwise the ascender touches `rect`'s top. The text is not clipped to `rect`
  /// vertically: pick a size that fits its height (`metrics(size:)`).
  @discardableResult
  public func draw(
    _ text: String, in rect: Rect, align: TextAlignment = .left, verticalCenter: Bool = true, size: Double,
    weight: Weight = .regular, color: RGBA, tabular: Bool = false, into canvas: inout Canvas
  ) -> Double {
    let fitted = fit(text, width: rect.width, size: size, weight: weight, tabular: tabular)
    guard !fitted.isEmpty else { return 0 }
    let box = measure(fitted, size: size, weight: weight, tabular: tabular)
    let x: Double
    switch align {
    case .left: x = rect.minX
    case .center: x = rect.midX - box.width / 2
    case .right: x = rect.maxX - box.width
    }
    let baseline = verticalCenter ? rect.midY + (box.ascender - box.descender) / 2 : rect.minY + box.ascender
    return draw(
      fitted, at: Point(x, baseline), size: size, weight: weight, color: color, tabular: tabular, into: &canvas)
  }
}
