public import Raster

/// How a device pixel is laid out: its size and where each channel's bits sit, as described by
/// the `red`, `green`, `blue` and `transp` bitfields of `struct fb_var_screeninfo`.
///
/// Pixels are 16, 24 or 32 bits, stored in the machine's byte order (little-endian on every
/// machine this runs on: a 24-bit pixel with blue at offset 0 is the bytes B, G, R; a 24-bit
/// pixel is written lowest byte first).
///
/// **Narrow channels are truncated, not rounded**: an 8-bit canvas value `v` becomes
/// `v >> (8 - length)` (RGB565 keeps `r >> 3`, `g >> 2`, `b >> 3`). That is what every
/// framebuffer writer does, it is exact to test, and rounding would need a clamp at the top.
/// Channels wider than 8 bits (up to 16) are widened by repeating the value's bits, so 255 stays
/// full scale. A `transp` channel is written fully opaque.
public struct PixelFormat: Equatable, Sendable {
  /// Bits per pixel: 16, 24 or 32.
  public let bitsPerPixel: Int
  public let red: Bitfield
  public let green: Bitfield
  public let blue: Bitfield
  /// The alpha channel; length 0 when there is none.
  public let transp: Bitfield

  /// The conversion `convert` uses.
  enum Path: Equatable {
    /// 32-bit with red at 16, green at 8, blue at 0: canvas pixels copied as they are.
    case xrgb8888
    /// 16-bit with red 5 bits at 11, green 6 at 5, blue 5 at 0.
    case rgb565
    /// Any other layout, channel by channel.
    case generic
  }

  let path: Path

  /// A format from its bitfields; throws the reason when this display cannot write it.
  public init(
    bitsPerPixel: Int, red: Bitfield, green: Bitfield, blue: Bitfield, transp: Bitfield = Bitfield(offset: 0, length: 0)
  ) throws(FormatProblem) {
    guard [16, 24, 32].contains(bitsPerPixel) else {
      throw FormatProblem(reason: "\(bitsPerPixel) bits per pixel (16, 24 and 32 are supported)")
    }
    for (name, field) in [("red", red), ("green", green), ("blue", blue), ("transp", transp)] {
      let optional = name == "transp"
      guard field.length > 0 || optional else { throw FormatProblem(reason: "no \(name) channel") }
      guard field.length <= 16 else { throw FormatProblem(reason: "\(name) is \(field.length) bits wide") }
      guard field.length == 0 || (field.offset >= 0 && field.offset + field.length <= bitsPerPixel) else {
        throw FormatProblem(reason: "\(name) at bits \(field.offset)+\(field.length) of a \(bitsPerPixel)-bit pixel")
      }
      guard !field.msbRight || field.length == 0 else { throw FormatProblem(reason: "\(name) has msb_right set") }
    }
    self.bitsPerPixel = bitsPerPixel
    self.red = red
    self.green = green
    self.blue = blue
    self.transp = transp
    let is8 = { (f: Bitfield, o: Int) in f.offset == o && f.length == 8 }
    let noAlphaOr24 = transp.length == 0 || is8(transp, 24)
    if bitsPerPixel == 32 && is8(red, 16) && is8(green, 8) && is8(blue, 0) && noAlphaOr24 {
      path = .xrgb8888
    } else if bitsPerPixel == 16 && red == Bitfield(offset: 11, length: 5) && green == Bitfield(offset: 5, length: 6)
      && blue == Bitfield(offset: 0, length: 5) && transp.length == 0
    {
      path = .rgb565
    } else {
      path = .generic
    }
  }

  /// The format a device reports in its variable screen info.
  public init(_ info: VarScreenInfo) throws(FormatProblem) {
    try self.init(
      bitsPerPixel: info.bitsPerPixel, red: info.red, green: info.green, blue: info.blue, transp: info.transp)
  }

  /// Why a layout cannot be written.
  public struct FormatProblem: Error, Equatable, Sendable {
    public let reason: String
  }

  /// Bytes per pixel: 2, 3 or 4.
  public var bytesPerPixel: Int { bitsPerPixel / 8 }

  /// 32-bit XRGB8888 (blue in the lowest byte).
  public static let xrgb8888 = try! PixelFormat(
    bitsPerPixel: 32, red: Bitfield(offset: 16, length: 8), green: Bitfield(offset: 8, length: 8),
    blue: Bitfield(offset: 0, length: 8))
  /// 24-bit with the bytes B, G, R.
  public static let bgr888 = try! PixelFormat(
    bitsPerPixel: 24, red: Bitfield(offset: 16, length: 8), green: Bitfield(offset: 8, length: 8),
    blue: Bitfield(offset: 0, length: 8))
  /// 16-bit RGB565.
  public static let rgb565 = try! PixelFormat(
    bitsPerPixel: 16, red: Bitfield(offset: 11, length: 5), green: Bitfield(offset: 5, length: 6),
    blue: Bitfield(offset: 0, length: 5))

