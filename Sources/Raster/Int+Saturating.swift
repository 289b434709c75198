extension Int {
  /// How far `init(saturating:_:)` lets a value go either way: 2^48, far beyond any pixel, and
  /// far enough from `Int.max` that sums and products with canvas sizes cannot overflow.
  public static let saturationBound = 1 << 48

  /// `value` rounded by `rule`, kept within ±`saturationBound`; NaN becomes 0.
  ///
  /// Unlike `Int(_:)`, which stops the program on NaN, an infinity or a value out of range,
  /// this never traps: drawing and formatting convert numbers computed from data with it.
  public init(saturating value: Double, _ rule: FloatingPointRoundingRule = .towardZero) {
    guard !value.isNaN else {
      self = 0
      return
    }
    let bound = Double(Int.saturationBound)
    self = Int(Swift.min(Swift.max(value.rounded(rule), -bound), bound))
  }
}

extension Int32 {
  /// `value` rounded by `rule`, kept within `Int32`'s range; NaN becomes 0. Never traps.
  public init(saturating value: Double, _ rule: FloatingPointRoundingRule = .towardZero) {
    guard !value.isNaN else {
      self = 0
      return
    }
    self = Int32(Swift.min(Swift.max(value.rounded(rule), Double(Int32.min)), Double(Int32.max)))
  }
}

extension UInt32 {
  /// `value` rounded by `rule`, kept within `UInt32`'s range; NaN becomes 0. Never traps.
  public init(saturating value: Double, _ rule: FloatingPointRoundingRule = .towardZero) {
    guard !value.isNaN else {
      self = 0
      return
    }
    self = UInt32(Swift.min(Swift.max(value.rounded(rule), 0), Double(UInt32.max)))
  }
}
