import FramebufferDisplay
import Glibc
import Raster
import Testing

/// A fresh path in a new temporary directory.
func temporaryPath(_ name: String) -> String {
  var template = Array("/tmp/wallboard-fb-XXXXXX".utf8CString)
  let dir = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
  return dir + "/" + name
}

/// Removes a file made under `temporaryPath`, and its directory.
func removeTemporary(_ path: String) {
  unlink(path)
  if let slash = path.lastIndex(of: "/") { rmdir(String(path[..<slash])) }
}

/// The whole content of the file at `path`.
func readFile(_ path: String) -> [UInt8] {
  let fd = open(path, O_RDONLY)
  guard fd >= 0 else { return [] }
  defer { close(fd) }
  var bytes: [UInt8] = []
  var chunk = [UInt8](repeating: 0, count: 65536)
  while true {
    let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
    if n <= 0 { break }
    bytes += chunk[..<n]
  }
  return bytes
}

@Suite("A file standing in for the device")
struct FileFramebufferTests {
  /// Decodes a pixel of the file per cli.md: 32 = XRGB8888, 24 = BGR888 (bytes B, G, R),
  /// 16 = RGB565, little-endian. Returns 8-bit-aligned channels truncated like the format.
  static func decode(_ bytes: ArraySlice<UInt8>, bpp: Int) -> (UInt32, UInt32, UInt32) {
    let b = Array(bytes)
    switch bpp {
    case 32, 24: return (UInt32(b[2]), UInt32(b[1]), UInt32(b[0]))
    default:
      let v = UInt32(b[0]) | UInt32(b[1]) << 8
      return (v >> 11, (v >> 5) & 0x3F, v & 0x1F)
    }
  }

  @Test("present writes the frame into the file, read back pixel-exact", arguments: [32, 24, 16])
  func endToEnd(_ bpp: Int) throws {
    let path = temporaryPath("fb\(bpp).raw")
    defer { removeTemporary(path) }
    let (w, h) = (300, 260)
    do {
      let fb = try Framebuffer.open(file: path, geometry: (w, h, bpp))
      #expect(fb.size == (w, h))
      let canvas = TestPixels.gradient(width: w, height: h)
      fb.present(canvas, dirty: [canvas.bounds])
    }
    let bytes = readFile(path)
    let size = bpp / 8
    #expect(bytes.count == w * h * size)
    try #require(bytes.count == w * h * size)
    let shift: (UInt32, UInt32, UInt32) = bpp == 16 ? (3, 2, 3) : (0, 0, 0)
    let canvas = TestPixels.gradient(width: w, height: h)
    var bad: String?
    outer: for y in 0..<h {
      for x in 0..<w {
        let at = (y * w + x) * size
        let got = Self.decode(bytes[at..<at + size], bpp: bpp)
        let c = canvas[x: x, y: y]
        let want = ((c >> 16 & 0xFF) >> shift.0, (c >> 8 & 0xFF) >> shift.1, (c & 0xFF) >> shift.2)
        if got != want {
          bad = "(\(x), \(y)): got \(got), want \(want)"
          break outer
        }
      }
    }
    #expect(bad == nil)
    if bpp == 32 {
      #expect(Array(bytes[0..<4]) == [0xFF, 0x00, 0x00, 0xFF])  // (0, 0): r 0, g 0, b 255, X
    }
  }

  @Test("a smaller regular file is extended, a larger one kept")
  func extendsSmallFile() throws {
    let path = temporaryPath("small.raw")
    defer { removeTemporary(path) }
    let fd = open(path, O_CREAT | O_WRONLY, 0o644)
    #expect(ftruncate(fd, 10) == 0)
    close(fd)
    do {
      let fb = try Framebuffer.open(file: path, geometry: (16, 4, 16))
      var canvas = Canvas(width: 16, height: 4)
      canvas.fill(IRect(x: 0, y: 3, width: 16, height: 1), RGBA(r: 255, g: 255, b: 255))
      fb.present(canvas, dirty: [canvas.bounds])
    }
    let bytes = readFile(path)
    #expect(bytes.count == 16 * 4 * 2)
    #expect(bytes.suffix(32).allSatisfy { $0 == 0xFF } && bytes.prefix(96).allSatisfy { $0 == 0 })

    _ = try Framebuffer.open(file: path, geometry: (4, 4, 16))
    #expect(readFile(path).count == 16 * 4 * 2)
  }

  @Test("a file in a missing directory names the file and the call")
  func missingDirectory() {
    #expect(throws: FramebufferError.callFailed(path: "/nonexistent/fb.raw", call: "open", errno: ENOENT)) {
      try Framebuffer.open(file: "/nonexistent/fb.raw", geometry: (4, 4, 32))
    }
  }
}
