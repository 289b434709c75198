public import Clock
internal import Codec
internal import Glibc
internal import SQLite
public import WallboardCore

/// The journal a running board writes: the `BoardRecorder` its store hands every input to.
///
/// `record` only queues (the caller is the drawing thread); a thread of the writer's own encodes
/// the inputs and writes them in transactions of everything queued, at most `batchDelay` after
/// the first of them. Every `snapshotEvery` inputs, and when the board's day turns, it asks the
/// store for the whole board and keeps it as a snapshot, so that a restore replays little. After
/// a snapshot it thins the older ones and, past the size bound, compacts (`JournalFile.compact`).
///
/// If the disk falls so far behind that `maxPending` inputs wait, or a write fails, the queued
/// inputs are dropped and the next snapshot is marked as a gap: the journal stays one a replay can
/// trust (a restore starts from that snapshot), losing only the inputs' detail. `close` writes
/// everything queued and a last snapshot, then closes the file.
public final class JournalWriter: BoardRecorder, @unchecked Sendable {
  public let path: String
  public let retention: Retention
  /// Inputs between two snapshots at most.
  public let snapshotEvery: Int
  /// Inputs waiting for the disk at most.
  public let maxPending: Int
  public static let batchDelay = 0.2

  private enum Item {
    case input(BoardInput, Reduction, Instant)
    case snapshot(BoardState, Instant, gap: Bool)
  }

  /// Opened on the caller's thread, then used only by the writer's thread once `start` ran;
  /// released before the lock's descriptor is closed (see `deinit`).
  private var fileBox: JournalFile?
  private var file: JournalFile { fileBox! }
  private let lockFD: Int32
  private var released = false
  /// The codec version the journal's meta named when it was opened (`JournalFile.openedEncoding`).
  public private(set) var openedEncoding = Int(BoardCodec.version)
  private let condition = Condition()
  private var pending: [Item] = []
  private var firstQueued: Monotonic?
  private let clock: Clock
  private var sinceSnapshot = 0
  private var lastSnapshotDay: Int?
  private var lastSnapshotAt: Instant?
  private var gapPending = false
  /// The last snapshot was refused (its board too large to keep): the next one waits for
  /// `snapshotEvery` inputs.
  private var snapshotRefused = false
  private var closing = false
  private var started = false
  private var finished = false
  private var queued = 0
  private var written = 0
  private var current = JournalStatus()
  /// The writer thread's own: the floor retention set at the last snapshot written and that
  /// board's settings, for a compaction between snapshots (when a batch takes the file past its
  /// budget); nil before the first snapshot.
  private var keep: (floor: Instant, settings: BoardSettings)?
  /// The writer thread's own: the bytes of the largest write's inputs so far (the room a budget
  /// leaves for the next).
  private var largestWrite: Int64 = 0

