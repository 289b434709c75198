import DRMDisplay
import Glibc

/// A DRM device behind a fake `DRMSyscalls`: connectors and modes of the test's choosing,
/// memory standing in for each dumb buffer, a log of calls and injectable failures.
///
/// `@unchecked Sendable`: the seam's closures must be `Sendable`, but each test drives its own
/// device from one task.
final class FakeDRM: @unchecked Sendable {
  var resources = DRMResources(crtcs: [40, 41], connectors: [30], encoders: [35])
  var connectors: [UInt32: DRMConnector] = [:]
  var encoders: [UInt32: DRMEncoder] = [35: DRMEncoder(id: 35, crtc: 40, possibleCrtcs: 0b11)]
  /// What each CRTC shows (the console's framebuffer, 7, at first).
  var crtcs: [UInt32: DRMCrtc] = [:]
  /// Every call, in order: "drmModeSetCrtc 40 fb=101", "drmModePageFlip 40 fb=102"…
  var log: [String] = []
  /// Calls that fail, by the first word of their log entry, with the errno to give.
  var failures: [String: Int32] = [:]
  /// Bits a pixel the device takes for dumb buffers.
  var bppAccepted: Set<Int> = [32, 16]
  /// How many dumb buffers fit.
  var bufferLimit = 8
  /// Each buffer's memory, by handle.
  var memory: [UInt32: UnsafeMutableRawBufferPointer] = [:]
  var pitches: [UInt32: Int] = [:]
  /// The framebuffer id of each buffer handle.
  var framebuffers: [UInt32: UInt32] = [:]
  /// The framebuffer shown on CRTC 40 (what a screen would show).
  var shown: UInt32 = 7
  /// Flips asked for whose event is still to come.
  var pendingFlips: [UInt32] = []
  /// Whether flip events come (a driver whose vblank is lost does not send them).
  var flipEventsCome = true
  /// The DPMS property's value (0 on, 3 off).
  var dpmsValue: UInt64 = 0
  var hasDPMS = true
  /// The sequence number each flip was asked with.
  var sequences: [UInt64] = []
  /// Whether the board can be the device's master (no desktop holds it).
  var master = true
  var nextHandle: UInt32 = 1
  var nextFramebuffer: UInt32 = 101
  var openFds = 0

  static let mode1080 = DRMModeInfo(
    clock: 148_500, hdisplay: 1920, hsyncStart: 2008, hsyncEnd: 2052, htotal: 2200, vdisplay: 1080,
    vsyncStart: 1084, vsyncEnd: 1089, vtotal: 1125, vrefresh: 60, type: DRMModeInfo.preferredBit | 0x40)
  static let mode720 = DRMModeInfo(hdisplay: 1280, vdisplay: 720, vrefresh: 60)
  static let mode720at50 = DRMModeInfo(hdisplay: 1280, vdisplay: 720, vrefresh: 50)
  static let small = DRMModeInfo(hdisplay: 64, vdisplay: 48, vrefresh: 60, type: DRMModeInfo.preferredBit)

  init(modes: [DRMModeInfo] = [FakeDRM.small], connected: Bool = true) {
    connectors[30] = DRMConnector(
      id: 30, name: "HDMI-A-1", connected: connected, modes: modes, encoder: 35, encoders: [35])
    crtcs[40] = DRMCrtc(id: 40, framebuffer: 7, mode: DRMModeInfo(hdisplay: 1024, vdisplay: 768, vrefresh: 60))
    crtcs[41] = DRMCrtc(id: 41, framebuffer: 0, mode: nil)
  }

  deinit { for m in memory.values { m.deallocate() } }

  func record(_ entry: String) throws(DRMFailure) {
    log.append(entry)
    let name = String(entry.split(separator: " ").first ?? "")
    if let code = failures[name] { throw DRMFailure(errno: code) }
  }

  func calls(_ names: String...) -> [String] {
    log.filter { names.contains(String($0.split(separator: " ").first ?? "")) }
  }

  /// The pixel at (x, y) of the framebuffer shown, as 24-bit RGB (the X byte is not shown).
  func shownPixel(_ x: Int, _ y: Int) -> UInt32 {
    guard let handle = framebuffers.first(where: { $0.value == shown })?.key else { return 0 }
    return pixel(handle, x, y)
  }

  /// The pixel at (x, y) of buffer `handle`, as 24-bit RGB.
  func pixel(_ handle: UInt32, _ x: Int, _ y: Int) -> UInt32 {
    guard let m = memory[handle] else { return 0 }
    return m.load(fromByteOffset: y * pitches[handle]! + x * 4, as: UInt32.self) & 0x00FF_FFFF
  }

