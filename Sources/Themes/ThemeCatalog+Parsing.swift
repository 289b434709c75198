import Raster

/// Pure parsing of the data files: text in, values or a `ThemeLoadError` out.
extension ThemeCatalog {
  /// The keys of a `.theme` file, in the order the files write them.
  public static let themeKeys =
    ["id", "label", "group", "isLight"] + ThemeToken.allCases.map(\.rawValue) + ["syntax"]

  /// Parses one `<id>.theme` file. `file` is only used in errors. Whether `syntax` names a
  /// known palette and `id` matches the file name is checked when a catalog is assembled.
  public static func parse(themeFile text: String, file: String) throws(ThemeLoadError) -> Theme {
    try parseTheme(TokenFile(parsing: text, file: file))
  }

  /// Parses `palettes.tokens`.
  public static func parse(
    paletteFile text: String, file: String
  ) throws(ThemeLoadError)
    -> PaletteTokens
  {
    let tokens = try TokenFile(parsing: text, file: file)
    var paletteColors: [String: [String: RGBA]] = [:]
    var paletteOrder: [String] = []
    var stateLines: [TokenLine] = []
    for line in tokens.lines {
      let parts = line.key.split(separator: ".", maxSplits: 1).map(String.init)
      switch parts.first {
      case "palette":
        let rest = line.key.split(separator: ".", omittingEmptySubsequences: false).dropFirst()
        guard rest.count == 2, SyntaxPalette.colorNames.contains(String(rest.last!)) else {
          throw tokens.error(line, .unknownKey)
        }
        let name = String(rest.first!)
        guard TokenFile.isName(name) else { throw tokens.error(line, .badName(name)) }
        if paletteColors[name] == nil { paletteOrder.append(name) }
        paletteColors[name, default: [:]][String(rest.last!)] = try color(line, in: tokens)
      case "semantic":
        guard parts.count == 2, SemanticColors.names.contains(parts[1]) else {
          throw tokens.error(line, .unknownKey)
        }
        _ = try color(line, in: tokens)
      case "state":
        // `state.<state>` or, for one theme, `state.<state>.<theme>`.
        guard parts.count == 2, parts[1].split(separator: ".", omittingEmptySubsequences: false).count <= 2,
          parts[1].split(separator: ".", omittingEmptySubsequences: false).allSatisfy({ TokenFile.isName(String($0)) })
        else {
          throw tokens.error(line, .unknownKey)
        }
        stateLines.append(line)
      default:
        throw tokens.error(line, .unknownKey)
      }
    }

    var palettes: [String: SyntaxPalette] = [:]
    for name in paletteOrder {
      var colors: [RGBA] = []
      for colorName in SyntaxPalette.colorNames {
        guard let color = paletteColors[name]?[colorName] else {
          throw ThemeLoadError(file: file, key: "palette.\(name).\(colorName)", reason: .missingKey)
        }
        colors.append(color)
      }
      palettes[name] = SyntaxPalette(name: name, colors: colors)
    }

    var semanticColors: [RGBA] = []
    for name in SemanticColors.names {
      semanticColors.append(try color(tokens.required("semantic.\(name)"), in: tokens))
    }
    let semantic = SemanticColors(
      success: semanticColors[0], warning: semanticColors[1], error: semanticColors[2],
      info: semanticColors[3])

    var listed: [String: StateColors.Source] = [:]
    var perTheme: [String: [String: StateColors.Source]] = [:]
    for line in stateLines {
      let names = line.key.dropFirst("state.".count).split(separator: ".").map(String.init)
      let source: StateColors.Source
      if let color = RGBA(hex: line.value) {
        source = .color(color)
      } else if let color = semantic[line.value] {
        source = .color(color)
      } else if let token = ThemeToken(rawValue: line.value) {
        source = .themeToken(token)
      } else if line.value.hasPrefix("syntax."),
        SyntaxPalette.colorNames.contains(String(line.value.dropFirst("syntax.".count)))
      {
        source = .syntaxColor(String(line.value.dropFirst("syntax.".count)))
      } else {
        throw tokens.error(line, .badStateColor(line.value))
      }
      if names.count == 2 { perTheme[names[1], default: [:]][names[0]] = source } else { listed[names[0]] = source }
    }
    return PaletteTokens(
      palettes: palettes, semantic: semantic,
      states: StateColors(listed: listed, perTheme: perTheme, palettes: palettes))
  }

