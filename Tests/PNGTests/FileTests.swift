import Foundation
import PNG
import Raster
import Testing

@Suite("PNG files")
struct FileTests {
  static func folder() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "png-tests-\(UInt32.random(in: 0...UInt32.max))")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  @Test func writeThenReadLeavesNoTemporaryFiles() throws {
    let dir = try Self.folder()
    defer { try? FileManager.default.removeItem(at: dir) }
    let c = RoundTripTests.noise(width: 33, height: 17, seed: 9)
    let path = dir.appendingPathComponent("a.png").path
    try PNG.write(c, to: path)
    try PNG.write(c, to: path)  // over an existing file
    #expect(try PNG.read(path: path).pixels == c.pixels)
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["a.png"])
  }

  @Test func errorsNameThePath() throws {
    let dir = try Self.folder()
    defer { try? FileManager.default.removeItem(at: dir) }
    let missing = dir.appendingPathComponent("none/x.png").path
    let writeError = try #require(throws: PNGError.self) { try PNG.write(Canvas(width: 1, height: 1), to: missing) }
    #expect(writeError.kind == .io && writeError.message.contains(dir.path))
    let readError = try #require(throws: PNGError.self) { try PNG.read(path: missing) }
    #expect(readError.kind == .io && readError.message.contains("x.png"))
    let junk = dir.appendingPathComponent("junk.png")
    try Data("not a png".utf8).write(to: junk)
    let junkError = try #require(throws: PNGError.self) { try PNG.read(path: junk.path) }
    #expect(junkError.kind == .signature && junkError.message.hasPrefix(junk.path))
  }
}
