import Foundation

/// The `wallboard` binary measured as a whole process: what a user waits for and what the
/// machine pays — CPU from `wait4`'s rusage or `/proc/PID/stat`, memory from `ru_maxrss` or
/// `/proc/PID/status`.
struct WallboardProcess {
  let binary: String

  /// What a finished process used.
  struct Finished {
    var status: Int32
    var wall: Double
    /// User + system CPU seconds.
    var cpu: Double
    /// Peak resident memory, KiB.
    var peakKiB: Int
  }

  /// Starts `binary arguments` (`environment` added), standard input from `stdin` (a file
  /// descriptor) or /dev/null, output to /dev/null.
  func spawn(_ arguments: [String], environment: [String: String] = [:], stdin: Int32? = nil) -> pid_t {
    spawnProcess(binary, arguments, environment: environment, stdin: stdin)
  }

  /// Waits for `pid` and says what it used. The peak memory is the process's own `VmHWM`, read
  /// every half millisecond until it exits: `wait4`'s `ru_maxrss` would not do, since Linux counts
  /// in it the memory of the process that spawned the child (this bench's) from before `exec`.
  func wait(_ pid: pid_t, started: ContinuousClock.Instant) -> Finished {
    var peak = 0
    while true {
      let m = Self.memory(pid)
      if m.peak == 0 { break }  // exited (a zombie has no memory to show)
      peak = max(peak, m.peak)
      usleep(500)
    }
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
    let d = ContinuousClock.now - started
    let cpu = [usage.ru_utime, usage.ru_stime].reduce(0) { $0 + Double($1.tv_sec) + Double($1.tv_usec) / 1e6 }
    return Finished(
      status: status, wall: Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18, cpu: cpu,
      peakKiB: peak)
  }

  /// Runs `arguments` `runs` times: the least wall and CPU time (the least disturbed run), and
  /// the greatest peak memory (the polling can only miss some of a peak, never add to it). A run
  /// too short for one look at its memory is run again.
  func best(_ arguments: [String], runs: Int = 5, environment: [String: String] = [:]) -> Finished {
    var best = Finished(status: 0, wall: .infinity, cpu: .infinity, peakKiB: 0)
    var seen = 0
    var tries = 0
    while seen < runs {
      tries += 1
      precondition(tries <= runs * 4, "wallboard \(arguments.joined(separator: " ")): no look at its memory")
      let start = ContinuousClock.now
      let f = wait(spawn(arguments, environment: environment), started: start)
      precondition(f.status == 0, "wallboard \(arguments.joined(separator: " ")) exited with status \(f.status)")
      guard f.peakKiB > 0 else { continue }
      seen += 1
      best = Finished(
        status: 0, wall: min(best.wall, f.wall), cpu: min(best.cpu, f.cpu), peakKiB: max(best.peakKiB, f.peakKiB))
    }
    return best
  }

  /// CPU ticks (user + system) of a running process.
  static func ticks(_ pid: pid_t) -> Int {
    guard let text = readAll("/proc/\(pid)/stat"),
      let close = text.lastIndex(of: ")")
    else { return 0 }
    let fields = text[text.index(after: close)...].split(separator: " ")
    return (Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0)  // utime, stime: fields 14 and 15
  }

  /// `VmRSS`, `RssAnon` and `VmHWM` of a running process, KiB.
  static func memory(_ pid: pid_t) -> (rss: Int, anon: Int, peak: Int) {
    guard let text = readAll("/proc/\(pid)/status") else { return (0, 0, 0) }
    var v: [String: Int] = [:]
    for line in text.split(separator: "\n") {
      let parts = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
      if parts.count >= 2 { v[String(parts[0].dropLast())] = Int(parts[1]) }
    }
    return (v["VmRSS"] ?? 0, v["RssAnon"] ?? 0, v["VmHWM"] ?? 0)
  }

