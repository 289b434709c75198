import Codec
import EventSources
import SourceKit
import Testing
import WallboardCore

/// A file's time becomes a feature's `updatedAt`: it must stay within what every reader of the
/// board (the journal's decoder among them) accepts.
@Suite struct FileStampRangeTests {
  @Test(arguments: [Int64.min / 2, -1_000_000_000_000, -1, 0, 1_700_000_000_000_000_000, Int64.max])
  func aFilesTimeStaysWithinTheYears1970To9999(mtime: Int64) throws {
    let t = FileStamp(device: 1, inode: 1, size: 1, mtime: mtime).modified
    #expect(t.millis >= 0 && t.millis <= Instant.lastMillisecond)
    var f = Feature(id: "F-1", title: "A", status: "todo")
    f.updatedAt = t
    let input = BoardInput.event(Event(origin: "md", time: t, body: .featureCreated(f)))
    #expect(try BoardCodec.decodeInput(BoardCodec.encode(input)) == input)
  }
}
