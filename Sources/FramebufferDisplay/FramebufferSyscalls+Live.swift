internal import CFramebuffer
internal import Glibc

extension FramebufferSyscalls {
  /// The kernel: Glibc's `open`, `close`, `fstat`, `ftruncate`, `mmap`, `munmap`, `write`, and
  /// the framebuffer and console ioctls through `CFramebuffer`'s `wb_fb_*` and `wb_kd_*` helpers.
  public static let live = FramebufferSyscalls(
    open: { (path, create) throws(SyscallFailure) -> Int32 in
      let flags = O_RDWR | O_CLOEXEC | O_NOCTTY | (create ? O_CREAT : 0)
      let fd = Glibc.open(path, flags, 0o644)
      guard fd >= 0 else { throw SyscallFailure(errno: Glibc.errno) }
      return fd
    },
    close: { fd in _ = Glibc.close(fd) },
    getVarInfo: { (fd) throws(SyscallFailure) -> VarScreenInfo in
      VarScreenInfo(try liveVarInfo(fd))
    },
    putVarInfo: { (fd, info) throws(SyscallFailure) in
      var raw = try liveVarInfo(fd)
      info.copy(into: &raw)
      try check(wb_fb_put_vinfo(fd, &raw))
    },
    getFixInfo: { (fd) throws(SyscallFailure) -> FixScreenInfo in
      var raw = fb_fix_screeninfo()
      try check(wb_fb_get_finfo(fd, &raw))
      return FixScreenInfo(lineLength: Int(raw.line_length), memoryLength: Int(raw.smem_len))
    },
    panDisplay: { (fd, info) throws(SyscallFailure) in
      var raw = try liveVarInfo(fd)
      raw.xoffset = UInt32(info.xoffset)
      raw.yoffset = UInt32(info.yoffset)
      try check(wb_fb_pan_display(fd, &raw))
    },
    waitForVSync: { (fd) throws(SyscallFailure) in try check(wb_fb_wait_for_vsync(fd)) },
    blank: { (fd, level) throws(SyscallFailure) in try check(wb_fb_blank(fd, level.rawValue)) },
    getConsoleMode: { (fd) throws(SyscallFailure) -> Int32 in
      var mode: Int32 = 0
      try check(wb_kd_get_mode(fd, &mode))
      return mode
    },
    setConsoleMode: { fd, mode in wb_kd_set_mode(fd, mode) },
    write: { fd, bytes, count in Glibc.write(fd, bytes, count) },
    fileStatus: { (fd) throws(SyscallFailure) -> (size: Int, isRegular: Bool) in
      var st = stat()
      try check(fstat(fd, &st))
      return (Int(st.st_size), st.st_mode & S_IFMT == S_IFREG)
    },
    truncate: { (fd, size) throws(SyscallFailure) in try check(ftruncate(fd, off_t(size))) },
    map: { (fd, length) throws(SyscallFailure) -> UnsafeMutableRawPointer in
      let address = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)
      guard let address, address != MAP_FAILED else { throw SyscallFailure(errno: Glibc.errno) }
      return address
    },
    unmap: { address, length in _ = munmap(address, length) }
  )
}

/// Throws the current `errno` when a syscall returned -1.
private func check(_ result: Int32) throws(SyscallFailure) {
  if result < 0 { throw SyscallFailure(errno: Glibc.errno) }
}

/// `FBIOGET_VSCREENINFO` into the C struct.
private func liveVarInfo(_ fd: Int32) throws(SyscallFailure) -> fb_var_screeninfo {
  var raw = fb_var_screeninfo()
  try check(wb_fb_get_vinfo(fd, &raw))
  return raw
}

extension Bitfield {
  init(_ raw: fb_bitfield) {
    self.init(offset: Int(raw.offset), length: Int(raw.length), msbRight: raw.msb_right != 0)
  }

  var raw: fb_bitfield {
    fb_bitfield(offset: UInt32(offset), length: UInt32(length), msb_right: msbRight ? 1 : 0)
  }
}

extension VarScreenInfo {
  init(_ raw: fb_var_screeninfo) {
    self.init(
      xres: Int(raw.xres), yres: Int(raw.yres), xresVirtual: Int(raw.xres_virtual),
      yresVirtual: Int(raw.yres_virtual), xoffset: Int(raw.xoffset), yoffset: Int(raw.yoffset),
      bitsPerPixel: Int(raw.bits_per_pixel), red: Bitfield(raw.red), green: Bitfield(raw.green),
      blue: Bitfield(raw.blue), transp: Bitfield(raw.transp))
  }

  /// Writes the modelled fields over `raw`, leaving the others (timings, flags) as they are.
  func copy(into raw: inout fb_var_screeninfo) {
    raw.xres = UInt32(xres)
    raw.yres = UInt32(yres)
    raw.xres_virtual = UInt32(xresVirtual)
    raw.yres_virtual = UInt32(yresVirtual)
    raw.xoffset = UInt32(xoffset)
    raw.yoffset = UInt32(yoffset)
    raw.bits_per_pixel = UInt32(bitsPerPixel)
    raw.red = red.raw
    raw.green = green.raw
    raw.blue = blue.raw
    raw.transp = transp.raw
  }
}
