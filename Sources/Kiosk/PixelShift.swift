public import WallboardCore

/// Burn-in protection: the whole frame moves to the next of nine positions every `period`
/// seconds, never further than 0.5 % of the frame's width or height from where it belongs.
public struct PixelShift: Hashable, Sendable {
  public var period: Double
  /// The largest move, as a fraction of the frame (at most 0.005).
  public var fraction: Double

  public init(period: Double = 180, fraction: Double = 0.005) {
    precondition(period > 0, "a pixel shift period must be positive")
    precondition((0...0.005).contains(fraction), "the pixel shift may not exceed 0.5 % of the frame")
    self.period = period
    self.fraction = fraction
  }

  /// The nine positions, visited in an order that never jumps across the frame.
  static let cycle: [(Int, Int)] = [(0, 0), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)]

  /// The offset in pixels at `t` for a frame of `width` × `height`.
  public func offset(at t: Instant, width: Int, height: Int) -> (dx: Int, dy: Int) {
    let mx = Int(saturating: Double(width) * fraction, .down)
    let my = Int(saturating: Double(height) * fraction, .down)
    let step = Int(saturating: t.seconds / period, .down)
    let (sx, sy) = Self.cycle[((step % 9) + 9) % 9]
    return (sx * mx, sy * my)
  }

  /// The first millisecond after `t` at which the frame moves to its next position (the next
  /// `period` in `offset(at:width:height:)`'s count).
  public func nextMove(after t: Instant) -> Instant {
    let step = Int(saturating: t.seconds / period, .down)
    var ms = Int64(Int(saturating: Double(step + 1) * period * 1000, .up))
    // Exactly `offset`'s count, whatever the rounding: the first millisecond of the next step.
    while ms > t.millis + 1, Int(saturating: Instant(millis: ms - 1).seconds / period, .down) > step { ms -= 1 }
    while Int(saturating: Instant(millis: ms).seconds / period, .down) <= step { ms += 1 }
    return Instant(millis: ms)
  }
}

/// `--pixel-shift`: when the frame moves. `auto`: when the board fills a screen (a kiosk), not in
/// a window.
public enum PixelShiftMode: String, CaseIterable, Hashable, Sendable {
  case auto, on, off

  /// Whether the frame moves on a display that does, or does not, fill its screen.
  public func shifts(fillsScreen: Bool) -> Bool {
    switch self {
    case .on: true
    case .off: false
    case .auto: fillsScreen
    }
  }
}
