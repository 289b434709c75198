internal import WallboardCore

/// What was wrong with a blob: where (byte offset and a path such as `state.features["F-1"].title`
/// or `input.event.body.sprintCreated.name`) and what.
public struct CodecError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The byte offset, from the start of the blob, of the item that was wrong.
  public var offset: Int
  /// Where in the value the item belongs, outermost first (`state.origins["sim"].lastGap`).
  public var path: String
  /// What was wrong with it.
  public var problem: String

  public init(offset: Int, path: String, problem: String) {
    self.offset = offset
    self.path = path
    self.problem = problem
  }

  /// `state.features["F-1"].title at byte 17: not valid UTF-8`.
  public var description: String { "\(path.isEmpty ? "blob" : path) at byte \(offset): \(problem)" }

  /// The same problem, seen from one level up: `segment` (`features`, `["F-1"]`, `[3]`) is
  /// prefixed to the path.
  func within(_ segment: String) -> CodecError {
    var e = self
    if segment.isEmpty {
      return self
    } else if path.isEmpty {
      e.path = segment
    } else if path.hasPrefix("[") {
      e.path = segment + path
    } else {
      e.path = segment + "." + path
    }
    return e
  }

  /// A dictionary key as a path segment: quoted, escaped, and cut at 64 characters.
  static func key(_ k: String) -> String {
    let shown = k.count > 64 ? String(k.prefix(64)) + "…" : k
    return "[" + shown.debugDescription + "]"
  }
}
