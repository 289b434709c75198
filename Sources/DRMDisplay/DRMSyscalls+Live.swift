internal import CDRM
internal import Glibc

extension DRMSyscalls {
  /// The kernel, through libdrm (`CDRM`) and Glibc.
  public static let live = DRMSyscalls(
    open: { (path) throws(DRMFailure) -> Int32 in
      let fd = Glibc.open(path, O_RDWR | O_CLOEXEC)
      guard fd >= 0 else { throw DRMFailure(errno: Glibc.errno) }
      return fd
    },
    close: { fd in _ = Glibc.close(fd) },
    resources: { (fd) throws(DRMFailure) -> DRMResources in
      guard let r = drmModeGetResources(fd) else { throw DRMFailure(errno: Glibc.errno) }
      defer { drmModeFreeResources(r) }
      return DRMResources(
        crtcs: ids(r.pointee.crtcs, r.pointee.count_crtcs),
        connectors: ids(r.pointee.connectors, r.pointee.count_connectors),
        encoders: ids(r.pointee.encoders, r.pointee.count_encoders))
    },
    connector: { (fd, id) throws(DRMFailure) -> DRMConnector in
      guard let c = drmModeGetConnector(fd, id) else { throw DRMFailure(errno: Glibc.errno) }
      defer { drmModeFreeConnector(c) }
      let k = c.pointee
      let type = drmModeGetConnectorTypeName(k.connector_type).map { String(cString: $0) } ?? "Unknown"
      let modes = (0..<Int(max(0, k.count_modes))).map { DRMModeInfo(k.modes[$0]) }
      return DRMConnector(
        id: k.connector_id, name: "\(type)-\(k.connector_type_id)", connected: k.connection == DRM_MODE_CONNECTED,
        modes: modes, encoder: k.encoder_id, encoders: ids(k.encoders, k.count_encoders))
    },
    encoder: { (fd, id) throws(DRMFailure) -> DRMEncoder in
      guard let e = drmModeGetEncoder(fd, id) else { throw DRMFailure(errno: Glibc.errno) }
      defer { drmModeFreeEncoder(e) }
      return DRMEncoder(id: e.pointee.encoder_id, crtc: e.pointee.crtc_id, possibleCrtcs: e.pointee.possible_crtcs)
    },
    crtc: { (fd, id) throws(DRMFailure) -> DRMCrtc in
      guard let c = drmModeGetCrtc(fd, id) else { throw DRMFailure(errno: Glibc.errno) }
      defer { drmModeFreeCrtc(c) }
      let k = c.pointee
      return DRMCrtc(
        id: k.crtc_id, framebuffer: k.buffer_id, x: k.x, y: k.y, mode: k.mode_valid != 0 ? DRMModeInfo(k.mode) : nil)
    },
    createDumb: { (fd, width, height, bpp) throws(DRMFailure) -> DRMDumbBuffer in
      var handle: UInt32 = 0
      var pitch: UInt32 = 0
      var size: UInt64 = 0
      try check(wb_drm_create_dumb(fd, UInt32(width), UInt32(height), UInt32(bpp), &handle, &pitch, &size))
      return DRMDumbBuffer(handle: handle, pitch: Int(pitch), size: Int(size))
    },
    destroyDumb: { fd, handle in _ = wb_drm_destroy_dumb(fd, handle) },
    addFramebuffer: { (fd, width, height, depth, bpp, pitch, handle) throws(DRMFailure) -> UInt32 in
      var id: UInt32 = 0
      try check(
        drmModeAddFB(fd, UInt32(width), UInt32(height), UInt8(depth), UInt8(bpp), UInt32(pitch), handle, &id))
      return id
    },
    removeFramebuffer: { fd, id in _ = drmModeRmFB(fd, id) },
    mapDumb: { (fd, handle, size) throws(DRMFailure) -> UnsafeMutableRawPointer in
      var offset: UInt64 = 0
      try check(wb_drm_map_dumb(fd, handle, &offset))
      guard let p = wb_drm_mmap(fd, size, offset) else { throw DRMFailure(errno: Glibc.errno) }
      return p
    },
    unmap: { address, length in _ = munmap(address, length) },
    setCrtc: { (fd, crtc, framebuffer, x, y, connectors, mode) throws(DRMFailure) in
      var list = connectors
      var raw = mode.map { $0.raw } ?? drmModeModeInfo()
      let result = list.withUnsafeMutableBufferPointer { ids in
        withUnsafeMutablePointer(to: &raw) { m in
          drmModeSetCrtc(fd, crtc, framebuffer, x, y, ids.baseAddress, Int32(ids.count), mode == nil ? nil : m)
        }
      }
      try check(result)
    },
    pageFlip: { (fd, crtc, framebuffer, sequence) throws(DRMFailure) in
      try check(wb_drm_page_flip(fd, crtc, framebuffer, sequence))
    },
    waitForFlip: { (fd, timeout, sequence) throws(DRMFailure) -> Bool in
      let r = wb_drm_wait_flip(fd, Int32(min(max(0, timeout) * 1000, 60_000).rounded(.up)), sequence)
      if r < 0 { throw DRMFailure(errno: Glibc.errno) }
      return r == 1
    },
    becomeMaster: { fd in drmIsMaster(fd) != 0 || (drmSetMaster(fd) == 0 && drmIsMaster(fd) != 0) },
    connectorProperty: { fd, connector, name in
      let id = wb_drm_property(fd, connector, wb_drm_object_connector(), name)
      return id == 0 ? nil : id
    },
    setConnectorProperty: { (fd, connector, property, value) throws(DRMFailure) in
      try check(drmModeConnectorSetProperty(fd, connector, property, value))
    }
  )
}

/// Throws `errno` when a call returned a negative value (libdrm returns -errno, or -1 with it set).
private func check(_ result: Int32) throws(DRMFailure) {
  if result < 0 { throw DRMFailure(errno: result == -1 ? Glibc.errno : -result) }
}

/// The `count` ids at `pointer`.
private func ids(_ pointer: UnsafeMutablePointer<UInt32>?, _ count: Int32) -> [UInt32] {
  guard let pointer, count > 0 else { return [] }
  return Array(UnsafeBufferPointer(start: pointer, count: Int(count)))
}

extension DRMModeInfo {
  init(_ m: drmModeModeInfo) {
    var copy = m
    let name = withUnsafeBytes(of: &copy.name) { raw in
      String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
    }
    self.init(
      clock: m.clock, hdisplay: m.hdisplay, hsyncStart: m.hsync_start, hsyncEnd: m.hsync_end, htotal: m.htotal,
      hskew: m.hskew, vdisplay: m.vdisplay, vsyncStart: m.vsync_start, vsyncEnd: m.vsync_end, vtotal: m.vtotal,
      vscan: m.vscan, vrefresh: m.vrefresh, flags: m.flags, type: m.type, name: name)
  }

  var raw: drmModeModeInfo {
    var m = drmModeModeInfo()
    m.clock = clock
    m.hdisplay = hdisplay
    m.hsync_start = hsyncStart
    m.hsync_end = hsyncEnd
    m.htotal = htotal
    m.hskew = hskew
    m.vdisplay = vdisplay
    m.vsync_start = vsyncStart
    m.vsync_end = vsyncEnd
    m.vtotal = vtotal
    m.vscan = vscan
    m.vrefresh = vrefresh
    m.flags = flags
    m.type = type
    withUnsafeMutableBytes(of: &m.name) { raw in
      let bytes = Array(name.utf8.prefix(raw.count - 1))
      for (i, b) in bytes.enumerated() { raw[i] = b }
    }
    return m
  }
}
