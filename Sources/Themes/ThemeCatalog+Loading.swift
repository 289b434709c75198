internal import Posix

/// Assembling a catalog from a directory's files; `load` is the only file-system access.
extension ThemeCatalog {
  /// The files besides the `.theme` files that a themes directory holds.
  public static let orderFileName = "ORDER"
  public static let paletteFileName = "palettes.tokens"
  public static let variantFileName = "variants.tokens"
  /// The largest file of a themes directory that is read (the bundled ones are under 4 KiB).
  public static let maxFileBytes = 64 * 1024

  /// Reads and checks a themes directory (`assets/themes`). Errors name files as
  /// `directory/name`.
  public static func load(directory: String) throws(ThemeLoadError) -> ThemeCatalog {
    guard let names = FileSystem.names(in: directory) else {
      throw ThemeLoadError(file: directory, reason: .unreadable("not a readable directory"))
    }
    let wanted = [orderFileName, paletteFileName, variantFileName]
    var files: [String: String] = [:]
    for name in names
    where !name.hasPrefix(".") && (name.hasSuffix(".theme") || wanted.contains(name)) {
      let path = join(directory, name)
      // Looked at before it is read: hot reload reads whatever is put in the folder.
      switch RegularFile.read(path, limit: maxFileBytes) {
      case .success(let bytes):
        guard let text = String(validating: bytes, as: UTF8.self) else {
          throw ThemeLoadError(file: path, reason: .unreadable("not UTF-8 text"))
        }
        files[name] = text
      case .failure(.tooLarge(let size)):
        throw ThemeLoadError(file: path, reason: .unreadable("\(size) bytes, more than \(maxFileBytes)"))
      case .failure(let error):
        throw ThemeLoadError(file: path, reason: .unreadable(error.description))
      }
    }
    return try assemble(directory: directory, files: files)
  }

  /// Checks and parses a themes directory's files, given as file name → text (pure: `load`
  /// reads the files, this does the rest). `directory` is only used in errors.
  ///
  /// `ORDER` must list every `<id>.theme` file once, each file's `id` must match its name, and
  /// each theme's `syntax` must name a palette of `palettes.tokens`.
  public static func assemble(
    directory: String, files: [String: String]
  ) throws(ThemeLoadError)
    -> ThemeCatalog
  {
    func text(_ name: String) throws(ThemeLoadError) -> String {
      guard let text = files[name] else {
        throw ThemeLoadError(file: join(directory, name), reason: .unreadable("no such file"))
      }
      return text
    }
    let orderPath = join(directory, orderFileName)
    let order = try parseOrder(text(orderFileName), file: orderPath)
    for entry in order where files["\(entry.id).theme"] == nil {
      throw ThemeLoadError(
        file: orderPath, line: entry.line, reason: .orderNamesMissingFile(entry.id))
    }
    let listed = Set(order.map(\.id))
    for name in files.keys.sorted() where name.hasSuffix(".theme") {
      let id = String(name.dropLast(".theme".count))
      if !listed.contains(id) {
        throw ThemeLoadError(file: join(directory, name), reason: .notInOrder(id))
      }
    }

    let tokens = try parse(
      paletteFile: text(paletteFileName), file: join(directory, paletteFileName))
    let variants = try parse(
      variantFile: text(variantFileName), file: join(directory, variantFileName))

    var themes: [Theme] = []
    for entry in order {
      let name = "\(entry.id).theme"
      let file = try TokenFile(parsing: text(name), file: join(directory, name))
      let theme = try parseTheme(file)
      if theme.id != entry.id {
        throw file.error(try file.required("id"), .idMismatch(id: theme.id, fileName: entry.id))
      }
      if tokens.palettes[theme.syntax] == nil {
        throw file.error(
          try file.required("syntax"),
          .unknownSyntaxPalette(theme.syntax, known: tokens.palettes.keys.sorted()))
      }
      themes.append(theme)
    }
    return ThemeCatalog(themes: themes, tokens: tokens, variants: variants)
  }

  private static func join(_ directory: String, _ name: String) -> String {
    directory.isEmpty ? name : directory.hasSuffix("/") ? directory + name : directory + "/" + name
  }
}
