/// How much the glyph cache may hold before it forgets the least recently used glyphs.
public struct GlyphCacheLimits: Hashable, Sendable {
  /// At most this many glyphs.
  public var glyphs: Int
  /// At most this many bytes of glyph masks, counting a fixed allowance per entry.
  public var bytes: Int

  public init(glyphs: Int, bytes: Int) {
    precondition(glyphs > 0 && bytes > 0, "glyph cache limits must be positive, not \(glyphs) glyphs / \(bytes) bytes")
    self.glyphs = glyphs
    self.bytes = bytes
  }

  /// 4,096 glyphs or 8 MiB, whichever comes first: a whole board's text at a handful of sizes
  /// uses a few hundred glyphs and well under a megabyte.
  public static let standard = GlyphCacheLimits(glyphs: 4096, bytes: 8 << 20)
}

/// What the glyph cache holds and how well it has been doing.
public struct GlyphCacheStatistics: Hashable, Sendable {
  /// Glyphs held now.
  public var glyphs: Int
  /// Bytes held now, as the limits count them.
  public var bytes: Int
  /// Lookups answered from the cache.
  public var hits: Int
  /// Lookups that had to render.
  public var misses: Int
  /// Glyphs forgotten to stay within the limits.
  public var evictions: Int
}

/// Rendered glyphs keyed by (face, glyph index, size in quarter pixels), least recently used
/// first out.
///
/// A board that runs for months and draws at many sizes stays within its limits: each insertion
/// evicts from the cold end until both the glyph count and the byte count are within bounds
/// (the newest glyph always stays, even one larger than the byte limit on its own). Entries live
/// in one array linked by index into a recency list, so lookups, touches and evictions are O(1)
/// and freed slots are reused.
struct GlyphCache {
  struct Key: Hashable {
    var face: UInt8
    var glyph: UInt32
    var size: Int32
  }

  private struct Entry {
    var key: Key
    var glyph: GlyphBitmap
    /// Towards the more recently used end; -1 at the head.
    var newer: Int
    /// Towards the less recently used end; -1 at the tail.
    var older: Int
  }

  let limits: GlyphCacheLimits
  private var entries: [Entry] = []
  private var slots: [Key: Int] = [:]
  private var free: [Int] = []
  /// Most recently used.
  private var head = -1
  /// Least recently used.
  private var tail = -1
  private(set) var statistics = GlyphCacheStatistics(glyphs: 0, bytes: 0, hits: 0, misses: 0, evictions: 0)

  init(limits: GlyphCacheLimits) { self.limits = limits }

  /// The glyph for `key`, rendered by `make` on a miss.
  mutating func glyph(_ key: Key, make: () -> GlyphBitmap) -> GlyphBitmap {
    if let slot = slots[key] {
      statistics.hits += 1
      touch(slot)
      return entries[slot].glyph
    }
    statistics.misses += 1
    let glyph = make()
    insert(key, glyph)
    return glyph
  }

  /// Forgets every glyph (the statistics' counters carry on).
  mutating func removeAll() {
    entries.removeAll()
    slots.removeAll()
    free.removeAll()
    head = -1
    tail = -1
    statistics.glyphs = 0
    statistics.bytes = 0
  }

  private mutating func insert(_ key: Key, _ glyph: GlyphBitmap) {
    let entry = Entry(key: key, glyph: glyph, newer: -1, older: head)
    let slot: Int
    if let reused = free.popLast() {
      slot = reused
      entries[slot] = entry
    } else {
      slot = entries.count
      entries.append(entry)
    }
    if head >= 0 { entries[head].newer = slot }
    head = slot
    if tail < 0 { tail = slot }
    slots[key] = slot
    statistics.glyphs += 1
    statistics.bytes += glyph.cost
    while statistics.glyphs > 1 && (statistics.glyphs > limits.glyphs || statistics.bytes > limits.bytes) {
      evictTail()
    }
  }

  private mutating func evictTail() {
    let slot = tail
    unlink(slot)
    slots[entries[slot].key] = nil
    statistics.glyphs -= 1
    statistics.bytes -= entries[slot].glyph.cost
    statistics.evictions += 1
    entries[slot].glyph = .blank  // let the mask go now, not when the slot is reused
    free.append(slot)
  }

  /// Moves `slot` to the most recently used end.
  private mutating func touch(_ slot: Int) {
    guard slot != head else { return }
    unlink(slot)
    entries[slot].newer = -1
    entries[slot].older = head
    entries[head].newer = slot
    head = slot
    if tail < 0 { tail = slot }
  }

  private mutating func unlink(_ slot: Int) {
    let (newer, older) = (entries[slot].newer, entries[slot].older)
    if newer >= 0 { entries[newer].older = older } else { head = older }
    if older >= 0 { entries[older].newer = newer } else { tail = newer }
  }
}
