import Foundation
import Glyphs
import Testing

@Suite("Font faces")
struct FontFaceTests {
  @Test("the bundled faces load with their names and kerning", arguments: [Weight.regular, .bold])
  func bundledFaces(weight: Weight) throws {
    let renderer = try Fixtures.renderer()
    let face = renderer.face(weight)
    #expect(face.familyName == "DejaVu Sans")
    #expect(face.styleName == (weight == .regular ? "Book" : "Bold"))
    #expect(face.hasKerning)
    #expect(face.hasGlyph(for: "A") && face.hasGlyph(for: "\u{2026}"))
  }

  @Test func aMissingFileIsAnErrorNamingIt() {
    let path = Fixtures.fonts + "/NoSuchFont.ttf"
    #expect(throws: FontError.cannotOpen(file: path, code: 1, reason: "cannot open resource")) {
      try FontFace.load(path: path)
    }
    do {
      _ = try FontFace.load(path: path)
    } catch {
      #expect(error.file == path)
      #expect(error.description.contains(path))
      #expect(error.description.contains("cannot open resource"))
    }
  }

  @Test func aGarbageFileIsAnErrorNamingIt() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("glyphs-garbage-\(getpid()).ttf").path
    try Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }).write(to: URL(fileURLWithPath: path))
    defer { try? FileManager.default.removeItem(atPath: path) }
    #expect(throws: FontError.cannotOpen(file: path, code: 2, reason: "unknown file format")) {
      try FontFace.load(path: path)
    }
  }

  @Test("garbage bytes are an error naming them", arguments: [[], [0, 1, 0, 0], Array("not a font".utf8)])
  func garbageBytes(bytes: [UInt8]) {
    #expect(throws: FontError.self) { try FontFace.load(bytes: bytes, name: "in-memory test font") }
    do {
      _ = try FontFace.load(bytes: bytes, name: "in-memory test font")
    } catch {
      #expect(error.file == "in-memory test font")
    }
  }

  @Test func aMissingFontsDirectoryNamesTheRegularFile() {
    #expect(throws: FontError.cannotOpen(file: "/nonexistent/DejaVuSans.ttf", code: 1, reason: "cannot open resource"))
    {
      try TextRenderer(fontsDirectory: "/nonexistent")
    }
  }

  @Test func aFaceFromBytesMatchesTheFile() throws {
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Fixtures.regularPath)))
    let memory = try FontFace.load(bytes: bytes, name: "DejaVuSans (memory)")
    let file = try FontFace.load(path: Fixtures.regularPath)
    #expect(memory.name == "DejaVuSans (memory)")
    let fromMemory = TextRenderer(regular: memory, bold: memory)
    let fromFile = TextRenderer(regular: file, bold: file)
    for size in [10.0, 23.5, 64] {
      #expect(fromMemory.measure("Wallboard 42%", size: size) == fromFile.measure("Wallboard 42%", size: size))
    }
  }

  @Test("metrics scale with the size", arguments: [8.0, 16, 24.25, 100])
  func metricsScale(size: Double) throws {
    let face = try FontFace.load(path: Fixtures.regularPath)
    let metrics = face.metrics(size: size)
    // DejaVu Sans: 2048 units per em, ascender 1901, descender -483, line height 2384.
    #expect(abs(metrics.ascender - size * 1901 / 2048) < 1e-9)
    #expect(abs(metrics.descender - size * 483 / 2048) < 1e-9)
    #expect(abs(metrics.lineHeight - size * 2384 / 2048) < 1e-9)
  }
}
