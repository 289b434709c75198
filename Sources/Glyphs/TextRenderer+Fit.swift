public import Raster

extension TextRenderer {
  /// The ellipsis `fit` appends: U+2026 HORIZONTAL ELLIPSIS.
  public static let ellipsis = "\u{2026}"

  /// `text` if it is at most `width` pixels wide at `size`, else its longest prefix that fits
  /// with "…" after it, or "" when not even "…" fits.
  ///
  /// The prefix ends on a grapheme-cluster boundary (an emoji sequence or a letter with its
  /// accents is kept whole or dropped whole), found by binary search, and trailing white space
  /// before the ellipsis is dropped.
  public func fit(
    _ text: String, width: Double, size: Double, weight: Weight = .regular, tabular: Bool = false
  ) -> String {
    func fits(_ candidate: String) -> Bool {
      measure(candidate, size: size, weight: weight, tabular: tabular).width <= width
    }
    if fits(text) { return text }
    guard fits(TextRenderer.ellipsis) else { return "" }
    let clusters = Array(text)
    // Invariant: a prefix of `low` clusters plus the ellipsis fits; one of `high` does not
    // (`text` itself does not fit, and adding the ellipsis only makes it wider).
    var low = 0
    var high = clusters.count
    while high - low > 1 {
      let middle = (low + high) / 2
      if fits(String(clusters[..<middle]) + TextRenderer.ellipsis) { low = middle } else { high = middle }
    }
    var prefix = clusters[..<low]
    while let last = prefix.last, last.isWhitespace { prefix = prefix.dropLast() }
    let result = String(prefix) + TextRenderer.ellipsis
    // Kerning can make a shorter prefix wider; never return something that does not fit.
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
