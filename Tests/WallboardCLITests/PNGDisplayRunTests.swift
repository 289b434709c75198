import Foundation
import PNG
import TestSupport
import Testing

/// `--display png:PATH` on a busy board: a whole file at most once a second, each one whole.
@Suite("A png: display on a busy board", .serialized)
struct PNGDisplayRunTests {
  @Test func aBusyBoardWritesAtMostOneFileASecond() throws {
    let dir = try TempDir("wallboard-png-display")
    let out = dir.url.appendingPathComponent("board.png").path
    let p = Process()
    p.executableURL = Paths.binary
    p.arguments = [
      "run", "--source", "jsonl:-", "--display", "png:\(out)", "--size", "640x360", "--tz", "UTC", "--no-journal",
    ]
    p.environment = ["WALLBOARD_HOME": Paths.repoRoot.path, "PATH": "/usr/bin:/bin"]
    // A board gone early is a failed write and an expectation, not a SIGPIPE for the tests.
    signal(SIGPIPE, SIG_IGN)
    let input = Pipe()
    p.standardInput = input
    p.standardError = FileHandle.nullDevice
    try p.run()
    defer { if p.isRunning { p.terminate() } }
    // 200 status changes a second, each one a change the board draws; the file's inode
    // changes with every write (a new file renamed over the old one), looked at every 5 ms.
    let feeding = Feeding()
    let writer = Thread {
      for n in 0..<100_000 where feeding.on {
        let line =
          #"{"topic":"feature.\#(n < 20 ? "created" : "updated")","seq":\#(n + 1),"payload":{"id":"F\#(n % 20)","status":"\#(["todo", "in-progress", "done"][n / 20 % 3])"}}"#
          + "\n"
        // The throwing write: a board gone early is a failed expectation below, not a trap here.
        guard (try? input.fileHandleForWriting.write(contentsOf: Data(line.utf8))) != nil else { return }
        Thread.sleep(forTimeInterval: 0.005)
      }
    }
    writer.start()
    // The first file (a debug or sanitizer build starts slowly), then four seconds of writes.
    var inode: UInt64 = 0
    let started = Date()
    while inode == 0 && Date().timeIntervalSince(started) < 60 {
      Thread.sleep(forTimeInterval: 0.005)
      var st = stat()
      if stat(out, &st) == 0 { inode = UInt64(st.st_ino) }
    }
    try #require(inode != 0, "the board was written")
    var writes = 0
    let start = Date()
    while Date().timeIntervalSince(start) < 4 {
      Thread.sleep(forTimeInterval: 0.005)
      var st = stat()
      if stat(out, &st) == 0 && UInt64(st.st_ino) != inode {
        inode = UInt64(st.st_ino)
        writes += 1
      }
    }
    let seconds = Date().timeIntervalSince(start)
    #expect(writes >= 1, "the busy board was written again")
    // At most one write a second, and one more for the second the count began in.
    #expect(writes <= Int(seconds) + 1, "\(writes) files in \(seconds) s")
    let board = try PNG.read(path: out)
    #expect(board.width == 640 && board.height == 360)
    // The feed ends before the board is stopped.
    feeding.stop()
    let fed = Date()
    while !writer.isFinished && Date().timeIntervalSince(fed) < 10 { Thread.sleep(forTimeInterval: 0.01) }
    p.terminate()
    Deadline.wait(for: p, timeout: 30)
    #expect(p.terminationReason == .exit && p.terminationStatus == 0)
  }
}

/// Whether the feed goes on: the test stops it before it stops the board.
final class Feeding: @unchecked Sendable {
  private let lock = NSLock()
  private var going = true
  var on: Bool { lock.withLock { going } }
  func stop() { lock.withLock { going = false } }
}
