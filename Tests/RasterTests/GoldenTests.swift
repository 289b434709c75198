import Foundation
import PNG
import Raster
import TestSupport
import Testing

/// Goldens of the primitives, and tests of the golden machinery itself.
@Suite("Goldens")
struct GoldenTests {
  static let goldens = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Goldens")

  static let background = RGBA(r: 24, g: 26, b: 34)

  static func canvas(_ draw: (inout Canvas) -> Void) -> Canvas {
    var c = Canvas(width: 96, height: 64, background: background)
    draw(&c)
    return c
  }

  @Test func panels() {
    let c = Self.canvas { c in
      c.fillRoundedRect(Rect(x: 4, y: 4, width: 56, height: 36), radius: 8, RGBA(r: 52, g: 58, b: 80))
      c.strokeRoundedRect(Rect(x: 4, y: 4, width: 56, height: 36), radius: 8, width: 1.5, RGBA(r: 120, g: 140, b: 200))
      c.fill(Rect(x: 64.5, y: 6.25, width: 27, height: 10.5), RGBA(r: 230, g: 120, b: 60))
      c.fill(Rect(x: 66, y: 20, width: 24, height: 40), RGBA(r: 90, g: 200, b: 140, a: 128))
      c.fillRoundedRect(Rect(x: 8, y: 44, width: 50, height: 14), radius: 7, RGBA(r: 250, g: 210, b: 80, a: 200))
    }
    Golden.check(c, named: "panels", directory: Self.goldens)
  }

  @Test func circlesAndArcs() {
    let c = Self.canvas { c in
      c.ring(center: Point(24, 32), radius: 20, width: 5, RGBA(r: 60, g: 66, b: 90))
      c.arc(
        center: Point(24, 32), radius: 20, width: 5, startAngle: 0, endAngle: 2 * .pi * 0.7,
        RGBA(r: 90, g: 220, b: 120), cap: .round)
      c.fillCircle(center: Point(24, 32), radius: 6.5, RGBA(r: 240, g: 240, b: 240))
      c.fillCircle(center: Point(62, 20), radius: 12, RGBA(r: 230, g: 80, b: 80, a: 160))
      c.fillCircle(center: Point(74, 30), radius: 12, RGBA(r: 80, g: 120, b: 230, a: 160))
      c.arc(
        center: Point(70, 50), radius: 12, width: 3, startAngle: -2, endAngle: 1, RGBA(r: 250, g: 200, b: 60),
        cap: .square)
    }
    Golden.check(c, named: "circles-arcs", directory: Self.goldens)
  }

  @Test func linesAndDashes() {
    let c = Self.canvas { c in
      let zigzag = (0..<12).map { Point(6 + Double($0) * 7.5, $0 % 2 == 0 ? 30 : 8 + Double($0)) }
      c.polyline(zigzag, width: 3, RGBA(r: 90, g: 200, b: 255, a: 170))
      c.line(from: Point(6, 40), to: Point(40, 58), width: 4, RGBA(r: 240, g: 240, b: 240), cap: .round)
      c.line(from: Point(50, 40), to: Point(90, 40), width: 1, RGBA(r: 240, g: 120, b: 60))
      c.dashedLine(
        from: Point(50, 46.5), to: Point(90, 46.5), width: 1, dash: 4, gap: 3, RGBA(r: 200, g: 200, b: 200))
      c.dashedPolyline(
        [Point(50, 52), Point(70, 60), Point(90, 52)], width: 2, dash: 6, gap: 3, RGBA(r: 250, g: 210, b: 80),
        cap: .round)
    }
    Golden.check(c, named: "lines-dashes", directory: Self.goldens)
  }

  // MARK: The machinery

