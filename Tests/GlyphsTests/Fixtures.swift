import Foundation
import Raster
import Testing

@testable import Glyphs

/// Where the tests find the bundled fonts and how they look at what was drawn.
enum Fixtures {
  /// The repository root: three levels above this file (Tests/GlyphsTests/Fixtures.swift).
  static let root: String = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { url.deleteLastPathComponent() }
    return url.path
  }()

  static let fonts = root + "/assets/fonts"
  static let regularPath = fonts + "/" + TextRenderer.regularFile
  static let boldPath = fonts + "/" + TextRenderer.boldFile

  static func renderer(limits: GlyphCacheLimits = .standard) throws -> TextRenderer {
    try TextRenderer(fontsDirectory: fonts, cacheLimits: limits)
  }

  static let background = RGBA(r: 16, g: 24, b: 32)
  static let ink = RGBA(r: 250, g: 200, b: 40)

  static func canvas(width: Int = 400, height: Int = 160) -> Canvas {
    Canvas(width: width, height: height, background: background)
  }

  /// The smallest rectangle holding every pixel that is not the background, or nil.
  static func inkBounds(_ canvas: Canvas) -> IRect? {
    var (x0, y0, x1, y1) = (Int.max, Int.max, Int.min, Int.min)
    for y in 0..<canvas.height {
      for x in 0..<canvas.width where canvas.pixel(x, y) != background {
        (x0, y0, x1, y1) = (min(x0, x), min(y0, y), max(x1, x), max(y1, y))
      }
    }
    return x0 == Int.max ? nil : IRect(x: x0, y: y0, width: x1 - x0 + 1, height: y1 - y0 + 1)
  }

  /// How many pixels are exactly `color`.
  static func count(_ color: RGBA, in canvas: Canvas) -> Int {
    var n = 0
    for y in 0..<canvas.height {
      for x in 0..<canvas.width where canvas.pixel(x, y) == color { n += 1 }
    }
    return n
  }

  /// How many pixels are within 40 of `color` in every channel (nearly full coverage).
  static func count(near color: RGBA, in canvas: Canvas) -> Int {
    func close(_ a: UInt8, _ b: UInt8) -> Bool { abs(Int(a) - Int(b)) <= 40 }
    var n = 0
    for y in 0..<canvas.height {
      for x in 0..<canvas.width {
        let p = canvas.pixel(x, y)
        if close(p.r, color.r) && close(p.g, color.g) && close(p.b, color.b) { n += 1 }
      }
    }
    return n
  }

  /// DejaVu Sans with the advance width of `scalar`'s glyph scaled by `factor` in its `hmtx`
  /// table: a face whose digits are not all equally wide.
  static func regularBytes(scalingAdvanceOf scalar: Unicode.Scalar, by factor: Double) throws -> [UInt8] {
    var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: regularPath)))
    func u16(_ at: Int) -> Int { Int(bytes[at]) << 8 | Int(bytes[at + 1]) }
    func u32(_ at: Int) -> Int { u16(at) << 16 | u16(at + 2) }
    var tables: [String: Int] = [:]
    for record in 0..<u16(4) {
      let at = 12 + 16 * record
      tables[String(decoding: bytes[at..<at + 4], as: UTF8.self)] = u32(at + 8)
    }
    let hhea = try #require(tables["hhea"])
    let hmtx = try #require(tables["hmtx"])
    let glyph = Int(try FontFace.load(path: regularPath).glyphIndex(scalar))
    try #require(glyph > 0 && glyph < u16(hhea + 34), "glyph \(glyph) has no long horizontal metric")
    let at = hmtx + 4 * glyph
    let advance = Int((Double(u16(at)) * factor).rounded())
    bytes[at] = UInt8(advance >> 8)
    bytes[at + 1] = UInt8(advance & 0xFF)
    return bytes
  }
}