  /// A /proc file read to its end (Foundation's readers stop at the first 4 KiB: /proc files say
  /// they are empty).
  static func readAll(_ path: String) -> String? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65_536)
    while true {
      let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if n < 0 && errno == EINTR { continue }
      if n <= 0 { break }
      bytes += chunk[0..<n]
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// The resident KiB of the process's mappings of `path` (`/proc/PID/smaps`).
  static func mapped(_ pid: pid_t, path: String) -> Int {
    guard let text = readAll("/proc/\(pid)/smaps") else { return 0 }
    var inside = false
    var kib = 0
    for line in text.split(separator: "\n") {
      if let first = line.first, first.isHexDigit, line.contains("-") && !line.hasPrefix("Rss") {
        inside = line.hasSuffix(" " + path)
      } else if inside && line.hasPrefix("Rss:") {
        kib += Int(line.split(whereSeparator: { $0 == " " || $0 == "\t" })[1]) ?? 0
      }
    }
    return kib
  }

  /// What a running board used over `seconds` after `settle` seconds.
  struct Running {
    /// Share of one core, percent.
    var cpu: Double
    var rssKiB: Int
    var anonKiB: Int
    /// Times the file `watching` was replaced per second (a `png:` display's writes), when given.
    var writesPerSecond: Double?
    /// Resident KiB of the mapping of `standIn` (a file standing in for a device), when given.
    var standInKiB = 0
  }

  /// Runs `run arguments` for `settle + seconds`, then stops it with SIGTERM. `feed`, when given,
  /// writes to the board's standard input from a thread until the end. `watching`: a file whose
  /// replacements (a new inode) are counted, looked at every 10 ms.
  func running(
    _ arguments: [String], settle: Double = 3, seconds: Double, environment: [String: String] = [:],
    feed: (@Sendable (Int32, @Sendable () -> Bool) -> Void)? = nil, watching: String? = nil,
    standIn: String? = nil
  ) -> Running {
    var fds: [Int32] = [-1, -1]
    // Close-on-exec: the board gets the read end as its standard input (dup2 clears the flag
    // there) and never the write end, so it sees the end of its input.
    if feed != nil {
      precondition(pipe(&fds) == 0, "pipe")
      for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
    }
    let pid = spawn(arguments, environment: environment, stdin: feed != nil ? fds[0] : nil)
    final class Flag: @unchecked Sendable {
      let lock = NSLock()
      var stop = false
    }
    let flag = Flag()
    var feeder: Thread?
    if let feed {
      close(fds[0])
      let fd = fds[1]
      let t = Thread { feed(fd) { flag.lock.withLock { flag.stop } } }
      t.start()
      feeder = t
    }
    Thread.sleep(forTimeInterval: settle)
    let t0 = Self.ticks(pid)
    let start = ContinuousClock.now
    var writes = 0
    var inode: UInt64 = 0
    func inodeNow() -> UInt64 {
      var st = stat()
      return watching.map { stat($0, &st) == 0 ? UInt64(st.st_ino) : 0 } ?? 0
    }
    inode = inodeNow()
    while ContinuousClock.now - start < .milliseconds(Int(seconds * 1000)) {
      if watching != nil {
        Thread.sleep(forTimeInterval: 0.01)
        let now = inodeNow()
        if now != inode && now != 0 {
          writes += 1
          inode = now
        }
      } else {
        Thread.sleep(forTimeInterval: 0.25)
      }
    }
    let t1 = Self.ticks(pid)
    let d = ContinuousClock.now - start
    let wall = Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    let m = Self.memory(pid)
    let standInKiB = standIn.map { Self.mapped(pid, path: $0) } ?? 0
    flag.lock.withLock { flag.stop = true }
    kill(pid, SIGTERM)
    let finished = wait(pid, started: start)
    precondition(
      finished.status & 0x7f == 0 && (finished.status >> 8) & 0xff == 0,
      "wallboard \(arguments.joined(separator: " ")) did not stop cleanly on SIGTERM (status \(finished.status))")
    while feeder?.isFinished == false { Thread.sleep(forTimeInterval: 0.01) }
    if feed != nil { close(fds[1]) }
    let hz = Double(sysconf(Int32(_SC_CLK_TCK)))
    return Running(
      cpu: Double(t1 - t0) / hz / wall * 100, rssKiB: m.rss, anonKiB: m.anon,
      writesPerSecond: watching.map { _ in Double(writes) / wall }, standInKiB: standInKiB)
  }
}

