import Clock
import Displays
import Foundation
import TestSupport
import Testing

@testable import Runtime
@testable import WallboardCLI

#if canImport(Glibc)
  import Glibc
#endif

/// Issue 9, item 13, through the command: `--out` and `png:` onto something that is not a
/// regular file are refused before anything is drawn; onto a link, written through.
@Suite("Output paths")
struct OutputPathTests {
  func isFIFO(_ path: String) -> Bool {
    var st = stat()
    return lstat(path, &st) == 0 && st.st_mode & S_IFMT == S_IFIFO
  }

  @Test func snapshotOntoAFIFOIsAUsageError() throws {
    let dir = try TempDir()
    let fifo = dir.url.appendingPathComponent("board.png").path
    #expect(mkfifo(fifo, 0o600) == 0)
    let r = Captured.run(["snapshot", "--size", "320x200", "--out", fifo])
    #expect(r.code == 2, "\(r.err)")
    #expect(r.err.contains("--out: \(fifo) is a FIFO, not a regular file"), "\(r.err)")
    #expect(isFIFO(fifo))
  }

  @Test func snapshotOntoADirectoryIsAUsageError() throws {
    let dir = try TempDir()
    let r = Captured.run(["snapshot", "--size", "320x200", "--out", dir.url.path])
    #expect(r.code == 2, "\(r.err)")
    #expect(r.err.contains("is a directory"), "\(r.err)")
  }

  @Test func snapshotOntoALinkWritesTheFileItLeadsTo() throws {
    let dir = try TempDir()
    let target = dir.url.appendingPathComponent("real.png").path
    let link = dir.url.appendingPathComponent("board.png").path
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "real.png")
    let r = Captured.run(["snapshot", "--size", "320x200", "--out", link])
    #expect(r.code == 0, "\(r.err)")
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "real.png", "the link is kept")
    let bytes = try Data(contentsOf: URL(fileURLWithPath: target))
    #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]), "real.png is the PNG")
  }

  @Test func aPNGDisplayOntoAFIFOIsAUsageError() throws {
    let dir = try TempDir()
    let fifo = dir.url.appendingPathComponent("live.png").path
    #expect(mkfifo(fifo, 0o600) == 0)
    let o = try ArgumentParser.parse(["--display", "png:\(fifo)"])
    let error = #expect(throws: CLIError.self) {
      _ = try o.openDisplay(environment: [:], console: Captured().console, clock: .system)
    }
    guard case .display(let e) = error else {
      Issue.record("\(String(describing: error))")
      return
    }
    #expect(e.kind == .usage && error?.exitCode == 2)
    #expect(e.message.hasPrefix("--display png:: \(fifo) is a FIFO"), "\(e.message)")
    #expect(isFIFO(fifo))
  }
}
