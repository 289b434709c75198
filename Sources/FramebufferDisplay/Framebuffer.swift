internal import Raster

/// A Linux framebuffer device (`/dev/fbN`), or a file standing in for one, mapped into memory
/// and shown `Canvas` frames with `present(_:dirty:)`: frames drawn into its own pages
/// (`drawingBuffer`) where its pixels are the canvas's, else converted from the caller's canvas.
///
/// **Lifetime.** Owns the file descriptor and the mapping: `deinit` unmaps (`munmap`) and closes.
/// The mapped memory never leaves this object.
///
/// **Threads.** Not `Sendable`: open it, present on it and let it go on one thread.
///
/// **Double buffering.** When the device's virtual height holds two visible screens
/// (`yres_virtual ≥ 2 × yres`), frames are drawn into the hidden page and shown with
/// `FBIOPAN_DISPLAY`, after `FBIO_WAITFORVSYNC` where the driver has it. Otherwise frames are
/// drawn into the visible screen, copying only the rows the dirty rectangles touch (or, drawn
/// in place, copying nothing).
public final class Framebuffer {
  let syscalls: FramebufferSyscalls
  /// The device or file, for error messages.
  public let path: String
  let fd: Int32
  let memory: UnsafeMutableRawPointer
  let mappedLength: Int
  /// The device's pixel layout.
  public let format: PixelFormat
  /// Visible pixels across and down.
  let width: Int
  let height: Int
  /// Bytes from one row to the next (`line_length`).
  let lineLength: Int
  /// The byte offset of the visible (single-buffered) or first (double-buffered) page.
  let baseOffset: Int
  /// The device's variable screen info, changed by each pan; `nil` for a file (no ioctls).
  var varInfo: VarScreenInfo?
  /// Whether frames are drawn into a hidden page and panned to. Turns off for good when a pan
  /// fails.
  public internal(set) var isDoubleBuffered: Bool
  /// The page on screen (0 or 1; always 0 when single-buffered).
  var visiblePage = 0
  /// Which rows each page needs.
  var pages = PageRows(pages: 2)
  /// Whether to try `FBIO_WAITFORVSYNC`; off after it fails with `ENOTTY` or `EINVAL`.
  public internal(set) var waitsForVSync: Bool
  /// Which frame each page holds, for frames drawn in place (`drawingBuffer`).
  var lent = LentPages(pages: 2)
  /// The page lent for the frame being drawn.
  var lentPage: Int?
  /// Bytes written into the pages: frames converted in, and pages brought up to date for a
  /// frame drawn in place (for tests: a frame drawn in place copies only what changed).
  public internal(set) var copiedBytes = 0

  init(
    syscalls: FramebufferSyscalls, path: String, fd: Int32, memory: UnsafeMutableRawPointer, mappedLength: Int,
    format: PixelFormat, width: Int, height: Int, lineLength: Int, baseOffset: Int, varInfo: VarScreenInfo?,
    doubleBuffered: Bool
  ) {
    self.syscalls = syscalls
    self.path = path
    self.fd = fd
    self.memory = memory
    self.mappedLength = mappedLength
    self.format = format
    self.width = width
    self.height = height
    self.lineLength = lineLength
    self.baseOffset = baseOffset
    self.varInfo = varInfo
    self.isDoubleBuffered = doubleBuffered
    self.waitsForVSync = varInfo != nil
    if doubleBuffered, let varInfo, varInfo.yoffset >= varInfo.yres { visiblePage = 1 }
  }

  deinit {
    syscalls.unmap(memory, mappedLength)
    syscalls.close(fd)
  }

  /// The visible size in pixels (`xres` × `yres`, or the file's geometry).
  public var size: (width: Int, height: Int) { (width, height) }