  var syscalls: DRMSyscalls {
    DRMSyscalls(
      open: { (path) throws(DRMFailure) -> Int32 in
        try self.record("open \(path)")
        self.openFds += 1
        return 9
      },
      close: { fd in
        self.log.append("close \(fd)")
        self.openFds -= 1
      },
      resources: { (_) throws(DRMFailure) -> DRMResources in
        try self.record("drmModeGetResources")
        return self.resources
      },
      connector: { (_, id) throws(DRMFailure) -> DRMConnector in
        try self.record("drmModeGetConnector \(id)")
        guard let c = self.connectors[id] else { throw DRMFailure(errno: ENOENT) }
        return c
      },
      encoder: { (_, id) throws(DRMFailure) -> DRMEncoder in
        try self.record("drmModeGetEncoder \(id)")
        guard let e = self.encoders[id] else { throw DRMFailure(errno: ENOENT) }
        return e
      },
      crtc: { (_, id) throws(DRMFailure) -> DRMCrtc in
        try self.record("drmModeGetCrtc \(id)")
        guard let c = self.crtcs[id] else { throw DRMFailure(errno: ENOENT) }
        return c
      },
      createDumb: { (_, width, height, bpp) throws(DRMFailure) -> DRMDumbBuffer in
        try self.record("DRM_IOCTL_MODE_CREATE_DUMB \(width)x\(height)x\(bpp)")
        guard self.bppAccepted.contains(bpp) else { throw DRMFailure(errno: EINVAL) }
        guard self.memory.count < self.bufferLimit else { throw DRMFailure(errno: ENOMEM) }
        let handle = self.nextHandle
        self.nextHandle += 1
        // Rows padded to 64 bytes, as drivers do.
        let pitch = (width * bpp / 8 + 63) / 64 * 64
        let m = UnsafeMutableRawBufferPointer.allocate(byteCount: pitch * height, alignment: 16)
        m.initializeMemory(as: UInt8.self, repeating: 0xA5)
        self.memory[handle] = m
        self.pitches[handle] = pitch
        return DRMDumbBuffer(handle: handle, pitch: pitch, size: pitch * height)
      },
      destroyDumb: { _, handle in
        self.log.append("DRM_IOCTL_MODE_DESTROY_DUMB \(handle)")
        self.memory.removeValue(forKey: handle)?.deallocate()
      },
      addFramebuffer: { (_, _, _, depth, bpp, _, handle) throws(DRMFailure) -> UInt32 in
        try self.record("drmModeAddFB depth=\(depth) bpp=\(bpp)")
        let id = self.nextFramebuffer
        self.nextFramebuffer += 1
        self.framebuffers[handle] = id
        return id
      },
      removeFramebuffer: { _, id in self.log.append("drmModeRmFB \(id)") },
      mapDumb: { (_, handle, size) throws(DRMFailure) -> UnsafeMutableRawPointer in
        try self.record("mmap \(size)")
        return self.memory[handle]!.baseAddress!
      },
      unmap: { _, length in self.log.append("munmap \(length)") },
      setCrtc: { (_, crtc, fb, _, _, connectors, mode) throws(DRMFailure) in
        try self.record("drmModeSetCrtc \(crtc) fb=\(fb) \(connectors) \(mode?.label ?? "off")")
        if crtc == 40 { self.shown = fb }
        self.pendingFlips = []
      },
      pageFlip: { (_, crtc, fb, sequence) throws(DRMFailure) in
        try self.record("drmModePageFlip \(crtc) fb=\(fb)")
        guard self.pendingFlips.isEmpty else { throw DRMFailure(errno: EBUSY) }
        self.pendingFlips.append(fb)
        self.sequences.append(sequence)
      },
      waitForFlip: { (_, timeout, sequence) throws(DRMFailure) -> Bool in
        try self.record("drmHandleEvent")
        guard self.flipEventsCome, let fb = self.pendingFlips.first else { return false }
        self.pendingFlips.removeFirst()
        self.shown = fb
        return self.sequences.last == sequence
      },
      becomeMaster: { _ in
        self.log.append("drmSetMaster")
        return self.master
      },
      connectorProperty: { _, _, name in self.hasDPMS && name == "DPMS" ? 50 : nil },
      setConnectorProperty: { (_, connector, property, value) throws(DRMFailure) in
        try self.record("drmModeConnectorSetProperty \(connector) \(property)=\(value)")
        self.dpmsValue = value
      }
    )
  }
}
