import Foundation
import TestSupport
import Testing

/// docs/ARCHITECTURE.md's module graph (section 2, "Targets, as `Package.swift` declares them")
/// says what Package.swift declares: every library and executable target, each with exactly its
/// dependencies.
@Suite struct ModuleGraphDocTests {
  /// Package.swift's targets (tests, their support library and C system libraries aside), each
  /// with its dependencies.
  static func declared(_ text: String) -> [String: Set<String>] {
    let kinds = /\.(target|executableTarget|systemLibrary|testTarget)\(\s*name:\s*"([^"]+)"/
    let matches = text.matches(of: kinds)
    var out: [String: Set<String>] = [:]
    for (i, m) in matches.enumerated() where m.output.1 == "target" || m.output.1 == "executableTarget" {
      let end = i + 1 < matches.count ? matches[i + 1].range.lowerBound : text.endIndex
      let body = text[m.range.upperBound..<end]
      // Test support is a library of the tests, drawn with them (section 5), not here.
      if m.output.1 == "target" && body.contains(#"path: "Tests/"#) { continue }
      var deps: Set<String> = []
      if let list = body.firstMatch(of: /dependencies:\s*\[([^\]]*)\]/) {
        deps = Set(list.output.1.matches(of: /"([^"]+)"/).map { String($0.output.1) })
      }
      out[String(m.output.2)] = deps
    }
    return out
  }

  /// The graph the document draws: each `Name → deps` cell, its continuation lines in the same
  /// column, and `Name, Name  (no targets…)` cells.
  static func drawn(_ doc: String) throws -> [String: Set<String>] {
    let start = try #require(doc.range(of: "Targets, as `Package.swift` declares them"))
    let rest = doc[start.upperBound...]
    let end = try #require(rest.range(of: "C system libraries:"))
    let lines = rest[..<end.lowerBound].split(separator: "\n").map { Array($0) }
    // The right-hand box begins where the second box of the first row of boxes does.
    let boundary = lines.lazy.compactMap { l in l.indices.filter { l[$0] == "┌" }.dropFirst().first }.first ?? .max
    var out: [String: Set<String>] = [:]
    var current: [Bool: String] = [:]
    for line in lines {
      var cells: [(start: Int, text: String)] = []
      var start = 0
      for (i, c) in line.enumerated() where c == "│" {
        cells.append((start, String(line[start..<i])))
        start = i + 1
      }
      cells.append((start, String(line[start...])))
      for (cellStart, cell) in cells where !cell.contains("─") && !cell.contains("```") {
        let column = cellStart >= boundary
        var text = cell
        if text.contains("(no targets") {
          for name in text[..<text.range(of: "(")!.lowerBound].split(whereSeparator: { $0 == "," || $0 == " " }) {
            out[String(name)] = []
          }
          current[column] = nil
          continue
        }
        text = text.replacing(/\([^)]*\)?/, with: "")
        let words = text.split(separator: " ").map(String.init)
        if let arrow = words.firstIndex(of: "→") {
          let name = words[arrow - 1]
          out[name, default: []].formUnion(words[(arrow + 1)...])
          current[column] = name
        } else if let name = current[column], !words.isEmpty {
          out[name, default: []].formUnion(words)
        }
      }
    }
    return out
  }

  @Test func theDocumentsGraphIsPackageSwifts() throws {
    let package = try String(contentsOf: Paths.repoRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
    let doc = try String(contentsOf: Paths.repoRoot.appendingPathComponent("docs/ARCHITECTURE.md"), encoding: .utf8)
    let declared = Self.declared(package)
    let drawn = try Self.drawn(doc)
    #expect(declared.count > 20, "Package.swift read: \(declared.keys.sorted())")
    for (name, deps) in declared.sorted(by: { $0.key < $1.key }) {
      guard let shown = drawn[name] else {
        Issue.record("docs/ARCHITECTURE.md does not draw \(name), which Package.swift declares")
        continue
      }
      #expect(
        shown == deps,
        "\(name): the document adds \(shown.subtracting(deps).sorted()), lacks \(deps.subtracting(shown).sorted())")
    }
    #expect(Set(drawn.keys).subtracting(declared.keys).isEmpty, "drawn but not declared")
  }

  @Test func aDependencyTheDocumentLacksIsFound() throws {
    let doc = """
      Targets, as `Package.swift` declares them (→ lists every declared dependency):
      wiring  A → B C
                  D
      ┌─ x ──────┐  ┌─ y ───────────────┐
      │ E → F    │  │ G → H (only here)  │
      ├─ z ──────┤  │ L → M              │
      │     I    │  │ J, K  (no targets) │
      C system libraries: none
      """
    let drawn = try Self.drawn(doc)
    #expect(drawn == ["A": ["B", "C", "D"], "E": ["F", "I"], "G": ["H"], "L": ["M"], "J": [], "K": []])
    let declared = Self.declared(
      #".target(name: "A", dependencies: ["B", "C"]), .systemLibrary(name: "Z"), .executableTarget(name: "E")"#)
    #expect(declared == ["A": ["B", "C"], "E": []])
  }
}
