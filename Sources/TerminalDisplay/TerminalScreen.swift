public import DisplayCore
internal import Raster

/// The terminal as the board's display: each frame downsampled to half-block cells, with the
/// frame's text written over them as characters (`DisplayFrame.texts`).
///
/// Its events are the keys typed (`TerminalKeys`) and a resize (`SIGWINCH`), looked at ten
/// times a second.
public final class TerminalScreen: Display {
  public let terminal: TerminalDisplay
  private var keys = TerminalKeys()

  public init(_ terminal: TerminalDisplay) { self.terminal = terminal }

  /// The canvas size that gives every cell the same whole-pixel box.
  public var size: (width: Int, height: Int) { terminal.canvasSize() }

  public var traits: DisplayTraits { DisplayTraits(fillsScreen: false, eventPollInterval: 0.1, writesText: true) }

  public func present(_ frame: DisplayFrame) throws(DisplayError) {
    do { try terminal.present(frame.canvas, texts: frame.texts) } catch {
      throw DisplayError("cannot write to the terminal: \(error)")
    }
  }

  public func events() -> [DisplayEvent] {
    let typed = terminal.readInput()
    var events = typed.isEmpty ? keys.flush() : keys.push(typed)
    if terminal.checkResize() {
      let s = terminal.canvasSize()
      events.append(.resized(s.width, s.height))
    }
    return events
  }

  /// Hands the terminal back (colours, autowrap, the cursor below the board).
  public func close() { try? terminal.close() }
}
