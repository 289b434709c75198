public import DisplayCore
public import Raster

/// The framebuffer as the board's display. (The `ConsoleGuard` that keeps the console's text
/// and cursor off it is the caller's: a file standing in for a device has none.)
///
/// The framebuffer moves the frame itself (burn-in protection costs no moved copy), has no
/// events, and turns the screen off with `FBIOBLANK` for the night schedule's `blank`.
public final class FramebufferScreen: Display {
  public let framebuffer: Framebuffer

  public init(_ framebuffer: Framebuffer) { self.framebuffer = framebuffer }

  public var size: (width: Int, height: Int) { framebuffer.size }

  public var traits: DisplayTraits { DisplayTraits(fillsScreen: true, movesFrames: true) }

  /// The page the next frame goes into, where the device's pixels are the canvas's
  /// (`Framebuffer.drawingBuffer`).
  public func drawingBuffer(
    width: Int, height: Int, offset: (dx: Int, dy: Int), background: RGBA
  ) throws(DisplayError) -> DrawingBuffer? {
    framebuffer.drawingBuffer(width: width, height: height, offset: offset, fill: background).map {
      DrawingBuffer(canvas: $0.canvas, holdsLastFrame: $0.holdsLastFrame)
    }
  }

  public func present(_ frame: DisplayFrame) throws(DisplayError) {
    framebuffer.present(frame.canvas, dirty: frame.dirty, offset: frame.offset, fill: frame.background)
  }

  /// `FBIOBLANK`: powered down (DPMS off) or shown again.
  public func setPower(_ on: Bool) -> Bool { (try? framebuffer.blank(!on)) != nil }
}
