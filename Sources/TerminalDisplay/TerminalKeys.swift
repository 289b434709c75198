public import DisplayCore

/// Turns the bytes a terminal sends for keys into the board's events: `q` and `Esc` quit,
/// `t`/`T` next/previous theme, `v` next variant, `←`/`→` pages, `d` diagnostics (README's keys;
/// `f` has no meaning in a terminal). Everything else is ignored. A pure state machine.
///
/// `Esc` alone and the start of an arrow's sequence (`ESC [ C`, or `ESC O C` in application
/// mode) begin with the same byte: an `ESC` that ends a read is held until the next read, and is
/// the `Esc` key when nothing follows it by then (`flush()`, called when a look finds no bytes).
public struct TerminalKeys: Sendable {
  /// The bytes of an escape sequence read so far (the `ESC` included); empty outside one.
  private var pending: [UInt8] = []
  /// The longest escape sequence kept: longer ones (a mouse report, a paste) are dropped.
  static let maximumSequence = 32

  public init() {}

  /// The events in `bytes`, read after those pushed before.
  public mutating func push(_ bytes: some Sequence<UInt8>) -> [DisplayEvent] {
    var events: [DisplayEvent] = []
    for b in bytes {
      if !pending.isEmpty {
        if pending.count == 1 {
          // After ESC: `[` or `O` begins a sequence; anything else means ESC was the key.
          if b == UInt8(ascii: "[") || b == UInt8(ascii: "O") {
            pending.append(b)
            continue
          }
          pending = []
          events.append(.quit)
        } else {
          // In a sequence: parameters and intermediates until a final byte (0x40–0x7E).
          pending.append(b)
          if (0x40...0x7E).contains(b) {
            if let e = Self.sequence(final: b) { events.append(e) }
            pending = []
          } else if pending.count > Self.maximumSequence {
            pending = []
          }
          continue
        }
      }
      switch b {
      case 0x1B: pending = [b]
      case UInt8(ascii: "q"): events.append(.quit)
      case UInt8(ascii: "t"): events.append(.nextTheme)
      case UInt8(ascii: "T"): events.append(.previousTheme)
      case UInt8(ascii: "v"): events.append(.nextVariant)
      case UInt8(ascii: "d"): events.append(.toggleDiagnostics)
      default: break
      }
    }
    return events
  }

  /// Called when a look at the input found nothing: an `ESC` still waiting is the `Esc` key.
  public mutating func flush() -> [DisplayEvent] {
    defer { pending = [] }
    return pending == [0x1B] ? [.quit] : []
  }

  /// The arrow a sequence's final byte names (`C` right, `D` left), if it is one the board uses.
  private static func sequence(final: UInt8) -> DisplayEvent? {
    switch final {
    case UInt8(ascii: "C"): .nextPage
    case UInt8(ascii: "D"): .previousPage
    default: nil
    }
  }
}
