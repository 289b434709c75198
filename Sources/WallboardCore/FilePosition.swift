/// Where a followed file (`jsonl:PATH`) was read to, and which file that was: what a board
/// restored from its journal hands the source back so that it resumes there (see
/// `docs/journal.md`, "What resumes").
///
/// The source says it (`BoardInput.fileRead`) when it opens the file (at its top, or where it
/// resumed) and after it has read on; the board keeps the last one with the number of lines read
/// from the file since (`OriginState.linesPastFile`). Both come through the reducer from the
/// journaled inputs themselves, so a restored board's position always agrees with the lines it
/// holds, however the process ended: the source resumes at `offset` and passes over the lines the
/// board already counted past it.
public struct FilePosition: Hashable, Sendable {
  /// The file's identity (`st_dev`, `st_ino`): another file at the path is read from its top.
  public var device: UInt64
  public var inode: UInt64
  /// The byte after the last complete line read: where the next line starts.
  public var offset: Int64
  /// Lines (blank ones included) before `offset`: the numbering of the next one's messages.
  public var line: Int
  /// The FNV-1a hash of the file's first `min(offset, FilePosition.sample)` bytes, and of the
  /// last as many before `offset`: a file written anew in place (same inode) fails them.
  public var head: UInt64
  public var tail: UInt64

  /// The bytes each hash covers at most.
  public static let sample = 4096

  public init(device: UInt64, inode: UInt64, offset: Int64, line: Int, head: UInt64, tail: UInt64) {
    self.device = device
    self.inode = inode
    self.offset = offset
    self.line = line
    self.head = head
    self.tail = tail
  }

  /// The FNV-1a (64-bit) hash of `bytes`.
  public static func hash(_ bytes: some Sequence<UInt8>) -> UInt64 {
    var h: UInt64 = 0xcbf2_9ce4_8422_2325
    for b in bytes { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01b3 }
    return h
  }
}
