/// A feature entered `status` at `at`: one step of a history a source reconstructs (an audit
/// trail), carried by a `board.snapshot` so that a board that has just met a feature knows its
/// past (see `BoardSnapshot.history`).
public struct StatusMove: Hashable, Sendable {
  public var at: Instant
  public var status: String

  public init(at: Instant, status: String) {
    self.at = at
    self.status = Status.normalise(status)
  }
}
