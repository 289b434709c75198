// libFuzzer entry points for every decoder that reads outside input (issue 12). One binary:
// WALLBOARD_FUZZ_TARGET names the decoder (see `FuzzTarget`). Each reads bytes it cannot trust and
// must return or throw — never trap, hang or leak; address sanitizing catches memory errors.
// Built and run by `make fuzz`; seed corpora are under Tests/Fuzzers/Corpus/<target>/.
import Clock
import Codec
import EventSources
import Foundation
import Layout
import QUIC
import SourceKit
import Themes
import WallboardCLI
import WallboardCore
import Widgets
import Wire
import WorkspaceFormats

/// The decoders, by the name WALLBOARD_FUZZ_TARGET gives.
enum FuzzTarget: String, CaseIterable {
  /// The Orchestra length-prefix framer, fed in chunks, and each frame as a `PluginResponse`.
  case framer
  /// A `PluginResponse` protobuf message, whole.
  case protobuf
  /// JSON Lines events, through the line decoder every JSON Lines source uses.
  case jsonl
  /// A markdown file's front matter (the plugin's YAML subset and the export's verbatim one).
  case frontmatter
  /// A layout file.
  case layout
  /// A theme file.
  case theme
  /// A `--config` file.
  case config
  /// The journal's codec: an input, then a whole board.
  case codec
  /// A row of the workspace database's `features` table (what SQLite hands back: any type in
  /// any column), read as a feature with its audit-trail past.
  case dbrow
  /// What the QUIC client reads after the handshake, past ngtcp2 (which reassembles a stream's
  /// packets in order): the stream's inbox taking chunks as they come and giving them in reads
  /// of any size, the framer over those reads, each frame as a `PluginResponse`.
  case quicstream
  /// Upstream's features tools' answers: `list_projects`, `list_features` and `get_feature`, as
  /// markdown or as `_ui` data, read defensively.
  case tools
  /// What a wall reads from the broker: a stream message and a published board through the
  /// wall's machine, and a wall's fleet report.
  case relay

  static let current: FuzzTarget = {
    let name = ProcessInfo.processInfo.environment["WALLBOARD_FUZZ_TARGET"] ?? ""
    guard let t = FuzzTarget(rawValue: name) else {
      let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
      FileHandle.standardError.write("WALLBOARD_FUZZ_TARGET must be one of: \(names)\n".data(using: .utf8)!)
      exit(2)
    }
    return t
  }()

  func run(_ bytes: [UInt8]) {
    let at = Instant(seconds: 1_800_000_000)
    switch self {
    case .framer:
      var framer = LengthPrefixFramer(maxFrameBytes: 1 << 20)
      // Split where the first byte says, so that frames straddle chunks.
      let cut = bytes.first.map { Int($0) % (bytes.count + 1) } ?? 0
      for chunk in [bytes[..<cut], bytes[cut...]] {
        guard let frames = try? framer.push(chunk) else { return }
        for f in frames { _ = try? PluginResponse.decode(f) }
      }
    case .protobuf:
      _ = try? PluginResponse.decode(bytes)
    case .jsonl:
      var decoder = LineDecoder(origin: "fuzz", label: "fuzz", maxLineBytes: 1 << 16)
      var state = BoardState()
      for input in decoder.push(bytes, receivedAt: at) + decoder.finish(receivedAt: at) {
        Reducer.reduce(into: &state, input)
      }
    case .frontmatter:
      _ = try? FrontMatter.parse(bytes, file: "fuzz.md")
      _ = try? FrontMatter.parseVerbatim(bytes, file: "fuzz.md")
    case .layout:
      _ = try? LayoutParser.parse(
        String(decoding: bytes, as: UTF8.self), file: "fuzz.layout", vocabulary: WidgetRegistry.vocabulary)
    case .theme:
      _ = try? ThemeCatalog.parse(themeFile: String(decoding: bytes, as: UTF8.self), file: "fuzz.theme")
    case .config:
      _ = try? ArgumentParser.applyConfig(String(decoding: bytes, as: UTF8.self), file: "fuzz.conf", under: ["run"])
    case .codec:
      if let input = try? BoardCodec.decodeInput(bytes) {
        // What decodes must round-trip and reduce.
        let again = try? BoardCodec.decodeInput(BoardCodec.encode(input))
        precondition(again == input, "a decoded input round-trips")
        var state = BoardState()
        Reducer.reduce(into: &state, input)
      }
      if let state = try? BoardCodec.decodeState(bytes) {
        precondition((try? BoardCodec.decodeState(BoardCodec.encode(state))) == state, "a decoded board round-trips")
      }
    case .dbrow:
      // The first byte: how many columns (0 … historyColumns + 1: rows too short and too long too)
      // and whether the past is read from the body.
      let first = bytes.first ?? 0
      var row = DatabaseRow(Array(bytes.dropFirst()))
      let count = Int(first & 0x7F) % (FeatureRow.historyColumns + 2)
      let values = (0..<count).map { _ in row.value() }
      _ = FeatureRow(values: values).decode(history: first & 0x80 == 0 ? (now: at, initialState: "backlog") : nil)
    case .quicstream:
      quicStream(bytes)
    case .tools:
      tools(bytes)
    case .relay:
      relay(bytes)
    }
  }

