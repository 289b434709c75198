import DisplayCore
import Foundation
import TestSupport
import Testing

@testable import WallboardCLI

/// Issue 25: `run` draws its first frame before any source reads a byte, so a wall that restarts
/// shows what it knew at once however slow its sources are. The source here is an
/// `orchestra://` server the test listens as: while the first frame is being presented, nobody
/// may have connected to it (a `run` that started its sources first would have, well within the
/// second and a half the test waits there); after that frame, the source connects.
@Suite(.serialized) struct FirstFrameOrderTests {
  /// A TCP socket listening on 127.0.0.1 at a port of the kernel's choice.
  final class Listener: @unchecked Sendable {
    let fd: Int32
    let port: Int

    init() throws {
      let s = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
      try #require(s >= 0, "socket: errno \(errno)")
      var address = sockaddr_in()
      address.sin_family = sa_family_t(AF_INET)
      address.sin_addr.s_addr = inet_addr("127.0.0.1")
      address.sin_port = 0
      let bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(s, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
      }
      guard bound == 0 && listen(s, 4) == 0 else {
        close(s)
        throw POSIXError(.EADDRNOTAVAIL)
      }
      var length = socklen_t(MemoryLayout<sockaddr_in>.size)
      _ = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(s, $0, &length) }
      }
      fd = s
      port = Int(UInt16(bigEndian: address.sin_port))
    }

    /// Whether a connection is waiting to be accepted within `milliseconds`.
    func connectionWaiting(within milliseconds: Int32) -> Bool {
      var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      return poll(&p, 1, milliseconds) == 1 && p.revents & Int16(POLLIN) != 0
    }

    deinit { close(fd) }
  }

  @Test func theFirstFrameIsPresentedBeforeAnySourceConnects() throws {
    let server = try Listener()
    let display = MemoryDisplay(width: 320, height: 180, traits: DisplayTraits(fillsScreen: false))
    var connectedDuringFirstFrame: Bool?
    let started = Date()
    display.afterPresent = { _ in
      // The run is inside its first frame's present: its sources may not have started.
      if connectedDuringFirstFrame == nil { connectedDuringFirstFrame = server.connectionWaiting(within: 1500) }
    }
    let c = Captured()
    // The run stops once the source has connected (after the first frame), or after 30 s.
    let stop = StopRequest(
      arm: {},
      requested: {
        server.connectionWaiting(within: 0) || Date().timeIntervalSince(started) > 30 ? SIGTERM : nil
      }, takeHangup: { false })
    var app = App(console: c.console, environment: ["WALLBOARD_HOME": Paths.repoRoot.path], stop: stop)
    app.openDisplay = { (_, _, _) throws(CLIError) in display }
    let code = app.main([
      "run", "--no-journal", "--tz", "UTC", "--pixel-shift", "off", "--source", "orchestra://127.0.0.1:\(server.port)",
    ])
    let connectedLater = server.connectionWaiting(within: 0)
    #expect(code == 0, "\(c.err)")
    #expect(connectedDuringFirstFrame == false, "the source connected before the first frame was presented")
    #expect(connectedLater, "the source connected after the first frame")
  }
}
