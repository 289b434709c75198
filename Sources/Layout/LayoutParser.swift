internal import TextLines

/// Parses and validates layout files. Pure: the caller reads the file.
public enum LayoutParser {
  /// The largest file accepted (a layout is a few dozen lines).
  public static let maxBytes = 64 * 1024
  static let maxGrid = 48
  static let maxWidgets = 64
  static let maxPages = 16

  /// Parses `text` from `file`, checking widget kinds and options against `vocabulary`.
  public static func parse(
    _ text: String, file: String, vocabulary: WidgetVocabulary
  ) throws(LayoutError)
    -> LayoutFile
  {
    func fail(_ line: Int?, _ problem: String) -> LayoutError {
      LayoutError(file: file, line: line, problem: problem)
    }
    guard text.utf8.count <= maxBytes else { throw fail(nil, "larger than \(maxBytes) bytes") }
    var layout = LayoutFile(name: "", description: "", columns: 0, rows: 0, gap: 16, margin: 24, pages: [])
    var seen: Set<String> = []
    var currentPage: Int?

    for (index, raw) in TextLines.split(text).enumerated() {
      let n = index + 1
      var line = Substring(raw)
      if let hash = line.firstIndex(of: "#") { line = line[..<hash] }
      let t = line.trimmingCharacters(in: " \t\r")
      if t.isEmpty { continue }

      // `key = value` when what precedes the first `=` is one word; otherwise a widget line
      // (whose options are `option=value`).
      if let eq = t.firstIndex(of: "="),
        case let key = t[..<eq].trimmingCharacters(in: " \t"), !key.isEmpty,
        !key.contains(where: { $0 == " " || $0 == "\t" })
      {
        let value = t[t.index(after: eq)...].trimmingCharacters(in: " \t")
        guard !value.isEmpty else { throw fail(n, "\(key): needs a value") }
        if let p = currentPage {
          guard key == "duration" else { throw fail(n, "unknown page setting \"\(key)\" (accepted: duration)") }
          guard let d = Double(value), d.isFinite, d >= 1, d <= 86_400 else {
            throw fail(n, "duration: \"\(value)\" is not a number of seconds from 1 to 86400")
          }
          layout.pages[p].duration = d
          continue
        }
        guard seen.insert(key).inserted else { throw fail(n, "\(key): set twice") }
        switch key {
        case "name":
          guard value.count <= 64, value.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) else {
            throw fail(n, "name: \"\(value)\" must be letters, digits, - or _ (at most 64)")
          }
          layout.name = value
        case "description":
          guard value.count <= 200 else { throw fail(n, "description: longer than 200 characters") }
          layout.description = value
        case "grid":
          let parts = value.split(separator: "x").map { Int($0.trimmingCharacters(in: " ")) }
          guard parts.count == 2, let c = parts[0], let r = parts[1], (1...maxGrid).contains(c),
            (1...maxGrid).contains(r)
          else { throw fail(n, "grid: \"\(value)\" is not COLUMNS x ROWS, each from 1 to \(maxGrid)") }
          layout.columns = c
          layout.rows = r
        case "gap", "margin":
          guard let v = Double(value), v.isFinite, (0...400).contains(v) else {
            throw fail(n, "\(key): \"\(value)\" is not a number of design units from 0 to 400")
          }
          if key == "gap" { layout.gap = v } else { layout.margin = v }
        default:
          throw fail(n, "unknown setting \"\(key)\" (accepted: name, description, grid, gap, margin, page)")
        }
        continue
      }

      let words = t.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
      if words[0] == "page" {
        guard words.count == 2 else { throw fail(n, "expected `page NAME`") }
        guard !layout.pages.contains(where: { $0.name == words[1] }) else {
          throw fail(n, "page \"\(words[1])\" is declared twice")
        }
        guard layout.pages.count < maxPages else { throw fail(n, "more than \(maxPages) pages") }
        layout.pages.append(LayoutFile.Page(name: words[1], duration: 30, widgets: []))
        currentPage = layout.pages.count - 1
        continue
      }

      // A widget line: KIND COLUMN ROW WIDTH HEIGHT [option=value …]
      guard layout.columns > 0 else { throw fail(n, "the grid must be set before the first widget") }
      if currentPage == nil {
        layout.pages.append(LayoutFile.Page(name: "main", duration: 30, widgets: []))
        currentPage = 0
      }
      let kind = words[0]
      guard let accepted = vocabulary.kinds[kind] else {
        throw fail(
          n, "unknown widget \"\(kind)\" (accepted: \(vocabulary.kinds.keys.sorted().joined(separator: ", ")))")
      }
      guard words.count >= 5 else { throw fail(n, "\(kind): expected COLUMN ROW WIDTH HEIGHT after the widget name") }
      let nums = words[1...4].map { Int($0) }
      guard let c = nums[0], let r = nums[1], let w = nums[2], let h = nums[3], c >= 0, r >= 0, w >= 1, h >= 1 else {
        throw fail(n, "\(kind): COLUMN ROW WIDTH HEIGHT must be whole numbers (width and height at least 1)")
      }
      // Each number within the grid before any sum: `c + w` of two huge numbers would overflow.
      guard c < layout.columns, w <= layout.columns, c + w <= layout.columns, r < layout.rows, h <= layout.rows,
        r + h <= layout.rows
      else {
        throw fail(
          n,
          "\(kind): cells \(span(c, w)) × \(span(r, h)) fall outside the \(layout.columns) x \(layout.rows) grid")
      }
      var options: [String: String] = [:]
      for word in words.dropFirst(5) {
        let kv = word.split(separator: "=", maxSplits: 1).map(String.init)
        guard kv.count == 2, !kv[1].isEmpty else { throw fail(n, "\(kind): expected option=value, found \"\(word)\"") }
        guard let values = accepted[kv[0]] else {
          let names = accepted.keys.sorted()
          throw fail(
            n,
            "\(kind): unknown option \"\(kv[0])\""
              + (names.isEmpty ? " (it takes none)" : " (accepted: \(names.joined(separator: ", ")))"))
        }
        if let values {
          for v in kv[1].split(separator: ",") where !values.contains(String(v)) {
            throw fail(n, "\(kind): \(kv[0]): \"\(v)\" is not one of \(values.joined(separator: ", "))")
          }
        }
        options[kv[0]] = kv[1]
      }
      let page = currentPage!
      let placement = LayoutFile.Placement(
        kind: kind, column: c, row: r, width: w, height: h, options: options, line: n)
      if let other = layout.pages[page].widgets.first(where: { overlaps($0, placement) }) {
        throw fail(n, "\(kind) overlaps \(other.kind) declared on line \(other.line)")
      }
      guard layout.pages[page].widgets.count < maxWidgets else {
        throw fail(n, "more than \(maxWidgets) widgets on a page")
      }
      layout.pages[page].widgets.append(placement)
    }

