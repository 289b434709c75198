internal import EventSources
internal import Foundation
internal import Journal
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

  /// The retention `options` ask for.
  static func retention(_ options: Options) -> Retention {
    Retention(
      previousSprints: options.journalSprints, flowDays: options.flowDays,
      maxBytes: Int64(options.journalMegabytes) * 1_048_576)
  }

  /// Opens the journal at `path` and plays what it holds into `store` (up to `moment`). A
  /// default journal that cannot be read is set aside (renamed `….unreadable-<time>`) and a new
  /// one begun, unless a newer Wallboard wrote it; a named one is an error.
  ///
  /// - Returns: the writer (not started), and what the playback delivered.
  static func open(
    _ path: String, options: Options, into store: inout BoardStore, through moment: Instant? = nil,
    named: Bool, warn: (String) -> Void
  ) throws(CLIError) -> (JournalWriter, JournalFile.Playback)? {
    if !named {
      let dir = (path as NSString).deletingLastPathComponent
      do {
        try FileManager.default.createDirectory(
          atPath: dir, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
      } catch {
        warn("wallboard: cannot make \(dir) for the journal (\(error.localizedDescription)); running without one")
        return nil
      }
    }
    var attempt = 0
    while true {
      attempt += 1
      do throws(JournalError) {
        let writer = try JournalWriter(path: path, retention: retention(options))
        var s = store
        let played = try writer.play(through: moment, settings: options.boardSettings) { input, at in
          s.apply(input, at: at, gated: false)
        }
        s.resetTally()
        store = s
        return (writer, played)
      } catch {
        let unreadable: Bool
        switch error {
        case .damaged, .notAJournal: unreadable = true
        default: unreadable = false
        }
        if named { throw .runtime(error.description) }
        guard unreadable, attempt == 1 else {
          warn("wallboard: \(error); running without a journal")
          return nil
        }
        let aside = path + ".unreadable-" + String(Int(Date().timeIntervalSince1970))
        do { try FileManager.default.moveItem(atPath: path, toPath: aside) } catch {
          warn("wallboard: \(error) and cannot be set aside; running without a journal")
          return nil
        }
        for suffix in ["-wal", "-shm"] {
          try? FileManager.default.moveItem(atPath: path + suffix, toPath: aside + suffix)
        }
        warn("wallboard: \(error); kept it as \(aside) and began a new one")
      }
    }
  }
}
