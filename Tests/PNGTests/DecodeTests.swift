import Raster
import Testing

@testable import PNG

@Suite("PNG decoding")
struct DecodeTests {
  /// A PNG built by hand: IHDR fields, raw (already filtered) scanlines, extra chunks.
  static func png(
    width: Int, height: Int, colorType: UInt8 = 2, depth: UInt8 = 8, interlace: UInt8 = 0, raw: [UInt8],
    idatSplit: Int? = nil, before: [(String, [UInt8])] = []
  ) -> [UInt8] {
    var out = PNG.signature
    var header: [UInt8] = []
    header.appendBigEndian(UInt32(width))
    header.appendBigEndian(UInt32(height))
    header += [depth, colorType, 0, 0, interlace]
    out.appendChunk("IHDR", header)
    for (type, data) in before { out.appendChunk(type, data) }
    let z = Zlib.compress(raw, level: 6)
    if let split = idatSplit, split < z.count {
      out.appendChunk("IDAT", Array(z[..<split]))
      out.appendChunk("IDAT", Array(z[split...]))
    } else {
      out.appendChunk("IDAT", z)
    }
    out.appendChunk("IEND", [])
    return out
  }

  static func error(_ bytes: [UInt8]) -> PNGError? {
    do {
      _ = try PNG.decode(bytes)
      return nil
    } catch {
      return error
    }
  }

  static let small = PNG.encode(RoundTripTests.noise(width: 7, height: 5, seed: 3))

  /// The reference filter: `row` (above it `prior`) filtered with `type` (0–4) into `out`, byte by
  /// byte as the PNG specification writes it (Paeth through `Filter.paeth`, tested on its own).
  static func filter(_ type: UInt8, _ row: [UInt8], _ prior: [UInt8], into out: inout [UInt8], bpp: Int = 3) {
    row.withUnsafeBufferPointer { r in
      prior.withUnsafeBufferPointer { p in
        out.withUnsafeMutableBufferPointer { o in
          for i in 0..<r.count {
            let a = i >= bpp ? r[i &- bpp] : 0
            let c = i >= bpp ? p[i &- bpp] : 0
            let predicted: UInt8
            switch type {
            case 1: predicted = a
            case 2: predicted = p[i]
            case 3: predicted = UInt8((UInt16(a) + UInt16(p[i])) / 2)
            case 4: predicted = Filter.paeth(a, p[i], c)
            default: predicted = 0
            }
            o[i] = r[i] &- predicted
          }
        }
      }
    }
  }

  @Test("every filter type decodes", arguments: [UInt8(0), 1, 2, 3, 4])
  func filterTypes(filter: UInt8) throws {
    let c = RoundTripTests.noise(width: 9, height: 4, seed: UInt64(filter))
    var raw: [UInt8] = []
    var prior = [UInt8](repeating: 0, count: 27)
    var out = [UInt8](repeating: 0, count: 27)
    for y in 0..<4 {
      let row = (0..<9).flatMap { x -> [UInt8] in
        let p = c.pixel(x, y); return [p.r, p.g, p.b]
      }
      Self.filter(filter, row, prior, into: &out)
      raw += [filter] + out
      prior = row
    }
    let decoded = try PNG.decode(Self.png(width: 9, height: 4, raw: raw, idatSplit: 5))
    #expect(decoded.pixels == c.pixels)
  }

  @Test func rgbaIsCompositedOverBlack() throws {
    let raw: [UInt8] = [0, 255, 128, 10, 255, 255, 255, 255, 0, 200, 100, 50, 128]
    let c = try PNG.decode(Self.png(width: 3, height: 1, colorType: 6, raw: raw))
    #expect(c.pixel(0, 0) == RGBA(r: 255, g: 128, b: 10))
    #expect(c.pixel(1, 0) == RGBA(r: 0, g: 0, b: 0))
    #expect(c.pixel(2, 0) == RGBA(r: 100, g: 50, b: 25))  // ×128/255, rounded
  }

  @Test func ancillaryChunksAreSkipped() throws {
    let raw: [UInt8] = [0, 1, 2, 3]
    let c = try PNG.decode(Self.png(width: 1, height: 1, raw: raw, before: [("tEXt", Array("a\0b".utf8))]))
    #expect(c.pixel(0, 0) == RGBA(r: 1, g: 2, b: 3))
  }

