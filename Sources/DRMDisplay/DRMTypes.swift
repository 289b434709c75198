/// A display mode (`drmModeModeInfo`): every timing field, so a mode read can be set again.
public struct DRMModeInfo: Equatable, Sendable {
  public var clock: UInt32
  public var hdisplay: UInt16, hsyncStart: UInt16, hsyncEnd: UInt16, htotal: UInt16, hskew: UInt16
  public var vdisplay: UInt16, vsyncStart: UInt16, vsyncEnd: UInt16, vtotal: UInt16, vscan: UInt16
  /// The refresh rate in Hz, as the kernel rounds it.
  public var vrefresh: UInt32
  public var flags: UInt32
  /// `DRM_MODE_TYPE_*` bits; `preferred` is the one a monitor asks for.
  public var type: UInt32
  public var name: String

  public init(
    clock: UInt32 = 0, hdisplay: UInt16, hsyncStart: UInt16 = 0, hsyncEnd: UInt16 = 0, htotal: UInt16 = 0,
    hskew: UInt16 = 0, vdisplay: UInt16, vsyncStart: UInt16 = 0, vsyncEnd: UInt16 = 0, vtotal: UInt16 = 0,
    vscan: UInt16 = 0, vrefresh: UInt32, flags: UInt32 = 0, type: UInt32 = 0, name: String = ""
  ) {
    self.clock = clock
    self.hdisplay = hdisplay
    self.hsyncStart = hsyncStart
    self.hsyncEnd = hsyncEnd
    self.htotal = htotal
    self.hskew = hskew
    self.vdisplay = vdisplay
    self.vsyncStart = vsyncStart
    self.vsyncEnd = vsyncEnd
    self.vtotal = vtotal
    self.vscan = vscan
    self.vrefresh = vrefresh
    self.flags = flags
    self.type = type
    self.name = name.isEmpty ? "\(hdisplay)x\(vdisplay)" : name
  }

  /// `DRM_MODE_TYPE_PREFERRED`.
  public static let preferredBit: UInt32 = 1 << 3

  public var isPreferred: Bool { type & Self.preferredBit != 0 }
  public var width: Int { Int(hdisplay) }
  public var height: Int { Int(vdisplay) }
  /// "1920x1080@60".
  public var label: String { "\(hdisplay)x\(vdisplay)@\(vrefresh)" }
}

/// The device's KMS objects (`drmModeGetResources`).
public struct DRMResources: Equatable, Sendable {
  public var crtcs: [UInt32]
  public var connectors: [UInt32]
  public var encoders: [UInt32]
  public init(crtcs: [UInt32], connectors: [UInt32], encoders: [UInt32]) {
    self.crtcs = crtcs
    self.connectors = connectors
    self.encoders = encoders
  }
}

/// A connector (`drmModeGetConnector`): an output such as HDMI-A-1.
public struct DRMConnector: Equatable, Sendable {
  public var id: UInt32
  /// "HDMI-A-1", "Virtual-1": the type's name and its index.
  public var name: String
  public var connected: Bool
  /// Its modes, as the monitor lists them.
  public var modes: [DRMModeInfo]
  /// The encoder driving it now, 0 for none.
  public var encoder: UInt32
  /// The encoders that can drive it.
  public var encoders: [UInt32]
  public init(
    id: UInt32, name: String, connected: Bool, modes: [DRMModeInfo], encoder: UInt32, encoders: [UInt32]
  ) {
    self.id = id
    self.name = name
    self.connected = connected
    self.modes = modes
    self.encoder = encoder
    self.encoders = encoders
  }
}

/// An encoder (`drmModeGetEncoder`).
public struct DRMEncoder: Equatable, Sendable {
  public var id: UInt32
  /// The CRTC it is on now, 0 for none.
  public var crtc: UInt32
  /// Bit i: it can be driven by the i-th CRTC of `DRMResources.crtcs`.
  public var possibleCrtcs: UInt32
  public init(id: UInt32, crtc: UInt32, possibleCrtcs: UInt32) {
    self.id = id
    self.crtc = crtc
    self.possibleCrtcs = possibleCrtcs
  }
}

/// What a CRTC shows (`drmModeGetCrtc`): kept to put it back on exit.
public struct DRMCrtc: Equatable, Sendable {
  public var id: UInt32
  /// The framebuffer it scans out, 0 for none.
  public var framebuffer: UInt32
  public var x: UInt32
  public var y: UInt32
  /// Its mode, nil when it is off.
  public var mode: DRMModeInfo?
  public init(id: UInt32, framebuffer: UInt32, x: UInt32 = 0, y: UInt32 = 0, mode: DRMModeInfo?) {
    self.id = id
    self.framebuffer = framebuffer
    self.x = x
    self.y = y
    self.mode = mode
  }
}

/// A dumb buffer (`DRM_IOCTL_MODE_CREATE_DUMB`).
public struct DRMDumbBuffer: Equatable, Sendable {
  public var handle: UInt32
  /// Bytes from one row to the next.
  public var pitch: Int
  /// Its size in bytes.
  public var size: Int
  public init(handle: UInt32, pitch: Int, size: Int) {
    self.handle = handle
    self.pitch = pitch
    self.size = size
  }
}

/// `--mode WxH[@Hz]`: the mode asked for instead of the connector's preferred one.
public struct DRMModeRequest: Equatable, Sendable, CustomStringConvertible {
  public var width: Int
  public var height: Int
  public var refresh: Int?

  public init(width: Int, height: Int, refresh: Int? = nil) {
    self.width = width
    self.height = height
    self.refresh = refresh
  }

  /// Parses "1920x1080" or "1920x1080@60" (sides 1…16384, a refresh of 1…1000 Hz); nil when
  /// the text is not one.
  public init?(parsing text: String) {
    let parts = text.split(separator: "@", omittingEmptySubsequences: false)
    guard parts.count <= 2 else { return nil }
    let sides = parts[0].split(separator: "x", omittingEmptySubsequences: false)
    func number(_ s: Substring, max: Int) -> Int? {
      guard !s.isEmpty, s.count <= 5, s.allSatisfy({ $0.isASCII && $0.isNumber }), let v = Int(s), v >= 1, v <= max
      else { return nil }
      return v
    }
    guard sides.count == 2, let w = number(sides[0], max: 16384), let h = number(sides[1], max: 16384) else {
      return nil
    }
    var hz: Int?
    if parts.count == 2 {
      guard let r = number(parts[1], max: 1000) else { return nil }
      hz = r
    }
    self.init(width: w, height: h, refresh: hz)
  }

  public var description: String { "\(width)x\(height)" + (refresh.map { "@\($0)" } ?? "") }

  /// Whether `mode` is this one.
  public func matches(_ mode: DRMModeInfo) -> Bool {
    mode.width == width && mode.height == height && (refresh.map { UInt32($0) == mode.vrefresh } ?? true)
  }
}
