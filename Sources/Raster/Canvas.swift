/// A 32-bit pixel buffer with a row stride and a clip rectangle.
///
/// Pixels are `0xAARRGGBB` in native byte order (on little-endian machines the bytes in memory
/// are B, G, R, A: SDL's ARGB8888 and the framebuffer's XRGB8888). The canvas is opaque: alpha is
/// kept at 255 and colours with alpha are blended source-over.
///
/// **Storage.** A canvas made with `init(width:height:stride:background:)` owns its pixels and is
/// a value: a copy is made only when a shared canvas is changed. A canvas made with
/// `init(lentBy:memory:…)` draws into a display's own memory (its back page or surface), so that
/// a frame needs no copy to be shown; all copies of it draw into that memory, and it is valid
/// only until the display takes the memory back (see `Display.drawingBuffer`).
///
/// **Drawable area.** A lent canvas placed at an offset on its screen (the burn-in move) has
/// memory only where it lands on the screen: `drawable`, which the clip never leaves. Every
/// other canvas is drawable whole.
public struct Canvas: Sendable {
  public let width: Int
  public let height: Int
  /// Pixels per row, at least `width` (rows may be padded).
  public let stride: Int
  private var storage: PixelStorage
  /// Where pixel (0, 0) is in `storage` (it may lie before it, off the screen, for a canvas lent
  /// at a negative offset: only `drawable` pixels are ever reached).
  private let origin: Int
  /// The part of the canvas with memory behind it: all of it, except for a lent canvas that
  /// reaches past its screen's edge.
  public let drawable: IRect
  /// Drawing outside this rectangle is discarded. Always within `drawable`.
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
    self.storage = PixelStorage(count: s * height, repeating: Canvas.pack(background.opaque))
    self.origin = 0
    self.drawable = IRect(x: 0, y: 0, width: width, height: height)
    self.clip = drawable
  }

  /// A `width` × `height` canvas drawn into a display's memory: a screen page of
  /// `screen.width` × `screen.height` pixels at `memory`, `stride` pixels a row, on which the
  /// canvas's top-left corner lands at `offset` (its parts off the screen are not `drawable`).
  /// `lender` (the mapping's owner) is kept alive with it; the pixels are left as they are.
  public init(
    lentBy lender: AnyObject, memory: UnsafeMutableRawPointer, stride: Int, screen: (width: Int, height: Int),
    width: Int, height: Int, offset: (dx: Int, dy: Int) = (0, 0)
  ) {
    precondition(
      width > 0 && height > 0 && width <= 16384 && height <= 16384, "canvas size \(width)x\(height) is out of range")
    precondition(
      screen.width > 0 && screen.height > 0 && stride >= screen.width, "a screen page of \(screen) rows \(stride) apart"
    )
    precondition(Int(bitPattern: memory) % MemoryLayout<UInt32>.alignment == 0, "lent pixels are not 4-byte aligned")
    self.width = width
    self.height = height
    self.stride = stride
    let count = stride * (screen.height - 1) + screen.width
    self.storage = PixelStorage(lent: memory.bindMemory(to: UInt32.self, capacity: count), count: count, lender: lender)
    self.origin = offset.dy * stride + offset.dx
    self.drawable = IRect(x: 0, y: 0, width: width, height: height).intersection(
      IRect(x: -offset.dx, y: -offset.dy, width: screen.width, height: screen.height))
    self.clip = drawable
  }

  /// Whether this canvas draws into `memory`, lent by a display (its pixel (0, 0), or where that
  /// would be, is `memory`'s first pixel moved by the canvas's offset).
  public func isLent(_ memory: UnsafeRawPointer) -> Bool {
    storage.isLent && UnsafeRawPointer(storage.base) == memory
  }

  /// Whether this canvas draws into memory a display lent it.
  public var isLent: Bool { storage.isLent }

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

  /// Restricts drawing to `rect` (within the drawable part of the canvas).
  public mutating func setClip(_ rect: IRect) { clip = rect.intersection(drawable) }

  /// Draws with the clip narrowed to `rect`, then restores it.
  public mutating func withClip(_ rect: IRect, _ body: (inout Canvas) -> Void) {
    let saved = clip
    clip = clip.intersection(rect)
    body(&self)
    clip = saved
  }

  // MARK: Pixels

  /// Runs `body` with the pixels: pixel (x, y) at `y × stride + x`. The whole canvas must be
  /// drawable (every owned canvas is).
  public func withUnsafePixels<R, E: Error>(_ body: (UnsafeBufferPointer<UInt32>) throws(E) -> R) throws(E) -> R {
    precondition(drawable == bounds, "a canvas lent past its screen's edge has no pixels there")
    return try body(UnsafeBufferPointer(start: storage.base + origin, count: storage.count - origin))
  }

  /// Runs `body` with the pixels to change: pixel (x, y) at `y × stride + x`. The whole canvas
  /// must be drawable. A shared owned canvas is copied first.
  public mutating func withUnsafeMutablePixels<R, E: Error>(
    _ body: (UnsafeMutableBufferPointer<UInt32>) throws(E) -> R
  ) throws(E) -> R {
    precondition(drawable == bounds, "a canvas lent past its screen's edge has no pixels there")
    makeUnique()
    return try body(UnsafeMutableBufferPointer(start: storage.base + origin, count: storage.count - origin))
  }

  /// Runs `body` with all the memory and the index in it of pixel (0, 0), for drawing within
  /// `drawable`: pixel (x, y) at `origin + y × stride + x`. A shared owned canvas is copied first.
  @inline(__always)
  mutating func withDrawablePixels<R>(_ body: (UnsafeMutableBufferPointer<UInt32>, _ origin: Int) -> R) -> R {
    makeUnique()
    return body(UnsafeMutableBufferPointer(start: storage.base, count: storage.count), origin)
  }

  /// Runs `body` with all the memory and the index in it of pixel (0, 0), for reading within
  /// `drawable`: pixel (x, y) at `origin + y × stride + x`.
  @inline(__always)
  func withDrawablePixels<R>(_ body: (UnsafeBufferPointer<UInt32>, _ origin: Int) -> R) -> R {
    body(UnsafeBufferPointer(start: storage.base, count: storage.count), origin)
  }

  @inline(__always)
  private mutating func makeUnique() {
    if !storage.isLent && !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
  }

  /// The pixels row by row, `stride` apart (a copy): for comparing canvases in tests.
  public var pixels: [UInt32] {
    if drawable == bounds && origin == 0 && storage.count == stride * height {
      return Array(UnsafeBufferPointer(start: storage.base, count: storage.count))
    }
    var out = [UInt32](repeating: 0, count: stride * height)
    let d = drawable
    for y in d.y..<d.maxY {
      for x in d.x..<d.maxX { out[y * stride + x] = storage.base[origin + y * stride + x] }
    }
    return out
  }

  /// The packed pixel (`0xAARRGGBB`) at (x, y), which must be drawable; set as it is, unblended.
  public subscript(x x: Int, y y: Int) -> UInt32 {
    get {
      precondition(drawable.contains(x, y), "pixel (\(x), \(y)) is outside \(drawable) of \(width)x\(height)")
      return storage.base[origin + y * stride + x]
    }
    set {
      precondition(drawable.contains(x, y), "pixel (\(x), \(y)) is outside \(drawable) of \(width)x\(height)")
      makeUnique()
      storage.base[origin + y * stride + x] = newValue
    }
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
    return Canvas.unpack(self[x: x, y: y])
  }

  /// Fills the clip area's intersection with `rect` with an opaque colour (no blending).
  public mutating func fill(_ rect: IRect, _ color: RGBA) {
    let r = rect.intersection(clip)
    guard !r.isEmpty else { return }
    let p = Canvas.pack(color.opaque)
    let s = stride
    withDrawablePixels { buf, o in
      for y in r.y..<r.maxY {
        (buf.baseAddress! + o + y * s + r.x).update(repeating: p, count: r.width)
      }
    }
  }

  /// Copies `rect` (clipped to both canvases' drawable parts) of `source` to the same place on
  /// this canvas, unblended.
  public mutating func copy(_ rect: IRect, from source: Canvas) {
    let r = rect.intersection(drawable).intersection(source.drawable)
    guard !r.isEmpty else { return }
    let (s, ss) = (stride, source.stride)
    source.withDrawablePixels { src, so in
      withDrawablePixels { dst, o in
        for y in r.y..<r.maxY {
          let from: UnsafePointer<UInt32> = src.baseAddress! + (so + y * ss + r.x)
          let to: UnsafeMutablePointer<UInt32> = dst.baseAddress! + (o + y * s + r.x)
          to.update(from: from, count: r.width)
        }
      }
    }
  }

  /// Blends `color` at (x, y) with `coverage` (0…255) times its alpha. Clipped.
  @inline(__always)
  public mutating func blend(_ x: Int, _ y: Int, _ color: RGBA, coverage: UInt8 = 255) {
    guard x >= clip.x, x < clip.maxX, y >= clip.y, y < clip.maxY else { return }
    let a = (UInt32(color.a) * UInt32(coverage) + 127) / 255
    guard a > 0 else { return }
    makeUnique()
    let p = storage.base + origin + y * stride + x
    p.pointee = Canvas.blendPixel(p.pointee, color, alpha: a)
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
    withDrawablePixels { buf, o in
      for py in y0..<y1 {
        let mrow = (py - y) * maskStride - x
        let row = o + py * s
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
