public import DisplayCore
internal import PNG

/// `--display png:PATH`: each frame replaces a PNG file (written beside it, then renamed), at
/// most once a second: each is a whole file, read by whoever watches it. The encoder re-deflates
/// only the bands of rows that changed.
public final class PNGFileDisplay: Display {
  public let path: String
  public let size: (width: Int, height: Int)
  private var encoder = PNGEncoder()

  public init(path: String, size: (width: Int, height: Int)) {
    self.path = path
    self.size = size
  }

  public var traits: DisplayTraits { DisplayTraits(fillsScreen: false, minimumFrameInterval: 1) }

  public func present(_ frame: DisplayFrame) throws(DisplayError) {
    do {
      try PNG.write(png: encoder.encode(frame.canvas, changed: frame.dirty), to: path)
    } catch {
      throw DisplayError("cannot write \(path): \(error)")
    }
  }
}
