import Foundation
import TestSupport
import Testing

/// The test peer's `restart` (Tests/OrchestraPeer/README.md): it must listen on the same port
/// again every time, however soon, or the Orchestra source tests that restart it fail at random.
@Suite("Orchestra test peer restarts", .serialized)
struct OrchestraPeerRestartTests {
  /// With no pause the old listener must be gone before the new one binds: a listener closed
  /// while the acceptor thread still waits in `accept` stays listening until that call returns,
  /// and the rebind then fails with "Address already in use", SO_REUSEADDR or not.
  @Test(arguments: [0, 0.01])
  func fiftyRestartsInARowListenOnTheSamePort(downSeconds: Double) throws {
    let peer = try OrchestraPeer()
    defer { peer.stop() }
    for i in 0..<50 {
      let reply = try peer.send(#"{"cmd":"restart","down_seconds":\#(downSeconds)}"#, timeout: 5)
      try #require(reply == ["OK restart"], "restart \(i)")
    }
    #expect(try peer.send(#"{"cmd":"connections"}"#) == ["0", "OK connections"])
  }
}
