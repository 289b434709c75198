#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A few rasterizers kept between fills, so their scratch buffers (edges, cells, counts) are
/// reused rather than allocated — and, past malloc's mmap threshold, page-faulted — per fill.
extension Rasterizer {
  /// A rasterizer from the pool, or a new one.
  static func take() -> Rasterizer {
    RasterizerPool.shared.withLock { $0.popLast() } ?? Rasterizer()
  }

  /// Returns a rasterizer to the pool (which keeps at most `RasterizerPool.limit`).
  static func give(_ rasterizer: Rasterizer) {
    RasterizerPool.shared.withLock { pool in
      if pool.count < RasterizerPool.limit { pool.append(rasterizer) }
    }
  }
}

/// The shared pool; one rasterizer per thread drawing at once is enough. Behind a pthread mutex
/// (`pthread_mutex_lock`), which ThreadSanitizer follows; `Synchronization.Mutex` on Linux is a
/// bare futex it cannot see, so every fill was reported as a race.
final class RasterizerPool: @unchecked Sendable {
  static let limit = 4
  static let shared = RasterizerPool()

  /// Allocated once, so that its address never moves (a mutex must not be copied).
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>
  private var items: [Rasterizer] = []

  private init() {
    mutex = .allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

  func withLock<T>(_ body: (inout [Rasterizer]) -> T) -> T {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return body(&items)
  }
}
