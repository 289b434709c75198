import FramebufferDisplay
import Glibc

/// An in-memory framebuffer behind a fake `FramebufferSyscalls`: programmable geometry, a byte
/// buffer standing in for the mapped memory, a log of calls and injectable failures.
///
/// `@unchecked Sendable`: the seam's closures must be `Sendable`, but each test drives its own
/// device from one task.
final class FakeDevice: @unchecked Sendable {
  var varInfo: VarScreenInfo
  var fixInfo: FixScreenInfo
  /// The device's memory (`smem_len` bytes), what `map` returns.
  let memory: UnsafeMutableRawBufferPointer
  /// Every call, in order: `"FBIOPAN_DISPLAY y=480"`, `"FBIO_WAITFORVSYNC"`, `"close 3"`…
  var log: [String] = []
  /// Calls that fail, by the first word of their log entry, with the errno to give.
  var failures: [String: Int32] = [:]
  /// Whether `FBIOPUT_VSCREENINFO` takes the new info (else it fails with `EINVAL`).
  var acceptsPut = true
  let fd: Int32 = 3

  init(_ varInfo: VarScreenInfo, lineLength: Int, memoryLength: Int? = nil) {
    self.varInfo = varInfo
    let length = memoryLength ?? lineLength * varInfo.yresVirtual
    self.fixInfo = FixScreenInfo(lineLength: lineLength, memoryLength: length)
    memory = .allocate(byteCount: max(length, 1), alignment: 16)
    memory.initializeMemory(as: UInt8.self, repeating: 0)
  }

  deinit { memory.deallocate() }

  /// Logs `entry` and throws the injected failure for its first word, if any.
  func record(_ entry: String) throws(SyscallFailure) {
    log.append(entry)
    let name = String(entry.split(separator: " ").first ?? "")
    if let code = failures[name] { throw SyscallFailure(errno: code) }
  }

  /// The log's entries whose first word is one of `names`.
  func calls(_ names: String...) -> [String] {
    log.filter { names.contains(String($0.split(separator: " ").first ?? "")) }
  }

  /// Sets every byte of the memory to `byte`.
  func poison(_ byte: UInt8 = 0xA5) { memory.initializeMemory(as: UInt8.self, repeating: byte) }

  /// The seam, talking to this device. The console calls go to `FakeConsole`.
  var syscalls: FramebufferSyscalls {
    FramebufferSyscalls(
      open: { (path, create) throws(SyscallFailure) -> Int32 in
        try self.record("open \(path)\(create ? " create" : "")")
        return self.fd
      },
      close: { fd in self.log.append("close \(fd)") },
      getVarInfo: { (_) throws(SyscallFailure) -> VarScreenInfo in
        try self.record("FBIOGET_VSCREENINFO")
        return self.varInfo
      },
      putVarInfo: { (_, info) throws(SyscallFailure) in
        try self.record("FBIOPUT_VSCREENINFO yres_virtual=\(info.yresVirtual)")
        guard self.acceptsPut else { throw SyscallFailure(errno: EINVAL) }
        self.varInfo = info
      },
      getFixInfo: { (_) throws(SyscallFailure) -> FixScreenInfo in
        try self.record("FBIOGET_FSCREENINFO")
        return self.fixInfo
      },
      panDisplay: { (_, info) throws(SyscallFailure) in
        try self.record("FBIOPAN_DISPLAY y=\(info.yoffset)")
        self.varInfo.xoffset = info.xoffset
        self.varInfo.yoffset = info.yoffset
      },
      waitForVSync: { (_) throws(SyscallFailure) in try self.record("FBIO_WAITFORVSYNC") },
      blank: { (_, level) throws(SyscallFailure) in try self.record("FBIOBLANK \(level.rawValue)") },
      getConsoleMode: { (_) throws(SyscallFailure) -> Int32 in try FakeConsole.getMode() },
      setConsoleMode: FakeConsole.setMode,
      write: FakeConsole.write,
      fileStatus: { (_) throws(SyscallFailure) -> (size: Int, isRegular: Bool) in
        try self.record("fstat")
        return (self.fixInfo.memoryLength, false)
      },
      truncate: { (_, size) throws(SyscallFailure) in try self.record("ftruncate \(size)") },
      map: { (_, length) throws(SyscallFailure) -> UnsafeMutableRawPointer in
        try self.record("mmap \(length)")
        precondition(length <= self.memory.count, "mapped \(length) bytes of a \(self.memory.count)-byte device")
        return self.memory.baseAddress!
      },
      unmap: { _, length in self.log.append("munmap \(length)") }
    )
  }

  /// The bytes of row `y` of the virtual screen (`line_length` bytes).
  func row(_ y: Int) -> UnsafeMutableRawBufferPointer {
    UnsafeMutableRawBufferPointer(rebasing: memory[y * fixInfo.lineLength..<(y + 1) * fixInfo.lineLength])
  }
}
