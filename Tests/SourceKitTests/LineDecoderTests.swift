import SourceKit
import TestSupport
import Testing
import WallboardCore

@Suite("JSON Lines into reducer inputs")
struct LineDecoderTests {
  static var input: [UInt8] {
    let example = (try? Paths.example("worked-example.jsonl")) ?? ""
    let extra =
      "\r\n\n{\"topic\":\"heartbeat\",\"payload\":{}}\r\nnot json\n{\"topic\":\"feature.updated\",\"payload\":{\"id\":\"A\",\"status\":7}}\n"
      + "{\"topic\":\"heartbeat\",\"payload\":{\"pad\":\"" + String(repeating: "x", count: 300) + "\"}}\n"
      + "{\"topic\":\"sprint.closed\",\"time\":\"2026-11-14T09:00:00Z\",\"payload\":{\"id\":\"s1\"}}"
    return Array((example + extra).utf8)
  }

  static let at = Make.t("2026-11-20T00:00:00Z")

  static func decode(chunks: [ArraySlice<UInt8>]) -> [BoardInput] {
    var d = LineDecoder(origin: "jsonl:x", label: "x", maxLineBytes: 256)
    var out: [BoardInput] = []
    for c in chunks { out += d.push(c, receivedAt: at) }
    return out + d.finish(receivedAt: at)
  }

  static func chunked(_ bytes: [UInt8], size: Int) -> [ArraySlice<UInt8>] {
    stride(from: 0, to: bytes.count, by: size).map { bytes[$0..<min($0 + size, bytes.count)] }
  }

  @Test func wholeGivesTheExpectedInputs() {
    let inputs = Self.decode(chunks: [Self.input[...]])
    let events = inputs.compactMap { if case .event(let e) = $0 { e } else { nil } }
    let rejected = inputs.compactMap { if case .rejected(_, _, let r, _) = $0 { r } else { nil } }
    #expect(events.count == 11)
    #expect(rejected.count == 3)
    #expect(rejected[0].hasPrefix("x:13: "))
    #expect(rejected[1].hasPrefix("x:14: ") && rejected[1].contains("payload.status"))
    #expect(rejected[2].contains("x:15: line longer than the limit of 256 bytes"))
    #expect(events.first?.receivedAt == Self.at)
    #expect(events.first?.time == Make.t("2026-10-30T09:00:00Z"))
  }

  @Test func sameInputsAtEveryChunkSize() {
    let whole = Self.decode(chunks: [Self.input[...]])
    let lines = Self.input.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
      .enumerated().map { i, l in i == 0 ? l : [UInt8(ascii: "\n")] + l }.map { ArraySlice($0) }
    #expect(Self.decode(chunks: lines) == whole)
    for size in 1...64 {
      #expect(Self.decode(chunks: Self.chunked(Self.input, size: size)) == whole, "chunk size \(size)")
    }
  }
}
