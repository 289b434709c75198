import Raster
import Testing

@Suite("Rotating the whole board")
struct RotateTests {
  @Test(arguments: [0, 90, 180, 270])
  func cornersGoWhereTheyShould(degrees: Int) {
    var c = Canvas(width: 4, height: 2, stride: 6, background: RGBA(r: 0, g: 0, b: 0))
    let red = RGBA(r: 255, g: 0, b: 0)
    c.fill(IRect(x: 0, y: 0, width: 1, height: 1), red)  // top-left
    let r = c.rotated(degrees: degrees)
    #expect((r.width, r.height) == (degrees % 180 == 0 ? (4, 2) : (2, 4)))
    let expected: (Int, Int)
    switch degrees {
    case 90: expected = (1, 0)  // top-left goes top-right
    case 180: expected = (3, 1)
    case 270: expected = (0, 3)
    default: expected = (0, 0)
    }
    #expect(r.pixel(expected.0, expected.1) == red)
  }
}
