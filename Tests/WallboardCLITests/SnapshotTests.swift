import Foundation
import TestSupport
import Testing
import WallboardCLI

/// `wallboard snapshot` in every theme, read back by an independent decoder (Pillow).
@Suite("Snapshots")
struct SnapshotTests {
  static var themes: [(id: String, bg: String)] {
    let tsv =
      (try? String(contentsOf: Paths.fixtures.appendingPathComponent("reference/themes.tsv"), encoding: .utf8)) ?? ""
    return tsv.split(separator: "\n").dropFirst().map { line in
      let f = line.split(separator: "\t", omittingEmptySubsequences: false)
      return (String(f[0]), String(f[4]))
    }
  }

  @Test func everyThemeMostlyShowsItsBackground() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("wallboard-snap-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let events = Paths.fixtures.appendingPathComponent("reference/examples/worked-example.jsonl").path
    let themes = Self.themes
    #expect(themes.count >= 25)
    for t in themes {
      let out = dir.appendingPathComponent("\(t.id).png").path
      let r = Captured.run([
        "snapshot", "--source", "jsonl:\(events)", "--at", "2026-11-06T12:00:00Z", "--tz", "UTC", "--theme", t.id,
        "--size", "1920x1080", "--out", out,
      ])
      #expect(r.code == 0, "\(t.id): \(r.err)")
    }
    // Pillow decodes each file and names its most common colour.
    let script = """
      import sys, os
      from PIL import Image
      for name in sorted(os.listdir(sys.argv[1])):
          im = Image.open(os.path.join(sys.argv[1], name)).convert("RGB")
          assert im.size == (1920, 1080), im.size
          count, (r, g, b) = max(im.getcolors(maxcolors=1 << 24))
          print(name[:-4], "#%02x%02x%02x" % (r, g, b))
      """
    let output = try Python.run(script, arguments: [dir.path])
    var seen: [String: String] = [:]
    for line in output.split(separator: "\n") {
      let parts = line.split(separator: " ")
      seen[String(parts[0])] = String(parts[1])
    }
    for t in themes {
      #expect(seen[t.id] == t.bg, "\(t.id): most common colour \(seen[t.id] ?? "none"), expected \(t.bg)")
    }
  }

  @Test func snapshotErrors() {
    #expect(Captured.run(["snapshot"]).code == 2)
    #expect(
      Captured.run(["snapshot", "--out", "/tmp/x.png", "--theme", "neon"]).err.contains(
        "--theme: \"neon\" is not one of orchestra"))
    #expect(Captured.run(["snapshot", "--out", "/tmp/x.png", "--layout", "kiosk"]).code == 2)
    let broken = FileManager.default.temporaryDirectory.appendingPathComponent("broken-\(UUID().uuidString).layout")
    try? "name = b\ndescription = b\ngrid = 2 x 2\nheader 0 0 3 1\n".write(
      to: broken, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: broken) }
    let r = Captured.run(["snapshot", "--out", "/tmp/x.png", "--layout", broken.path])
    #expect(r.code == 3)
    #expect(r.err.contains("\(broken.path):4: header: cells"))
  }
}