  /// The bytes as the next message of a followed stream, as the board a wall starts from, and
  /// as a fleet report: whatever they are, the machine delivers an input or says why not.
  func relay(_ bytes: [UInt8]) {
    let at = Instant(seconds: 1_800_000_000)
    let t = Monotonic(nanoseconds: 1_000_000_000)
    let facts = RelayFollowMachine.StreamFacts(first: 1, last: 10, created: 5)
    var following = RelayFollowMachine(
      origin: "nats://fuzz:1/B", board: "B", position: RelayPosition(stream: 5, sequence: 10), seed: 1)
    _ = following.on(.start, at: t, stamp: at)
    _ = following.on(.connected, at: t, stamp: at)
    _ = following.on(.stream(facts), at: t, stamp: at)
    var state = BoardState()
    for action in following.on(.message(sequence: 11, bytes: bytes), at: t, stamp: at) {
      if case .deliver(let input) = action { Reducer.reduce(into: &state, input) }
    }
    precondition(following.position?.sequence == 11, "a message is applied or rejected at its position")
    var starting = RelayFollowMachine(origin: "nats://fuzz:1/B", board: "B", position: nil, seed: 1)
    _ = starting.on(.start, at: t, stamp: at)
    _ = starting.on(.connected, at: t, stamp: at)
    _ = starting.on(.stream(facts), at: t, stamp: at)
    for action in starting.on(.board(bytes), at: t, stamp: at) {
      if case .deliver(let input) = action { Reducer.reduce(into: &state, input) }
    }
    _ = try? FleetReport(bytes: bytes)
  }

  /// The first byte seeds the cut points: chunks as ngtcp2 hands them, reads of other sizes.
  func quicStream(_ bytes: [UInt8]) {
    var rng = UInt64(bytes.first ?? 1) | 1
    func next(_ bound: Int) -> Int {
      rng = rng &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int(rng >> 33) % max(1, bound) + 1
    }
    var inbox = StreamInbox()
    var framer = LengthPrefixFramer(maxFrameBytes: 1 << 20)
    var given = bytes.dropFirst()[...]
    var taken: [UInt8] = []
    while !given.isEmpty || !inbox.isEmpty {
      if !given.isEmpty && next(3) != 1 {
        let n = min(given.count, next(1500))
        inbox.append(Array(given.prefix(n)))
        given = given.dropFirst(n)
      } else if !inbox.isEmpty {
        let before = inbox.count
        let read = inbox.take(max: next(70_000))
        precondition(!read.isEmpty && inbox.count == before - read.count, "a read takes what it says")
        taken += read
        guard let frames = try? framer.push(read) else { return }
        for f in frames { _ = try? PluginResponse.decode(f) }
      }
    }
    precondition(taken == Array(bytes.dropFirst()), "the stream's bytes come out whole and in order")
  }

  /// The first byte picks the tool and the form; the rest is its text, or JSON for `_ui`.
  func tools(_ bytes: [UInt8]) {
    let text = String(decoding: bytes.dropFirst(), as: UTF8.self)
    let result: JSONObject
    switch (bytes.first ?? 0) % 4 {
    case 0, 1:
      result = ["text": .string(text)]
    default:
      guard let ui = try? JSONParser.parse(text, limits: JSONLimits(maxDepth: 16)) else { return }
      result = ["text": .string(text), "_ui": ui]
    }
    _ = FeatureTools.projects(result)
    let page = FeatureTools.page(result, project: "p")
    for r in page.records { precondition(!r.id.isEmpty && r.id.utf8.count <= 256, "ids are capped") }
    if let card = FeatureTools.detail(result, project: "p") {
      _ = card.feature
    }
  }
}

/// Values of SQLite's five types from fuzz bytes: a type byte, then 8 bytes for a number or a
/// 2-byte length and that many bytes for text or a blob; missing bytes read as NULL.
struct DatabaseRow {
  var bytes: ArraySlice<UInt8>
  init(_ bytes: [UInt8]) { self.bytes = bytes[...] }

  mutating func take(_ n: Int) -> [UInt8] {
    let out = Array(bytes.prefix(n))
    bytes = bytes.dropFirst(n)
    return out
  }

  mutating func value() -> FeatureRow.Value {
    guard let type = bytes.popFirst() else { return .null }
    func word(_ b: [UInt8]) -> UInt64 { b.reversed().reduce(0) { $0 << 8 | UInt64($1) } }
    switch type % 5 {
    case 1: return .integer(Int64(bitPattern: word(take(8))))
    case 2: return .real(Double(bitPattern: word(take(8))))
    case 3, 4:
      let n = Int(word(take(2)))
      let b = take(n)
      return type % 5 == 3 ? .text(String(decoding: b, as: UTF8.self)) : .blob(b)
    default: return .null
    }
  }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
  FuzzTarget.current.run(bytes)
  return 0
}

/// libFuzzer's driver (`libclang_rt.fuzzer`): runs `callback` the way its own `main` would.
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
  _ argc: UnsafeMutablePointer<CInt>,
  _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
  _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// The executable's entry: SwiftPM names an executable's `main` `<module>_main`; this one hands
/// the command line to libFuzzer's driver.
@_cdecl("wallboard_fuzz_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
  var count = argc
  var arguments = argv
  return LLVMFuzzerRunDriver(&count, &arguments) { data, size in fuzzOne(data, size) }
}
