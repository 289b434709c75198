/// Why the theme files could not be read: the file, the line and the key, and what was wrong.
///
/// `description` reads `assets/themes/nord.theme:7: bg: "#12345" is not a #rrggbb or
/// #rrggbbaa colour`; the line is left out when there is none (a missing key, a missing file),
/// the key when the problem is not about one key.
public struct ThemeLoadError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What was wrong.
  public enum Reason: Hashable, Sendable {
    /// The file could not be read (the system's message).
    case unreadable(String)
    /// A line that is neither blank, a comment, nor `key = value` (the line's text).
    case notKeyValue(String)
    /// `= value` with nothing before the `=`.
    case emptyKey
    /// `key =` with nothing after the `=`.
    case emptyValue
    /// The key appeared before, on `firstLine`.
    case duplicateKey(firstLine: Int)
    /// A key this kind of file does not have.
    case unknownKey
    /// A required key is not in the file.
    case missingKey
    /// Not `#rrggbb` or `#rrggbbaa`.
    case badColor(String)
    /// `bg` must be opaque: everything else is drawn on it.
    case translucentBackground(String)
    /// Not `true` or `false`.
    case badBoolean(String)
    /// Not a finite, non-negative number.
    case badNumber(String)
    /// An id or name that is not lowercase letters, digits and `-`.
    case badName(String)
    /// A theme's `id` differs from its file name.
    case idMismatch(id: String, fileName: String)
    /// A theme's `syntax` names no palette in `palettes.tokens` (the known names follow).
    case unknownSyntaxPalette(String, known: [String])
    /// A state colour that is not a colour, a semantic colour or a theme colour token.
    case badStateColor(String)
    /// `ORDER` names an id that has no `<id>.theme` file.
    case orderNamesMissingFile(String)
    /// `ORDER` names an id a second time; first on `firstLine`.
    case listedTwice(String, firstLine: Int)
    /// A `.theme` file whose id `ORDER` does not list.
    case notInOrder(String)
    /// `ORDER` lists no theme.
    case noThemes
  }

  /// The file, as the directory given to `load` joined with the file name.
  public var file: String
  /// The 1-based line, when the problem is on one line.
  public var line: Int?
  /// The key concerned, when there is one.
  public var key: String?
  public var reason: Reason

  public init(file: String, line: Int? = nil, key: String? = nil, reason: Reason) {
    self.file = file
    self.line = line
    self.key = key
    self.reason = reason
  }

  public var description: String {
    var text = file
    if let line { text += ":\(line)" }
    text += ": "
    if let key { text += "\(key): " }
    return text + message
  }

  /// The reason in words, without file, line and key.
  public var message: String {
    switch reason {
    case .unreadable(let why): "cannot be read: \(why)"
    case .notKeyValue(let text): "\"\(text)\" is not \"key = value\" (comments start with #)"
    case .emptyKey: "a line has no key before \"=\""
    case .emptyValue: "no value after \"=\""
    case .duplicateKey(let first): "set again (first set on line \(first))"
    case .unknownKey: "unknown key"
    case .missingKey: "missing (the key is required)"
    case .badColor(let value): "\"\(value)\" is not a #rrggbb or #rrggbbaa colour"
    case .translucentBackground(let value): "\"\(value)\" has alpha; the background must be opaque"
    case .badBoolean(let value): "\"\(value)\" is not true or false"
    case .badNumber(let value): "\"\(value)\" is not a number from 0 to \(Int(Variant.lengthRange.upperBound))"
    case .badName(let value): "\"\(value)\" is not a name (lowercase letters, digits and -)"
    case .idMismatch(let id, let fileName):
      "\"\(id)\" does not match the file name (\(fileName).theme needs id = \(fileName))"
    case .unknownSyntaxPalette(let name, let known):
      "no syntax palette \"\(name)\" in palettes.tokens (known: \(known.joined(separator: ", ")))"
    case .badStateColor(let value):
      "\"\(value)\" is not a colour, a semantic colour (\(SemanticColors.names.joined(separator: ", "))) "
        + "a theme colour token (\(ThemeToken.allCases.map(\.rawValue).joined(separator: ", "))) "
        + "or a colour of the theme's syntax palette (syntax.blue … syntax.error)"
    case .orderNamesMissingFile(let id): "lists \"\(id)\", but there is no \(id).theme"
    case .listedTwice(let id, let first): "lists \"\(id)\" again (first on line \(first))"
    case .notInOrder(let id): "theme \"\(id)\" is not listed in ORDER"
    case .noThemes: "lists no theme"
    }
  }
}
