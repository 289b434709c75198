internal import Clock
internal import Kiosk
public import SourceKit
internal import WallboardCore

/// What the screen of a running board shows, as its loop last left it — on, dimmed or off by
/// the night schedule, when it last presented a frame, and the stream position each relayed
/// source's board had then — for the wall's fleet report, read from a source's thread.
public final class ScreenWatch: @unchecked Sendable {
  private let lock = Lock()
  private var screen = WallScreen()

  public init() {}

  public var current: WallScreen { lock.withLock { screen } }

  /// The layout the board draws, by its digest (set when the scene is made or reloaded).
  public func drawing(layout digest: String) { lock.withLock { screen.layout = digest } }

  /// The loop's turn: the night's state now, and — when a frame was presented — its time and
  /// the board it showed.
  func saw(night: NightSchedule.State, frameAt: Instant?, board: BoardState) {
    let s: FleetReport.Screen =
      switch night {
      case .day: .on
      case .dim: .dimmed
      case .blank: .off
      }
    lock.withLock {
      screen.screen = s
      guard let frameAt else { return }
      screen.lastFrame = frameAt
      screen.positions = board.origins.compactMapValues { $0.relayed?.sequence }
    }
  }
}
