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
    let wanted = [orderFileName, paletteFileName, variantFileName]
    let files = try read(directory: directory) { $0.hasSuffix(".theme") || wanted.contains($0) }
    return try assemble(directory: directory, files: files)
  }

  /// Reads a themes directory for the one theme `id`: a catalog whose only theme is `id`, with
  /// every palette and variant, or nil when `ORDER` does not list `id`.
  ///
  /// What it reads is checked as `load` checks it, and fails with the same errors; the other
  /// themes' files are neither read nor checked (`load` does that). A board shows its first
  /// frame with this, sooner: the other themes are only needed when a key changes the theme.
  public static func load(directory: String, only id: String) throws(ThemeLoadError) -> ThemeCatalog? {
    let wanted = [orderFileName, paletteFileName, variantFileName, "\(id).theme"]
    let files = try read(directory: directory) { wanted.contains($0) }
    return try assemble(directory: directory, files: files, only: id)
  }

  /// The directory's files whose names `take` accepts (dot files never), as name → text.
  private static func read(
    directory: String, taking take: (String) -> Bool
  ) throws(ThemeLoadError) -> [String: String] {
    guard let names = FileSystem.names(in: directory) else {
      throw ThemeLoadError(file: directory, reason: .unreadable("not a readable directory"))
    }
    var files: [String: String] = [:]
    for name in names where !name.hasPrefix(".") && take(name) {
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
    return files
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
    let orderPath = join(directory, orderFileName)
    let order = try parseOrder(text(orderFileName, in: files, directory: directory), file: orderPath)
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
    let (tokens, variants) = try shared(directory: directory, files: files)
    var themes: [Theme] = []
    for entry in order {
      themes.append(try theme(entry.id, palettes: tokens, directory: directory, files: files))
    }
    return ThemeCatalog(themes: themes, tokens: tokens, variants: variants)
  }

  /// `assemble` for the one theme `id` (`load(directory:only:)`): nil when `ORDER` does not
  /// list it. `files` needs only `ORDER`, the palettes, the variants and `<id>.theme`.
  public static func assemble(
    directory: String, files: [String: String], only id: String
  ) throws(ThemeLoadError) -> ThemeCatalog? {
    let orderPath = join(directory, orderFileName)
    let order = try parseOrder(text(orderFileName, in: files, directory: directory), file: orderPath)
    guard let entry = order.first(where: { $0.id == id }) else { return nil }
    if files["\(id).theme"] == nil {
      throw ThemeLoadError(file: orderPath, line: entry.line, reason: .orderNamesMissingFile(id))
    }
    let (tokens, variants) = try shared(directory: directory, files: files)
    let theme = try theme(id, palettes: tokens, directory: directory, files: files)
    return ThemeCatalog(themes: [theme], tokens: tokens, variants: variants)
  }

  /// The palettes and the variants every theme shares.
  private static func shared(
    directory: String, files: [String: String]
  ) throws(ThemeLoadError) -> (PaletteTokens, [Variant]) {
    let tokens = try parse(
      paletteFile: text(paletteFileName, in: files, directory: directory), file: join(directory, paletteFileName))
    let variants = try parse(
      variantFile: text(variantFileName, in: files, directory: directory), file: join(directory, variantFileName))
    return (tokens, variants)
  }

  /// The theme of `<id>.theme`, whose `id` must be `id` and whose `syntax` one of `palettes`.
  private static func theme(
    _ id: String, palettes tokens: PaletteTokens, directory: String, files: [String: String]
  ) throws(ThemeLoadError) -> Theme {
    let name = "\(id).theme"
    let file = try TokenFile(parsing: text(name, in: files, directory: directory), file: join(directory, name))
    let theme = try parseTheme(file)
    if theme.id != id {
      throw file.error(try file.required("id"), .idMismatch(id: theme.id, fileName: id))
    }
    if tokens.palettes[theme.syntax] == nil {
      throw file.error(
        try file.required("syntax"),
        .unknownSyntaxPalette(theme.syntax, known: tokens.palettes.keys.sorted()))
    }
    return theme
  }

  /// The text of the file `name`; its absence is an error.
  private static func text(
    _ name: String, in files: [String: String], directory: String
  ) throws(ThemeLoadError) -> String {
    guard let text = files[name] else {
      throw ThemeLoadError(file: join(directory, name), reason: .unreadable("no such file"))
    }
    return text
  }

  private static func join(_ directory: String, _ name: String) -> String {
    directory.isEmpty ? name : directory.hasSuffix("/") ? directory + name : directory + "/" + name
  }
}
