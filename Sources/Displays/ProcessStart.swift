internal import Glibc

/// How long ago this process started, from the kernel's record of it (`/proc/self/stat`'s start
/// time, in clock ticks since boot) and the clock's time since boot (`CLOCK_BOOTTIME`): what the
/// first frame's line reports.
enum ProcessStart {
  /// Seconds since the process started (to a clock tick, 10 ms usually); nil when `/proc` is
  /// not there.
  static func secondsSince(bootNow: Double?) -> Double? {
    let fd = open("/proc/self/stat", O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var bytes = [UInt8](repeating: 0, count: 1024)
    let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
    guard n > 0 else { return nil }
    // The command's name, in parentheses, may hold spaces: the fields after the last ')' count.
    guard let close = bytes[0..<n].lastIndex(of: UInt8(ascii: ")")) else { return nil }
    let fields = bytes[(close + 1)..<n].split(separator: UInt8(ascii: " "))
    // Field 22 of the whole line is the 20th after the name (field 3 is the first).
    guard fields.count > 19, let ticks = Double(String(decoding: fields[19], as: UTF8.self)) else { return nil }
    let hz = Double(sysconf(Int32(_SC_CLK_TCK)))
    guard hz > 0, let bootNow else { return nil }
    return max(0, bootNow - ticks / hz)
  }
}
