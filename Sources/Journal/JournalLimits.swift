internal import Codec
internal import WallboardCore

/// The journal's caps: one size for every value it stores, the same when writing and reading.
///
/// An input's body and a snapshot's board are both blobs of at most `maxBlobBytes`: what is
/// larger is refused when it is written (`JournalBatch.Refusal`, counted in
/// `JournalStatus.refused`), so that nothing is kept that could not be read back. Reading checks
/// the same cap (SQLite's `maxValueBytes`), so a row over it (a file written by hand, or by a
/// build with another cap) is skipped and named (`JournalFile.Skip`), never a reason to stop.
///
/// Sized from the board's own limits (docs/journal.md has the numbers): the largest workspace
/// snapshot the sources allow with plausible features (100,000 features, a few hundred bytes
/// each: a 100,000-file tree encodes to 9.4 MB) fits 27 times over; the worst case the caps
/// allow (100,000 features of 1 MiB front matter each, 100 GB) fits no memory, and is refused.
public enum JournalLimits {
  /// The largest blob kept or read back: an input's encoding, or a snapshot's board.
  public static let maxBlobBytes = 256 << 20
  /// The longest string a blob may hold (the codec's cap, `BoardCodec.maxStringBytes`).
  public static let maxStringBytes = BoardCodec.maxStringBytes
  /// Input bodies read into one page at most, besides its first row: a page of large rows
  /// (workspace snapshots) holds a few, not 2,000.
  public static let pageBytes = 16 << 20
  /// Skipped rows named in a playback; those past it are counted only.
  public static let namedSkips = 20
}

extension JournalFile {
  /// A row of the journal that could not be read, and was skipped: its table, its id (its key
  /// for `meta`) and why.
  public struct Skip: Error, Hashable, Sendable, CustomStringConvertible {
    /// `inputs`, `snapshots` or `meta`.
    public var table: String
    /// The row's id (`inputs.id`, `snapshots.id`); its key in `meta`.
    public var row: String
    public var reason: String

    public init(table: String, row: String, reason: String) {
      self.table = table
      self.row = row
      self.reason = reason
    }

    /// `inputs row 17: input.event at byte 3: …`.
    public var description: String { "\(table) row \(row): \(reason)" }
  }
}
