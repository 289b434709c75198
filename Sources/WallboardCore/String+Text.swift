extension StringProtocol {
  /// This text without the characters `drop` matches at either end (white space, new lines
  /// included, when not told).
  public func trimmed(where drop: (Character) -> Bool = { $0.isWhitespace }) -> SubSequence {
    guard let first = firstIndex(where: { !drop($0) }), let last = lastIndex(where: { !drop($0) }) else {
      return self[endIndex...]
    }
    return self[first...last]
  }
}

extension String {
  /// `x` with `digits` decimals (0 to 6), rounded half away from zero: `String(fixed: 2.25, digits:
  /// 1)` is "2.3". What `String(format: "%.Nf")` gave, without Foundation.
  public init(fixed x: Double, digits: Int) {
    guard x.isFinite else {
      self = x.isNaN ? "nan" : (x < 0 ? "-inf" : "inf")
      return
    }
    let digits = Swift.max(0, Swift.min(6, digits))
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let scaled = (x.magnitude * scale).rounded()
    guard scaled < 9e18 else {
      self = "\(x)"
      return
    }
    let n = Int64(scaled)
    let unit = Int64(scale)
    let sign = x < 0 && n != 0 ? "-" : ""
    guard digits > 0 else {
      self = sign + String(n)
      return
    }
    let fraction = String(n % unit)
    self = sign + String(n / unit) + "." + String(repeating: "0", count: digits - fraction.count) + fraction
  }
}
