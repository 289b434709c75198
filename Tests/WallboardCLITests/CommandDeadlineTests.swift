import Foundation
import TestSupport
import Testing

/// `Command.run` never waits forever: a child still running at its deadline is killed, and the
/// test that ran it fails with the command and the timeout.
@Suite("A command's deadline")
struct CommandDeadlineTests {
  @Test func aChildThatNeverExitsIsKilledAtTheDeadlineAndFailsTheTest() throws {
    let started = Date()
    var result: Command.Result?
    try withKnownIssue("the helper records the timeout as a failure") {
      result = try Command.run(URL(fileURLWithPath: "/bin/sleep"), ["1000"], timeout: 0.5)
    } matching: { issue in
      issue.description.contains("/bin/sleep 1000 did not exit within 0.5 s")
    }
    let elapsed = Date().timeIntervalSince(started)
    #expect(elapsed < 5, "took \(elapsed) s")
    #expect(result?.timedOut == true)
    #expect(result?.status == SIGTERM)
  }
}