  /// Converts one row of canvas pixels (`0xAARRGGBB`) into device pixels at the start of `into`,
  /// which must hold `row.count × bytesPerPixel` bytes (it may be unaligned).
  public func convert(row: UnsafeBufferPointer<UInt32>, into: UnsafeMutableRawBufferPointer) {
    let n = row.count
    precondition(into.count >= n * bytesPerPixel, "a row of \(n) pixels needs \(n * bytesPerPixel) bytes")
    guard n > 0, let src = row.baseAddress, let dst = into.baseAddress else { return }
    switch path {
    case .xrgb8888:
      dst.copyMemory(from: src, byteCount: n * 4)
    case .rgb565:
      for i in 0..<n {
        let p = src[i]
        let v = UInt16(truncatingIfNeeded: (p >> 8) & 0xF800 | (p >> 5) & 0x07E0 | (p >> 3) & 0x001F)
        dst.storeBytes(of: v, toByteOffset: i * 2, as: UInt16.self)
      }
    case .generic:
      convertGeneric(src, dst, n)
    }
  }

  /// Any layout: each channel placed by its bitfield, stored in the machine's byte order.
  private func convertGeneric(_ src: UnsafePointer<UInt32>, _ dst: UnsafeMutableRawPointer, _ n: Int) {
    let alpha = transp.length == 0 ? UInt32(0) : ((UInt32(1) << transp.length) - 1) << transp.offset
    let (r, g, b) = (red, green, blue)
    for i in 0..<n {
      let p = src[i]
      let v =
        alpha | PixelFormat.place((p >> 16) & 0xFF, r) | PixelFormat.place((p >> 8) & 0xFF, g)
        | PixelFormat.place(p & 0xFF, b)
      switch bitsPerPixel {
      case 32: dst.storeBytes(of: v, toByteOffset: i * 4, as: UInt32.self)
      case 16: dst.storeBytes(of: UInt16(truncatingIfNeeded: v), toByteOffset: i * 2, as: UInt16.self)
      default:
        dst.storeBytes(of: UInt8(truncatingIfNeeded: v), toByteOffset: i * 3, as: UInt8.self)
        dst.storeBytes(of: UInt8(truncatingIfNeeded: v >> 8), toByteOffset: i * 3 + 1, as: UInt8.self)
        dst.storeBytes(of: UInt8(truncatingIfNeeded: v >> 16), toByteOffset: i * 3 + 2, as: UInt8.self)
      }
    }
  }

  /// An 8-bit channel value scaled to `field.length` bits (truncated, or widened by bit
  /// repetition) and moved to `field.offset`.
  @inline(__always)
  static func place(_ c: UInt32, _ field: Bitfield) -> UInt32 {
    let l = field.length
    let scaled = l <= 8 ? c >> (8 - l) : (c << (l - 8)) | (c >> (16 - l))
    return scaled << field.offset
  }
}

extension PixelFormat {
  /// Converts the marked screen rows (`rows[y]`) of the first `w` columns of `canvas` into
  /// device memory at `base`, `lineLength` bytes a row: screen pixel (x, y) is the canvas's
  /// (x − dx, y − dy), or `edge`'s colour (`w` packed pixels) where that is off the canvas.
  /// The framebuffer and the DRM display share it.
  public func write(
    _ canvas: Canvas, rows: [Bool], width w: Int, into base: UnsafeMutableRawPointer, lineLength: Int,
    offset: (dx: Int, dy: Int), edge: [UInt32]
  ) {
    guard w > 0 else { return }
    let bpp = bytesPerPixel
    let (dx, dy) = offset
    // The screen columns that show canvas pixels; the rest of a row is edge.
    let x0 = min(w, max(0, dx))
    let x1 = max(x0, min(w, canvas.width + dx))
    canvas.withUnsafePixels { pixels in
      edge.withUnsafeBufferPointer { edge in
        for y in rows.indices where rows[y] {
          let line = base + y * lineLength
          func put(_ from: UnsafeBufferPointer<UInt32>, at x: Int) {
            guard !from.isEmpty else { return }
            convert(row: from, into: UnsafeMutableRawBufferPointer(start: line + x * bpp, count: from.count * bpp))
          }
          let sy = y - dy
          guard sy >= 0 && sy < canvas.height else {
            put(UnsafeBufferPointer(rebasing: edge[0..<w]), at: 0)
            continue
          }
          put(UnsafeBufferPointer(rebasing: edge[0..<x0]), at: 0)
          let start = sy * canvas.stride + x0 - dx
          put(UnsafeBufferPointer(rebasing: pixels[start..<start + (x1 - x0)]), at: x0)
          put(UnsafeBufferPointer(rebasing: edge[x1..<w]), at: x1)
        }
      }
    }
  }
}