  /// Opens a framebuffer device, reads its geometry (`FBIOGET_VSCREENINFO`,
  /// `FBIOGET_FSCREENINFO`) and maps its memory.
  ///
  /// - Parameters:
  ///   - device: the device node.
  ///   - requestSecondPage: when the virtual height holds one screen but the memory holds two,
  ///     ask the driver for `yres_virtual = 2 × yres` (`FBIOPUT_VSCREENINFO`) to double-buffer.
  ///     Off by default: on some drivers a put is a mode set that flickers. A refusal is not an
  ///     error.
  ///   - syscalls: the kernel, or a fake.
  public static func open(
    device: String = "/dev/fb0", requestSecondPage: Bool = false, syscalls: FramebufferSyscalls = .live
  ) throws(FramebufferError) -> Framebuffer {
    let fd = try call(device, "open") { () throws(SyscallFailure) in try syscalls.open(device, false) }
    var opened = false
    defer { if !opened { syscalls.close(fd) } }
    var info = try call(device, "FBIOGET_VSCREENINFO") { () throws(SyscallFailure) in try syscalls.getVarInfo(fd) }
    var fix = try call(device, "FBIOGET_FSCREENINFO") { () throws(SyscallFailure) in try syscalls.getFixInfo(fd) }
    if requestSecondPage && info.yresVirtual < 2 * info.yres && fix.lineLength * 2 * info.yres <= fix.memoryLength {
      var wanted = info
      wanted.yresVirtual = 2 * info.yres
      wanted.yoffset = 0
      if (try? syscalls.putVarInfo(fd, wanted)) != nil {
        info = try call(device, "FBIOGET_VSCREENINFO") { () throws(SyscallFailure) in try syscalls.getVarInfo(fd) }
        fix = try call(device, "FBIOGET_FSCREENINFO") { () throws(SyscallFailure) in try syscalls.getFixInfo(fd) }
      }
    }
    let format: PixelFormat
    do { format = try PixelFormat(info) } catch { throw .unsupportedFormat(path: device, reason: error.reason) }
    let bpp = format.bytesPerPixel
    let lineLength = fix.lineLength > 0 ? fix.lineLength : info.xresVirtual * bpp
    guard info.xres > 0, info.yres > 0, lineLength >= (info.xoffset + info.xres) * bpp else {
      throw .unsupportedFormat(
        path: device, reason: "\(info.xres)x\(info.yres) at x \(info.xoffset) in rows of \(lineLength) bytes")
    }
    let pageBytes = lineLength * info.yres
    let doubleBuffered = info.yresVirtual >= 2 * info.yres && 2 * pageBytes <= fix.memoryLength
    let baseOffset = doubleBuffered ? info.xoffset * bpp : info.yoffset * lineLength + info.xoffset * bpp
    let needed = doubleBuffered ? 2 * pageBytes : baseOffset - info.xoffset * bpp + pageBytes
    guard needed <= fix.memoryLength else {
      throw .tooSmall(path: device, needed: needed, available: fix.memoryLength)
    }
    let memory = try call(device, "mmap") { () throws(SyscallFailure) in try syscalls.map(fd, needed) }
    opened = true
    return Framebuffer(
      syscalls: syscalls, path: device, fd: fd, memory: memory, mappedLength: needed, format: format,
      width: info.xres, height: info.yres, lineLength: lineLength, baseOffset: baseOffset, varInfo: info,
      doubleBuffered: doubleBuffered)
  }

  /// Opens a plain file standing in for a device (`--fb-geometry WxHxBPP`), with no framebuffer
  /// ioctls: rows are packed (`width × bpp / 8` bytes) and single-buffered; 32 bpp is XRGB8888,
  /// 24 is BGR888 (the bytes B, G, R) and 16 is RGB565, all little-endian.
  ///
  /// The file is created when missing and extended (`ftruncate`, never shrunk) when it is a
  /// regular file smaller than `width × height × bpp / 8` bytes, so a fresh path works. Anything
  /// else (a device node) is used as it is: its size is unknown without ioctls, and `mmap`
  /// fails if the geometry asks for more than it has.
  public static func open(
    file: String, geometry: (width: Int, height: Int, bpp: Int), syscalls: FramebufferSyscalls = .live
  ) throws(FramebufferError) -> Framebuffer {
    precondition(
      geometry.width > 0 && geometry.height > 0 && geometry.width <= 16384 && geometry.height <= 16384,
      "framebuffer geometry \(geometry.width)x\(geometry.height) is out of range")
    let format: PixelFormat
    switch geometry.bpp {
    case 32: format = .xrgb8888
    case 24: format = .bgr888
    case 16: format = .rgb565
    default:
      throw .unsupportedFormat(path: file, reason: "\(geometry.bpp) bits per pixel (32, 24 or 16 for a file)")
    }
    let lineLength = geometry.width * format.bytesPerPixel
    let needed = lineLength * geometry.height
    let fd = try call(file, "open") { () throws(SyscallFailure) in try syscalls.open(file, true) }
    var opened = false
    defer { if !opened { syscalls.close(fd) } }
    let status = try call(file, "fstat") { () throws(SyscallFailure) in try syscalls.fileStatus(fd) }
    if status.isRegular && status.size < needed {
      try call(file, "ftruncate") { () throws(SyscallFailure) in try syscalls.truncate(fd, needed) }
    }
    let memory = try call(file, "mmap") { () throws(SyscallFailure) in try syscalls.map(fd, needed) }
    opened = true
    return Framebuffer(
      syscalls: syscalls, path: file, fd: fd, memory: memory, mappedLength: needed, format: format,
      width: geometry.width, height: geometry.height, lineLength: lineLength, baseOffset: 0, varInfo: nil,
      doubleBuffered: false)
  }

  /// Blanks the screen for the night (`FBIOBLANK` with `FB_BLANK_POWERDOWN`) or shows it again
  /// (`FB_BLANK_UNBLANK`). Does nothing on a file.
  public func blank(_ on: Bool) throws(FramebufferError) {
    guard varInfo != nil else { return }
    try Framebuffer.call(path, "FBIOBLANK") { () throws(SyscallFailure) in
      try syscalls.blank(fd, on ? .powerdown : .unblank)
    }
  }

  /// Runs a syscall, turning its failure into a `FramebufferError` naming `path` and `name`.
  static func call<T>(
    _ path: String, _ name: String, _ body: () throws(SyscallFailure) -> T
  ) throws(FramebufferError)
    -> T
  {
    do { return try body() } catch { throw error.on(path, name) }
  }
}
