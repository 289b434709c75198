/// Where a canvas's pixels live: memory the canvas allocated, or memory a display lent it (a
/// mapped screen page, a window surface) for drawing a frame in place.
///
/// Allocated memory is freed with the last canvas that shares it, and copied before a shared one
/// is changed (copy-on-write), so a canvas behaves as a value. Lent memory is neither freed nor
/// copied: every copy of a lent canvas draws into the same screen page, which stays valid while
/// `lender` (the display's mapping) lives and the display has not taken it back (it says when).
final class PixelStorage: @unchecked Sendable {
  let base: UnsafeMutablePointer<UInt32>
  /// Pixels (`UInt32`s) at `base`.
  let count: Int
  /// What keeps lent memory valid; nil for memory allocated here.
  let lender: AnyObject?

  /// `count` pixels of `value`, allocated.
  init(count: Int, repeating value: UInt32) {
    base = .allocate(capacity: count)
    base.initialize(repeating: value, count: count)
    self.count = count
    lender = nil
  }

  /// `count` pixels at `memory`, lent by `lender`.
  init(lent memory: UnsafeMutablePointer<UInt32>, count: Int, lender: AnyObject) {
    base = memory
    self.count = count
    self.lender = lender
  }

  /// Allocated memory holding the same pixels.
  func copy() -> PixelStorage {
    let c = PixelStorage(count: count, repeating: 0)
    c.base.update(from: base, count: count)
    return c
  }

  var isLent: Bool { lender != nil }

  deinit { if lender == nil { base.deallocate() } }
}
