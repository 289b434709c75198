import Foundation

/// What the board costs in the aarch64 guest of `make vm-test` (issue 25): `--guest PREFIX` boots
/// it (Tests/VM/bench.sh: the same kernel, initramfs and machine as `make vm-test`, QEMU's
/// software emulation of a Cortex-A53, virtio-gpu at 1920x1080) with PREFIX's arm64 board (`make
/// pi`'s install tree) and reads the figures Tests/VM/bench-guest.sh wrote there.
///
/// Start → first frame is the time from the board's `exec` (the kernel's start time of the
/// process, in clock ticks of 10 ms) to the return of its first `present` on the device, as the
/// board's own line on stderr says it ("first frame N ms after start"). Emulation is far slower
/// than a Pi's cores, and slower still while the host is busy: the figures are an upper bound
/// for a Pi 3 or Zero 2.
enum Guest {
  static let mb = 1_000_000.0
  static let mib = 1024.0

  /// The lines of bench-guest.sh's figures file, by name: each line's values after its name.
  struct Lines {
    var byName: [String: [[String]]] = [:]

    init(_ text: String) {
      for line in text.split(separator: "\n") {
        let words = line.split(separator: " ").map(String.init)
        guard let name = words.first else { continue }
        byName[name, default: []].append(Array(words.dropFirst()))
      }
    }

    /// The integers of every `name` line whose first value is `key` (or every `name` line).
    func values(_ name: String, key: String? = nil) -> [[Int]] {
      (byName[name] ?? []).compactMap { words in
        guard let key else { return words.map { Int($0) ?? -1 } }
        return words.first == key ? words.dropFirst().map { Int($0) ?? -1 } : nil
      }
    }
  }

  /// Boots the guest with `prefix`'s board and adds its figures to `report`; the snapshot's goal
  /// is 0.08 × `chromium` MiB when Chromium was measured on the host.
  @MainActor static func figures(into report: Report, prefix: String, root: String, chromium: Double?) {
    let group = "Under the aarch64 guest (QEMU software emulation of a Cortex-A53, virtio-gpu)"
    let binary = prefix + "/bin/wallboard"
    if let size = (try? FileManager.default.attributesOfItem(atPath: binary))?[.size] as? Int {
      report.add(
        group, "binary, stripped (aarch64)", Double(size) / mb, "MB", goal: 25,
        note: "make pi's, stripped there; the Swift runtime linked in")
    }
    let started = ContinuousClock.now
    guard let text = boot(prefix: prefix, root: root) else {
      report.add(group, "the guest: not measured", .nan, "", note: "Tests/VM/bench.sh failed (its output above)")
      return
    }
    let took = ContinuousClock.now - started
    let lines = Lines(text)
    let screen = lines.values("screen").first.map { "\($0[0])x\($0[1])" } ?? "?"
    let runs = lines.values("version").count
    let note = "best of \(runs)"

    let version = lines.values("version").map { $0[0] }
    report.add(
      group, "floor: wallboard --version, wall time", Double(version.min() ?? -1), "ms",
      note: "\(note) (\(version.map(String.init).joined(separator: ", ")) ms; uptime's 10 ms steps)")
    let peaks = lines.values("version-peak").map { $0[0] }
    let parts = lines.values("version-rss").max { $0.reduce(0, +) < $1.reduce(0, +) } ?? [0, 0, 0]
    report.add(
      group, "floor: wallboard --version, peak memory", Double(peaks.max() ?? -1) / mib, "MiB", goal: 5,
      note: "VmHWM at exit, the largest of \(peaks.count); at exit \(Report.number(Double(parts[0]) / mib)) MiB "
        + "anonymous, \(Report.number(Double(parts[1] + parts[2]) / mib)) MiB of the binary's and libraries' pages "
        + "(shared memory: the initramfs is in memory)")
    if let snapshot = lines.values("snapshot-peak").first?.first {
      let value = Double(snapshot) / mib
      report.add(
        group, "snapshot \(screen), peak memory", value, "MiB", goal: chromium.map { 0.08 * $0 },
        note: (chromium.map { "goal 0.08 × the host's Chromium's \(Report.number($0)) MiB; " } ?? "")
          + "the last VmHWM seen, looked at without pause")
    }
    for (disp, name) in [("drm", "DRM"), ("fb", "framebuffer")] {
      let frames = lines.values("first-frame", key: disp).compactMap { $0.first }.filter { $0 >= 0 }
      report.add(
        group, "start → first frame on \(name), \(screen)", Double(frames.min() ?? -1), "ms", goal: 500,
        note: "\(note) (\(frames.map(String.init).joined(separator: ", ")) ms): exec to its first frame presented, "
          + "as the board says it on stderr")
      // The display's own memory mapped (the framebuffer's) is not the board's: left out, as the
      // host's figure leaves out the file standing in for the device.
      if let r = lines.values("resident", key: disp).first, r.count == 5 {
        report.add(
          group, "a running \(screen) board on \(name): resident memory", Double(r[0] - r[4]) / mib, "MiB",
          goal: 24,
          note: "moonshot 12 MiB; without the \(Report.number(Double(r[4]) / mib)) MiB of the device's memory "
            + "mapped; \(Report.number(Double(r[1]) / mib)) MiB anonymous, the rest the binary's and libraries' "
            + "pages (shared memory: the initramfs is in memory)")
      }
      if let i = lines.values("idle", key: disp).first, i.count == 3, i[1] > 0, i[2] > 0 {
        report.add(
          group, "a running \(screen) board on \(name): idle CPU", Double(i[0]) / Double(i[2]) / Double(i[1]) * 100,
          "% core", goal: 0.3, note: "\(i[0]) clock ticks over \(i[1]) s")
      }
    }
    report.add(
      group, "the guest's run, boot to power-off", Double(took.components.seconds), "s",
      note: "setup and initramfs included")
  }

  /// Tests/VM/bench.sh's output (the figures file), its progress passed on to stderr; nil when it failed.
  static func boot(prefix: String, root: String) -> String? {
    capturedOutput(root + "/Tests/VM/bench.sh", [prefix], stderr: FileHandle.standardError)
  }

  /// `--guest-only --guest PREFIX`: the guest's figures alone (no host binary needed).
  @MainActor static func only() {
    let arguments = CommandLine.arguments
    guard let i = arguments.firstIndex(of: "--guest"), i + 1 < arguments.count else {
      print("--guest-only needs --guest PREFIX (make pi's .build/pi/install)")
      exit(2)
    }
    let root = ProcessInfo.processInfo.environment["WALLBOARD_HOME"] ?? FileManager.default.currentDirectoryPath
    let report = Report()
    figures(into: report, prefix: arguments[i + 1], root: root, chromium: nil)
    let json = arguments.firstIndex(of: "--json").flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
    report.show(title: "Wallboard benchmarks: --guest-only", json: json)
  }
}
