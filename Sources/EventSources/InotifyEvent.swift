/// One `struct inotify_event` as the kernel lays it out: `wd`, `mask`, `cookie`, `len` (four
/// 32-bit words in the machine's byte order) and `len` bytes of name, padded with NULs.
struct InotifyEvent: Hashable, Sendable {
  var wd: Int32
  var mask: UInt32
  /// The entry's name for an event on a folder's entry; empty for one on the watched inode.
  var name: String

  /// The header's size: `sizeof(struct inotify_event)`.
  static let headerSize = 16
  /// The longest name field accepted (`NAME_MAX` + 1, rounded up as the kernel pads it).
  static let maxNameField = 256 + 16

  /// The events in `bytes`, and whether the bytes ended in something that is not a whole event
  /// (a length past the end or past `maxNameField`): then events may have been lost, as on an
  /// overflow, and the watcher treats it as one.
  static func parse(_ bytes: UnsafeRawBufferPointer) -> (events: [InotifyEvent], malformed: Bool) {
    var out: [InotifyEvent] = []
    var at = 0
    while at < bytes.count {
      guard bytes.count - at >= headerSize else { return (out, true) }
      let wd = bytes.loadUnaligned(fromByteOffset: at, as: Int32.self)
      let mask = bytes.loadUnaligned(fromByteOffset: at + 4, as: UInt32.self)
      let len = Int(bytes.loadUnaligned(fromByteOffset: at + 12, as: UInt32.self))
      guard len <= maxNameField, bytes.count - at - headerSize >= len else { return (out, true) }
      let field = UnsafeRawBufferPointer(rebasing: bytes[(at + headerSize)..<(at + headerSize + len)])
      let name = String(decoding: field.prefix { $0 != 0 }, as: UTF8.self)
      out.append(InotifyEvent(wd: wd, mask: mask, name: name))
      at += headerSize + len
    }
    return (out, false)
  }

  /// The event as the kernel would write it (the name NUL-padded to a multiple of 16 bytes):
  /// what a fake seam hands the watcher.
  var bytes: [UInt8] {
    var out: [UInt8] = []
    func word<T: FixedWidthInteger>(_ v: T) { withUnsafeBytes(of: v) { out += $0 } }
    let nameBytes = Array(name.utf8)
    let len = nameBytes.isEmpty ? 0 : (nameBytes.count / 16 + 1) * 16
    word(wd)
    word(mask)
    word(UInt32(0))
    word(UInt32(len))
    out += nameBytes + [UInt8](repeating: 0, count: len - nameBytes.count)
    return out
  }
}