  /// Opens (or makes) the journal at `path` and takes it for this board: another board writing
  /// it is an error. Nothing is written before `start`.
  public init(
    path: String, retention: Retention = Retention(), snapshotEvery: Int = 10_000, maxPending: Int = 200_000,
    clock: Clock
  ) throws(JournalError) {
    self.clock = clock
    precondition(snapshotEvery > 0 && maxPending > 0, "a journal writer needs room for an input")
    self.path = path
    self.retention = retention
    self.snapshotEvery = snapshotEvery
    self.maxPending = maxPending
    // The lock first (the file made if need be: an empty file is an empty database), so that a
    // second board touches nothing, not even the schema.
    // The team's data: readable by the board's user alone (SQLite gives its -wal and -shm the same).
    let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    guard fd >= 0 else { throw .cannotOpen(path: path, reason: String(cString: strerror(errno))) }
    guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
      Glibc.close(fd)
      throw .inUse(path: path)
    }
    lockFD = fd
    // Every property is set from here on: a throw runs `deinit`, which closes the descriptor.
    let file = try JournalFile(path: path, mode: .write)
    fileBox = file
    openedEncoding = file.openedEncoding
    try file.configure(retention: retention)
    current.bytes = (try? file.bytesInUse()) ?? 0
    if let last = try file.snapshots().last {
      lastSnapshotAt = last.at
      lastSnapshotDay = last.at.millis == 0 ? nil : Int(last.at.millis / 86_400_000)
    }
  }

  deinit { release() }

  /// Closes the file, then gives up the lock. SQLite's connection closes first: closing any
  /// descriptor of the file drops the process's POSIX locks on it, SQLite's among them.
  private func release() {
    guard !released else { return }
    released = true
    fileBox = nil
    Glibc.close(lockFD)
  }

  /// Plays what the journal holds into `deliver`, to its end (see `JournalFile.play`). Only
  /// before `start`: a board that records starts from all it knew.
  public func play(
    settings: BoardSettings?, deliver: (BoardInput, Instant) -> Void
  ) throws(JournalError) -> JournalFile.Playback {
    precondition(condition.withLock { !started && !released }, "play the journal before starting its writer")
    return try file.play(through: nil, settings: settings, deliver: deliver)
  }

  /// Starts writing on a thread of its own.
  public func start() {
    condition.withLock {
      precondition(!started, "a journal writer starts once")
      started = true
    }
    Threads.start(named: "journal") { [self] in loop() }
  }

  // MARK: BoardRecorder

  public func record(_ input: BoardInput, _ reduction: Reduction, at: Instant) -> Bool {
    condition.lock()
    defer { condition.unlock() }
    guard !closing else { return false }
    if case .restored = input.payload {
      // A board replaced whole (a wall's bootstrap included: the snapshot keeps its position): the inputs before it no longer lead to it.
      gapPending = true
      return true
    }
    if pending.count >= maxPending {
      drop()
      current.dropped += 1
      return true
    }
    if firstQueued == nil { firstQueued = clock.monotonic() }
    pending.append(.input(input, reduction, at))
    queued += 1
    sinceSnapshot += 1
    if pending.count == 1 || pending.count >= 4096 { condition.broadcast() }
    // The day turns on the board's time (UTC days); an input from before any event (time 0)
    // turns none.
    let day = at.millis == 0 ? lastSnapshotDay : Int(at.millis / 86_400_000)
    if lastSnapshotDay == nil { lastSnapshotDay = day }
    if snapshotRefused { return sinceSnapshot >= snapshotEvery }
    return sinceSnapshot >= snapshotEvery || day != lastSnapshotDay || gapPending
  }

  public func save(_ state: BoardState, at: Instant) {
    condition.lock()
    defer { condition.unlock() }
    guard !closing else { return }
    pending.append(.snapshot(state, at, gap: gapPending))
    queued += 1
    gapPending = false
    sinceSnapshot = 0
    lastSnapshotDay = Int(at.millis / 86_400_000)
    lastSnapshotAt = at
    condition.broadcast()
  }

  /// The queued inputs are dropped (the disk fell behind, or a write failed): the next snapshot
  /// is a gap. Called with the lock held.
  private func drop() {
    let dropped = pending.reduce(0) { n, item in if case .input = item { n + 1 } else { n } }
    // Queued snapshots go too: the inputs before them are gone, so only the gap snapshot that
    // follows is one a replay can trust.
    written += pending.count
    pending.removeAll()
    firstQueued = nil
    current.dropped += dropped
    gapPending = true
  }

  // MARK: The writer's thread

  private func loop() {
    while true {
      condition.lock()
      while pending.isEmpty && !closing { condition.wait() }
      if !closing, pending.count < 4096, let first = firstQueued {
        clock.wait(until: first.adding(seconds: JournalWriter.batchDelay), on: condition)
      }
      // The queue starts empty again, without the capacity of the batch taken: kept, it would
      // hold the largest burst ever queued (up to `maxPending` inputs) for the board's life.
      let items = pending
      pending = []
      firstQueued = nil
      let done = closing && items.isEmpty
      condition.unlock()
      if done { break }
      write(items)
    }
    condition.withLock {
      finished = true
      condition.broadcast()
    }
  }

  private func write(_ items: [Item]) {
    var batch = JournalBatch()
    batch.items.reserveCapacity(items.count)
    batch.bodies.reserveCapacity(items.count)
    var latest: (BoardState, Instant)?
    var failure: String?
    var refused = 0
    var refusal: String?
    var refusedInput = false
    var refusedSnapshot: Bool?
    for item in items {
      do throws(JournalBatch.Refusal) {
        switch item {
        case .input(let i, let r, let at):
          do throws(JournalBatch.Refusal) { try batch.append(i, r, at: at) } catch {
            refusedInput = true
            throw error
          }
        case .snapshot(let s, let at, let gap):
          do throws(JournalBatch.Refusal) { try batch.append(snapshot: s, at: at, gap: gap) } catch {
            refusedSnapshot = gap || (refusedSnapshot ?? false)
            throw error
          }
          latest = (s, at)
        }
      } catch {
        // Never kept so that it cannot be read back: counted, and said.
        refused += 1
        refusal = error.description
      }
    }
    var wrote = false
    do {
      try file.write(batch)
      wrote = true
      if let (state, at) = latest { keep = (retention.floor(state: state, at: at), state.settings) }
      largestWrite = max(largestWrite, batch.inputBytes)
      // At every snapshot, and whenever a batch takes the file past its budget: the budget leaves
      // room for the next write and a compaction, so that the bound holds whatever the rate.
      let over =
        latest == nil && keep != nil
        ? try file.bytesInUse()
          > JournalFile.budget(for: retention, board: file.latestBoardBytes(), write: largestWrite) : false
      if let keep, latest != nil || over {
        let c = try file.compact(
          retention: retention, floor: keep.floor, settings: keep.settings, write: largestWrite)
        condition.withLock {
          current.bytes = c.bytes
          current.overBound = c.overBound
          if c.inputsRemoved > 0 { current.compactions += 1 }
        }
      }
      // A batch larger than the log's share leaves the log that large: cut back at once.
      try file.cutLog(over: JournalFile.walLimit(for: retention))
      // A snapshot's encoding is megabytes, freed once written, and glibc keeps freed blocks
      // that size in the heap (its mmap threshold rises to the largest freed): measured, the
      // board grew by tens of MB a few minutes into a 2,000 events/s feed. They go back now.
      if latest != nil { JournalWriter.trimHeap() }
    } catch {
      failure = error.description
    }
    condition.withLock {
      written += items.count
      if refused > 0 {
        current.refused += refused
        current.lastRefusal = refusal
      }
      // A refused input leaves a hole in the rows, and a refused gap snapshot leaves its gap
      // unsaid: the next snapshot is one a replay starts from. A board too large to keep is
      // tried again only `snapshotEvery` inputs later, not at every input.
      if refusedInput || refusedSnapshot == true { gapPending = true }
      if let _ = refusedSnapshot { snapshotRefused = true } else if latest != nil { snapshotRefused = false }
      if wrote {
        current.written += batch.bodies.count
      } else {
        // Lost with the transaction: the next snapshot says so.
        current.dropped += batch.bodies.count
        current.failedWrites += 1
        gapPending = true
      }
      current.lastError = failure ?? (refused > 0 ? refusal : nil)
      condition.broadcast()
    }
  }

  /// Waits until everything recorded so far is written (or dropped).
  public func flush() {
    condition.lock()
    defer { condition.unlock() }
    let target = queued
    while written < target && started && !finished { condition.wait() }
  }

  /// Writes everything queued and `final` as the last snapshot (when inputs came after the last
  /// one, or the board's time moved: the moment it was shown is kept too); then stops the
  /// thread. The file closes with the writer.
  public func close(final state: BoardState? = nil, at: Instant? = nil) {
    if let state, let at {
      let wanted = condition.withLock { sinceSnapshot > 0 || gapPending || lastSnapshotAt != at }
      if wanted { save(state, at: at) }
    }
    condition.withLock {
      closing = true
      condition.broadcast()
    }
    if condition.withLock({ started }) {
      condition.lock()
      while !finished { condition.wait() }
      condition.unlock()
    } else {
      // Never started: write what was queued on this thread.
      let items = condition.withLock { pending }
      if !items.isEmpty { write(items) }
    }
    // The file is closed and the lock given up now, whoever still holds the writer.
    release()
  }

  /// How the journal stands: what was written, dropped, its size and its last error.
  public var status: JournalStatus { condition.withLock { current } }

  /// glibc's `malloc_trim(0)` (not in Swift's Glibc module: looked up once).
  private static let mallocTrim: (@convention(c) (Int) -> Int32)? = {
    guard let f = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return nil }
    return unsafeBitCast(f, to: (@convention(c) (Int) -> Int32).self)
  }()

  static func trimHeap() { _ = mallocTrim?(0) }

  /// Inputs and snapshots waiting for the disk now: at most `maxPending` (and the snapshot that
  /// follows a drop).
  public var queueDepth: Int { condition.withLock { pending.count } }

  /// How far past `retention.maxBytes` the journal (its file, -wal and -shm) may be, its
  /// latest board `board` bytes and its largest write `write` (the inputs' bytes): none while
  /// the room the budget leaves for a write and a compaction is at most half of the bound, the
  /// rest of that room beyond it when it is more (`JournalFile.budget(for:board:write:)`; a
  /// board a large share of a small bound). See docs/journal.md.
  public static func boundMargin(for retention: Retention, board: Int64, write: Int64) -> Int64 {
    max(0, JournalFile.room(for: retention, board: board, write: write) - retention.maxBytes / 2)
  }
}

