internal import Posix
internal import SourceKit
public import WallboardCore
public import WorkspaceFormats

extension WorkflowFile {
  /// The workflow a workspace's features follow: its own file's when it has one and the file
  /// reads, else upstream's 7 states. A file that does not read is named in `problem` (and the
  /// board falls back to upstream's states rather than show none).
  public static func load(tree: String) -> (workflow: Workflow, file: String?, problem: Problem?) {
    let list: (String) -> [String]? = { dir in
      guard WorkspaceLocator.isDirectory(dir) else { return nil }
      return FileSystem.names(in: dir)
    }
    guard let file = path(inTree: tree, list: list) else { return (.upstream, nil, nil) }
    let bytes: [UInt8]
    switch MarkdownTree.read(file, limit: maxBytes) {
    case .success(let b): bytes = b
    case .failure(.missing): return (.upstream, nil, nil)  // gone since it was listed
    case .failure(.tooLarge(let n)):
      return (.upstream, file, Problem(file: file, line: 0, problem: "\(n) bytes: larger than \(maxBytes)"))
    case .failure(let other): return (.upstream, file, Problem(file: file, line: 0, problem: other.description))
    }
    do throws(Problem) { return (try parse(bytes, file: file), file, nil) } catch {
      return (.upstream, file, error)
    }
  }
}
