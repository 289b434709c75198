internal import Clock
internal import Codec
internal import EventSources
internal import Journal
internal import Posix
internal import SourceKit
internal import WallboardCore

/// Where the board's journal is and how it is opened: `--journal PATH`, else for `run` the
/// default under the state directory, one file per set of sources (a board showing other sources
/// has other memories); none with `--no-journal`.
enum JournalPlace {
  /// The journal `options` name, or `run`'s default; nil when there is none.
  static func path(_ options: Options, environment: [String: String]) -> String? {
    guard !options.noJournal else { return nil }
    if let p = options.journal { return p }
    guard options.command == .run, let dir = stateDirectory(environment) else { return nil }
    return dir + "/" + defaultName(sources: options.effectiveSources.map(\.name))
  }

  /// `journal-<8 hex digits>.db`: the FNV-1a hash of the source names, one per line.
  static func defaultName(sources: [String]) -> String {
    var hash: UInt32 = 2_166_136_261
    for b in sources.joined(separator: "\n").utf8 {
      hash = (hash ^ UInt32(b)) &* 16_777_619
    }
    let hex = String(hash, radix: 16)
    return "journal-" + String(repeating: "0", count: 8 - hex.count) + hex + ".db"
  }

  /// systemd's `$STATE_DIRECTORY` (the service's `StateDirectory=wallboard`: /var/lib/wallboard),
  /// else `$XDG_STATE_HOME/wallboard`, else `~/.local/state/wallboard`; only absolute paths.
  static func stateDirectory(_ env: [String: String]) -> String? {
    if let s = env["STATE_DIRECTORY"]?.split(separator: ":").first, s.hasPrefix("/") { return String(s) }
    if let x = env["XDG_STATE_HOME"], x.hasPrefix("/") { return x + "/wallboard" }
    if let h = env["HOME"], h.hasPrefix("/") { return h + "/.local/state/wallboard" }
    return nil
  }

  /// Refuses what a replay cannot be: beside other sources or declared sprints (its first
  /// input replaces the whole board), or played into the journal it is read from.
  static func checkReplay(_ options: Options, journal: String?) throws(CLIError) {
    let replays = options.effectiveSources.compactMap { $0.configuration as? ReplaySource.Spec }
    guard let replay = replays.first else { return }
    guard options.effectiveSources.count == 1, options.sprints.isEmpty else {
      throw .usage("--source replay: shows the board a journal holds: it takes no other --source or --sprint")
    }
    if let journal, same(journal, replay.path) {
      throw .usage(
        "--source replay:\(replay.path) is the journal this board writes (--journal); "
          + "replay a copy, or pass --no-journal")
    }
  }

  /// Whether two paths name one file (after `..`, `.` and symbolic links).
  static func same(_ a: String, _ b: String) -> Bool {
    FileSystem.resolved(a) == FileSystem.resolved(b)
  }

  /// The retention `options` ask for.
  static func retention(_ options: Options) -> Retention {
    Retention(
      previousSprints: options.journalSprints, flowDays: options.flowDays,
      maxBytes: Int64(options.journalMegabytes) * 1_048_576)
  }

  /// Plays the journal at `path` into `store` without writing to it (`inspect`/`snapshot` of a
  /// journal alone, or as of an earlier moment): read only, so a running board may be writing it.
  /// Any error names the journal.
  static func look(
    _ path: String, options: Options, into store: inout BoardStore, through moment: Instant?,
    warn: (String) -> Void
  ) throws(CLIError) -> JournalFile.Playback {
    do throws(JournalError) {
      let file = try JournalFile(path: path, mode: .read)
      var s = store
      let played = try file.play(through: moment, settings: options.boardSettings) { input, at in
        s.apply(input, at: at, asOfRule: .none)
      }
      store = BoardStore(state: s.state, asOf: store.asOf)
      if let skipped = played.skippedSummary { warn("wallboard: journal \(path): \(skipped)") }
      return played
    } catch {
      throw .journal(error)
    }
  }

