public import WallboardCore

/// When what a frame shows would first read differently only because time passed, on each of
/// the two clocks a frame is made from: the board's (`BoardView.at`: the header's clock, the ages
/// of changes, the today line, the content) and the wall's (`BoardView.now`: how long ago a
/// source was heard, when it turns stale, the reconnect countdown, the banner's "today"). Nil
/// on a clock: nothing shown turns with it.
///
/// Each text that reads a clock has its next change beside it (`Ages.nextChange`,
/// `SourceStatus.nextChange`, …), so the two cannot drift apart; a frame's is the earliest of its
/// texts' (`FrameModel.nextChange`). Until then the run loop draws nothing.
public struct NextChange: Equatable, Sendable {
  public var board: Instant?
  public var wall: Instant?

  public init(board: Instant? = nil, wall: Instant? = nil) {
    self.board = board
    self.wall = wall
  }

  /// Nothing shown turns with either clock.
  public static let never = NextChange()

  /// Takes `t` on the board's clock when it is earlier than the one kept.
  public mutating func board(_ t: Instant?) { board = Self.earlier(board, t) }

  /// Takes `t` on the wall's clock when it is earlier than the one kept.
  public mutating func wall(_ t: Instant?) { wall = Self.earlier(wall, t) }

  /// Takes the earlier of each clock's.
  public mutating func add(_ other: NextChange) {
    board(other.board)
    wall(other.wall)
  }

  /// The earlier of two instants, either of which may be none.
  public static func earlier(_ a: Instant?, _ b: Instant?) -> Instant? {
    guard let a else { return b }
    guard let b else { return a }
    return min(a, b)
  }
}
