import FramebufferDisplay
import Glibc
import Testing

/// The environment variable that turns a run of this test binary into the child.
let childVariable = "WB_FB_CONSOLE_CHILD"

/// The console guard's restore from a real signal handler, and at exit, exercised in a child
/// process: the test binary spawns itself (`posix_spawn` of `/proc/self/exe`, filtered to this
/// suite) with `WB_FB_CONSOLE_CHILD` set, and that run of this same test acts as the child. The
/// child takes a console on a temporary file with the live seam (only `KDGETMODE` and
/// `KDSETMODE` are replaced, since a file is no tty: `KDSETMODE` writes `mode N` into the file),
/// installs a handler that does what the executable's second-signal path does
/// (`restoreActiveConsole()`, then the default action), then sends itself the signal (or exits).
/// The parent checks how the child died and what the file says.
@Suite("Console guard, real signals")
struct RealConsoleSignalTests {
  @Test(
    "restoreActiveConsole in a real SIGINT or SIGTERM handler, or exit, restores the console",
    arguments: ["SIGINT", "SIGTERM", "exit"])
  func realSignal(_ how: String) throws {
    if let child = getenv(childVariable).map({ String(cString: $0) }) {
      if child.hasPrefix(how + ":") { actAsChild(how, tty: String(child.dropFirst(how.count + 1))) }
      return
    }
    let tty = temporaryPath("tty")
    defer { removeTemporary(tty) }
    close(creat(tty, 0o644))
    let status = try spawnSelf(env: "\(childVariable)=\(how):\(tty)")
    switch how {
    case "exit": #expect(status == .exited(0))
    case "SIGINT": #expect(status == .signalled(SIGINT))
    default: #expect(status == .signalled(SIGTERM))
    }
    let text = String(decoding: readFile(tty), as: UTF8.self)
    #expect(text == "mode 1\n\u{1B}[?25lmode 0\n\u{1B}[?25h")
  }

  /// The child's side: take the console, then die of the signal (or exit) without restoring.
  private func actAsChild(_ how: String, tty: String) {
    var syscalls = FramebufferSyscalls.live
    syscalls.getConsoleMode = { (_) throws(SyscallFailure) -> Int32 in 0 }
    syscalls.setConsoleMode = { fd, mode in
      var line: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (109, 111, 100, 101, 32, UInt8(48 + mode), 10)
      _ = withUnsafeBytes(of: &line) { write(fd, $0.baseAddress, $0.count) }
      return 0
    }
    guard let console = try? ConsoleGuard(tty: tty, syscalls: syscalls) else { exit(90) }
    for signo in [SIGINT, SIGTERM] {
      var action = sigaction()
      action.__sigaction_handler.sa_handler = restoreThenDie
      sigemptyset(&action.sa_mask)
      _ = sigaction(signo, &action, nil)
    }
    withExtendedLifetime(console) {
      switch how {
      case "exit": exit(0)
      // Sent to the process, as a shell or systemd would: test threads block signals, so the
      // main thread (waiting in sigsuspend) takes it.
      case "SIGINT": _ = kill(getpid(), SIGINT)
      default: _ = kill(getpid(), SIGTERM)
      }
      for _ in 0..<100 { usleep(50_000) }
    }
    exit(91)  // the signal should have ended the process by now
  }
}

/// What the executable's handler does on a second stop signal: restore, then die of it.
private let restoreThenDie: @convention(c) (Int32) -> Void = { signo in
  ConsoleGuard.restoreActiveConsole()
  var action = sigaction()
  action.__sigaction_handler.sa_handler = SIG_DFL
  sigemptyset(&action.sa_mask)
  _ = sigaction(signo, &action, nil)
  _ = raise(signo)
}

/// How a child process ended.
enum ChildStatus: Equatable {
  case exited(Int32)
  case signalled(Int32)
  case timedOut
}

/// Runs this test binary again, filtered to `RealConsoleSignalTests`, with `env` added to the
/// environment and its output discarded; waits up to 60 seconds.
func spawnSelf(env: String) throws -> ChildStatus {
  let args = ["/proc/self/exe", "--filter", "RealConsoleSignalTests", "--testing-library", "swift-testing"]
  var argv: [UnsafeMutablePointer<CChar>?] = args.map { strdup($0) } + [nil]
  var envp: [UnsafeMutablePointer<CChar>?] = [strdup(env)]
  var e = environ
  while let entry = e.pointee {
    envp.append(strdup(entry))
    e += 1
  }
  envp.append(nil)
  defer { (argv + envp).forEach { free($0) } }
  var actions = posix_spawn_file_actions_t()
  posix_spawn_file_actions_init(&actions)
  defer { posix_spawn_file_actions_destroy(&actions) }
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
  var pid: pid_t = 0
  let spawned = posix_spawn(&pid, "/proc/self/exe", &actions, nil, &argv, &envp)
  try #require(spawned == 0, "posix_spawn failed: \(String(cString: strerror(spawned)))")
  var status: Int32 = 0
  for _ in 0..<600 {
    if waitpid(pid, &status, WNOHANG) == pid {
      let signal = status & 0x7F
      return signal == 0 ? .exited((status >> 8) & 0xFF) : .signalled(signal)
    }
    usleep(100_000)
  }
  kill(pid, SIGKILL)
  waitpid(pid, &status, 0)
  return .timedOut
}
