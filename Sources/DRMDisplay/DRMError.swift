internal import Glibc

/// Why a DRM device could not be used; each case names the device.
public enum DRMError: Error, CustomStringConvertible, Equatable, Sendable {
  /// A call on `device` failed: `call` is its name (`open`, `drmModeSetCrtc`…), `errno` what it
  /// left.
  case callFailed(device: String, call: String, errno: Int32)
  /// No connector has a monitor with a mode; `connectors` lists them and their state.
  case noConnectedOutput(device: String, connectors: [String])
  /// The connector has no mode `--mode` asked for; `available` lists its modes.
  case noSuchMode(device: String, connector: String, wanted: String, available: [String])
  /// No CRTC can drive the connector.
  case noCrtc(device: String, connector: String)
  /// The mode is larger than the board draws.
  case tooLarge(device: String, mode: String)

  public var description: String {
    switch self {
    case .callFailed(let device, let call, let errno):
      // Mode setting is for the device's one master: a desktop or another board holds it.
      let held = call != "open" && (errno == EACCES || errno == EPERM || errno == EBUSY)
      return "\(device): \(call) failed: \(String(cString: strerror(errno)))"
        + (held ? " (is a desktop or another program showing on it?)" : "")
    case .noConnectedOutput(let device, let connectors):
      return "\(device): no connected output with a mode"
        + (connectors.isEmpty ? " (it has no connectors)" : " (\(connectors.joined(separator: ", ")))")
    case .noSuchMode(let device, let connector, let wanted, let available):
      return "\(device): \(connector) has no mode \(wanted) (it has \(available.joined(separator: ", ")))"
    case .noCrtc(let device, let connector):
      return "\(device): no CRTC can drive \(connector)"
    case .tooLarge(let device, let mode):
      return "\(device): the mode \(mode) is larger than the board draws"
    }
  }
}
