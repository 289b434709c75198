import Foundation

/// Headless Chromium taking a screenshot of a page, measured as the whole tree of processes it
/// starts (browser, zygotes, GPU, network and storage services, renderer, crash handlers): the
/// largest sum of their proportional set sizes (`Pss` of `/proc/PID/smaps_rollup`), sampled
/// every 25 ms from the start to the last one's exit. PSS, not RSS: the processes share much
/// (the zygote's children its pages, all of them the 250 MB binary's), and a sum of RSS would
/// count each shared page once per process. This machine's cgroup v2 has no memory controller
/// (`memory.peak`), so the tree is sampled.
///
/// The tree is every process descending from the one started (by parent, kept once seen: a
/// crash handler that leaves for init stays counted), and every process whose command line names
/// the run's folder (its `HOME` and `--user-data-dir`: the crash handlers, which are started
/// detached, say `--database=<HOME>/...`).
struct Chromium {
  /// The launcher Debian installs (a script that adds `/etc/chromium.d`'s flags and execs the
  /// browser), as a user would start it.
  var executable = "/usr/bin/chromium"
  var timeout: Double = 60
  /// Sampling interval, seconds.
  var interval = 0.025

  /// One run's figures.
  struct Peak {
    /// The largest sum of PSS over the tree, KiB.
    var pssKiB: Int
    /// The sum of RSS at the same sample, KiB (for scale: it counts shared pages many times).
    var rssKiB: Int
    /// How many processes the tree had at that sample, and over the whole run.
    var processesAtPeak: Int
    var processes: Int
    var wall: Double
  }

  /// Why there is no figure.
  enum Failure: Error, CustomStringConvertible {
    case notInstalled(String)
    case failed(status: Int32, stderr: String)
    case timedOut(Double)
    case noScreenshot(String)

    var description: String {
      switch self {
      case .notInstalled(let path): "\(path) is not installed (Debian's chromium: `make bench` installs it)"
      case .failed(let status, let stderr):
        "chromium exited with status \(status)" + (stderr.isEmpty ? "" : ": \(stderr)")
      case .timedOut(let s): "chromium did not finish within \(Int(s)) s (its processes were killed)"
      case .noScreenshot(let path): "chromium exited 0 but wrote no screenshot at \(path)"
      }
    }
  }

  /// The name and major version (`Chromium 156` of `Chromium 156.0.8078.129 built on Debian…`).
  func version() -> String? {
    guard FileManager.default.isExecutableFile(atPath: executable) else { return nil }
    guard let output = capturedOutput(executable, ["--version"]) else { return nil }
    let text = output.trimmingCharacters(in: .whitespacesAndNewlines)
    let words = text.split(separator: " ")
    guard words.count >= 2, let major = words[1].split(separator: ".").first else { return nil }
    return "\(words[0]) \(major)"
  }

  /// The lowest peak of `runs` runs (the least disturbed), or why there is none.
  func best(page: String, dir: String, runs: Int = 3) -> Swift.Result<Peak, Failure> {
    var best: Peak?
    for i in 0..<runs {
      switch screenshot(page: page, dir: dir + "/chromium-\(i)") {
      case .failure(let f): return .failure(f)
      case .success(let p): if p.pssKiB < best?.pssKiB ?? .max { best = p }
      }
    }
    return .success(best!)
  }

