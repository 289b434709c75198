import Foundation
import PNG
import Raster
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Issue 9, item 13: writing a PNG (write-then-rename) replaced a symbolic link, a FIFO or a
/// device node with a regular file — as root, `--out /dev/null` would have replaced the node.
/// Links are written through (atomically, next to the file they lead to); anything that is not
/// a regular file is refused.
@Suite("PNG output targets")
struct OutputTargetTests {
  let canvas = RoundTripTests.noise(width: 9, height: 5, seed: 4)

  func kind(_ path: String) -> FileAttributeType? {
    (try? FileManager.default.attributesOfItem(atPath: path))?[.type] as? FileAttributeType
  }

  @Test func aSymlinkIsWrittenThroughAndStaysALink() throws {
    let dir = try FileTests.folder()
    defer { try? FileManager.default.removeItem(at: dir) }
    let elsewhere = dir.appendingPathComponent("elsewhere")
    try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
    let target = elsewhere.appendingPathComponent("board.png").path
    try PNG.write(Canvas(width: 2, height: 2), to: target)
    chmod(target, 0o640)
    let link = dir.appendingPathComponent("link.png").path
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "elsewhere/board.png")

    try PNG.write(canvas, to: link)
    #expect(kind(link) == .typeSymbolicLink, "the link is still a link")
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "elsewhere/board.png")
    #expect(try PNG.read(path: target).pixels == canvas.pixels, "the file it leads to has the new frame")
    #expect((try FileManager.default.attributesOfItem(atPath: target)[.posixPermissions] as? Int) == 0o640)
    #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path) == ["board.png"], "no temporary left")
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["elsewhere", "link.png"])
  }

  @Test func aChainOfLinksAndADanglingLinkLeadToTheirFile() throws {
    let dir = try FileTests.folder()
    defer { try? FileManager.default.removeItem(at: dir) }
    let first = dir.appendingPathComponent("first.png").path
    let second = dir.appendingPathComponent("second.png").path
    try FileManager.default.createSymbolicLink(atPath: first, withDestinationPath: "second.png")
    try FileManager.default.createSymbolicLink(
      atPath: second, withDestinationPath: dir.appendingPathComponent("new.png").path)
    #expect(try PNG.writeTarget(for: first) == dir.appendingPathComponent("new.png").path)
    try PNG.write(canvas, to: first)
    #expect(kind(first) == .typeSymbolicLink && kind(second) == .typeSymbolicLink)
    #expect(try PNG.read(path: dir.appendingPathComponent("new.png").path).pixels == canvas.pixels)
  }

  @Test func aLoopOfLinksIsAnError() throws {
    let dir = try FileTests.folder()
    defer { try? FileManager.default.removeItem(at: dir) }
    let a = dir.appendingPathComponent("a.png").path
    try FileManager.default.createSymbolicLink(atPath: a, withDestinationPath: "b.png")
    try FileManager.default.createSymbolicLink(
      atPath: dir.appendingPathComponent("b.png").path, withDestinationPath: "a.png")
    let error = try #require(throws: PNGError.self) { try PNG.write(canvas, to: a) }
    #expect(error.message.contains("too many levels of symbolic links"))
  }

  @Test func aFIFOIsRefusedAndLeftAsItWas() throws {
    let dir = try FileTests.folder()
    defer { try? FileManager.default.removeItem(at: dir) }
    let fifo = dir.appendingPathComponent("pipe.png").path
    #expect(mkfifo(fifo, 0o600) == 0)
    let error = try #require(throws: PNGError.self) { try PNG.write(canvas, to: fifo) }
    #expect(error.kind == .notRegularFile)
    #expect(error.message.contains(fifo) && error.message.contains("a FIFO"), "\(error)")
    #expect(isFIFO(fifo), "the FIFO is still a FIFO")
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["pipe.png"], "no temporary left")
  }

  /// A link to a device node (`/dev/null`, which the test only looks at) is refused: the
  /// node is never opened and the link stays.
  @Test func aLinkToADeviceNodeIsRefused() throws {
    let dir = try FileTests.folder()
    defer { try? FileManager.default.removeItem(at: dir) }
    let link = dir.appendingPathComponent("null.png").path
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/dev/null")
    let error = try #require(throws: PNGError.self) { try PNG.write(canvas, to: link) }
    #expect(error.kind == .notRegularFile)
    #expect(error.message.contains("/dev/null") && error.message.contains("a character device"), "\(error)")
    #expect(kind(link) == .typeSymbolicLink)
  }

  @Test func aDirectoryIsRefused() throws {
    let dir = try FileTests.folder()
    defer { try? FileManager.default.removeItem(at: dir) }
    let sub = dir.appendingPathComponent("frames.png")
    try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
    let error = try #require(throws: PNGError.self) { try PNG.write(canvas, to: sub.path) }
    #expect(error.kind == .notRegularFile && error.message.contains("a directory"), "\(error)")
    #expect(kind(sub.path) == .typeDirectory)
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["frames.png"])
  }

  func isFIFO(_ path: String) -> Bool {
    var st = stat()
    return lstat(path, &st) == 0 && st.st_mode & S_IFMT == S_IFIFO
  }
}
