/// A small, fast, seeded generator (SplitMix64): the same seed always gives the same team.
public struct SplitMix64: RandomNumberGenerator, Hashable, Sendable {
  private var state: UInt64
  public init(seed: UInt64) { state = seed }
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
  /// A uniform double in `range`.
  public mutating func double(_ range: ClosedRange<Double>) -> Double {
    range.lowerBound + Double(next() >> 11) / Double(1 << 53) * (range.upperBound - range.lowerBound)
  }
  /// True with probability `p`.
  public mutating func chance(_ p: Double) -> Bool { double(0...1) < p }
}