  /// One run: `chromium --headless=new --no-sandbox --disable-gpu --window-size=1920,1080
  /// --screenshot=FILE file://PAGE`, in a fresh profile and `HOME` under `dir` (removed after).
  func screenshot(page: String, dir: String) -> Swift.Result<Peak, Failure> {
    guard FileManager.default.isExecutableFile(atPath: executable) else { return .failure(.notInstalled(executable)) }
    try? FileManager.default.removeItem(atPath: dir)
    try! FileManager.default.createDirectory(atPath: dir + "/profile", withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let shot = dir + "/screenshot.png"
    // As root Chromium needs --no-sandbox; --headless=new is 156's only headless mode, named.
    let arguments = [
      "--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1920,1080", "--hide-scrollbars",
      "--user-data-dir=" + dir + "/profile", "--screenshot=" + shot, URL(fileURLWithPath: page).absoluteString,
    ]
    let start = ContinuousClock.now
    let root = spawn(arguments, home: dir, stderr: dir + "/stderr")
    var tree = Tree(root: root, marker: dir)
    var peak = Peak(pssKiB: 0, rssKiB: 0, processesAtPeak: 0, processes: 0, wall: 0)
    var status: Int32?
    var exited: ContinuousClock.Instant?
    var timedOut = false
    // Until the browser has exited and every process of its tree is gone (those left 5 s after
    // the browser are ended).
    while true {
      let alive = tree.scan()
      var pss = 0
      var rss = 0
      for pid in alive {
        let m = Self.rollup(pid)
        pss += m.pss
        rss += m.rss
      }
      if pss > peak.pssKiB {
        peak = Peak(pssKiB: pss, rssKiB: rss, processesAtPeak: alive.count, processes: 0, wall: 0)
      }
      if status == nil {
        var s: Int32 = 0
        if waitpid(root, &s, WNOHANG) == root {
          status = s
          exited = ContinuousClock.now
        }
      }
      if status != nil && alive.allSatisfy({ $0 == root }) { break }
      if let exited, ContinuousClock.now - exited > .seconds(5) {
        for pid in alive where pid != root { kill(pid, SIGKILL) }
        break
      }
      if ContinuousClock.now - start > .milliseconds(Int(timeout * 1000)) {
        for pid in alive { kill(pid, SIGKILL) }
        if status == nil {
          var s: Int32 = 0
          while waitpid(root, &s, 0) < 0 && errno == EINTR {}
        }
        timedOut = true
        break
      }
      Thread.sleep(forTimeInterval: interval)
    }
    peak.wall = QUICBench.seconds(ContinuousClock.now - start)
    peak.processes = tree.members.count
    if timedOut { return .failure(.timedOut(timeout)) }
    guard let status, status == 0 else {
      let text = (try? String(contentsOfFile: dir + "/stderr", encoding: .utf8)) ?? ""
      let last = text.split(separator: "\n").last { !$0.contains("dbus") }.map(String.init) ?? ""
      return .failure(.failed(status: status ?? -1, stderr: last))
    }
    guard FileManager.default.fileExists(atPath: shot) else { return .failure(.noScreenshot(shot)) }
    return .success(peak)
  }

  /// Starts the launcher with `arguments`, `HOME` set to `home`, standard error to `stderr`.
  private func spawn(_ arguments: [String], home: String, stderr: String) -> pid_t {
    spawnProcess(executable, arguments, environment: ["HOME": home], stderr: stderr)
  }

  /// `Pss` and `Rss` of `/proc/PID/smaps_rollup`, KiB (0 for a process gone or a zombie).
  static func rollup(_ pid: pid_t) -> (pss: Int, rss: Int) {
    guard let text = WallboardProcess.readAll("/proc/\(pid)/smaps_rollup") else { return (0, 0) }
    var pss = 0
    var rss = 0
    for line in text.split(separator: "\n") where line.hasPrefix("Pss:") || line.hasPrefix("Rss:") {
      let kib = Int(line.split(whereSeparator: { $0 == " " || $0 == "\t" })[1]) ?? 0
      if line.hasPrefix("Pss:") { pss = kib } else { rss = kib }
    }
    return (pss, rss)
  }

  /// The processes of one run, found in `/proc` at each look.
  struct Tree {
    let root: pid_t
    /// A string only this run's processes have on their command lines.
    let marker: String
    /// Every process counted so far (kept: one that leaves for init is still the run's).
    private(set) var members: Set<pid_t> = []
    /// Processes looked at and found not to be the run's.
    private var others: Set<pid_t> = []

    init(root: pid_t, marker: String) {
      self.root = root
      self.marker = marker
      members = [root]
    }

    /// The members alive now (not zombies), after taking in the new ones.
    mutating func scan() -> [pid_t] {
      var parents: [pid_t: pid_t] = [:]
      var alive: Set<pid_t> = []
      guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [] }
      for name in entries {
        guard let pid = pid_t(name) else { continue }
        guard let stat = WallboardProcess.readAll("/proc/\(pid)/stat"), let close = stat.lastIndex(of: ")") else {
          continue
        }
        // After the command's closing parenthesis: state, then the parent.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 2, let ppid = pid_t(fields[1]) else { continue }
        if fields[0] != "Z" { alive.insert(pid) }
        if pid == 2 || ppid == 2 { others.insert(pid) }  // kthreadd and the kernel's threads
        parents[pid] = ppid
      }
      // Descendants of members, to a fixed point (a child may be listed before its parent).
      var grew = true
      while grew {
        grew = false
        for (pid, ppid) in parents where !members.contains(pid) && members.contains(ppid) {
          members.insert(pid)
          grew = true
        }
      }
      // Detached processes that name the run's folder.
      for pid in parents.keys where !members.contains(pid) && !others.contains(pid) {
        let cmdline = WallboardProcess.readAll("/proc/\(pid)/cmdline") ?? ""
        if cmdline.isEmpty { continue }  // between fork and exec, or a kernel thread: look again
        if cmdline.contains(marker) { members.insert(pid) } else { others.insert(pid) }
      }
      return members.filter { alive.contains($0) }.sorted()
    }
  }
}
