import PNG
import Raster
import Testing

@Suite("PNG round trips")
struct RoundTripTests {
  /// A canvas of deterministic noise (SplitMix64).
  static func noise(width: Int, height: Int, stride: Int? = nil, seed: UInt64) -> Canvas {
    var c = Canvas(width: width, height: height, stride: stride)
    var state = seed
    for y in 0..<height {
      for x in 0..<width {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        // Mix noise with smooth gradients so every filter type gets chosen somewhere.
        let smooth = y % 3 == 0
        c[x: x, y: y] =
          smooth
          ? Canvas.pack(RGBA(r: UInt8(x & 255), g: UInt8(y & 255), b: UInt8((x + y) & 255)))
          : 0xFF00_0000 | UInt32(truncatingIfNeeded: z) & 0xFF_FFFF
      }
    }
    return c
  }

  @Test(
    "encode then decode gives the same pixels",
    arguments: [(1, 1), (1, 9), (9, 1), (3, 7), (17, 5), (64, 64), (255, 3), (300, 41)])
  func roundTrip(width: Int, height: Int) throws {
    let c = Self.noise(width: width, height: height, seed: UInt64(width * 1000 + height))
    let decoded = try PNG.decode(PNG.encode(c))
    #expect(decoded.width == width && decoded.height == height)
    #expect(decoded.pixels == c.pixels)
  }

  @Test func paddedStrideIsNotEncoded() throws {
    let c = Self.noise(width: 13, height: 6, stride: 20, seed: 7)
    let decoded = try PNG.decode(PNG.encode(c))
    #expect(decoded.stride == 13)
    for y in 0..<6 {
      for x in 0..<13 { #expect(decoded.pixel(x, y) == c.pixel(x, y)) }
    }
  }
}
