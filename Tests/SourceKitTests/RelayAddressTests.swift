import SourceKit
import Testing
import WallboardCore

@Suite struct RelayAddressTests {
  @Test func aBoardAddressGivesItsNames() throws {
    let a = try #require(try RelayAddress.parse("nats://hub.local:4222/TEAM-1"))
    #expect(a.host == "hub.local" && a.port == 4222 && a.board == "TEAM-1")
    #expect(a.description == "nats://hub.local:4222/TEAM-1")
    #expect(a.stream == "WB_TEAM-1" && a.subject == "wb.TEAM-1.in" && a.bucket == "wb_TEAM-1")
    #expect(a.fleetBucket == "wb_TEAM-1_fleet" && a.reportSubject(wall: "hall.tv") == "$KV.wb_TEAM-1_fleet.hall.tv")
    let v6 = try #require(try RelayAddress.parse("nats://[::1]:4222/B"))
    #expect(v6.host == "::1" && v6.description == "nats://[::1]:4222/B")
    #expect(try RelayAddress.parse("orchestra://h:1") == nil)
  }

  @Test(arguments: [
    "nats://hub:4222", "nats://hub/TEAM", "nats://hub:0/TEAM", "nats://:4222/TEAM", "nats://hub:4222/",
    "nats://hub:4222/a.b", "nats://hub:4222/a*", "nats://hub:4222/a b",
    "nats://hub:4222/" + String(repeating: "x", count: 33),
  ])
  func aWrongAddressIsRefusedNeverAltered(_ text: String) {
    #expect(throws: SourceSpecError.self) { try RelayAddress.parse(text) }
  }

  @Test func wallNamesAreHostNamesWithoutWildcards() {
    for ok in ["hall", "hall.tv", "pi-4_b.office.example"] { #expect(RelayAddress.problem(wall: ok) == nil, "\(ok)") }
    for bad in ["", ".hall", "hall.", "a..b", "a b", "a*", "a>", String(repeating: "x", count: 65)] {
      #expect(RelayAddress.problem(wall: bad) != nil, "\(bad)")
    }
  }
}

@Suite struct FleetReportTests {
  let t = Instant(millis: 1_800_000_000_000)

  func report(_ wall: String, config: String = "c1", screen: FleetReport.Screen = .on) -> FleetReport {
    FleetReport(
      wall: wall, version: "0.1.0", config: config, layout: "l1", position: 42, screen: screen,
      lastFrame: t.adding(seconds: -1), at: t)
  }

  @Test func aReportRoundTripsAndABadOneSaysWhy() throws {
    let r = report("hall")
    #expect(try FleetReport(bytes: r.bytes) == r)
    var none = r
    none.position = nil
    none.lastFrame = nil
    #expect(try FleetReport(bytes: none.bytes) == none)
    for (bytes, why) in [
      (Array("nope".utf8), "not JSON"), (Array("[]".utf8), "not a JSON object"),
      (Array(#"{"wall":"a"}"#.utf8), "\"version\""),
      (
        Array(String(decoding: r.bytes, as: UTF8.self).replacingOccurrences(of: "\"on\"", with: "\"x\"").utf8), "screen"
      ),
      ([UInt8](repeating: 32, count: FleetReport.maxBytes + 1), "at most"),
    ] {
      #expect(throws: FleetReportError.self) { try FleetReport(bytes: bytes) }
      do { _ = try FleetReport(bytes: bytes) } catch { #expect(error.problem.contains(why), "\(error.problem)") }
    }
  }

  @Test func theRosterSaysNotHeardOffOnPurposeAndWhoDiffers() {
    let roster = FleetRoster(
      records: [
        ("b-killed", report("b-killed").bytes, t.adding(seconds: -31)),
        ("a-hall", report("a-hall").bytes, t.adding(seconds: -2)),
        ("c-night", report("c-night", screen: .off).bytes, t.adding(seconds: -5)),
        ("d-odd", report("d-odd", config: "c2").bytes, t.adding(seconds: -1)),
        ("e-bad", Array("{".utf8), t),
      ], now: t)
    #expect(roster.walls.map(\.name) == ["a-hall", "b-killed", "c-night", "d-odd", "e-bad"])
    #expect(roster.walls.map(\.state) == [.showing, .notHeard, .offOnPurpose, .showing, .unreadable])
    #expect(roster.walls.map(\.differs) == [false, false, false, true, false])
    #expect(roster.walls[1].report?.screen == .on, "a wall not heard keeps its last state")
  }
}
