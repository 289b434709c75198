import Clock
import Foundation
import Synchronization
import TestSupport
import Testing

@testable import Runtime
@testable import WallboardCLI

/// SIGTERM/SIGINT stop the run loop; a second one ends the process; SIGHUP reloads.
@Suite("Stop signals")
struct StopSignalsTests {
  @Test func theFirstStopIsRecordedAndASecondEndsTheProcess() {
    let stop = Atomic<Int32>(0)
    let hangup = Atomic<Bool>(false)
    func receive(_ signo: Int32) -> StopSignals.Reaction { StopSignals.receive(signo, stop: stop, hangup: hangup) }
    #expect(receive(SIGTERM) == .stop)
    #expect(stop.load(ordering: .relaxed) == SIGTERM)
    #expect(receive(SIGHUP) == .hangup, "a reload while stopping")
    #expect(hangup.load(ordering: .relaxed) == true)
    #expect(receive(SIGINT) == .endNow)
    #expect(receive(SIGTERM) == .endNow)
    #expect(stop.load(ordering: .relaxed) == SIGTERM, "the first signal is the one reported")
    #expect(receive(SIGUSR1) == .ignored)
  }

  @Test func sigintIsTheFirstStopToo() {
    let stop = Atomic<Int32>(0)
    let hangup = Atomic<Bool>(false)
    let reaction = StopSignals.receive(SIGINT, stop: stop, hangup: hangup)
    #expect(reaction == .stop)
    #expect(stop.load(ordering: .relaxed) == SIGINT)
    #expect(hangup.load(ordering: .relaxed) == false)
  }

  @Test func exitStatusAndName() {
    #expect(StopSignals.exitStatus(for: SIGTERM) == 0)
    #expect(StopSignals.exitStatus(for: SIGINT) == 130)
    #expect(StopSignals.name(SIGTERM) == "SIGTERM")
    #expect(StopSignals.name(SIGINT) == "SIGINT")
  }

  /// A stop that a fake raises after `turns` reads of the flag.
  final class CountingStop: @unchecked Sendable {
    let lock = NSLock()
    var reads = 0
    var arms = 0
    let turns: Int
    let signo: Int32
    init(after turns: Int, signo: Int32) {
      self.turns = turns
      self.signo = signo
    }
    var request: StopRequest {
      StopRequest(
        arm: { self.lock.withLock { self.arms += 1 } },
        requested: {
          self.lock.withLock {
            self.reads += 1
            return self.reads > self.turns ? self.signo : nil
          }
        }, takeHangup: { false })
    }
  }

  @Test(arguments: [(SIGTERM, Int32(0)), (SIGINT, Int32(130))])
  func aStoppedTextBoardReturnsWithTheStatusAndSaysWhy(_ signo: Int32, _ status: Int32) {
    let stop = CountingStop(after: 3, signo: signo)
    let c = Captured()
    let app = App(console: c.console, environment: ["WALLBOARD_HOME": Paths.repoRoot.path], stop: stop.request)
    let events = Paths.fixtures.appendingPathComponent("reference/examples/worked-example.jsonl").path
    let code = app.main(["run", "--display", "text", "--source", "jsonl:\(events)", "--tz", "UTC"])
    #expect(code == status)
    #expect(c.err == "wallboard: stopped by \(StopSignals.name(signo))")
    #expect(c.out.contains("Progress:"), "the board was drawn before the stop")
    #expect(stop.arms == 1)
    // Three turns, the fourth read stops the loop, and `main` reads it once more for the line.
    #expect(stop.reads == 5, "the flag is read once a turn, and the loop returns on the first that says stop")
  }

  @Test func aHangupReloadsWithoutAFileChange() throws {
    let dir = try TempDir("wallboard-hangup")
    let file = dir.url.appendingPathComponent("mine.layout")
    try "name = mine\ndescription = one\ngrid = 1 x 1\nprogress 0 0 1 1\n".write(
      to: file, atomically: true, encoding: .utf8)
    var options = Options()
    options.layout = file.path
    let resources = Resources(root: Paths.repoRoot.path)
    var scene = try Scene.load(options, resources: resources)
    let box = HangupBox()
    var watch = ReloadWatch(options: options, resources: resources, clock: .system, hangup: box.take)
    #expect(watch.check(&scene) == nil, "no file changed and no hangup: no reload")
    box.raise()
    #expect(watch.check(&scene) == "", "the hangup reloads")
    #expect(box.taken == 1)
    #expect(watch.check(&scene) == nil, "the hangup is taken once")
  }

  /// A SIGHUP flag the test raises.
  final class HangupBox: Sendable {
    private let flag = Atomic<Bool>(false)
    private let count = Atomic<Int>(0)
    var taken: Int { count.load(ordering: .relaxed) }
    func raise() { flag.store(true, ordering: .relaxed) }
    @Sendable func take() -> Bool {
      let was = flag.exchange(false, ordering: .relaxed)
      if was { count.add(1, ordering: .relaxed) }
      return was
    }
  }
}
