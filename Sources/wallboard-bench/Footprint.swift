import EventSources
import Foundation
import SourceKit
import WallboardCore
import Widgets

/// What the board costs a machine (issue 25, the x86_64 build): the stripped binary's size, the
/// process's floor, a 1080p snapshot's peak memory beside headless Chromium's showing the same
/// board as a web page, and running 1080p boards' memory and idle CPU on each display.
/// `--footprint-only` prints these groups alone.
enum Footprint {
  static let processGroup = "The wallboard process (best of 5 runs)"
  static let runningGroup = "A running 1920x1080 board, idle (20 s each)"
  static let mb = 1_000_000.0
  static let mib = 1024.0

  /// The moment and team the snapshot shows, and the page Chromium shows.
  static let snapshotAt = "2026-11-11T15:00:00Z"

  /// The binary's size, its floor (`--version`), and a 1080p snapshot's CPU and memory beside
  /// Chromium's: the first figures of the process group. Chromium's peak (MiB), when measured.
  @discardableResult
  @MainActor static func process(into report: Report, p: WallboardProcess, dir: String) -> Double? {
    let group = processGroup
    switch strippedSize(p.binary, dir: dir) {
    case .success(let size):
      report.add(
        group, "binary, stripped (x86_64)", Double(size.stripped) / mb, "MB", goal: 25,
        note: "1 MB = 10^6 bytes; `strip` of a copy; \(Report.number(Double(size.built) / mb)) MB as built, "
          + "which `make install` installs as it is")
    case .failure(let why):
      report.add(group, "binary, stripped (x86_64): not measured", .nan, "", note: why.description)
    }

    let floor = p.best(["--version"])
    report.add(group, "floor: wallboard --version, CPU", floor.cpu * 1000, "ms", note: "start and exit of the binary")
    report.add(
      group, "floor: wallboard --version, peak memory", Double(floor.peakKiB) / mib, "MiB", goal: 5,
      note: "peak resident (VmHWM)")

    let snapshotArgs = [
      "snapshot", "--source", "sim:seed=1", "--at", snapshotAt, "--tz", "UTC", "--size", "1920x1080",
      "--out", dir + "/snapshot.png", "--no-journal",
    ]
    let snap = p.best(snapshotArgs)
    report.add(
      group, "snapshot 1920x1080, start to PNG, wall time", snap.wall * 1000, "ms",
      note: "the simulated team's 6 weeks, projected, drawn, encoded")
    report.add(
      group, "snapshot 1920x1080, start to PNG, CPU", snap.cpu * 1000, "ms", goal: 40,
      note: "\(Report.number(snap.cpu / floor.cpu))× the floor")

    let chromium = chromiumFigure(into: report, dir: dir)
    let snapMiB = Double(snap.peakKiB) / mib
    var note =
      "\(Report.number(Double(snap.peakKiB) / Double(floor.peakKiB)))× the floor; the frame alone is 7.9 MiB"
    if let chromium {
      note =
        "goal 0.08 × Chromium's \(Report.number(chromium)) MiB; \(Report.number(snapMiB / chromium * 100)) % of it; "
        + note
    }
    report.add(
      group, "snapshot 1920x1080, peak memory", snapMiB, "MiB", goal: chromium.map { 0.08 * $0 },
      note: note + "; peak resident (VmHWM)")
    return chromium
  }

  /// Headless Chromium's peak memory showing the snapshot's board as a web page (best of 3), in
  /// MiB, added to the report; nil, with the reason in the report, when it could not be measured.
  @MainActor static func chromiumFigure(into report: Report, dir: String) -> Double? {
    let page = dir + "/board.html"
    try! BoardPage.html(snapshotFrame()).write(toFile: page, atomically: false, encoding: .utf8)
    let chromium = Chromium()
    let name = "\(chromium.version() ?? "Chromium") headless, the same board as a page, peak memory"
    switch chromium.best(page: page, dir: dir) {
    case .failure(let why):
      report.add(processGroup, name + ": not measured", .nan, "", note: "\(why)")
      return nil
    case .success(let peak):
      let mib = Double(peak.pssKiB) / mib
      report.add(
        processGroup, name, mib, "MiB",
        note: "best of 3; the largest sum of PSS over its process tree (\(peak.processesAtPeak) processes then, "
          + "\(peak.processes) seen in all), sampled every 25 ms; RSS summed \(Report.number(Double(peak.rssKiB) / Self.mib)) "
          + "MiB; a screenshot of 1920x1080 in \(Report.number(peak.wall)) s")
      return mib
    }
  }

  /// What `snapshot --source sim:seed=1 --at snapshotAt --tz UTC` draws.
  static func snapshotFrame() -> FrameModel {
    let at = try! Instant(rfc3339: snapshotAt)
    var state = BoardState()
    for i in SimSource.inputs(team: SimulatedTeam(seed: 1), origin: "sim", through: at) {
      Reducer.reduce(into: &state, i)
    }
    return FrameModel(state: state, at: at, now: at, zone: .utc, unit: .auto)
  }

