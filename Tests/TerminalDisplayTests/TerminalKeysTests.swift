import DisplayCore
import Raster
import TerminalDisplay
import Testing

/// The terminal view honours README's keys (issue 20, item 13).
@Suite("Keys in the terminal")
struct TerminalKeysTests {
  /// What a terminal sends, and what the board makes of it.
  static let typed: [UInt8] = Array("qtTvdxf".utf8) + [0x1B, 0x5B, 0x43, 0x1B, 0x5B, 0x44, 0x1B, 0x4F, 0x43]
  static let expected: [DisplayEvent] = [
    .quit, .nextTheme, .previousTheme, .nextVariant, .toggleDiagnostics, .nextPage, .previousPage, .nextPage,
  ]

  @Test func theDocumentedKeysBecomeEventsWholeAndAtEveryChunkSize() {
    for size in 1...Self.typed.count {
      var keys = TerminalKeys()
      var events: [DisplayEvent] = []
      var i = 0
      while i < Self.typed.count {
        events += keys.push(Self.typed[i..<min(i + size, Self.typed.count)])
        i += size
      }
      events += keys.flush()
      #expect(events == Self.expected, "chunks of \(size)")
    }
  }

  @Test func escAloneQuitsWhenNothingFollowsIt() {
    var keys = TerminalKeys()
    #expect(keys.push([0x1B]).isEmpty)
    #expect(keys.flush() == [.quit])
    #expect(keys.flush().isEmpty)
    // ESC then a key that starts no sequence: both are keys.
    #expect(keys.push([0x1B, UInt8(ascii: "t")]) == [.quit, .nextTheme])
    // A long unknown sequence is dropped, and keys after it still count.
    #expect(keys.push([0x1B, 0x5B] + [UInt8](repeating: 0x31, count: 100) + [UInt8(ascii: "q")]) == [.quit])
  }

  /// Through the syscall seam: key mode is entered on the input, bytes read become events, and
  /// close puts the input's settings back.
  @Test func theScreenReadsKeysFromItsInputAndPutsItBack() {
    var pending: [[UInt8]] = [Array("t".utf8), [0x1B], [], Array("q".utf8)]
    var entered: [Int32] = []
    var restored: [Int32] = []
    let syscalls = TerminalSyscalls(
      write: { _, bytes in bytes.count }, waitWritable: { _ in true }, windowSize: { _ in (20, 6) },
      installResizeHandler: {}, takeResize: { false },
      read: { fd, buffer in
        #expect(fd == 5)
        guard !pending.isEmpty else { return 0 }
        let next = pending.removeFirst()
        buffer.copyBytes(from: next)
        return next.count
      },
      enterKeyMode: { fd in
        entered.append(fd)
        return true
      },
      restoreInput: { restored.append($0) })
    let screen = TerminalScreen(TerminalDisplay(output: 7, input: 5, syscalls: syscalls))
    #expect(entered == [5])
    #expect(screen.events() == [.nextTheme])
    #expect(screen.events() == [])  // ESC held: an arrow may follow
    #expect(screen.events() == [.quit])  // nothing followed: it was Esc
    #expect(screen.events() == [.quit])  // q
    screen.close()
    #expect(restored == [5])
  }

  @Test func noKeysAreReadWhenTheInputIsNoTerminal() {
    var reads = 0
    let syscalls = TerminalSyscalls(
      write: { _, bytes in bytes.count }, waitWritable: { _ in true }, windowSize: { _ in (20, 6) },
      installResizeHandler: {}, takeResize: { false },
      read: { _, _ in
        reads += 1
        return 0
      },
      enterKeyMode: { _ in false })
    let screen = TerminalScreen(TerminalDisplay(output: 7, input: 0, syscalls: syscalls))
    #expect(screen.terminal.input == nil)
    #expect(screen.events().isEmpty && reads == 0)
  }
}
