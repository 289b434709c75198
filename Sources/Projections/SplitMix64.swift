/// Sebastiano Vigna's SplitMix64: the board's own seeded generator, so that a forecast is the
/// same on every machine and in every independent implementation.
///
/// Each `next()` adds the golden gamma `0x9E3779B97F4A7C15` to the state (wrapping) and returns
/// `z ^ (z >> 31)`, where `z` is the new state put through `z = (z ^ (z >> 30)) · 0xBF58476D1CE4E5B9`
/// and then `z = (z ^ (z >> 27)) · 0x94D049BB133111EB` (products modulo 2⁶⁴).
public struct SplitMix64: Sendable {
  public private(set) var state: UInt64

  public init(seed: UInt64) { state = seed }

  /// The next 64-bit output.
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// Uniform indices from a `SplitMix64`, two from each 64-bit output: the high 32 bits first,
/// then the low 32 bits (kept for the next draw, across runs). An index in `0..<n` from a 32-bit
/// half `h` is `(h · n) >> 32` (Lemire's multiply-high, without rejection: the bias, below
/// n/2³², is negligible for the few hundred days a forecast samples).
public struct IndexDraws: Sendable {
  public private(set) var rng: SplitMix64
  private var spare: UInt64 = 0
  private var hasSpare = false

  public init(seed: UInt64) { rng = SplitMix64(seed: seed) }

  /// The next index in `0..<n` (0 < n < 2³²).
  public mutating func index(below n: Int) -> Int {
    if hasSpare {
      hasSpare = false
      return Int(truncatingIfNeeded: ((spare & 0xFFFF_FFFF) &* UInt64(n)) >> 32)
    }
    let x = rng.next()
    spare = x
    hasSpare = true
    return Int(truncatingIfNeeded: ((x >> 32) &* UInt64(n)) >> 32)
  }
}
