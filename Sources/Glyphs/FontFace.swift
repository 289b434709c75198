internal import CFreeType

/// A scalable font face: a FreeType `FT_Face` with the `FT_Library` it was opened in.
///
/// The face owns both handles (and, for a face made from bytes, a copy of the bytes, which
/// FreeType reads from for as long as the face lives) and frees them in `deinit` with
/// `FT_Done_Face` and `FT_Done_FreeType`. Each face has its own library, so faces do not share
/// FreeType state.
///
/// Threading: a face and everything drawn from it belong to one thread, the render thread.
/// FreeType faces are not thread-safe (the face remembers its current size and glyph slot). The
/// type is `@unchecked Sendable` only so that a face can be loaded on one thread and handed to
/// the render thread, which then uses it alone.
public final class FontFace: @unchecked Sendable {
  /// The file the face was loaded from, or the name given with its bytes.
  public let name: String
  private let library: OpaquePointer
  private let face: FT_Face
  /// The font bytes FT_New_Memory_Face reads from; nil for a face opened from a file.
  private let bytes: UnsafeMutableBufferPointer<UInt8>?
  /// The size last set with FT_Set_Char_Size, in quarter pixels (0: none yet).
  private var currentSize: Int32 = 0
  /// Whether the face has a `kern` table (FT_HAS_KERNING).
  public let hasKerning: Bool

  private init(name: String, library: OpaquePointer, face: FT_Face, bytes: UnsafeMutableBufferPointer<UInt8>?) {
    self.name = name
    self.library = library
    self.face = face
    self.bytes = bytes
    self.hasKerning = wb_ft_has_kerning(face) != 0
  }

  deinit {
    FT_Done_Face(face)
    FT_Done_FreeType(library)
    bytes?.deallocate()
  }

  /// Loads the first face in the font file at `path` (FT_New_Face).
  public static func load(path: String) throws(FontError) -> FontFace {
    let library = try newLibrary()
    var face: FT_Face?
    let error = FT_New_Face(library, path, 0, &face)
    return try adopt(name: path, library: library, face: face, error: error, bytes: nil)
  }

  /// Loads the first face in `bytes`, a font file's contents, called `name` in errors
  /// (FT_New_Memory_Face). The face keeps its own copy of the bytes.
  public static func load(bytes: [UInt8], name: String) throws(FontError) -> FontFace {
    let library = try newLibrary()
    let copy = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(bytes.count, 1))
    _ = copy.initialize(from: bytes)
    var face: FT_Face?
    let error = FT_New_Memory_Face(library, copy.baseAddress, FT_Long(bytes.count), 0, &face)
    return try adopt(name: name, library: library, face: face, error: error, bytes: copy)
  }

  private static func newLibrary() throws(FontError) -> OpaquePointer {
    var library: FT_Library?
    let error = FT_Init_FreeType(&library)
    guard error == 0, let library else {
      throw .cannotInitialise(code: error, reason: message(error))
    }
    return library
  }

  /// Wraps a face FreeType opened, or frees what was made and throws.
  private static func adopt(
    name: String, library: OpaquePointer, face: FT_Face?, error: FT_Error, bytes: UnsafeMutableBufferPointer<UInt8>?
  ) throws(FontError) -> FontFace {
    guard error == 0, let face else {
      FT_Done_FreeType(library)
      bytes?.deallocate()
      throw .cannotOpen(file: name, code: error, reason: message(error))
    }
    guard wb_ft_is_scalable(face) != 0 else {
      FT_Done_Face(face)
      FT_Done_FreeType(library)
      bytes?.deallocate()
      throw .notScalable(file: name)
    }
    return FontFace(name: name, library: library, face: face, bytes: bytes)
  }

  /// FreeType's text for an error code.
  static func message(_ error: FT_Error) -> String { String(cString: wb_ft_error_string(error)) }

  /// The family name the font declares (`family_name`), e.g. "DejaVu Sans".
  public var familyName: String { face.pointee.family_name.map { String(cString: $0) } ?? "" }

  /// The style name the font declares (`style_name`), e.g. "Bold".
  public var styleName: String { face.pointee.style_name.map { String(cString: $0) } ?? "" }

  /// Whether the face has a glyph for `scalar` (FT_Get_Char_Index is not 0).
  public func hasGlyph(for scalar: Unicode.Scalar) -> Bool { glyphIndex(scalar) != 0 }

  /// The face's ascender, descender and line height at `size` pixels (rounded to the quarter
  /// pixel the renderer draws at), unhinted.
  public func metrics(size: Double) -> FontMetrics { metrics(PixelSize(size)) }

  func metrics(_ size: PixelSize) -> FontMetrics {
    let scale = size.pixels / Double(face.pointee.units_per_EM)
    return FontMetrics(
      ascender: Double(face.pointee.ascender) * scale,
      descender: -Double(face.pointee.descender) * scale,
      lineHeight: Double(face.pointee.height) * scale)
  }
}

