public import DisplayCore

/// `--display text`: the board as plain text on standard output, redrawn on a change and once a
/// second. It draws no pixels.
public final class TextDisplay: Display {
  private let show: @Sendable (String) -> Void

  /// - Parameter show: writes to standard output.
  public init(show: @escaping @Sendable (String) -> Void) { self.show = show }

  public var size: (width: Int, height: Int) { (0, 0) }
  public var traits: DisplayTraits { DisplayTraits(fillsScreen: false, drawsPixels: false) }

  public func present(_ frame: DisplayFrame) throws(DisplayError) { show("\u{1B}[H\u{1B}[2J" + frame.text()) }
}
