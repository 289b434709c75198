/// Turns a layout's pages by their durations; keys may turn them too.
public struct PageTimer: Sendable {
  public private(set) var page: Int
  public private(set) var shownSince: Double
  /// The pages' durations; a layout reloaded with fewer pages leaves the timer on its last.
  public var durations: [Double] {
    didSet {
      precondition(!durations.isEmpty, "a layout has at least one page")
      page = min(page, durations.count - 1)
    }
  }

  /// Starts on page 0 at `now` (seconds on any monotonic clock).
  public init(durations: [Double], now: Double) {
    precondition(!durations.isEmpty, "a layout has at least one page")
    self.durations = durations
    self.page = 0
    self.shownSince = now
  }

  /// Advances when the current page has been shown for its duration; true when it turned.
  public mutating func tick(now: Double) -> Bool {
    guard durations.count > 1, now - shownSince >= durations[page] else { return false }
    page = (page + 1) % durations.count
    shownSince = now
    return true
  }

  /// When the page shown turns by itself (on the same clock as `now`), nil when it never does
  /// (a layout of one page).
  public var nextTurn: Double? {
    guard durations.count > 1 else { return nil }
    return shownSince + durations[min(page, durations.count - 1)]
  }

  /// Shows the page `step` pages away (from a key), and restarts its time.
  public mutating func turn(_ step: Int, now: Double) {
    let n = durations.count
    page = ((page + step) % n + n) % n
    shownSince = now
  }
}