    guard !layout.name.isEmpty else { throw fail(nil, "name: missing") }
    guard !layout.description.isEmpty else { throw fail(nil, "description: missing") }
    guard layout.columns > 0 else { throw fail(nil, "grid: missing") }
    guard !layout.pages.isEmpty else { throw fail(nil, "no widgets: a layout needs at least one") }
    for p in layout.pages where p.widgets.isEmpty {
      throw fail(nil, "page \"\(p.name)\" has no widgets")
    }
    return layout
  }

  /// `start…end` of `length` cells from `start`, for messages; never overflows.
  static func span(_ start: Int, _ length: Int) -> String {
    let (end, overflow) = start.addingReportingOverflow(length - 1)
    return overflow ? "\(start)…(\(start) + \(length - 1))" : "\(start)…\(end)"
  }

  static func overlaps(_ a: LayoutFile.Placement, _ b: LayoutFile.Placement) -> Bool {
    a.column < b.column + b.width && b.column < a.column + a.width && a.row < b.row + b.height
      && b.row < a.row + a.height
  }
}

extension StringProtocol {
  func trimmingCharacters(in set: String) -> String {
    var s = Substring(self)
    while let f = s.first, set.contains(f) { s.removeFirst() }
    while let l = s.last, set.contains(l) { s.removeLast() }
    return String(s)
  }
}
