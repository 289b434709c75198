internal import Glibc

/// Why a framebuffer or console could not be used; each case names the device or file.
public enum FramebufferError: Error, CustomStringConvertible, Equatable, Sendable {
  /// A syscall on `path` failed: `call` is its name (`open`, `mmap`, `FBIOGET_VSCREENINFO`…),
  /// `errno` what it left.
  case callFailed(path: String, call: String, errno: Int32)
  /// The device's pixel format (or a requested geometry) is not one this display can write.
  case unsupportedFormat(path: String, reason: String)
  /// The device's memory (or the file) is smaller than its geometry needs.
  case tooSmall(path: String, needed: Int, available: Int)

  public var description: String {
    switch self {
    case .callFailed(let path, let call, let errno):
      return "\(path): \(call) failed: \(String(cString: strerror(errno)))"
    case .unsupportedFormat(let path, let reason):
      return "\(path): unsupported pixel format: \(reason)"
    case .tooSmall(let path, let needed, let available):
      return "\(path): too small: the geometry needs \(needed) bytes, there are \(available)"
    }
  }
}

extension SyscallFailure {
  /// This failure as a `FramebufferError` for `call` on `path`.
  func on(_ path: String, _ call: String) -> FramebufferError {
    .callFailed(path: path, call: call, errno: errno)
  }
}
