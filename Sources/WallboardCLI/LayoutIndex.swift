internal import Foundation

/// The bundled layouts: `Layouts/<name>.layout`, each naming itself and describing itself in
/// `name = …` and `description = …` lines (the full format is in `docs/layouts.md`).
enum LayoutIndex {
  struct Entry: Equatable {
    var name: String
    var description: String
  }

  static func list(directory: String) throws(CLIError) -> [Entry] {
    let files: [String]
    do {
      files = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".layout") }.sorted()
    } catch {
      throw .runtime("cannot list layouts in \(directory): \(error.localizedDescription)")
    }
    return try files.map { file throws(CLIError) in
      let path = directory + "/" + file
      guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
        throw .badInput("\(path): cannot read the layout file")
      }
      var description: String?
      for line in text.split(separator: "\n") {
        let t = line.trimmingCharacters(in: " \t\r")
        if t.hasPrefix("description"), let eq = t.firstIndex(of: "=") {
          description = String(t[t.index(after: eq)...]).trimmingCharacters(in: " \t")
          break
        }
      }
      guard let description else { throw .badInput("\(path):1: description: missing") }
      return Entry(name: String(file.dropLast(".layout".count)), description: description)
    }
  }
}
