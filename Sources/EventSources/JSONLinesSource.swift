public import Clock
public import SourceKit
public import WallboardCore

/// `jsonl:PATH`: a JSON Lines file, followed like `tail -F` live (`JSONLinesFollower`) or read to
/// its end (`JSONLinesReader`); `jsonl:-`, standard input, is followed until it closes.
///
/// On a board restored from a journal a followed file resumes where the board's position for it
/// says (`OriginState.file`), when it is still the same file; standard input cannot (what it
/// gives is a new stream each time) and is read as it comes.
public final class JSONLinesSource: EventSource {
  public let path: String
  public let origin: String
  private let follower: JSONLinesFollower

  public init(path: String, origin: String, start: JSONLinesFollower.Start = .top, clock: Clock) {
    self.path = path
    self.origin = origin
    follower = JSONLinesFollower(path: path, origin: origin, start: path == "-" ? .top : start, clock: clock)
  }

  /// A file is read to its end; standard input is followed (it ends when it closes).
  public var isFinite: Bool { path != "-" }

  public func start(deliver: @escaping @Sendable (BoardInput) -> Void) { follower.start(deliver: deliver) }
  public func stop() { follower.stop() }

  public func read(
    through moment: Instant?, receivedAt: Instant, deadline: TimeLimit, deliver: (BoardInput) -> Void
  ) throws(SourceError) -> Instant? {
    do {
      try JSONLinesReader.read(path: path, origin: origin, receivedAt: receivedAt, deadline: deadline, deliver: deliver)
    } catch {
      throw SourceError(source: origin, problem: "cannot read events: \(error)")
    }
    return nil
  }
}

extension JSONLinesSource {
  /// `jsonl:PATH`, `jsonl:-` for standard input.
  public struct Spec: SourceConfiguration {
    public var path: String
    public var name: String { "jsonl:" + path }
    /// Resumed from the position the restored board holds for its origin, if any.
    public func make(_ context: SourceContext) throws(SourceError) -> any EventSource {
      JSONLinesSource(path: path, origin: name, start: Self.start(context.restored[name]), clock: context.clock)
    }

    /// Where a board that holds `held` of this origin has the file read from.
    static func start(_ held: OriginState?) -> JSONLinesFollower.Start {
      guard let held else { return .top }
      if let p = held.file { return .resume(p, passOver: held.linesPastFile) }
      return held.events + held.rejected + held.duplicates > 0 ? .noPosition : .top
    }
  }

  struct Kind: SourceKind {
    var usage: String { "jsonl:PATH (- for stdin)" }
    func parse(_ text: String) throws(SourceSpecError) -> (any SourceConfiguration)? {
      try value(of: text, after: "jsonl:", needs: "a path, or - for stdin").map { Spec(path: $0) }
    }
  }
}
