internal import Foundation

/// A second process writing an Orchestra `.projects/` tree as plugin-storage-markdown does
/// (`Tests/WorkspaceWriter/mdwriter.py`: yaml.v3's emitting rules, in-place writes, sidecars):
/// tests read what it wrote.
public final class MarkdownWriter {
  public struct Failed: Error, CustomStringConvertible {
    public var description: String
  }

  /// The workspace folder (`.projects/` is inside it).
  public let workspace: String
  private let process: WriterProcess

  public init(workspace: String) throws {
    self.workspace = workspace
    process = try WriterProcess(script: "mdwriter", argument: workspace)
  }

  deinit { stop() }

  public func stop() { process.stop() }

  /// Sends one command; returns the lines before its `OK`, throws on `ERR`.
  @discardableResult
  public func send(_ command: [String: Any]) throws -> [String] { try process.send(command) }

  /// The tools' write of a feature (`feature` holds its front-matter keys: `id`, `title`,
  /// `status`, `labels`…): the file in place, then its sidecar. `split` bytes first and a
  /// `pause` make a half-written file another process can catch.
  public func feature(
    _ feature: [String: Any], project: String = "web", body: String? = nil, split: Int? = nil, pause: Double = 0
  ) throws {
    var c: [String: Any] = ["feature": feature, "project": project, "pause": pause]
    if let body { c["body"] = body }
    if let split { c["split"] = split }
    try send(c)
  }

  /// The plugin's delete: the file, then its sidecar.
  public func delete(_ id: String, project: String = "web") throws {
    try send(["delete": id, "project": project])
  }

  /// `project.json` as the plugin writes it: front matter only.
  public func project(_ slug: String, at time: String = "2026-02-28T02:34:53Z") throws {
    try send([
      "project_json": [
        "created_at": time, "description": "", "id": slug, "name": slug, "slug": slug, "updated_at": time,
      ],
      "project": slug,
    ])
  }

  /// The front matter yaml.v3 writes for `mapping` (between the `---` lines).
  public func render(_ mapping: [String: Any]) throws -> String {
    let lines = try send(["render": mapping])
    guard let l = lines.first, l.hasPrefix("TEXT "),
      let s = try JSONSerialization.jsonObject(with: Data(l.dropFirst(5).utf8), options: .fragmentsAllowed) as? String
    else { throw Failed(description: "mdwriter: no TEXT answer") }
    return s
  }
}