  /// Parses `variants.tokens`; the variants in the order they first appear.
  public static func parse(
    variantFile text: String, file: String
  ) throws(ThemeLoadError)
    -> [Variant]
  {
    let tokens = try TokenFile(parsing: text, file: file)
    var names: [String] = []
    for line in tokens.lines {
      let parts = line.key.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
      guard parts.count == 2, Variant.metricNames.contains(parts[1]) else {
        throw tokens.error(line, .unknownKey)
      }
      guard TokenFile.isName(parts[0]) else { throw tokens.error(line, .badName(parts[0])) }
      if !names.contains(parts[0]) { names.append(parts[0]) }
    }
    var variants: [Variant] = []
    for name in names {
      var metrics: [Double] = []
      for metric in Variant.metricNames {
        let line = try tokens.required("\(name).\(metric)")
        guard let value = Double(line.value), Variant.lengthRange.contains(value) else {
          throw tokens.error(line, .badNumber(line.value))
        }
        metrics.append(value)
      }
      variants.append(
        Variant(
          name: name, topBarHeight: metrics[0], statusBarHeight: metrics[1], radiusSm: metrics[2],
          radiusMd: metrics[3], radiusLg: metrics[4]))
    }
    return variants
  }

  /// Parses `ORDER`: theme ids, one per line, each once.
  public static func parse(orderFile text: String, file: String) throws(ThemeLoadError) -> [String] {
    try parseOrder(text, file: file).map(\.id)
  }

  // MARK: - Internals

  static func parseTheme(_ tokens: TokenFile) throws(ThemeLoadError) -> Theme {
    for line in tokens.lines where !themeKeys.contains(line.key) {
      throw tokens.error(line, .unknownKey)
    }
    for key in themeKeys { _ = try tokens.required(key) }

    let id = try tokens.required("id")
    guard TokenFile.isName(id.value) else { throw tokens.error(id, .badName(id.value)) }
    let isLight = try tokens.required("isLight")
    guard isLight.value == "true" || isLight.value == "false" else {
      throw tokens.error(isLight, .badBoolean(isLight.value))
    }
    var colors: [ThemeToken: RGBA] = [:]
    for token in ThemeToken.allCases {
      colors[token] = try color(tokens.required(token.rawValue), in: tokens)
    }
    if let bg = colors[.bg], bg.a != 255 {
      throw tokens.error(try tokens.required("bg"), .translucentBackground(bg.hex))
    }
    let syntax = try tokens.required("syntax")
    guard TokenFile.isName(syntax.value) else { throw tokens.error(syntax, .badName(syntax.value)) }
    return Theme(
      id: id.value, label: try tokens.required("label").value,
      group: try tokens.required("group").value, isLight: isLight.value == "true",
      syntax: syntax.value, colors: colors)
  }

  static func parseOrder(
    _ text: String, file: String
  ) throws(ThemeLoadError) -> [(
    id: String, line: Int
  )] {
    var entries: [(id: String, line: Int)] = []
    var lineByID: [String: Int] = [:]
    for (number, line) in TokenFile.contentLines(text) {
      let id = String(line)
      guard TokenFile.isName(id) else {
        throw ThemeLoadError(file: file, line: number, reason: .badName(id))
      }
      if let first = lineByID[id] {
        throw ThemeLoadError(file: file, line: number, reason: .listedTwice(id, firstLine: first))
      }
      lineByID[id] = number
      entries.append((id, number))
    }
    guard !entries.isEmpty else { throw ThemeLoadError(file: file, reason: .noThemes) }
    return entries
  }

  private static func color(_ line: TokenLine, in tokens: TokenFile) throws(ThemeLoadError) -> RGBA {
    guard let color = RGBA(hex: line.value) else { throw tokens.error(line, .badColor(line.value)) }
    return color
  }
}
