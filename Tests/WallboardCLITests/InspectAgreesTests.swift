import Foundation
import TestSupport
import Testing
import Wire

@Suite("inspect: done beside completed, and sources that do not erase each other")
struct InspectAgreesTests {
  static func write(_ name: String, _ text: String, in dir: URL) throws -> String {
    let file = dir.appendingPathComponent(name)
    try text.write(to: file, atomically: true, encoding: .utf8)
    return file.path
  }

  static func object(_ v: JSONValue?) -> JSONObject? { if case .object(let o)? = v { o } else { nil } }

  @Test func progressSaysDoneApartFromCompleted() throws {
    let dir = try TempDir()
    let file = try Self.write(
      "events.jsonl",
      """
      {"topic":"feature.created","time":"2026-11-02T09:00:00Z","payload":{"id":"A","title":"A","status":"done"}}
      {"topic":"feature.created","time":"2026-11-02T09:00:00Z","payload":{"id":"B","title":"B","status":"rejected"}}
      {"topic":"feature.created","time":"2026-11-02T09:00:00Z","payload":{"id":"C","title":"C","status":"todo"}}
      """, in: dir.url)
    let r = Captured.run(["inspect", "--source", "jsonl:\(file)", "--tz", "UTC"])
    #expect(r.code == 0, "\(r.err)")
    let root = try #require(Self.object(try JSONParser.parse(r.out)))
    let progress = try #require(Self.object(root["progress"]))
    #expect(progress["total"] == .number(3))
    #expect(progress["done"] == .number(1))
    #expect(progress["completed"] == .number(2))
    #expect(progress["percent"] == .number(66.7))
  }

  @Test(arguments: [true, false])
  func aSnapshotFromOneSourceKeepsTheSprintAnotherDeclared(snapshotFirst: Bool) throws {
    let dir = try TempDir()
    let sprint = try Self.write(
      "sprint.jsonl",
      """
      {"topic":"sprint.created","time":"2026-11-02T08:00:00Z","payload":{"id":"s1","name":"Sprint 1","start_date":"2026-11-02","end_date":"2026-11-13","feature_ids":["A"]}}
      """, in: dir.url)
    let server = try Self.write(
      "server.jsonl",
      """
      {"topic":"board.snapshot","time":"2026-11-02T09:00:00Z","payload":{"features":[{"id":"A","title":"A","status":"todo","points":3}],"sprints":[]}}
      """, in: dir.url)
    let sources = snapshotFirst ? [server, sprint] : [sprint, server]
    let r = Captured.run(
      [
        "inspect", "--source", "jsonl:\(sources[0])", "--source", "jsonl:\(sources[1])", "--tz", "UTC", "--at",
        "2026-11-03T12:00:00Z",
      ])
    #expect(r.code == 0, "\(r.err)")
    let root = try #require(Self.object(try JSONParser.parse(r.out)))
    let s = try #require(Self.object(root["sprint"]), "the declared sprint survives the snapshot")
    #expect(s["id"] == .string("s1"))
    #expect(s["committed"] == .number(3))
  }
}
