/// A point in pixel space; (0, 0) is the top-left corner of the top-left pixel.
public struct Point: Hashable, Sendable {
  public var x: Double
  public var y: Double
  public init(_ x: Double, _ y: Double) {
    self.x = x
    self.y = y
  }
}

/// A rectangle in pixel space (fractional edges are anti-aliased).
public struct Rect: Hashable, Sendable {
  public var x: Double
  public var y: Double
  public var width: Double
  public var height: Double

  public init(x: Double, y: Double, width: Double, height: Double) {
    self.x = x
    self.y = y
    self.width = width
    self.height = height
  }

  public var minX: Double { x }
  public var minY: Double { y }
  public var maxX: Double { x + width }
  public var maxY: Double { y + height }
  public var midX: Double { x + width / 2 }
  public var midY: Double { y + height / 2 }
  public var isEmpty: Bool { width <= 0 || height <= 0 }

  /// This rectangle shrunk by `d` on every side (grown when negative).
  public func inset(_ d: Double) -> Rect { inset(dx: d, dy: d) }

  public func inset(dx: Double, dy: Double) -> Rect {
    Rect(x: x + dx, y: y + dy, width: max(0, width - 2 * dx), height: max(0, height - 2 * dy))
  }

  /// The smallest pixel rectangle that contains this one.
  public var enclosing: IRect {
    let x0 = Int(saturating: x, .down)
    let y0 = Int(saturating: y, .down)
    let x1 = Int(saturating: maxX, .up)
    let y1 = Int(saturating: maxY, .up)
    return IRect(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
  }
}

/// A rectangle of whole pixels.
public struct IRect: Hashable, Sendable {
  public var x: Int
  public var y: Int
  public var width: Int
  public var height: Int

  public init(x: Int, y: Int, width: Int, height: Int) {
    self.x = x
    self.y = y
    self.width = width
    self.height = height
  }

  public var maxX: Int { x + width }
  public var maxY: Int { y + height }
  public var isEmpty: Bool { width <= 0 || height <= 0 }

  /// Whether the pixel (x, y) is inside.
  public func contains(_ x: Int, _ y: Int) -> Bool { x >= self.x && x < maxX && y >= self.y && y < maxY }

  /// The overlap of two rectangles (empty when they do not meet).
  public func intersection(_ o: IRect) -> IRect {
    let x0 = max(x, o.x)
    let y0 = max(y, o.y)
    let x1 = min(maxX, o.maxX)
    let y1 = min(maxY, o.maxY)
    return IRect(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
  }

  public var rect: Rect { Rect(x: Double(x), y: Double(y), width: Double(width), height: Double(height)) }
}
