/// A failed call: the `errno` it left.
public struct DRMFailure: Error, Equatable, Sendable {
  public var errno: Int32
  public init(errno: Int32) { self.errno = errno }
}

/// The seam between the DRM display and the kernel: every libdrm call, ioctl and mapping
/// `DRMScreen` makes goes through one of these closures.
///
/// `live` calls libdrm (through `CDRM`); tests build a fake device instead (connectors and
/// modes of their choosing, memory standing in for the buffers, a log of calls, injected
/// failures). A closure throws `DRMFailure` with the `errno` of the failed call.
public struct DRMSyscalls: Sendable {
  /// `open(path, O_RDWR | O_CLOEXEC)`.
  public var open: @Sendable (_ path: String) throws(DRMFailure) -> Int32
  public var close: @Sendable (_ fd: Int32) -> Void
  /// `drmModeGetResources`.
  public var resources: @Sendable (_ fd: Int32) throws(DRMFailure) -> DRMResources
  /// `drmModeGetConnector`.
  public var connector: @Sendable (_ fd: Int32, _ id: UInt32) throws(DRMFailure) -> DRMConnector
  /// `drmModeGetEncoder`.
  public var encoder: @Sendable (_ fd: Int32, _ id: UInt32) throws(DRMFailure) -> DRMEncoder
  /// `drmModeGetCrtc`.
  public var crtc: @Sendable (_ fd: Int32, _ id: UInt32) throws(DRMFailure) -> DRMCrtc
  /// `DRM_IOCTL_MODE_CREATE_DUMB` of `width` × `height` at `bpp` bits a pixel.
  public var createDumb:
    @Sendable (_ fd: Int32, _ width: Int, _ height: Int, _ bpp: Int) throws(DRMFailure) -> DRMDumbBuffer
  /// `DRM_IOCTL_MODE_DESTROY_DUMB`.
  public var destroyDumb: @Sendable (_ fd: Int32, _ handle: UInt32) -> Void
  /// `drmModeAddFB`: a framebuffer of the buffer `handle`; its id.
  public var addFramebuffer:
    @Sendable (
      _ fd: Int32, _ width: Int, _ height: Int, _ depth: Int, _ bpp: Int, _ pitch: Int, _ handle: UInt32
    ) throws(DRMFailure) -> UInt32
  /// `drmModeRmFB`.
  public var removeFramebuffer: @Sendable (_ fd: Int32, _ id: UInt32) -> Void
  /// `DRM_IOCTL_MODE_MAP_DUMB`, then `mmap` of `size` bytes, shared, read-write.
  public var mapDumb:
    @Sendable (_ fd: Int32, _ handle: UInt32, _ size: Int) throws(DRMFailure) -> UnsafeMutableRawPointer
  /// `munmap`.
  public var unmap: @Sendable (_ address: UnsafeMutableRawPointer, _ length: Int) -> Void
  /// `drmModeSetCrtc`: `crtc` shows `framebuffer` (0: off) at (x, y) in `mode` on `connectors`.
  public var setCrtc:
    @Sendable (
      _ fd: Int32, _ crtc: UInt32, _ framebuffer: UInt32, _ x: UInt32, _ y: UInt32, _ connectors: [UInt32],
      _ mode: DRMModeInfo?
    ) throws(DRMFailure) -> Void
  /// `drmModePageFlip` with `DRM_MODE_PAGE_FLIP_EVENT`: `framebuffer` is shown at the next
  /// vertical blank, and an event carrying `sequence` says so.
  public var pageFlip:
    @Sendable (_ fd: Int32, _ crtc: UInt32, _ framebuffer: UInt32, _ sequence: UInt64) throws(DRMFailure) -> Void
  /// Waits up to `timeout` seconds for the event of the flip asked with `sequence` (`poll`,
  /// `drmHandleEvent`; earlier flips' late events are passed over): true when it came, false on
  /// a time-out.
  public var waitForFlip: @Sendable (_ fd: Int32, _ timeout: Double, _ sequence: UInt64) throws(DRMFailure) -> Bool
  /// Whether this descriptor is the device's master (`drmIsMaster`), after `drmSetMaster` was
  /// tried where it is not: only the master may set modes.
  public var becomeMaster: @Sendable (_ fd: Int32) -> Bool
  /// The id of the connector's property `name` ("DPMS"), nil when it has none.
  public var connectorProperty: @Sendable (_ fd: Int32, _ connector: UInt32, _ name: String) -> UInt32?
  /// `drmModeConnectorSetProperty`.
  public var setConnectorProperty:
    @Sendable (_ fd: Int32, _ connector: UInt32, _ property: UInt32, _ value: UInt64) throws(DRMFailure) -> Void

  public init(
    open: @escaping @Sendable (String) throws(DRMFailure) -> Int32,
    close: @escaping @Sendable (Int32) -> Void,
    resources: @escaping @Sendable (Int32) throws(DRMFailure) -> DRMResources,
    connector: @escaping @Sendable (Int32, UInt32) throws(DRMFailure) -> DRMConnector,
    encoder: @escaping @Sendable (Int32, UInt32) throws(DRMFailure) -> DRMEncoder,
    crtc: @escaping @Sendable (Int32, UInt32) throws(DRMFailure) -> DRMCrtc,
    createDumb: @escaping @Sendable (Int32, Int, Int, Int) throws(DRMFailure) -> DRMDumbBuffer,
    destroyDumb: @escaping @Sendable (Int32, UInt32) -> Void,
    addFramebuffer: @escaping @Sendable (Int32, Int, Int, Int, Int, Int, UInt32) throws(DRMFailure) -> UInt32,
    removeFramebuffer: @escaping @Sendable (Int32, UInt32) -> Void,
    mapDumb: @escaping @Sendable (Int32, UInt32, Int) throws(DRMFailure) -> UnsafeMutableRawPointer,
    unmap: @escaping @Sendable (UnsafeMutableRawPointer, Int) -> Void,
    setCrtc:
      @escaping @Sendable (Int32, UInt32, UInt32, UInt32, UInt32, [UInt32], DRMModeInfo?) throws(DRMFailure) ->
      Void,
    pageFlip: @escaping @Sendable (Int32, UInt32, UInt32, UInt64) throws(DRMFailure) -> Void,
    waitForFlip: @escaping @Sendable (Int32, Double, UInt64) throws(DRMFailure) -> Bool,
    becomeMaster: @escaping @Sendable (Int32) -> Bool,
    connectorProperty: @escaping @Sendable (Int32, UInt32, String) -> UInt32?,
    setConnectorProperty: @escaping @Sendable (Int32, UInt32, UInt32, UInt64) throws(DRMFailure) -> Void
  ) {
    self.open = open
    self.close = close
    self.resources = resources
    self.connector = connector
    self.encoder = encoder
    self.crtc = crtc
    self.createDumb = createDumb
    self.destroyDumb = destroyDumb
    self.addFramebuffer = addFramebuffer
    self.removeFramebuffer = removeFramebuffer
    self.mapDumb = mapDumb
    self.unmap = unmap
    self.setCrtc = setCrtc
    self.pageFlip = pageFlip
    self.waitForFlip = waitForFlip
    self.becomeMaster = becomeMaster
    self.connectorProperty = connectorProperty
    self.setConnectorProperty = setConnectorProperty
  }
}