/// A group's figures alone (`--quic-only`, `--nats-only`, `--footprint-only`), printed as the
/// whole report prints them: `figures` is handed the `--wallboard` binary, a scratch folder
/// (made, and removed after) and the data's root (`WALLBOARD_HOME`, else the current folder).
/// The figures are written as JSON too when `--json PATH` is given.
@MainActor func runAlone(
  _ flag: String, scratch: String,
  _ figures: (_ report: Report, _ p: WallboardProcess, _ dir: String, _ root: String) -> Void
) {
  let arguments = CommandLine.arguments
  guard let i = arguments.firstIndex(of: "--wallboard"), i + 1 < arguments.count else {
    print("\(flag) needs --wallboard PATH")
    exit(2)
  }
  signal(SIGPIPE, SIG_IGN)
  let root = ProcessInfo.processInfo.environment["WALLBOARD_HOME"] ?? FileManager.default.currentDirectoryPath
  let dir = NSTemporaryDirectory() + "wallboard-bench-\(scratch)-\(getpid())"
  try! FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(atPath: dir) }
  let report = Report()
  figures(report, WallboardProcess(binary: arguments[i + 1]), dir, root)
  let json = arguments.firstIndex(of: "--json").flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
  report.show(title: "Wallboard benchmarks (release): \(flag)", json: json)
}

/// Starts `executable arguments` with the bench's environment and `environment` over it:
/// standard input from `stdin` (a file descriptor) or /dev/null, standard output to /dev/null,
/// standard error to the file `stderr` (made anew) or /dev/null.
func spawnProcess(
  _ executable: String, _ arguments: [String], environment: [String: String] = [:], stdin: Int32? = nil,
  stderr: String? = nil
) -> pid_t {
  var actions = posix_spawn_file_actions_t()
  posix_spawn_file_actions_init(&actions)
  defer { posix_spawn_file_actions_destroy(&actions) }
  if let stdin {
    posix_spawn_file_actions_adddup2(&actions, stdin, 0)
  } else {
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
  }
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
  posix_spawn_file_actions_addopen(&actions, 2, stderr ?? "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
  var env = ProcessInfo.processInfo.environment
  for (k, v) in environment { env[k] = v }
  let argv = ([executable] + arguments).map { strdup($0) } + [nil]
  let envp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
  defer { for p in argv + envp { free(p) } }
  var pid: pid_t = 0
  let rc = posix_spawn(&pid, executable, &actions, nil, argv, envp)
  precondition(rc == 0, "cannot start \(executable): \(String(cString: strerror(rc)))")
  return pid
}

/// What `executable arguments` wrote on its standard output, once it exited with status 0; nil
/// when it could not start or failed. Its standard error goes to `stderr` (nil: nowhere).
func capturedOutput(_ executable: String, _ arguments: [String], stderr: FileHandle? = nil) -> String? {
  let p = Process()
  p.executableURL = URL(fileURLWithPath: executable)
  p.arguments = arguments
  let out = Pipe()
  p.standardOutput = out
  p.standardError = stderr ?? FileHandle.nullDevice
  guard (try? p.run()) != nil else { return nil }
  let data = out.fileHandleForReading.readDataToEndOfFile()
  p.waitUntilExit()
  guard p.terminationStatus == 0 else { return nil }
  return String(decoding: data, as: UTF8.self)
}