  static func scratch() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "golden-tests-\(UInt32.random(in: 0...UInt32.max))")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  static let sample = canvas { $0.fillCircle(center: Point(48, 32), radius: 20, RGBA(r: 200, g: 100, b: 50)) }

  @Test func missingGoldenIsRecordedAndFails() throws {
    let dir = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let r = Golden.compare(Self.sample, named: "new", directory: dir, environment: [:])
    #expect(r.recorded)
    #expect(r.failure?.contains("recorded missing golden") == true)
    #expect(try PNG.read(path: dir.appendingPathComponent("new.png").path).pixels == Self.sample.pixels)
    // Now it matches.
    let again = Golden.compare(Self.sample, named: "new", directory: dir, environment: [:])
    #expect(again.failure == nil && !again.recorded)
  }

  @Test func ciNeverRecords() throws {
    let dir = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let r = Golden.compare(
      Self.sample, named: "new", directory: dir, environment: ["CI": "true", "WALLBOARD_RECORD_GOLDENS": "1"])
    #expect(!r.recorded)
    #expect(r.failure?.contains("CI never records") == true)
    #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("new.png").path))
  }

  @Test func recordVariableReRecords() throws {
    let dir = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    try PNG.write(Canvas(width: 96, height: 64), to: dir.appendingPathComponent("g.png").path)
    let r = Golden.compare(Self.sample, named: "g", directory: dir, environment: ["WALLBOARD_RECORD_GOLDENS": "1"])
    #expect(r.recorded && r.failure?.contains("re-recorded") == true)
    #expect(Golden.compare(Self.sample, named: "g", directory: dir, environment: [:]).failure == nil)
  }

  /// A golden whose pixels still match is not rewritten when re-recording (no churned bytes).
  @Test func reRecordingLeavesAMatchingGoldenAlone() throws {
    let dir = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appendingPathComponent("g.png").path
    try PNG.write(Self.sample, to: path)
    let before = try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date
    Thread.sleep(forTimeInterval: 0.02)
    let r = Golden.compare(Self.sample, named: "g", directory: dir, environment: ["WALLBOARD_RECORD_GOLDENS": "1"])
    #expect(!r.recorded && r.failure == nil)
    #expect(try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date == before)
  }

  @Test func mismatchReportsAndWritesArtifacts() throws {
    let dir = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    try PNG.write(Self.sample, to: dir.appendingPathComponent("g.png").path)
    var changed = Self.sample
    changed.fill(IRect(x: 10, y: 5, width: 3, height: 2), RGBA(r: 24, g: 26, b: 64))  // blue +30
    changed.fill(IRect(x: 0, y: 0, width: 1, height: 1), RGBA(r: 25, g: 26, b: 34))  // within tolerance
    let r = Golden.compare(changed, named: "g", directory: dir, environment: [:])
    #expect(r.differingPixels == 6)
    #expect(r.largestDelta == 30)
    #expect(r.firstDifference?.x == 10 && r.firstDifference?.y == 5)
    let failure = try #require(r.failure)
    #expect(failure.contains("6 pixel(s)") && failure.contains("delta 30") && failure.contains("(10, 5)"))
    let artifacts = try #require(r.artifacts)
    defer { try? FileManager.default.removeItem(at: artifacts) }
    #expect(failure.contains(artifacts.path))
    #expect(try PNG.read(path: artifacts.appendingPathComponent("g.actual.png").path).pixels == changed.pixels)
    let diff = try PNG.read(path: artifacts.appendingPathComponent("g.diff.png").path)
    #expect(diff.pixel(11, 6) == RGBA(r: 255, g: 0, b: 255) && diff.pixel(0, 0) != RGBA(r: 255, g: 0, b: 255))
  }

  @Test func sizeMismatchFails() throws {
    let dir = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    try PNG.write(Canvas(width: 5, height: 5), to: dir.appendingPathComponent("g.png").path)
    let r = Golden.compare(Self.sample, named: "g", directory: dir, environment: [:])
    #expect(r.failure?.contains("size 96x64 differs from the golden's 5x5") == true)
    if let a = r.artifacts { try? FileManager.default.removeItem(at: a) }
  }
}
