public import Foundation
import PNG
public import Raster
public import Testing

/// Golden-image checks: compare a rendered canvas with a PNG stored next to the test.
///
/// A missing golden is written and the test fails (so a new golden is looked at before it is
/// trusted). `WALLBOARD_RECORD_GOLDENS=1` re-records every golden a run touches whose pixels
/// differ (one that still matches is left as it is), and also fails.
/// When `CI` is set nothing is ever written into the source tree: a missing golden just fails.
/// A mismatch reports how many pixels differ, the largest channel difference and the first
/// differing pixel, and writes `<name>.actual.png` and `<name>.diff.png` to a temporary folder
/// named in the message.
public enum Golden {
  /// Compares `canvas` with `<directory>/<name>.png`, recording an issue when they differ by
  /// more than `tolerance` in any channel of any pixel.
  public static func check(
    _ canvas: Canvas, named name: String, directory: URL, tolerance: UInt8 = 1,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let result = compare(canvas, named: name, directory: directory, tolerance: tolerance)
    if let message = result.failure {
      Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
    }
  }

  /// Compares `text` with `<directory>/<name>.txt`, by the same rules as images: a missing
  /// golden is recorded (never on CI) and fails, `WALLBOARD_RECORD_GOLDENS=1` re-records, and a
  /// mismatch names the first line that differs and writes `<name>.actual.txt` to a temporary
  /// folder.
  public static func checkText(
    _ text: String, named name: String, directory: URL,
    environment: [String: String] = ProcessInfo.processInfo.environment,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let file = directory.appendingPathComponent("\(name).txt")
    let ci = environment["CI"].map { !$0.isEmpty && $0 != "0" && $0.lowercased() != "false" } ?? false
    let rerecord = environment["WALLBOARD_RECORD_GOLDENS"] == "1"
    let exists = FileManager.default.fileExists(atPath: file.path)
    func fail(_ message: String) { Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation) }
    if !exists || rerecord {
      if ci {
        return fail(
          exists
            ? "WALLBOARD_RECORD_GOLDENS is set but CI is too: goldens are never recorded on CI"
            : "missing golden \(file.path) (CI never records; record it locally and commit it)")
      }
      do {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: file, options: .atomic)
      } catch {
        return fail("could not record golden \(file.path): \(error)")
      }
      return fail(
        exists
          ? "re-recorded golden \(file.path) (WALLBOARD_RECORD_GOLDENS=1); look at it, then run again without it"
          : "recorded missing golden \(file.path); look at it, then run again")
    }
    guard let data = FileManager.default.contents(atPath: file.path) else {
      return fail("cannot read golden \(file.path)")
    }
    let golden = String(decoding: data, as: UTF8.self)
    guard golden != text else { return }
    let a = text.split(separator: "\n", omittingEmptySubsequences: false)
    let g = golden.split(separator: "\n", omittingEmptySubsequences: false)
    let line = Array(zip(a, g)).firstIndex { $0 != $1 } ?? min(a.count, g.count)
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("wallboard-golden-\(name)-\(getpid())")
    try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    let actual = dir.appendingPathComponent("\(name).actual.txt")
    try? Data(text.utf8).write(to: actual)
    fail(
      "\(name): differs from \(file.path) at line \(line + 1):\n  golden: \(line < g.count ? String(g[line]) : "(none)")"
        + "\n  actual: \(line < a.count ? String(a[line]) : "(none)")\n(actual text: \(actual.path))")
  }

  /// What `check` found, for tests of the golden machinery itself.
  public struct Result: Sendable {
    /// Nil when the canvas matched; otherwise the failure message.
    public var failure: String?
    /// True when the golden file was (re)written.
    public var recorded: Bool
    /// The number of pixels that differ by more than the tolerance.
    public var differingPixels: Int
    /// The largest difference in any channel.
    public var largestDelta: Int
    /// The first differing pixel, in reading order.
    public var firstDifference: (x: Int, y: Int)?
    /// Where the actual and diff images were written, when they were.
    public var artifacts: URL?
  }

  /// Does what `check` does but returns the outcome instead of recording an issue;
  /// `environment` stands in for the process environment (`CI`, `WALLBOARD_RECORD_GOLDENS`).
  public static func compare(
    _ canvas: Canvas, named name: String, directory: URL, tolerance: UInt8 = 1,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> Result {
    let file = directory.appendingPathComponent("\(name).png")
    let ci = environment["CI"].map { !$0.isEmpty && $0 != "0" && $0.lowercased() != "false" } ?? false
    let rerecord = environment["WALLBOARD_RECORD_GOLDENS"] == "1"
    var result = Result(failure: nil, recorded: false, differingPixels: 0, largestDelta: 0)
    let exists = FileManager.default.fileExists(atPath: file.path)
    // Re-recording leaves a golden whose pixels still match alone: its bytes are not churned.
    if exists, rerecord, !ci, let golden = try? PNG.read(path: file.path),
      diff(canvas, golden, name: name, file: file, tolerance: tolerance).failure == nil
    {
      return result
    }
    if !exists || rerecord {
      if ci {
        result.failure =
          exists
          ? "WALLBOARD_RECORD_GOLDENS is set but CI is too: goldens are never recorded on CI"
          : "missing golden \(file.path) (CI never records; record it locally and commit it)"
        return result
      }
      do {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try PNG.write(canvas, to: file.path)
      } catch {
        result.failure = "could not record golden \(file.path): \(error)"
        return result
      }
      result.recorded = true
      result.failure =
        exists
        ? "re-recorded golden \(file.path) (WALLBOARD_RECORD_GOLDENS=1); look at it, then run again without it"
        : "recorded missing golden \(file.path); look at it, then run again"
      return result
    }
    let golden: Canvas
    do {
      golden = try PNG.read(path: file.path)
    } catch {
      result.failure = "cannot read golden \(file.path): \(error)"
      return result
    }
    return diff(canvas, golden, name: name, file: file, tolerance: tolerance)
  }

  private static func diff(_ actual: Canvas, _ golden: Canvas, name: String, file: URL, tolerance: UInt8) -> Result {
    var result = Result(failure: nil, recorded: false, differingPixels: 0, largestDelta: 0)
    let sameSize = actual.width == golden.width && actual.height == golden.height
    var highlight = Canvas(width: max(actual.width, 1), height: max(actual.height, 1))
    if sameSize {
      for y in 0..<actual.height {
        for x in 0..<actual.width {
          let a = actual.pixel(x, y)
          let g = golden.pixel(x, y)
          let delta = max(absDiff(a.r, g.r), absDiff(a.g, g.g), absDiff(a.b, g.b))
          result.largestDelta = max(result.largestDelta, delta)
          if delta > Int(tolerance) {
            result.differingPixels += 1
            if result.firstDifference == nil { result.firstDifference = (x, y) }
            highlight[x: x, y: y] = Canvas.pack(RGBA(r: 255, g: 0, b: 255))
          } else {
            // The golden, dimmed, so the differences stand out.
            let l = UInt8((Int(g.r) + Int(g.g) + Int(g.b)) / 9)
            highlight[x: x, y: y] = Canvas.pack(RGBA(r: l, g: l, b: l))
          }
        }
      }
      guard result.differingPixels > 0 else { return result }
    }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "wallboard-goldens-\(UInt32.random(in: 0...UInt32.max))")
    var written = "(could not write the actual and diff images)"
    do {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      try PNG.write(actual, to: folder.appendingPathComponent("\(name).actual.png").path)
      if sameSize { try PNG.write(highlight, to: folder.appendingPathComponent("\(name).diff.png").path) }
      result.artifacts = folder
      written = "actual\(sameSize ? " and diff" : "") written to \(folder.path)"
    } catch {}
    if sameSize {
      let first = result.firstDifference!
      result.failure =
        "golden \(name): \(result.differingPixels) pixel(s) differ by more than \(tolerance),"
        + " largest channel delta \(result.largestDelta), first at (\(first.x), \(first.y)); \(written)"
    } else {
      result.failure =
        "golden \(name): size \(actual.width)x\(actual.height) differs from the golden's"
        + " \(golden.width)x\(golden.height); \(written)"
    }
    return result
  }

  private static func absDiff(_ a: UInt8, _ b: UInt8) -> Int { abs(Int(a) - Int(b)) }
}
