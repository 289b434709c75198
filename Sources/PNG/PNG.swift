// PNG — reading and writing canvases as PNG files, through zlib.
//
// What lives here: `PNG.encode`/`decode` (8-bit RGB out; 8-bit RGB and RGBA in, non-interlaced),
// `PNG.write`/`read` for files (written atomically), and `PNGError`.
//
// What it may import: `Raster`, the C library (`Glibc`) for files, and `CZlib` — with
// `internal import`, as the only module that does, so no zlib type reaches the public API.
internal import Raster

/// PNG encoding and decoding of canvases.
public enum PNG {
  /// The eight bytes every PNG file starts with.
  static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

  /// The largest width or height `decode` accepts.
  public static let maxDimension = 16384

  /// The most pixels `decode` accepts by default (64 Mi: 8192 × 8192).
  public static let defaultMaxPixels = 1 << 26
}
