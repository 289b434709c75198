public import Raster

/// Measures and draws single lines of text in DejaVu Sans (or any regular/bold pair of faces).
///
/// Layout is simple left-to-right: one glyph per Unicode scalar, advanced by its hinted advance
/// plus the face's `kern` table kerning (FT_Get_Kerning). There is no shaping engine (no
/// HarfBuzz), so no ligatures, right-to-left runs or mark positioning; combining marks overlay
/// their base through their own bearings. A character the face lacks draws its .notdef box.
///
/// Glyphs are rendered with light hinting (vertical only) into 8-bit anti-aliased masks and kept
/// in a bounded least-recently-used cache (see `GlyphCacheLimits`), keyed by face, glyph and size
/// rounded to a quarter pixel. Sizes are clamped to 1…1024 px.
///
/// Threading: a renderer, its faces and its cache belong to one thread, the render thread; the
/// type is deliberately not `Sendable`.
public final class TextRenderer {
  /// The regular and bold faces, indexed by `Weight.rawValue`.
  private let faces: [FontFace]
  private var cache: GlyphCache

  /// The regular face file `init(fontsDirectory:)` loads.
  public static let regularFile = "DejaVuSans.ttf"
  /// The bold face file `init(fontsDirectory:)` loads.
  public static let boldFile = "DejaVuSans-Bold.ttf"

  /// A renderer with the two given faces.
  public init(regular: FontFace, bold: FontFace, cacheLimits: GlyphCacheLimits = .standard) {
    faces = [regular, bold]
    cache = GlyphCache(limits: cacheLimits)
  }

  /// A renderer with `DejaVuSans.ttf` and `DejaVuSans-Bold.ttf` from `fontsDirectory`.
  public convenience init(fontsDirectory: String, cacheLimits: GlyphCacheLimits = .standard) throws(FontError) {
    let directory = fontsDirectory.hasSuffix("/") ? fontsDirectory : fontsDirectory + "/"
    let regular = try FontFace.load(path: directory + TextRenderer.regularFile)
    let bold = try FontFace.load(path: directory + TextRenderer.boldFile)
    self.init(regular: regular, bold: bold, cacheLimits: cacheLimits)
  }

  /// The face text of `weight` is drawn in.
  public func face(_ weight: Weight) -> FontFace { faces[Int(weight.rawValue)] }

  /// What the glyph cache holds and its hit and miss counts.
  public var cacheStatistics: GlyphCacheStatistics { cache.statistics }

  /// Forgets every cached glyph (they are rendered again when next drawn).
  public func clearCache() { cache.removeAll() }

  /// The face's ascender, descender and line height at `size` pixels.
  public func metrics(size: Double, weight: Weight = .regular) -> FontMetrics { face(weight).metrics(size: size) }

  /// The advance width of `text` and its face's ascender and descender, at `size` pixels.
  ///
  /// With `tabular`, every ASCII digit takes the advance of the widest digit (see `draw`).
  public func measure(_ text: String, size: Double, weight: Weight = .regular, tabular: Bool = false) -> TextSize {
    let pixelSize = PixelSize(size)
    let width = layout(text, size: pixelSize, weight: weight, tabular: tabular) { _, _ in }
    let metrics = face(weight).metrics(pixelSize)
    return TextSize(width: width, ascender: metrics.ascender, descender: metrics.descender)
  }

  /// Draws `text` with the left end of its baseline at `origin` and returns its advance width.
  ///
  /// The baseline and each glyph's left edge are rounded to whole pixels, so text is as crisp as
  /// the hinting makes it. With `tabular`, every ASCII digit takes the advance of the face's
  /// widest digit and is centred in it, and digits are not kerned, so counters that change
  /// ("12 s ago" → "13 s ago") do not jiggle. Drawing is clipped by the canvas's clip; an
  /// origin that is NaN or infinite draws nothing.
  @discardableResult
  public func draw(
    _ text: String, at origin: Point, size: Double, weight: Weight = .regular, color: RGBA, tabular: Bool = false,
    into canvas: inout Canvas
  ) -> Double {
    // A position computed from odd data (NaN, an infinity) places the text nowhere.
    guard origin.x.isFinite && origin.y.isFinite else {
      return measure(text, size: size, weight: weight, tabular: tabular).width
    }
    let baseline = Int(saturating: origin.y, .toNearestOrAwayFromZero)
    return layout(text, size: PixelSize(size), weight: weight, tabular: tabular) { glyph, x in
      guard glyph.width > 0 && glyph.height > 0 else { return }
      let left = Int(saturating: origin.x + x, .toNearestOrAwayFromZero) + glyph.left
      glyph.pixels.withUnsafeBufferPointer { mask in
        canvas.blendMask(
          mask, maskWidth: glyph.width, maskHeight: glyph.height, maskStride: glyph.width, x: left,
          y: baseline - glyph.top, color: color)
      }
    }
  }

  /// Walks `text` glyph by glyph, handing each glyph and its pen position (from the start of the
  /// line) to `place`; returns the advance width.
  private func layout(
    _ text: String, size: PixelSize, weight: Weight, tabular: Bool, _ place: (GlyphBitmap, Double) -> Void
  ) -> Double {
    let face = face(weight)
    var pen = 0.0
    var previous: UInt32?
    var previousIsDigit = false
    var digitAdvance: Double?
    for scalar in text.unicodeScalars {
      let index = face.glyphIndex(scalar)
      let glyph = self.glyph(index, weight: weight, size: size)
      let isDigit = tabular && scalar.value >= 0x30 && scalar.value <= 0x39
      if let previous, !isDigit && !previousIsDigit {
        pen += face.kerning(previous, index, size: size)
      }
      if isDigit {
        let advance = digitAdvance ?? widestDigit(weight: weight, size: size)
        digitAdvance = advance
        place(glyph, pen + (advance - glyph.advance) / 2)
        pen += advance
      } else {
        place(glyph, pen)
        pen += glyph.advance
      }
      previous = index
      previousIsDigit = isDigit
    }
    return pen
  }

  /// The largest advance among the digits 0–9: the tabular figure width.
  private func widestDigit(weight: Weight, size: PixelSize) -> Double {
    let face = face(weight)
    var widest = 0.0
    for digit in "0123456789".unicodeScalars {
      widest = max(widest, glyph(face.glyphIndex(digit), weight: weight, size: size).advance)
    }
    return widest
  }

  /// The rendered glyph, from the cache or rendered now.
  private func glyph(_ index: UInt32, weight: Weight, size: PixelSize) -> GlyphBitmap {
    let key = GlyphCache.Key(face: weight.rawValue, glyph: index, size: size.quarters)
    return cache.glyph(key) { face(weight).render(index, size: size) }
  }
}
