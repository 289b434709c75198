public import DisplayCore
public import Raster

/// A display in memory, for the run loop's tests: it keeps what a screen would show (each frame's
/// dirty rectangles copied onto the last, moved by the frame's offset when it `movesFrames`),
/// a log of what it was asked, and events to hand out.
public final class MemoryDisplay: Display {
  public var size: (width: Int, height: Int)
  public let traits: DisplayTraits
  /// What the screen shows now.
  public private(set) var screen: Canvas
  /// Each frame presented: its dirty rectangles (nil: whole) and offset.
  public private(set) var frames: [(dirty: [IRect]?, dx: Int, dy: Int)] = []
  /// Each power change asked for, in order.
  public private(set) var power: [Bool] = []
  /// Whether the output is on.
  public private(set) var isOn = true
  /// Whether `setPower` works.
  public var canPowerOff: Bool
  /// Events `events()` hands out next.
  public var queued: [DisplayEvent] = []
  /// Called after each frame (a test may stop the run from here).
  public var afterPresent: (MemoryDisplay) -> Void = { _ in }
  /// Whether `close()` was called.
  public private(set) var closed = false

  public init(width: Int, height: Int, traits: DisplayTraits, canPowerOff: Bool = true) {
    size = (width, height)
    self.traits = traits
    self.canPowerOff = canPowerOff
    screen = Canvas(width: width, height: height)
  }

  public func present(_ frame: DisplayFrame) throws(DisplayError) {
    precondition(!closed, "present after close")
    let c = frame.canvas
    let (dx, dy) = traits.movesFrames ? frame.offset : (0, 0)
    if screen.width != size.width || screen.height != size.height {
      screen = Canvas(width: size.width, height: size.height)
    }
    let rects = (frame.dirty ?? [c.bounds]).map {
      IRect(x: $0.x + dx, y: $0.y + dy, width: $0.width, height: $0.height)
    }
    let whole = frame.dirty == nil
    let fill = Canvas.pack(frame.background)
    for r in whole ? [screen.bounds] : rects {
      let r = r.intersection(screen.bounds)
      guard !r.isEmpty else { continue }
      for y in r.y..<r.maxY {
        for x in r.x..<r.maxX {
          let (sx, sy) = (x - dx, y - dy)
          screen[x: x, y: y] =
            sx >= 0 && sy >= 0 && sx < c.width && sy < c.height ? c[x: sx, y: sy] : fill
        }
      }
    }
    frames.append((frame.dirty, dx, dy))
    afterPresent(self)
  }

  public func setPower(_ on: Bool) -> Bool {
    power.append(on)
    guard canPowerOff else { return false }
    isOn = on
    return true
  }

  public func events() -> [DisplayEvent] {
    defer { queued = [] }
    return queued
  }

  public func close() { closed = true }
}