// MARK: - Glyphs (for the renderer)

extension FontFace {
  /// The glyph for `scalar`, 0 (.notdef) when the face has none (FT_Get_Char_Index).
  func glyphIndex(_ scalar: Unicode.Scalar) -> UInt32 { FT_Get_Char_Index(face, FT_ULong(scalar.value)) }

  /// Sets the face's size if it is not already set (FT_Set_Char_Size, at 72 dpi so points are
  /// pixels; 26.6 fixed point, so a quarter pixel is 16).
  private func select(_ size: PixelSize) -> Bool {
    if currentSize == size.quarters { return true }
    guard FT_Set_Char_Size(face, 0, FT_F26Dot6(size.quarters) * 16, 72, 72) == 0 else { return false }
    currentSize = size.quarters
    return true
  }

  /// The kerning between two glyphs at `size`, in whole pixels (FT_Get_Kerning, FT_KERNING_DEFAULT:
  /// scaled and grid-fitted). 0 when the face has no kerning.
  func kerning(_ left: UInt32, _ right: UInt32, size: PixelSize) -> Double {
    guard hasKerning, select(size) else { return 0 }
    var delta = FT_Vector()
    guard FT_Get_Kerning(face, left, right, FT_KERNING_DEFAULT.rawValue, &delta) == 0 else { return 0 }
    return Double(delta.x) / 64
  }

  /// Renders glyph `index` at `size` into an 8-bit coverage bitmap (FT_Load_Glyph with light
  /// hinting, then FT_Render_Glyph in normal, anti-aliased mode). A glyph FreeType cannot load
  /// falls back to .notdef; if even that fails the result is blank with no advance.
  func render(_ index: UInt32, size: PixelSize) -> GlyphBitmap {
    guard select(size) else { return .blank }
    if FT_Load_Glyph(face, index, wb_ft_load_flags_light()) != 0 {
      guard index != 0, FT_Load_Glyph(face, 0, wb_ft_load_flags_light()) == 0 else { return .blank }
    }
    let slot = face.pointee.glyph!
    let advance = Double(slot.pointee.advance.x) / 64
    guard FT_Render_Glyph(slot, FT_RENDER_MODE_NORMAL) == 0 else {
      return GlyphBitmap(width: 0, height: 0, left: 0, top: 0, advance: advance, pixels: [])
    }
    let bitmap = slot.pointee.bitmap
    let (width, height) = (Int(bitmap.width), Int(bitmap.rows))
    guard width > 0, height > 0, let buffer = bitmap.buffer else {
      return GlyphBitmap(width: 0, height: 0, left: 0, top: 0, advance: advance, pixels: [])
    }
    let pitch = Int(bitmap.pitch)
    let mono = bitmap.pixel_mode == UInt8(FT_PIXEL_MODE_MONO.rawValue)
    let pixels = [UInt8](unsafeUninitializedCapacity: width * height) { out, count in
      for row in 0..<height {
        // A negative pitch means the rows are stored bottom-up.
        let source = buffer + (pitch >= 0 ? row * pitch : (height - 1 - row) * -pitch)
        for column in 0..<width {
          out[row * width + column] =
            mono ? ((source[column >> 3] << UInt8(column & 7)) & 0x80 != 0 ? 255 : 0) : source[column]
        }
      }
      count = width * height
    }
    return GlyphBitmap(
      width: width, height: height, left: Int(slot.pointee.bitmap_left), top: Int(slot.pointee.bitmap_top),
      advance: advance, pixels: pixels)
  }
}
