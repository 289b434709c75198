/// Why a font could not be loaded.
public enum FontError: Error, Equatable, Sendable {
  /// FT_Init_FreeType failed (out of memory, in practice).
  case cannotInitialise(code: Int32, reason: String)
  /// FT_New_Face or FT_New_Memory_Face refused `file` (missing, unreadable, not a font).
  case cannotOpen(file: String, code: Int32, reason: String)
  /// `file` holds only bitmap strikes; the renderer needs outlines it can scale to any size.
  case notScalable(file: String)

  /// The font file (or the name given to in-memory bytes) the error is about, if any.
  public var file: String? {
    switch self {
    case .cannotInitialise: nil
    case .cannotOpen(let file, _, _), .notScalable(let file): file
    }
  }
}

extension FontError: CustomStringConvertible {
  public var description: String {
    switch self {
    case .cannotInitialise(let code, let reason):
      "cannot start FreeType: \(reason) (FreeType error \(code))"
    case .cannotOpen(let file, let code, let reason):
      "cannot open the font \(file): \(reason) (FreeType error \(code))"
    case .notScalable(let file):
      "the font \(file) has no outlines (only bitmap strikes); use a TrueType or OpenType font"
    }
  }
}