  @Test func badSignature() {
    var bytes = Self.small
    bytes[1] = UInt8(ascii: "Q")
    #expect(Self.error(bytes)?.kind == .signature)
    #expect(Self.error([])?.kind == .signature)
  }

  @Test func badCRC() {
    var bytes = Self.small
    bytes[bytes.count - 20] ^= 0x40  // inside the IDAT data
    let e = Self.error(bytes)
    #expect(e?.kind == .crc)
    #expect(e?.message.contains("IDAT") == true)
  }

  @Test func everyTruncationIsRejected() {
    let bytes = Self.small
    for n in 0..<bytes.count {
      let e = Self.error(Array(bytes[..<n]))
      #expect(e != nil, "accepted the first \(n) of \(bytes.count) bytes")
      #expect(e?.kind == (n < 8 ? .signature : .truncated), "at \(n): \(String(describing: e))")
    }
  }

  @Test(
    "oversize dimensions are rejected from the header",
    arguments: [(16385, 1), (1, 16385), (16384, 16384), (10000, 10000), (0x7FFF_FFFF, 0x7FFF_FFFF)])
  func oversize(width: Int, height: Int) {
    // Tiny IDAT: the header alone must be refused, before anything of that size is allocated.
    let e = Self.error(Self.png(width: width, height: height, raw: [0, 0, 0, 0]))
    #expect(e?.kind == .tooLarge)
    #expect(e?.message.contains("\(width)x\(height)") == true)
  }

  @Test func tooLittleDataForTheSizeIsRejectedBeforeInflating() {
    // 8000 × 8000 is allowed, but 30 bytes of deflate cannot hold 192 MB: refused up front.
    let e = Self.error(Self.png(width: 8000, height: 8000, raw: [0, 0, 0, 0]))
    #expect(e?.kind == .data)
    #expect(e?.message.contains("cannot hold") == true)
  }

  @Test func decompressionBombIsBounded() {
    // A 4 × 4 header over 64 MiB of zeros: inflation stops at the 52 bytes the image needs.
    let bomb = [UInt8](repeating: 0, count: 64 << 20)
    let e = Self.error(Self.png(width: 4, height: 4, raw: bomb))
    #expect(e?.kind == .data)
    #expect(e?.message.contains("more than the expected 52 bytes") == true)
  }

  @Test func shortImageData() {
    let e = Self.error(Self.png(width: 4, height: 4, raw: [UInt8](repeating: 0, count: 30)))
    #expect(e?.kind == .data)
  }

  @Test func unknownFilterType() {
    let raw: [UInt8] = [0, 1, 2, 3, 5, 4, 5, 6]
    let e = Self.error(Self.png(width: 1, height: 2, raw: raw))
    #expect(e?.kind == .filter)
    #expect(e?.description == "PNG: row 1 has unknown filter type 5")
  }

  @Test(
    "unsupported header fields",
    arguments: [(UInt8(2), UInt8(16), UInt8(0)), (3, 8, 0), (0, 8, 0), (4, 8, 0), (2, 8, 1)])
  func unsupportedHeader(colorType: UInt8, depth: UInt8, interlace: UInt8) {
    let e = Self.error(
      Self.png(width: 1, height: 1, colorType: colorType, depth: depth, interlace: interlace, raw: [0, 0, 0, 0]))
    #expect(e?.kind == .header)
  }

  @Test func chunkOrder() {
    // An unknown critical chunk, IDATs that are not consecutive, no IEND.
    #expect(Self.error(Self.png(width: 1, height: 1, raw: [0, 1, 2, 3], before: [("ABCD", [])]))?.kind == .chunk)
    var split = Self.png(width: 1, height: 1, raw: [0, 1, 2, 3], idatSplit: 4)
    let secondIDAT = split.count - 12 - 12 - (Zlib.compress([0, 1, 2, 3], level: 6).count - 4)
    var text: [UInt8] = []
    text.appendChunk("tEXt", Array("k\0v".utf8))
    split.insert(contentsOf: text, at: secondIDAT)
    #expect(Self.error(split)?.message.contains("not consecutive") == true)
    #expect(Self.error(Array(Self.small.dropLast(12)))?.kind == .truncated)
  }

  @Test func errorsDescribeThemselves() {
    #expect(PNGError(.crc, "x").description == "PNG: x")
  }
}
