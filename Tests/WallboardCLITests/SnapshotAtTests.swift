import Foundation
import TestSupport
import Testing
import WallboardCore

@testable import Runtime
@testable import WallboardCLI

/// `snapshot --at T` draws the moment T throughout, so its pixels do not depend on when it runs.
@Suite struct SnapshotAtTests {
  func snapshot(at wall: String, _ args: [String]) throws -> Data {
    let dir = try TempDir("wallboard-snapshot-at")
    let out = dir.url.appendingPathComponent("board.png").path
    let c = Captured()
    let app = App(
      console: c.console, environment: ["WALLBOARD_HOME": Paths.repoRoot.path], now: { Make.t(wall) })
    let code = app.main(["snapshot", "--out", out, "--size", "640x360", "--tz", "UTC"] + args)
    #expect(code == 0, "\(c.err)")
    return try Data(contentsOf: URL(fileURLWithPath: out))
  }

  /// The simulated team's source is live: its age and its staleness count from the moment shown.
  @Test func theSameMomentGivesTheSamePixelsWhenever() throws {
    let args = ["--source", "sim:seed=2", "--at", "2026-11-11T15:00:00Z"]
    let even = try snapshot(at: "2026-12-01T10:00:00Z", args)
    let odd = try snapshot(at: "2026-12-01T10:00:01Z", args)
    let later = try snapshot(at: "2026-12-02T18:30:07Z", args)
    #expect(even == odd, "the ages follow the moment shown, not the wall clock's second")
    #expect(even == later)
  }
}