/// How a journal stands, for diagnostics and `inspect`.
public struct JournalStatus: Hashable, Sendable {
  /// Inputs written since the writer opened.
  public var written = 0
  /// Inputs dropped because the disk fell behind or a write failed.
  public var dropped = 0
  /// Inputs and snapshots refused because the journal could not read them back (an encoding
  /// over `JournalLimits.maxBlobBytes`, a string over the codec's cap).
  public var refused = 0
  /// Why the last of them was refused.
  public var lastRefusal: String?
  public var failedWrites = 0
  public var compactions = 0
  /// The bytes in use after the last compaction check.
  public var bytes: Int64 = 0
  /// What retention keeps is larger than the size bound.
  public var overBound = false
  /// The last write's error; nil once a write succeeds again.
  public var lastError: String?
  public init() {}
}

extension JournalFile {
  /// Checkpoints the write-ahead log and truncates it when its file is over `limit` bytes.
  func cutLog(over limit: Int) throws(JournalError) {
    var st = stat()
    guard stat(path + "-wal", &st) == 0, Int(st.st_size) > limit else { return }
    try guarded { () throws(SQLiteError) in _ = try db.rows("PRAGMA wal_checkpoint(TRUNCATE)") }
  }

  /// Sizes the write-ahead log to the bound: checkpointed, then cut back, at its share of it.
  func configure(retention: Retention) throws(JournalError) {
    let limit = JournalFile.walLimit(for: retention)
    try guarded { () throws(SQLiteError) in
      let page = try db.scalar("PRAGMA page_size")?.integer ?? 4096
      try db.execute("PRAGMA journal_size_limit=\(limit)")
      _ = try db.rows("PRAGMA wal_autocheckpoint=\(max(16, Int64(limit) / page))")
    }
  }
}