  /// Opens the journal at `path` to write, and plays what it holds into `store`.
  ///
  /// A journal named with `--journal` that cannot be used is an error. For `run`'s default one:
  /// a damaged file, or another program's, is set aside (renamed `….unreadable-<time>`) and a new
  /// one begun; so is one whose schema or codec version this build does not read (a newer
  /// Wallboard's: renamed `….v<N>.<time>`, `….schema<N>.<time>`); one in an older codec is read
  /// (and said); one another board is writing is left alone and the board runs without a
  /// journal; one compacted under other settings is kept writing to, but the board starts from
  /// its sources alone. Each is said through `warn`.
  ///
  /// - Returns: the writer (not started), and what the playback delivered; nil: no journal.
  static func open(
    _ path: String, options: Options, into store: inout BoardStore, named: Bool, clock: Clock,
    warn: (String) -> Void
  ) throws(CLIError) -> (JournalWriter, JournalFile.Playback)? {
    if !named {
      let dir = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
      // Mode 0700: the journal's directory is private.
      if let why = FileSystem.makeDirectories(dir, mode: 0o700) {
        warn("wallboard: cannot make \(dir) for the journal (\(why)); running without one")
        return nil
      }
    }
    var attempt = 0
    while true {
      attempt += 1
      let writer: JournalWriter
      do throws(JournalError) {
        writer = try JournalWriter(path: path, retention: retention(options), clock: clock)
      } catch {
        guard try setAside(error, path: path, named: named, first: attempt == 1, now: clock.now(), warn: warn) else {
          return nil
        }
        continue
      }
      var s = store
      do throws(JournalError) {
        let played = try writer.play(settings: options.boardSettings) { input, at in
          s.apply(input, at: at, asOfRule: .none)
        }
        // The run's own clock from here on: the journal's times stay in the journal.
        store = BoardStore(state: s.state, asOf: store.asOf)
        // Rows that cannot be read are skipped, never a reason not to start: said, and counted.
        if let skipped = played.skippedSummary { warn("wallboard: journal \(path): \(skipped)") }
        if !named, writer.openedEncoding < Int(BoardCodec.version) {
          warn(
            "wallboard: journal \(path): encoded in version \(writer.openedEncoding) by an older Wallboard; "
              + "read it, and it is written in version \(BoardCodec.version) from now on")
        }
        return (writer, played)
      } catch {
        if case .otherSettings = error, !named {
          warn("wallboard: \(error); the board starts from its sources")
          return (writer, JournalFile.Playback())
        }
        writer.close()
        guard try setAside(error, path: path, named: named, first: attempt == 1, now: clock.now(), warn: warn) else {
          return nil
        }
      }
    }
  }

  /// Keeps a board restored from a journal to the sources that run now: what an origin outside
  /// `sources` contributed goes (a source no longer named, `declared` when no `--sprint` is
  /// declared now; `BoardState.keeping`). Applied as a restored board, so that a journal being
  /// written records it as a board replaced whole (its inputs before no longer lead to it).
  /// An empty board left is no "last known board". With no source at all, the board is the
  /// journal's alone and stays as it is (shown as the last known board); with a `nats://`
  /// source, it is a published board's, and stays too.
  ///
  /// - Parameter at: the journal's moment (the board time of the last input it delivered).
  static func keep(_ store: inout BoardStore, to sources: [any EventSource], at: Instant?) {
    guard !sources.isEmpty else { return }
    // A wall's board is a published one: its origins are the publisher's sources, not this
    // board's, and stay (the relay replaces the board whole when it must).
    guard !sources.contains(where: { $0 is RelayBoardSource }) else { return }
    let time = at ?? store.state.lastEventTime ?? Instant(millis: 0)
    guard let kept = store.state.keeping(origins: Set(sources.map(\.origin)), at: time) else { return }
    store.apply(.restored(kept), at: time, asOfRule: .none)
    if kept.origins.isEmpty { store = BoardStore(state: kept, asOf: store.asOf, recorder: store.recorder) }
    store.resetTally()
  }

  /// What an unusable journal becomes: an error when named; else true when it was set aside (a
  /// new one may be begun), false when the board runs without one (said through `warn`).
  private static func setAside(
    _ error: JournalError, path: String, named: Bool, first: Bool, now: Instant, warn: (String) -> Void
  ) throws(CLIError) -> Bool {
    if named { throw .journal(error) }
    // Damaged or another program's: `….unreadable-<time>`; a newer (or unknown) schema or codec:
    // `….v<N>.<time>` (`….schema<N>.<time>` for a schema), never deleted.
    let suffix: String
    switch error {
    case .damaged, .notAJournal: suffix = ".unreadable-"
    case .otherEncoding(_, let found, _): suffix = ".v\(found)."
    case .newerSchema(_, let found, _): suffix = ".schema\(found)."
    default: suffix = ""
    }
    guard !suffix.isEmpty, first else {
      warn("wallboard: \(error); running without a journal")
      return false
    }
    let aside = path + suffix + String(now.millis / 1000)
    if let why = FileSystem.rename(path, to: aside) {
      warn("wallboard: \(error) and cannot be set aside (\(why)); running without a journal")
      return false
    }
    for suffix in ["-wal", "-shm"] where FileSystem.exists(path + suffix) {
      _ = FileSystem.rename(path + suffix, to: aside + suffix)
    }
    warn("wallboard: \(error); kept it as \(aside) and began a new one")
    return true
  }
}
