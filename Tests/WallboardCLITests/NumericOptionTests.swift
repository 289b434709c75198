import Foundation
import TestSupport
import Testing
import WallboardCLI

/// Issue 9, items 1, 3 and 7, for the command line's own parsers: every numeric option (and the
/// same in a config file), at Int.max, Int.min, 20 digits, 1e308, inf, nan, hex, gives a usage
/// error or a value within the option's documented range — never a trap.
@Suite("Numeric options at huge values")
struct NumericOptionTests {
  static let huge = [
    "9223372036854775807", "-9223372036854775808", "9223372036854775808", "99999999999999999999", "1e308", "-1e308",
    "inf", "nan", "0x10", "-0", "1e-400",
  ]

  /// Each option with `{}` where a number goes.
  static let templates = [
    "--size {}x100", "--size 100x{}", "--fb-geometry {}x100x32", "--fb-geometry 100x100x{}", "--scale {}",
    "--settle {}", "--wait {}", "--estimates S={}", "--night mon-fri {}:00-07:30 dim=20",
    "--night mon-fri 19:{}-07:30 dim=20", "--night mon-fri 19:00-07:30 dim={}", "--source sim:seed={}",
    "--source sim:speed={}", "--source orchestra://host:{}", "--at {}-01-01T00:00:00Z", "--at 2026-11-02T00:00:{}Z",
  ]

  @Test(arguments: templates)
  func everyNumericOptionIsInRangeOrAUsageError(_ template: String) throws {
    for value in Self.huge {
      let words = template.replacingOccurrences(of: "{}", with: value).split(separator: " ", maxSplits: 1)
      let args = [String(words[0]), String(words[1])]
      do {
        let o = try ArgumentParser.parse(args)
        if let s = o.size { #expect(s.width >= 16 && s.width <= 7680 && s.height <= 7680, "\(args)") }
        if let g = o.fbGeometry { #expect(g.width <= 7680 && g.height <= 7680, "\(args)") }
        #expect((0.25...8).contains(o.scale), "\(args)")
        #expect((0...86_400).contains(o.settle) && (0...86_400).contains(o.wait), "\(args)")
        #expect(o.estimateScale.points(points: nil, estimate: "S").map { (0...1_000_000).contains($0) } ?? true)
      } catch {
        #expect(error.exitCode == 2, "\(args): \(error)")
      }
      // The same line in a config file: a bad value is a bad input naming the line.
      let line = args[0].dropFirst(2) + " " + args[1]
      do {
        _ = try ArgumentParser.applyConfig("# config\n" + line + "\n", file: "k.conf", under: [])
      } catch {
        #expect(error.exitCode == 3 && error.description.contains("k.conf:2:"), "\(line): \(error)")
      }
    }
  }
}
