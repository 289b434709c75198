/// A failed syscall: the `errno` it left.
public struct SyscallFailure: Error, Equatable, Sendable {
  /// The `errno` value, e.g. `ENOTTY`.
  public var errno: Int32

  public init(errno: Int32) { self.errno = errno }
}

/// How far to blank the screen (`FB_BLANK_*`), for `FBIOBLANK`.
public enum BlankLevel: Int32, Sendable {
  /// `FB_BLANK_UNBLANK`: the screen shows the picture.
  case unblank = 0
  /// `FB_BLANK_NORMAL`: the picture is hidden, the monitor stays on.
  case normal = 1
  /// `FB_BLANK_POWERDOWN`: the monitor is powered down (DPMS off).
  case powerdown = 4
}

/// The seam between the framebuffer display and the kernel: every syscall `Framebuffer` and
/// `ConsoleGuard` make goes through one of these closures.
///
/// `live` calls the kernel (Glibc and the ioctl helpers of `CFramebuffer`); tests build a fake
/// device instead (memory standing in for the mapping, programmable geometry, a log of calls,
/// injected failures). A closure throws `SyscallFailure` with the `errno` of the failed call.
///
/// `setConsoleMode` and `write` are C function pointers, not closures, because the console's
/// restore runs in signal handlers (`ConsoleGuard.restoreActiveConsole()`): a signal handler can
/// capture nothing and may only do async-signal-safe work, so these pointers and plain fds are
/// kept in global state.
public struct FramebufferSyscalls: Sendable {
  /// `open(path, O_RDWR | O_CLOEXEC | O_NOCTTY [| O_CREAT], 0644)`: a file descriptor.
  public var open: @Sendable (_ path: String, _ create: Bool) throws(SyscallFailure) -> Int32
  /// `close(fd)`.
  public var close: @Sendable (_ fd: Int32) -> Void
  /// `ioctl(fd, FBIOGET_VSCREENINFO)`.
  public var getVarInfo: @Sendable (_ fd: Int32) throws(SyscallFailure) -> VarScreenInfo
  /// `ioctl(fd, FBIOPUT_VSCREENINFO)`: the driver's answer is read back with `getVarInfo`.
  public var putVarInfo: @Sendable (_ fd: Int32, _ info: VarScreenInfo) throws(SyscallFailure) -> Void
  /// `ioctl(fd, FBIOGET_FSCREENINFO)`.
  public var getFixInfo: @Sendable (_ fd: Int32) throws(SyscallFailure) -> FixScreenInfo
  /// `ioctl(fd, FBIOPAN_DISPLAY)` with `info`'s `xoffset` and `yoffset`.
  public var panDisplay: @Sendable (_ fd: Int32, _ info: VarScreenInfo) throws(SyscallFailure) -> Void
  /// `ioctl(fd, FBIO_WAITFORVSYNC)` on CRTC 0.
  public var waitForVSync: @Sendable (_ fd: Int32) throws(SyscallFailure) -> Void
  /// `ioctl(fd, FBIOBLANK, level)`.
  public var blank: @Sendable (_ fd: Int32, _ level: BlankLevel) throws(SyscallFailure) -> Void
  /// `ioctl(fd, KDGETMODE)`: the console's mode, `KD_TEXT` (0) or `KD_GRAPHICS` (1).
  public var getConsoleMode: @Sendable (_ fd: Int32) throws(SyscallFailure) -> Int32
  /// `ioctl(fd, KDSETMODE, mode)`: 0 or -1 with `errno` set. Must be async-signal-safe.
  public var setConsoleMode: @convention(c) (_ fd: Int32, _ mode: Int32) -> Int32
  /// `write(fd, bytes, count)`: the count written or -1 with `errno` set. Must be
  /// async-signal-safe.
  public var write: @convention(c) (_ fd: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int
  /// `fstat(fd)`: the file's size in bytes and whether it is a regular file.
  public var fileStatus: @Sendable (_ fd: Int32) throws(SyscallFailure) -> (size: Int, isRegular: Bool)
  /// `ftruncate(fd, size)`.
  public var truncate: @Sendable (_ fd: Int32, _ size: Int) throws(SyscallFailure) -> Void
  /// `mmap(nil, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)`.
  public var map: @Sendable (_ fd: Int32, _ length: Int) throws(SyscallFailure) -> UnsafeMutableRawPointer
  /// `munmap(address, length)`.
  public var unmap: @Sendable (_ address: UnsafeMutableRawPointer, _ length: Int) -> Void

  public init(
    open: @escaping @Sendable (String, Bool) throws(SyscallFailure) -> Int32,
    close: @escaping @Sendable (Int32) -> Void,
    getVarInfo: @escaping @Sendable (Int32) throws(SyscallFailure) -> VarScreenInfo,
    putVarInfo: @escaping @Sendable (Int32, VarScreenInfo) throws(SyscallFailure) -> Void,
    getFixInfo: @escaping @Sendable (Int32) throws(SyscallFailure) -> FixScreenInfo,
    panDisplay: @escaping @Sendable (Int32, VarScreenInfo) throws(SyscallFailure) -> Void,
    waitForVSync: @escaping @Sendable (Int32) throws(SyscallFailure) -> Void,
    blank: @escaping @Sendable (Int32, BlankLevel) throws(SyscallFailure) -> Void,
    getConsoleMode: @escaping @Sendable (Int32) throws(SyscallFailure) -> Int32,
    setConsoleMode: @convention(c) (Int32, Int32) -> Int32,
    write: @convention(c) (Int32, UnsafeRawPointer?, Int) -> Int,
    fileStatus: @escaping @Sendable (Int32) throws(SyscallFailure) -> (size: Int, isRegular: Bool),
    truncate: @escaping @Sendable (Int32, Int) throws(SyscallFailure) -> Void,
    map: @escaping @Sendable (Int32, Int) throws(SyscallFailure) -> UnsafeMutableRawPointer,
    unmap: @escaping @Sendable (UnsafeMutableRawPointer, Int) -> Void
  ) {
    self.open = open
    self.close = close
    self.getVarInfo = getVarInfo
    self.putVarInfo = putVarInfo
    self.getFixInfo = getFixInfo
    self.panDisplay = panDisplay
    self.waitForVSync = waitForVSync
    self.blank = blank
    self.getConsoleMode = getConsoleMode
    self.setConsoleMode = setConsoleMode
    self.write = write
    self.fileStatus = fileStatus
    self.truncate = truncate
    self.map = map
    self.unmap = unmap
  }
}
