import Foundation
import TestSupport
import Testing
import WallboardCore

@testable import Projections
@testable import ZoneFiles

/// Zones read from tzdata's files by `TZif`, checked against Python's `zoneinfo` and Foundation's
/// `TimeZone`, and the POSIX rules against their known transitions.
@Suite struct ZoneTests {
  static let zones = [
    "Europe/Berlin", "Europe/London", "America/New_York", "America/Los_Angeles", "America/Sao_Paulo",
    "Australia/Sydney", "Australia/Lord_Howe", "Asia/Kolkata", "Asia/Kathmandu", "Pacific/Chatham", "Africa/Casablanca",
    "Pacific/Apia", "America/St_Johns", "Asia/Tehran", "Europe/Dublin", "Antarctica/Troll",
  ]

  /// Every 3 days and 7 hours from 1970 through 2100: transitions fall between, and their hours too.
  static let instants = Array(stride(from: Int64(0), to: 4_102_444_800, by: 3 * 86_400 + 7 * 3600))

  /// Python's `zoneinfo` reads the same tzdata files with an implementation of its own (ICU,
  /// behind Foundation's `TimeZone`, has its own, older copy of the rules: Morocco's 2026 change
  /// is not in it).
  @Test func offsetsAgreeWithPythonsZoneinfoFrom1970To2100() throws {
    let script = """
      import sys, datetime
      from zoneinfo import ZoneInfo
      step = 3 * 86400 + 7 * 3600
      for name in sys.argv[1:]:
          z = ZoneInfo(name)
          print(name, ' '.join(str(int(datetime.datetime.fromtimestamp(t, z).utcoffset().total_seconds()))
                for t in range(0, 4102444800, step)))
      """
    let out = try Python.run(script, arguments: Self.zones)
    var zonesChecked = 0
    for line in out.split(separator: "\n") {
      let fields = line.split(separator: " ")
      let name = String(fields[0])
      let expected = fields.dropFirst().map { Int($0)! }
      let zone = try #require(Zone(name), "\(name) is in tzdata")
      #expect(expected.count == Self.instants.count)
      let got = Self.instants.map { zone.offset(at: Instant(millis: $0 * 1000)) }
      if let i = got.indices.first(where: { got[$0] != expected[$0] }) {
        Issue.record("\(name) at \(Self.instants[i]): \(got[i]) s, zoneinfo says \(expected[i]) s")
      }
      zonesChecked += 1
    }
    #expect(zonesChecked == Self.zones.count)
  }

  /// Foundation's `TimeZone` agrees too where its rules are as new (every zone but Morocco's).
  @Test func offsetsAgreeWithFoundationWhereItsRulesAreCurrent() throws {
    for name in Self.zones where name != "Africa/Casablanca" {
      let zone = try #require(Zone(name))
      let foundation = try #require(TimeZone(identifier: name))
      let bad = Self.instants.first {
        zone.offset(at: Instant(millis: $0 * 1000))
          != foundation.secondsFromGMT(for: Date(timeIntervalSince1970: Double($0)))
      }
      #expect(bad == nil, "\(name) at \(bad ?? 0)")
    }
  }

  @Test func thePosixRuleGivesTheEuropeanTransitions() throws {
    let berlin = try #require(PosixTZ("CET-1CEST,M3.5.0,M10.5.0/3"))
    let start = Int64(1_774_746_000)  // 2026-03-29T01:00:00Z
    let end = Int64(1_792_890_000)  // 2026-10-25T01:00:00Z
    #expect(berlin.offset(at: start - 1) == 3600)
    #expect(berlin.offset(at: start) == 7200)
    #expect(berlin.offset(at: end - 1) == 7200)
    #expect(berlin.offset(at: end) == 3600)
  }

