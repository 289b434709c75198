@_spi(Testing) import SDLDisplay
import Testing

extension SDLTests {
  @Suite struct Events {
    @Test func anIdleWindowHasNoKeyOrQuitEvents() throws {
      let window = try testWindow()
      let events = window.pollEvents()
      #expect(!events.contains { if case .key = $0 { true } else { false } })
      #expect(!events.contains(.quit))
      #expect(window.pollEvents() == [])
    }

    @Test(arguments: [
      InputEvent.key(.q, shift: false), .key(.escape, shift: false), .key(.t, shift: false),
      .key(.t, shift: true), .key(.v, shift: false), .key(.left, shift: false),
      .key(.right, shift: false), .key(.f, shift: false), .key(.d, shift: false),
      .key(.other, shift: false), .quit, .exposed,
    ])
    func aPushedEventComesBackAsItself(_ event: InputEvent) throws {
      let window = try testWindow()
      try window._pushSyntheticEvent(event)
      #expect(window.pollEvents() == [event])
    }

    @Test func eventsComeOutInOrder() throws {
      let window = try testWindow()
      let sent: [InputEvent] = [.key(.left, shift: false), .key(.t, shift: true), .quit, .key(.q, shift: false)]
      for event in sent { try window._pushSyntheticEvent(event) }
      #expect(window.pollEvents() == sent)
    }

    @Test func aResizeEventReportsTheDrawableSize() throws {
      let window = try testWindow(width: 320, height: 200)
      window._setSize(width: 480, height: 270)
      // X11 follows a resize with an expose; the dummy driver does not.
      #expect(window.pollEvents().filter { $0 != .exposed } == [.resized(width: 480, height: 270)])
      // A pushed resize names a size, but the event reports the window's real one.
      try window._pushSyntheticEvent(.resized(width: 1, height: 1))
      #expect(window.pollEvents().filter { $0 != .exposed } == [.resized(width: 480, height: 270)])
    }

    @Test func waitingReturnsAWaitingEventAtOnce() throws {
      let window = try testWindow()
      try window._pushSyntheticEvent(.key(.v, shift: false))
      try window._pushSyntheticEvent(.quit)
      let start = ContinuousClock.now
      #expect(window.waitEvent(timeout: 5) == [.key(.v, shift: false), .quit])
      #expect(ContinuousClock.now - start < .seconds(2))
    }

    @Test func waitingOnAnIdleWindowTimesOut() throws {
      let window = try testWindow()
      let start = ContinuousClock.now
      #expect(window.waitEvent(timeout: 0.2) == [])
      let waited = ContinuousClock.now - start
      #expect(waited >= .milliseconds(150) && waited < .seconds(3))
    }
  }
}
