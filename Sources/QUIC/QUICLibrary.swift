internal import CQUIC

/// ngtcp2, its GnuTLS crypto and GnuTLS, opened with `dlopen` the first time a QUIC connection
/// is made (`wb_quic_load`): a board that never dials `orchestra+quic://` does not map them or
/// run GnuTLS's initialisation. `api` is the table of their functions, filled once and kept for
/// the process's life (ngtcp2's random callback reaches it through the settings).
final class QUICLibrary: @unchecked Sendable {
  let api: UnsafeMutablePointer<wb_quic_api>

  private init(api: UnsafeMutablePointer<wb_quic_api>) { self.api = api }

  private static let shared: Result<QUICLibrary, QUICError> = {
    let api = UnsafeMutablePointer<wb_quic_api>.allocate(capacity: 1)
    var why = [CChar](repeating: 0, count: 512)
    guard wb_quic_load(api, &why, why.count) == 0 else {
      api.deallocate()
      return .failure(
        .unavailable(String(decoding: why.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)))
    }
    return .success(QUICLibrary(api: api))
  }()

  /// The libraries, opened on the first call; why not, when they cannot be.
  static func load() throws(QUICError) -> QUICLibrary { try shared.get() }
}
