internal import SourceKit
public import WallboardCore

/// What following a markdown tree remembers between looks, and what each look means for the
/// board: a pure state machine (a listing, a reader and the time go in; changes come out).
///
/// Writes are in place (truncate, then write; the sidecar after), so a look can catch a file
/// empty, cut short or not yet parseable. Such a file is read again after a short delay, a few
/// times over about a second, and again whenever it changes; only then is it reported, once.
/// Meanwhile the feature it held keeps its last good version: a torn read never makes a
/// feature vanish. A `.md` newer than its sidecar is read anyway (the sidecar's own change
/// reads it again).
public struct MarkdownFollower: Sendable {
  /// One change for the board.
  public enum Output: Hashable, Sendable {
    /// A feature file that is new or says something new.
    case upserted(MarkdownWorkspace.Record)
    /// The file of a feature this follower showed is gone.
    case deleted(id: String, project: String? = nil, path: String)
    /// A file that stayed unreadable through its retries (or was read again, still bad).
    case rejected(MarkdownWorkspace.Problem)
  }

  /// A file's stamps and its sidecar's.
  struct Seen: Hashable, Sendable {
    var stamp: FileStamp
    var sidecar: FileStamp?
  }

  struct Retry: Hashable, Sendable {
    var attempt: Int
    var at: Instant
    var seen: Seen
  }

  /// The stamps of each file when it was last settled (read, or reported bad).
  private(set) var seen: [String: Seen] = [:]
  /// The last good record of each file — without its body, which is only needed once (the
  /// first snapshot's backfill): a hash of it tells a changed body, so memory does not grow
  /// with the bodies of a large tree.
  public private(set) var shown: [String: MarkdownWorkspace.Record] = [:]
  private var bodyHashes: [String: Int] = [:]
  private(set) var retries: [String: Retry] = [:]
  /// The files that cannot be read now, by path: reported bad (after their retries) and not
  /// read well since, nor gone. What the source says on its line of the board.
  public private(set) var unreadable: [String: MarkdownWorkspace.Problem] = [:]
  /// The delays, in milliseconds, before each read again of a bad file (about 1 s in all).
  public var retryDelays: [Int64] = [100, 200, 300, 400]

  public init() {}

  /// When the next read again is due, if one is.
  public var nextRetry: Instant? { retries.values.map(\.at).min() }

  /// One look at the tree at `now`: files gone, files new or changed since they settled, and
  /// files whose read again is due are read with `read`; returns what the board must hear.
  public mutating func look(
    _ listing: MarkdownWorkspace.Listing, at now: Instant,
    read: (MarkdownWorkspace.Entry) -> Result<MarkdownWorkspace.Record, MarkdownWorkspace.Problem>
  ) -> [Output] {
    var out: [Output] = []
    for path in Set(seen.keys).union(retries.keys).union(shown.keys) where listing.entries[path] == nil {
      // A folder that could not be listed this time says nothing of its files: they stay.
      if listing.unreadable.contains(where: { path.hasPrefix($0 + "/") }) { continue }
      bodyHashes[path] = nil
      if let gone = shown.removeValue(forKey: path) {
        // Another file that holds the same feature (a copy, a link) shows it still.
        if let other = shown.values.first(where: { $0.feature.key == gone.feature.key }) {
          out.append(.upserted(other))
        } else {
          out.append(.deleted(id: gone.feature.id, project: gone.feature.projectId, path: path))
        }
      }
      seen[path] = nil
      retries[path] = nil
      unreadable[path] = nil
    }
    for (path, entry) in listing.entries.sorted(by: { $0.key < $1.key }) {
      let nowSeen = Seen(stamp: entry.stamp, sidecar: entry.sidecar)
      var attempt = 0
      if let r = retries[path] {
        if r.seen == nowSeen {
          guard now >= r.at else { continue }
          attempt = r.attempt + 1
        }
      } else if seen[path] == nowSeen {
        continue
      }
      switch read(entry) {
      case .success(let record):
        retries[path] = nil
        unreadable[path] = nil
        seen[path] = nowSeen
        let before = shown[path]
        let bodyHash = record.body.hashValue
        if before?.feature != record.feature || bodyHashes[path] != bodyHash || before?.version != record.version {
          out.append(.upserted(record))
        }
        var kept = record
        kept.body = ""
        shown[path] = kept
        bodyHashes[path] = bodyHash
      case .failure(let problem):
        if attempt < retryDelays.count {
          retries[path] = Retry(attempt: attempt, at: Instant(millis: now.millis + retryDelays[attempt]), seen: nowSeen)
        } else {
          retries[path] = nil
          seen[path] = nowSeen
          unreadable[path] = problem
          out.append(.rejected(problem))
        }
      }
    }
    return out
  }
}
