public import Foundation

/// A second process writing an Orchestra `.projects/` tree as plugin-storage-markdown does
/// (`Tests/WorkspaceWriter/mdwriter.py`: yaml.v3's emitting rules, in-place writes, sidecars):
/// tests read what it wrote.
public final class MarkdownWriter {
  public struct Failed: Error, CustomStringConvertible {
    public var description: String
  }

  /// The workspace folder (`.projects/` is inside it).
  public let workspace: String
  private let process = Process()
  private let input = Pipe()
  private let output = Pipe()
  private var pending: [UInt8] = []

  public init(workspace: String) throws {
    self.workspace = workspace
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [
      Python.interpreter, Paths.repoRoot.appendingPathComponent("Tests/WorkspaceWriter/mdwriter.py").path, workspace,
    ]
    process.standardInput = input
    process.standardOutput = output
    process.standardError = FileHandle.standardError
    try process.run()
    guard try line(timeout: 20) == "READY" else { throw Failed(description: "mdwriter did not start") }
  }

  deinit { stop() }

  public func stop() {
    guard process.isRunning else { return }
    try? input.fileHandleForWriting.close()
    process.waitUntilExit()
  }

  /// Sends one command; returns the lines before its `OK`, throws on `ERR`.
  @discardableResult
  public func send(_ command: [String: Any]) throws -> [String] {
    let data = try JSONSerialization.data(withJSONObject: command)
    input.fileHandleForWriting.write(data + Data("\n".utf8))
    var lines: [String] = []
    while true {
      let l = try line(timeout: 20)
      if l.hasPrefix("ERR ") { throw Failed(description: "mdwriter: \(l) for \(command)") }
      if l.hasPrefix("OK ") { return lines }
      lines.append(l)
    }
  }

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

  private func line(timeout: Double) throws -> String {
    let fd = output.fileHandleForReading.fileDescriptor
    let end = Date().addingTimeInterval(timeout)
    while true {
      if let i = pending.firstIndex(of: 10) {
        let l = String(decoding: pending[..<i], as: UTF8.self)
        pending.removeFirst(i + 1)
        return l
      }
      guard Date() < end else { throw Failed(description: "mdwriter: no answer within \(timeout) s") }
      var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      guard poll(&p, 1, 100) > 0 else { continue }
      var buffer = [UInt8](repeating: 0, count: 4096)
      let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      guard n > 0 else { throw Failed(description: "mdwriter ended") }
      pending += buffer[0..<n]
    }
  }
}
