#if canImport(Synchronization)
  import Synchronization
#endif

/// A few rasterizers kept between fills, so their scratch buffers (edges, cells, counts) are
/// reused rather than allocated — and, past malloc's mmap threshold, page-faulted — per fill.
extension Rasterizer {
  /// A rasterizer from the pool, or a new one.
  static func take() -> Rasterizer {
    #if canImport(Synchronization)
      if #available(macOS 15, *) {
        return RasterizerPool.shared.withLock { $0.popLast() } ?? Rasterizer()
      }
    #endif
    return Rasterizer()
  }

  /// Returns a rasterizer to the pool (which keeps at most `RasterizerPool.limit`).
  static func give(_ rasterizer: Rasterizer) {
    #if canImport(Synchronization)
      if #available(macOS 15, *) {
        RasterizerPool.shared.withLock { pool in
          if pool.count < RasterizerPool.limit { pool.append(rasterizer) }
        }
      }
    #endif
  }
}

#if canImport(Synchronization)
  /// The shared pool; one rasterizer per thread drawing at once is enough.
  @available(macOS 15, *)
  enum RasterizerPool {
    static let limit = 4
    static let shared = Mutex<[Rasterizer]>([])
  }
#endif
