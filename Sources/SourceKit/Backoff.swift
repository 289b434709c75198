internal import WallboardCore

/// How long to wait before the next try: exponential from `initial` to `max`, with ±`jitter`
/// spread so that many boards do not retry in step. The one backoff of every source.
public struct Backoff: Hashable, Sendable {
  public var initial: Double
  public var max: Double
  /// The fraction a delay may be off its exponential value, either way (0.2 = ±20 %).
  public var jitter: Double
  private var random: SplitMix64

  public init(initial: Double = 1, max: Double = 30, jitter: Double = 0.2, seed: UInt64) {
    precondition(initial > 0 && max >= initial, "a backoff needs 0 < initial ≤ max")
    self.initial = initial
    self.max = max
    self.jitter = Swift.min(Swift.max(jitter, 0), 0.9)
    self.random = SplitMix64(seed: seed)
  }

  /// The wait before try `attempt` (1 = the first retry), jittered.
  public mutating func delay(attempt: Int) -> Double {
    let base = Swift.min(max, initial * Double(1 << Swift.min(Swift.max(attempt - 1, 0), 30)))
    return base * random.double((1 - jitter)...(1 + jitter))
  }

  /// The longest wait, jittered (a server that only answers health is asked this seldom).
  public mutating func longest() -> Double { max * random.double((1 - jitter)...(1 + jitter)) }
}
