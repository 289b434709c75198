internal import Foundation
internal import Layout
internal import Widgets

/// The bundled layouts: every `Layouts/<name>.layout`, parsed and checked as `run` would.
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
      let layout = try Scene.loadLayout(directory + "/" + file)
      return Entry(name: String(file.dropLast(".layout".count)), description: layout.description)
    }
  }
}