  /// Why a figure could not be measured, as the report says it.
  struct Unmeasured: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
  }

  /// The sizes of `binary` as built and stripped (`strip -o` of a copy in `dir`), bytes.
  static func strippedSize(_ binary: String, dir: String) -> Swift.Result<(built: Int, stripped: Int), Unmeasured> {
    let copy = dir + "/wallboard-stripped"
    let strip = Process()
    strip.executableURL = URL(fileURLWithPath: "/usr/bin/strip")
    strip.arguments = ["-o", copy, binary]
    strip.standardOutput = FileHandle.nullDevice
    strip.standardError = FileHandle.nullDevice
    guard (try? strip.run()) != nil else { return .failure(Unmeasured("no /usr/bin/strip (binutils)")) }
    strip.waitUntilExit()
    defer { try? FileManager.default.removeItem(atPath: copy) }
    guard strip.terminationStatus == 0,
      let built = (try? FileManager.default.attributesOfItem(atPath: binary))?[.size] as? Int,
      let stripped = (try? FileManager.default.attributesOfItem(atPath: copy))?[.size] as? Int
    else { return .failure(Unmeasured("strip \(binary) exited with status \(strip.terminationStatus)")) }
    return .success((built, stripped))
  }

  /// Running boards at 1080p on a finished events file, idle after their first frames, on each
  /// display. The framebuffer board stands for a wall: it carries issue 25's goals (resident
  /// memory ≤ 24 MiB, idle CPU ≤ 0.1 % of a core); the window and the png: file keep theirs.
  @MainActor static func displays(into report: Report, p: WallboardProcess, dir: String, root: String) {
    let idle = root + "/scripts/idle-board.jsonl"
    let running = runningGroup
    let boardArgs = ["run", "--source", "jsonl:" + idle, "--size", "1920x1080", "--tz", "UTC", "--no-journal"]
    let displays: [(name: String, args: [String], cpu: Double, memory: Double)] = [
      ("window (SDL, dummy video driver)", ["--display", "sdl"], 0.3, 32),
      (
        "framebuffer (a file standing in)", ["--display", "fb:" + dir + "/fb", "--fb-geometry", "1920x1080x32"], 0.1, 24
      ),
      ("png: file", ["--display", "png:" + dir + "/board.png"], 1, 32),
    ]
    for d in displays {
      let framebuffer = d.name.hasPrefix("framebuffer")
      let r = p.running(
        boardArgs + d.args, seconds: 20, environment: ["SDL_VIDEODRIVER": "dummy"],
        watching: d.args[1].hasPrefix("png:") ? dir + "/board.png" : nil, standIn: framebuffer ? dir + "/fb" : nil)
      report.add(
        running, "\(d.name): CPU", r.cpu, "% core", goal: d.cpu,
        note: framebuffer ? "a wall, idle; counted in clock ticks, 0.05 % each over 20 s" : nil)
      // A device's memory is not resident memory; the file standing in for it is: left out.
      let rss = Double(r.rssKiB - r.standInKiB) / mib
      let standInNote =
        framebuffer
        ? "; without the \(Report.number(Double(r.standInKiB) / mib)) MiB of the file standing in for the device; "
          + "moonshot 12 MiB"
        : ""
      report.add(
        running, "\(d.name): resident memory", rss, "MiB", goal: d.memory,
        note: "\(Report.number(Double(r.anonKiB) / mib)) MiB of it the process's own (anonymous)\(standInNote)")
      if let w = r.writesPerSecond { report.add(running, "\(d.name): files written", w, "/s", goal: 1) }
    }
  }

  /// `--footprint-only`: the process's first figures (size, floor, snapshot, Chromium), the
  /// running boards and, with `--guest PREFIX`, the aarch64 guest's, printed as the whole report
  /// prints them. `--board-page PATH` writes the page Chromium is shown and stops.
  @MainActor static func only() {
    // Its own reading of the arguments: main.swift's `argument` is not set yet when this runs.
    let arguments = CommandLine.arguments
    func argument(_ name: String) -> String? {
      arguments.firstIndex(of: name).flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
    }
    if let page = argument("--board-page") {
      try! BoardPage.html(snapshotFrame()).write(toFile: page, atomically: false, encoding: .utf8)
      print("wrote \(page)")
      return
    }
    runAlone("--footprint-only", scratch: "footprint") { report, p, dir, root in
      let chromium = process(into: report, p: p, dir: dir)
      displays(into: report, p: p, dir: dir, root: root)
      if let prefix = argument("--guest") {
        Guest.figures(into: report, prefix: prefix, root: root, chromium: chromium)
      }
    }
  }
}
