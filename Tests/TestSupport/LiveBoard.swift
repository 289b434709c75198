import Foundation
public import WallboardCore

/// Collects a live source's inputs and reduces them on demand.
public final class LiveBoard: @unchecked Sendable {
  public init() {}

  private let lock = NSLock()
  private var inputs: [BoardInput] = []
  private var state = BoardState()
  public private(set) var statuses: [ConnectionStatus] = []
  /// How many `board.snapshot` events arrived: one per `board_snapshot` call the source made.
  public private(set) var snapshots = 0
  /// The stream positions of the relayed inputs taken, by the origin that relayed them, each
  /// with whether it was a whole board.
  private var relayed: [String: [(UInt64, Bool)]] = [:]

  /// The positions relayed through `origin`, in the order taken (after the last `board()`).
  public func positions(of origin: String) -> [(UInt64, Bool)] { lock.withLock { relayed[origin] ?? [] } }

  public func put(_ i: BoardInput) { lock.withLock { inputs.append(i) } }

  /// The board now.
  public func board() -> BoardState {
    lock.withLock {
      for i in inputs {
        if case .connection(_, let s, _, _) = i, statuses.last != s { statuses.append(s) }
        if case .event(let e) = i, case .boardSnapshot = e.body { snapshots += 1 }
        if case .relayed(let via, let p, let inner) = i {
          let whole = if case .restored = inner { true } else { false }
          relayed[via, default: []].append((p.sequence, whole))
        }
        Reducer.reduce(into: &state, i)
      }
      inputs.removeAll()
      return state
    }
  }

  /// Waits until `condition` holds for the board, at most `timeout` seconds.
  @discardableResult
  public func wait(_ timeout: Double = 10, _ condition: (BoardState) -> Bool) -> Bool {
    let end = Date().addingTimeInterval(timeout)
    while Date() < end {
      if condition(board()) { return true }
      Thread.sleep(forTimeInterval: 0.05)
    }
    return condition(board())
  }
}
