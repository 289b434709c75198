internal import WallboardCore

/// What one kind of source needs to be made: parsed from a `--source` value by its kind, in the
/// kind's own file. `Hashable` so that options compare; `name` is the board's name for the source
/// and the origin of its events.
public protocol SourceConfiguration: Hashable, Sendable {
  /// The name the board shows and the origin of its events (`sim`, `jsonl:/path`, …).
  var name: String { get }
  /// Makes the source (its file is read, its server connected to, only when it starts).
  func make(_ context: SourceContext) throws(SourceError) -> any EventSource
  /// Why there is nothing at the path the source names, now — a missing workspace folder, one
  /// without `.projects/` (or database), a missing database — saying the path; nil when it is
  /// there, or the source names no such path (a server, a file it reads to its end). `snapshot`
  /// and `inspect` refuse a source with nothing to read; `run` follows it anyway, offline with
  /// this reason, until the path appears.
  func missing(_ context: SourceContext) -> SourceError?
  /// The projects the source's store holds now, read without following it (for a `--project`
  /// that matches none); nil when it cannot say.
  func projects(_ context: SourceContext) -> [String]?
}

extension SourceConfiguration {
  public func missing(_ context: SourceContext) -> SourceError? { nil }
  public func projects(_ context: SourceContext) -> [String]? { nil }
}

/// One kind of source (`sim`, `jsonl`, `orchestra`, …): how its `--source` values are written
/// and parsed. Each lives beside its source; `SourceRegistry.standard` lists them.
public protocol SourceKind: Sendable {
  /// How its values are written, for messages: `jsonl:PATH (- for stdin)`.
  var usage: String { get }
  /// This kind's configuration when `text` is one of its values; nil when `text` is another
  /// kind's; an error when it is this kind's but wrong.
  func parse(_ text: String) throws(SourceSpecError) -> (any SourceConfiguration)?
}

/// A `--source` argument, parsed by the kind it names.
public struct SourceSpec: Hashable, Sendable, CustomStringConvertible {
  public let configuration: any SourceConfiguration

  public init(_ configuration: any SourceConfiguration) { self.configuration = configuration }

  /// The name the board shows and the origin of its events.
  public var name: String { configuration.name }
  public var description: String { name }

  public static func == (a: SourceSpec, b: SourceSpec) -> Bool {
    AnyHashable(a.configuration) == AnyHashable(b.configuration)
  }

  public func hash(into hasher: inout Hasher) { hasher.combine(AnyHashable(configuration)) }
}

/// A `--source` value that could not be parsed.
public struct SourceSpecError: Error, Hashable, Sendable, CustomStringConvertible {
  public var text: String
  public var problem: String
  /// Every kind's spelling, listed when the kind itself was not recognised (nil: not listed).
  public var accepted: String?
  public init(text: String, problem: String, accepted: String? = nil) {
    self.text = text
    self.problem = problem
    self.accepted = accepted
  }
  public var description: String {
    "--source \"\(text)\": \(problem)" + (accepted.map { " (accepted: \($0))" } ?? "")
  }
}

extension SourceKind {
  /// The value after `prefix` when `text` starts with it and the value is not empty; nil when it
  /// does not start with it; an error naming what is missing when the value is empty.
  public func value(of text: String, after prefix: String, needs what: String) throws(SourceSpecError) -> String? {
    guard text.hasPrefix(prefix) else { return nil }
    let v = String(text.dropFirst(prefix.count))
    guard !v.isEmpty else { throw SourceSpecError(text: text, problem: "\(prefix) needs \(what)") }
    return v
  }
}

extension SourceConfiguration {
  /// A number as a spec spells it: `2`, not `2.0`.
  public func formatNumber(_ v: Double) -> String {
    v == v.rounded() && abs(v) < 1e15 ? String(Int64(v)) : String(v)
  }
}
