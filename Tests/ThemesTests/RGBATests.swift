import Raster
import Testing

@Suite("RGBA")
struct RGBATests {
  @Test("every tsv colour round-trips through init?(hex:) and hex")
  func tsvRoundTrip() throws {
    let rows = try Fixtures.tsvRows()
    var count = 0
    for row in rows {
      for (column, value) in row where value.hasPrefix("#") {
        let color = try #require(RGBA(hex: value), "\(row["id"] ?? "?") \(column) \(value)")
        #expect(color.hex == value, "\(row["id"] ?? "?") \(column)")
        count += 1
      }
    }
    #expect(count == rows.count * 11)
  }

  @Test func parsesChannels() throws {
    #expect(RGBA(hex: "#0a0d14") == RGBA(r: 0x0a, g: 0x0d, b: 0x14, a: 255))
    #expect(RGBA(hex: "#3a4a7080") == RGBA(r: 0x3a, g: 0x4a, b: 0x70, a: 0x80))
    #expect(RGBA(hex: "#ABCdef") == RGBA(r: 0xab, g: 0xcd, b: 0xef))
    #expect(RGBA(hex: "#ABCDEF12")?.hex == "#abcdef12")
  }

  @Test("an opaque #rrggbbaa writes back as #rrggbb")
  func opaqueAlphaCollapses() {
    #expect(RGBA(hex: "#112233ff")?.hex == "#112233")
    #expect(RGBA(r: 1, g: 2, b: 3, a: 0).hex == "#01020300")
  }

  @Test(arguments: [
    "", "#", "123456", "#12345", "#1234567", "#123456789", "#gg0000", "#12345g", " #123456",
    "#123456 ", "#+12345", "#-12345", "##123456", "0x123456", "#１２３４５６",
  ])
  func rejects(_ text: String) {
    #expect(RGBA(hex: text) == nil)
  }

  @Test func hexRoundTripsEveryChannelValue() {
    for v in 0...255 {
      let value = UInt8(v)
      let color = RGBA(r: value, g: 255 - value, b: value / 2, a: value)
      #expect(RGBA(hex: color.hex) == color)
    }
  }

  @Test func overKnownValues() {
    let black = RGBA(r: 0, g: 0, b: 0)
    let white = RGBA(r: 255, g: 255, b: 255)
    #expect(RGBA(r: 255, g: 255, b: 255, a: 128).over(black) == RGBA(r: 128, g: 128, b: 128))
    #expect(RGBA(r: 255, g: 255, b: 255, a: 127).over(black) == RGBA(r: 127, g: 127, b: 127))
    #expect(RGBA(r: 10, g: 20, b: 30, a: 0).over(white) == white)
    #expect(RGBA(r: 10, g: 20, b: 30).over(white) == RGBA(r: 10, g: 20, b: 30))
    // orchestra's bgSelection #3a4a7080 on its bg #0a0d14.
    #expect(RGBA(hex: "#3a4a7080")!.over(RGBA(hex: "#0a0d14")!) == RGBA(hex: "#222c42"))
  }

  @Test("over rounds every channel to the nearest integer")
  func overRounding() {
    for alpha in 0...255 {
      for source in stride(from: 0, through: 255, by: 5) {
        for destination in stride(from: 0, through: 255, by: 17) {
          let exact =
            (Double(source) * Double(alpha) + Double(destination) * Double(255 - alpha)) / 255
          let result = RGBA(r: UInt8(source), g: 0, b: 0, a: UInt8(alpha))
            .over(RGBA(r: UInt8(destination), g: 0, b: 0))
          if Double(result.r) != exact.rounded() {
            Issue.record(
              "src \(source) dst \(destination) alpha \(alpha): \(result.r), want \(exact)")
            return
          }
        }
      }
    }
  }

  @Test func luminance() {
    #expect(RGBA(r: 0, g: 0, b: 0).relativeLuminance == 0)
    #expect(abs(RGBA(r: 255, g: 255, b: 255).relativeLuminance - 1) < 1e-12)
    #expect(abs(RGBA(r: 255, g: 0, b: 0).relativeLuminance - 0.2126) < 1e-12)
  }

  @Test func contrastKnownValues() throws {
    let black = RGBA(r: 0, g: 0, b: 0)
    let white = RGBA(r: 255, g: 255, b: 255)
    #expect(abs(RGBA.contrastRatio(black, white) - 21) < 1e-9)
    #expect(abs(RGBA.contrastRatio(white, black) - 21) < 1e-9)
    let orchestraBg = try #require(RGBA(hex: "#0a0d14"))
    #expect(RGBA.contrastRatio(orchestraBg, orchestraBg) == 1)
    // #767676 is the lightest grey that passes AA on white (4.54:1); #777777 fails (4.48:1).
    let passing = RGBA.contrastRatio(try #require(RGBA(hex: "#767676")), white)
    let failing = RGBA.contrastRatio(try #require(RGBA(hex: "#777777")), white)
    #expect(abs(passing - 4.5422) < 0.0001)
    #expect(abs(failing - 4.4781) < 0.0001)
    #expect(abs(RGBA.contrastRatio(try #require(RGBA(hex: "#0366d6")), white) - 5.4188) < 0.0001)
  }
}
