import Testing
import WallboardCore

/// Issue 9, item 16: a leap second was moved silently to :59, and an offset could push a
/// moment into the year 10000 (or before 1970). Both are errors now.
@Suite("Moments at the edges")
struct TimeRangeTests {
  @Test(arguments: ["2016-12-31T23:59:60Z", "2016-12-31T23:59:60.5Z", "2026-06-30T23:59:60+02:00"])
  func aLeapSecondIsRejected(_ text: String) {
    #expect(throws: Instant.ParseError.leapSecond) { try Instant(rfc3339: text) }
  }

  @Test(arguments: [
    "9999-12-31T23:59:59-00:01", "9999-12-31T23:30:00-01:00", "9999-12-31T00:01:00-23:59",
    "1970-01-01T00:00:00+00:01", "1970-01-01T00:30:00+01:00", "1970-01-01T23:58:59+23:59",
  ])
  func anOffsetPastTheYearsIsOutOfRange(_ text: String) {
    #expect(throws: Instant.ParseError.outOfRange) { try Instant(rfc3339: text) }
  }

  @Test func theEdgesThemselvesAreIn() throws {
    let last = try Instant(rfc3339: "9999-12-31T23:59:59.999Z")
    #expect(last.rfc3339 == "9999-12-31T23:59:59.999Z")
    #expect(try Instant(rfc3339: "9999-12-31T23:59:59+00:00") < last)
    #expect(try Instant(rfc3339: "1970-01-01T00:00:00-00:01").millis == 60_000)
    #expect(try Instant(rfc3339: "1970-01-01T01:00:00+01:00").millis == 0)
    #expect(try Instant(rfc3339: "2016-12-31T23:59:59Z").rfc3339 == "2016-12-31T23:59:59Z")
  }

  /// The class: every moment parsed is one `rfc3339` writes back in years 1970…9999.
  @Test func everyParsedMomentIsWithinTheYears() throws {
    let offsets = ["Z", "+23:59", "-23:59", "+00:01", "-00:01", "+14:00", "-12:00"]
    for day in ["1970-01-01", "1970-01-02", "9999-12-30", "9999-12-31"] {
      for time in ["00:00:00", "00:30:00", "23:59:59", "23:59:59.999", "12:00:00"] {
        for offset in offsets {
          guard let t = try? Instant(rfc3339: "\(day)T\(time)\(offset)") else { continue }
          let written = t.rfc3339
          #expect(
            written >= "1970-01-01T00:00:00Z" && written < "9999-12-31T24", "\(day)T\(time)\(offset) → \(written)")
          #expect(try Instant(rfc3339: written) == t)
        }
      }
    }
  }
}
