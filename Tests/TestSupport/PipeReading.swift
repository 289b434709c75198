public import Foundation

extension Pipe {
  /// What a child process wrote to this pipe, read until `enough` holds or `seconds` pass (or the
  /// writer closes it): for tests of the real binary's output.
  public func read(seconds: Double, until enough: (String) -> Bool) -> String {
    let fd = fileHandleForReading.fileDescriptor
    var text = ""
    let end = Date().addingTimeInterval(seconds)
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while Date() < end, !enough(text) {
      var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      guard poll(&p, 1, 100) > 0 else { continue }
      let n = buffer.withUnsafeMutableBytes { Foundation.read(fd, $0.baseAddress, $0.count) }
      if n <= 0 { break }
      text += String(decoding: buffer[0..<n], as: UTF8.self)
    }
    return text
  }
}