  @Test func southernAndOddRulesToo() throws {
    let sydney = try #require(PosixTZ("AEST-10AEDT,M10.1.0,M4.1.0/3"))
    #expect(sydney.offset(at: 1_767_225_600) == 39600, "January is summer")
    #expect(sydney.offset(at: 1_782_864_000) == 36000, "July is winter")
    #expect(PosixTZ("<-03>3")?.offset(at: 0) == -10800)
    #expect(PosixTZ("<+0545>-5:45")?.offset(at: 0) == 20700)
    #expect(PosixTZ("IST-2IDT,M3.4.4/26,M10.5.0") != nil, "hours past 24")
    #expect(PosixTZ("EST5EDT,J60,300") != nil, "Julian and zero-based days")
    for bad in ["", "X", "CET", "CET-1CEST", "CET-1CEST,M13.5.0,M10.5.0", "CET-1CEST,M3.6.0,M10.5.0", "CET-99"] {
      #expect(PosixTZ(bad) == nil, "\(bad)")
    }
  }

  @Test func namesThatAreNotZonesAreRefused() {
    for bad in [
      "", "../../etc/passwd", "/usr/share/zoneinfo/UTC", "Europe//Berlin", "Europe/Nowhere", "Europe/Ber lin",
    ] {
      #expect(Zone(bad) == nil, "\(bad)")
    }
    #expect(Zone("UTC")?.offset(at: Instant(millis: 0)) == 0)
    #expect(Zone("Etc/UTC") != nil)
  }

  @Test func aTruncatedOrForeignFileIsNoZone() throws {
    let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: "/usr/share/zoneinfo/Europe/Berlin")))
    #expect(TZif.parse(bytes) != nil)
    for cut in [0, 10, 44, 100, bytes.count / 2, bytes.count - 40] {
      let part = Array(bytes[0..<cut])
      // A cut inside the version-1 block or the 64-bit one is refused; never a crash.
      _ = TZif.parse(part)
      if cut < 100 { #expect(TZif.parse(part) == nil, "cut at \(cut)") }
    }
    #expect(TZif.parse(Array("not a zone file at all, just some text that is long enough".utf8)) == nil)
  }

  @Test func theSystemZoneComesFromTZThenLocaltime() throws {
    #expect(Zone.current(environment: ["TZ": "Asia/Kolkata"]).identifier == "Asia/Kolkata")
    #expect(Zone.current(environment: ["TZ": ":Europe/Berlin"]).identifier == "Europe/Berlin")
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("zone-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let link = dir.appendingPathComponent("localtime").path
    try FileManager.default.createSymbolicLink(
      atPath: link, withDestinationPath: "/usr/share/zoneinfo/America/New_York")
    #expect(Zone.current(environment: ["TZ": ""], localtime: link).identifier == "America/New_York")
    let file = dir.appendingPathComponent("timezone").path
    try "Europe/London\n".write(toFile: file, atomically: true, encoding: .utf8)
    #expect(Zone.current(environment: [:], localtime: "/nonexistent", timezone: file).identifier == "Europe/London")
    #expect(Zone.current(environment: [:], localtime: "/nonexistent", timezone: "/nonexistent").identifier == "UTC")
    // A copied file, not a link: its own rules.
    let copy = dir.appendingPathComponent("copied").path
    try FileManager.default.copyItem(atPath: "/usr/share/zoneinfo/Europe/Berlin", toPath: copy)
    let local = Zone.current(environment: [:], localtime: copy, timezone: "/nonexistent")
    #expect(local.identifier == "localtime")
    #expect(local.offset(at: Instant(millis: 1_782_864_000_000)) == 7200)
  }

  @Test func aFileWithNoTransitionsFollowsItsRuleForEveryTime() throws {
    let rule = try #require(PosixTZ("CET-1CEST,M3.5.0,M10.5.0/3"))
    let zone = TZif(transitions: [], offsets: [], initial: 3600, rule: rule)
    #expect(zone.offset(at: 1_782_864_000) == 7200, "July")
    #expect(zone.offset(at: 1_767_225_600) == 3600, "January")
  }
}
