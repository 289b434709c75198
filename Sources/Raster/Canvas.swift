/// A 32-bit pixel buffer with a row stride and a clip rectangle.
///
/// Pixels are `0xAARRGGBB` in native byte order (on little-endian machines the bytes in memory
/// are B, G, R, A: SDL's ARGB8888 and the framebuffer's XRGB8888). The canvas is opaque: alpha is
/// kept at 255 and colours with alpha are blended source-over.
public struct Canvas: Sendable {
  public let width: Int
  public let height: Int
  /// Pixels per row, at least `width` (rows may be padded).
  public let stride: Int
  public var pixels: [UInt32]
  /// Drawing outside this rectangle is discarded. Always within the canvas.
  public private(set) var clip: IRect

  /// A canvas filled with `background`.
  public init(width: Int, height: Int, stride: Int? = nil, background: RGBA = RGBA(r: 0, g: 0, b: 0)) {
    precondition(
      width > 0 && height > 0 && width <= 16384 && height <= 16384, "canvas size \(width)x\(height) is out of range")
    let s = stride ?? width
    precondition(s >= width, "stride \(s) is narrower than the width \(width)")
    self.width = width
    self.height = height
    self.stride = s
    self.pixels = [UInt32](repeating: Canvas.pack(background.opaque), count: s * height)
    self.clip = IRect(x: 0, y: 0, width: width, height: height)
  }

  /// The longest side of a frame the board draws: 7680 pixels (8K UHD, either way round).
  public static let maxFrameSide = 7680
  /// The most pixels a frame the board draws may hold: 7680 × 4320 (33,177,600), a canvas of
  /// 127 MiB. Options and displays hold frames to this and `maxFrameSide`, so no size asked
  /// for can take gigabytes (16384 × 16384 took 2.6 GB).
  public static let maxFramePixels = 7680 * 4320

  /// Whether a frame of `width` × `height` is within `maxFrameSide` and `maxFramePixels`.
  public static func frameFits(width: Int, height: Int) -> Bool {
    (1...maxFrameSide).contains(width) && (1...maxFrameSide).contains(height) && width * height <= maxFramePixels
  }

  /// The whole canvas.
  public var bounds: IRect { IRect(x: 0, y: 0, width: width, height: height) }

  /// Restricts drawing to `rect` (within the canvas).
  public mutating func setClip(_ rect: IRect) { clip = rect.intersection(bounds) }

  /// Draws with the clip narrowed to `rect`, then restores it.
  public mutating func withClip(_ rect: IRect, _ body: (inout Canvas) -> Void) {
    let saved = clip
    clip = clip.intersection(rect)
    body(&self)
    clip = saved
  }

  public static func pack(_ c: RGBA) -> UInt32 {
    0xFF00_0000 | UInt32(c.r) << 16 | UInt32(c.g) << 8 | UInt32(c.b)
  }

  public static func unpack(_ p: UInt32) -> RGBA {
    RGBA(r: UInt8(truncatingIfNeeded: p >> 16), g: UInt8(truncatingIfNeeded: p >> 8), b: UInt8(truncatingIfNeeded: p))
  }

  /// The colour at (x, y).
  public func pixel(_ x: Int, _ y: Int) -> RGBA {
    precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) is outside \(width)x\(height)")
    return Canvas.unpack(pixels[y * stride + x])
  }

  /// Fills the clip area's intersection with `rect` with an opaque colour (no blending).
  public mutating func fill(_ rect: IRect, _ color: RGBA) {
    let r = rect.intersection(clip)
    guard !r.isEmpty else { return }
    let p = Canvas.pack(color.opaque)
    pixels.withUnsafeMutableBufferPointer { buf in
      for y in r.y..<r.maxY {
        let row = y * stride
        for x in (row + r.x)..<(row + r.maxX) { buf[x] = p }
      }
    }
  }

  /// Blends `color` at (x, y) with `coverage` (0…255) times its alpha. Clipped.
  @inline(__always)
  public mutating func blend(_ x: Int, _ y: Int, _ color: RGBA, coverage: UInt8 = 255) {
    guard x >= clip.x, x < clip.maxX, y >= clip.y, y < clip.maxY else { return }
    let a = (UInt32(color.a) * UInt32(coverage) + 127) / 255
    guard a > 0 else { return }
    let i = y * stride + x
    pixels[i] = Canvas.blendPixel(pixels[i], color, alpha: a)
  }

  /// Source-over of `color` with alpha `a` (0…255) onto an opaque pixel, rounded.
  @inline(__always)
  public static func blendPixel(_ dst: UInt32, _ c: RGBA, alpha a: UInt32) -> UInt32 {
    if a >= 255 { return pack(c) }
    let ia = 255 - a
    @inline(__always) func mix(_ s: UInt8, _ d: UInt32) -> UInt32 {
      let v = UInt32(s) * a + d * ia + 128
      return (v + (v >> 8)) >> 8
    }
    let r = mix(c.r, (dst >> 16) & 0xFF)
    let g = mix(c.g, (dst >> 8) & 0xFF)
    let b = mix(c.b, dst & 0xFF)
    return 0xFF00_0000 | r << 16 | g << 8 | b
  }

  /// Blends an 8-bit coverage mask (`maskWidth` × `maskHeight`, rows `maskStride` bytes apart)
  /// with its top-left corner at (x, y), in `color`. Clipped. Used for glyphs.
  public mutating func blendMask(
    _ mask: UnsafeBufferPointer<UInt8>, maskWidth: Int, maskHeight: Int, maskStride: Int, x: Int, y: Int,
    color: RGBA
  ) {
    let x0 = max(x, clip.x)
    let y0 = max(y, clip.y)
    let x1 = min(x + maskWidth, clip.maxX)
    let y1 = min(y + maskHeight, clip.maxY)
    guard x0 < x1, y0 < y1 else { return }
    let ca = UInt32(color.a)
    let s = stride
    pixels.withUnsafeMutableBufferPointer { buf in
      for py in y0..<y1 {
        let mrow = (py - y) * maskStride - x
        let row = py * s
        for px in x0..<x1 {
          let m = UInt32(mask[mrow + px])
          if m == 0 { continue }
          let a = (ca * m + 127) / 255
          buf[row + px] = Canvas.blendPixel(buf[row + px], color, alpha: a)
        }
      }
    }
  }
}

extension RGBA {
  /// The same colour with full alpha.
  public var opaque: RGBA { RGBA(r: r, g: g, b: b, a: 255) }

  /// The same colour with alpha `a` (0…1) times its own.
  public func withAlpha(_ f: Double) -> RGBA {
    RGBA(r: r, g: g, b: b, a: UInt8((Double(a) * max(0, min(1, f))).rounded()))
  }
}
