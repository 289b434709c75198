import Clock
import Displays
import Foundation
import TerminalDisplay
import TestSupport
import Testing

@testable import Runtime
@testable import WallboardCLI

/// The environment variable that turns a run of this test binary into the child.
private let childVariable = "WB_STOP_SIGNALS_CHILD"

/// `StopSignals`' real handlers, in a child process (a second run of this test binary, filtered to
/// this suite, with `WB_STOP_SIGNALS_CHILD` set): the child opens `--display term` on its standard
/// output (a file), installs the handlers and sends itself SIGTERM, which must only set the flag;
/// then SIGINT, a second stop while the first is pending, which must restore the terminal from the
/// handler and end the process with SIGINT's default action. (A hung run loop, as the second
/// Ctrl-C meets it, without having to hang one.)
@Suite("Stop signals, real")
struct RealStopSignalTests {
  @Test func aSecondStopSignalRestoresTheTerminalAndEndsTheProcess() throws {
    if ProcessInfo.processInfo.environment[childVariable] != nil { actAsChild() }
    let dir = try TempDir("wallboard-stop")
    let output = dir.url.appendingPathComponent("stdout")
    try #require(FileManager.default.createFile(atPath: output.path, contents: nil))
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    p.arguments = ["--filter", "RealStopSignalTests", "--testing-library", "swift-testing"]
    p.environment = ProcessInfo.processInfo.environment.merging([childVariable: "1"]) { $1 }
    p.standardOutput = try FileHandle(forWritingTo: output)
    p.standardError = FileHandle.nullDevice
    try p.run()
    Deadline.wait(for: p, timeout: 60)
    let codes = [90: "no terminal display", 91: "still alive after the second signal", 92: "the first stop was lost"]
    #expect(
      p.terminationReason == .uncaughtSignal && p.terminationStatus == SIGINT,
      "the child \(p.terminationReason == .exit ? "exited \(p.terminationStatus): \(codes[Int(p.terminationStatus)] ?? "?")" : "died of signal \(p.terminationStatus)")"
    )
    let written = try Data(contentsOf: output)
    let restore = Data("\u{1B}[0m\u{1B}[?7h\u{1B}[?25h\u{1B}[?1049l".utf8)
    #expect(written.range(of: restore) != nil, "the handler put the terminal back")
  }

  /// The child's side: never returns.
  private func actAsChild() -> Never {
    var o = Options()
    o.display = TerminalKind.Terminal()
    o.size = (10, 4)
    let quiet = Console(out: { _ in }, error: { _ in })
    guard let display = try? o.openDisplay(environment: [:], console: quiet, clock: .system),
      display is TerminalScreen
    else {
      exit(90)
    }
    withExtendedLifetime(display) {
      // Test threads may block signals; this one takes them if no other does.
      var mask = sigset_t()
      sigemptyset(&mask)
      sigaddset(&mask, SIGINT)
      sigaddset(&mask, SIGTERM)
      pthread_sigmask(SIG_UNBLOCK, &mask, nil)
      StopSignals.install()
      // Sent to the process, as a shell or systemd would.
      _ = kill(getpid(), SIGTERM)
      var waited = 0
      while StopSignals.stopRequested != SIGTERM && waited < 500 {
        usleep(10_000)
        waited += 1
      }
      guard StopSignals.stopRequested == SIGTERM else { exit(92) }
      _ = kill(getpid(), SIGINT)
      for _ in 0..<500 { usleep(10_000) }
    }
    exit(91)
  }
}
