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
  /// accents is kept whole or dropped whole) and never inside a number (`numberRuns`: "193 ·
  /// 1234 pt" becomes "193 ·…", never "193 · 12…"), found by binary search, and white space
  /// beside the ellipsis is dropped.
  public func fit(
    _ text: String, width: Double, size: Double, weight: Weight = .regular, tabular: Bool = false,
    keep: Keep = .start
  ) -> String {
    TextRenderer.fit(text, width: width, keep: keep) { measure($0, size: size, weight: weight, tabular: tabular).width }
  }

  /// `fit(_:width:size:weight:tabular:keep:)` with any measure of width: the same cuts for text
  /// written in other units (a terminal's character cells). `measure` gives a string's width in
  /// the units of `width`.
  public static func fit(_ text: String, width: Double, keep: Keep = .start, measure: (String) -> Double) -> String {
    func fits(_ candidate: String) -> Bool { measure(candidate) <= width }
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
    // How many clusters may be kept: any count whose cut does not fall inside a number.
    var inside = [Bool](repeating: false, count: clusters.count + 1)
    var offset = 0
    var runs = TextRenderer.numberRuns(in: text)[...]
    for index in text.indices {
      while let r = runs.first, r.upperBound <= index { runs = runs.dropFirst() }
      if let r = runs.first, r.lowerBound < index { inside[offset] = true }
      offset += 1
    }
    let counts = (0...clusters.count).filter { kept in
      !inside[keep == .start ? kept : clusters.count - kept]
    }
    // Invariant: `counts[low]` clusters kept plus the ellipsis fit (0 does: the ellipsis alone
    // fits); `counts[high]` do not (`text` itself does not fit, and the ellipsis only widens it).
    var low = 0
    var high = counts.count - 1
    while high - low > 1 {
      let middle = (low + high) / 2
      if fits(shortened(counts[middle], clusters)) { low = middle } else { high = middle }
    }
    let result = shortened(counts[low], clusters)
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

extension TextRenderer {
  /// Where the numbers of `text` are: runs of ASCII digits, with a `.`, `,` or `:` between two
  /// digits ("1,234.5", "15:00") and a `%` right after ("67%"). `fit` never cuts inside one.
  public static func numberRuns(in text: String) -> [Range<String.Index>] {
    func isDigit(_ c: Character) -> Bool { c.isASCII && c.isNumber }
    var runs: [Range<String.Index>] = []
    var i = text.startIndex
    while i < text.endIndex {
      guard isDigit(text[i]) else {
        i = text.index(after: i)
        continue
      }
      let start = i
      var end = text.index(after: i)
      while end < text.endIndex {
        if isDigit(text[end]) {
          end = text.index(after: end)
        } else if ".,:".contains(text[end]), case let next = text.index(after: end), next < text.endIndex,
          isDigit(text[next])
        {
          end = text.index(after: next)
        } else {
          break
        }
      }
      if end < text.endIndex && text[end] == "%" { end = text.index(after: end) }
      runs.append(start..<end)
      i = end
    }
    return runs
  }
}
