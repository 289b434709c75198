public import WallboardCore

/// A feature file's bytes → a record: the front-matter keys of `orchestra-storage.md` §2c, as
/// plugin-storage-markdown writes them or as `export_markdown` does (§2d). Pure: the reader that
/// lists and reads the files (`MarkdownWorkspace`, in EventSources) hands it the bytes.
public enum FeatureFile {
  /// Which writer made a file.
  public enum Variant: Hashable, Sendable {
    /// plugin-storage-markdown (and the DualStorage mirror): yaml.v3 front matter, sidecars.
    case plugin
    /// The `export_markdown` tool's snapshot: hand-made front matter, no labels or versions.
    case exportMarkdown
  }

  /// One feature file as read.
  public struct Record: Hashable, Sendable {
    public var path: String
    public var feature: Feature
    /// The storage version: the sidecar's number (0 without one); front-matter `version` is not it.
    public var version: Int
    /// The markdown body (front matter and framing removed): its last `maxBodyBytes` at most,
    /// where the audit trail is.
    public var body: String
    /// Whether the body's start was cut.
    public var bodyTruncated: Bool
    public var variant: Variant
    /// The file's modification time, for a feature without `updated_at`.
    public var modified: Instant

    public init(
      path: String, feature: Feature, version: Int, body: String, bodyTruncated: Bool, variant: Variant,
      modified: Instant
    ) {
      self.path = path
      self.feature = feature
      self.version = version
      self.body = body
      self.bodyTruncated = bodyTruncated
      self.variant = variant
      self.modified = modified
    }
  }

  /// A file that could not be read: which, the line when known, and why.
  public struct Problem: Error, Hashable, Sendable, CustomStringConvertible {
    public var file: String
    public var line: Int?
    public var problem: String
    /// Whether reading it again may succeed (an empty or unterminated file: a write in progress).
    public var mayBeTorn: Bool

    public init(file: String, line: Int? = nil, problem: String, mayBeTorn: Bool = false) {
      self.file = file
      self.line = line
      self.problem = problem
      self.mayBeTorn = mayBeTorn
    }

    public var description: String { line.map { "\(file):\($0): \(problem)" } ?? "\(file): \(problem)" }
  }

  /// What one file's read keeps: the end of its body, and its front matter's own limits.
  public struct Limits: Hashable, Sendable {
    /// Bytes of each body kept (a longer one is cut at a character boundary).
    public var maxBodyBytes = AuditTrail.maxBodyBytes
    public var frontMatter = FrontMatter.Limits()

    public init() {}

    public init(maxBodyBytes: Int, frontMatter: FrontMatter.Limits) {
      self.maxBodyBytes = maxBodyBytes
      self.frontMatter = frontMatter
    }
  }

  /// Reads `bytes` (the file at `path`, named `<stem>.md`, in project folder `project`).
  public static func record(
    _ bytes: [UInt8], path: String, stem: String, project: String, limits: Limits = Limits(),
    modified: Instant
  ) -> Result<Record, Problem> {
    let exported = looksExported(bytes)
    let fm: FrontMatter
    do {
      fm =
        exported
        ? try FrontMatter.parseVerbatim(bytes, file: path, limits: limits.frontMatter)
        : try FrontMatter.parse(bytes, file: path, limits: limits.frontMatter)
    } catch {
      return .failure(
        Problem(
          file: path, line: error.line, problem: error.reason,
          mayBeTorn: error.mayBeTorn))
    }
    guard fm.isPresent else {
      return .failure(Problem(file: path, line: 1, problem: "no front matter (a feature file starts with `---`)"))
    }
    let reader = KeyReader(fm: fm, path: path)
    do {
      let id = try reader.text("id", max: 256) ?? stem
      guard !id.isEmpty else { return .failure(Problem(file: path, line: fm.lines["id"], problem: "`id` is empty")) }
      var f = Feature(
        id: id, projectId: project, title: try reader.text("title", max: 4096) ?? "",
        status: try reader.text("status", max: 256) ?? "backlog", priority: try reader.text("priority"),
        kind: try reader.text("kind"), assignee: try reader.text("assignee"),
        labels: try reader.list("labels", max: 256), estimate: try reader.text("estimate"))
      f.dependsOn = try reader.list("depends_on", max: Feature.maxDependencies)
      f.createdAt = try reader.text("created_at").flatMap(StoreTime.instant)
      f.updatedAt = try reader.text("updated_at").flatMap(StoreTime.instant)
      // The end of a long body is kept: the audit trail is appended there.
      var start = fm.body.startIndex
      let truncated = fm.body.count > limits.maxBodyBytes
      if truncated {
        start = fm.body.endIndex - limits.maxBodyBytes
        // On to a character boundary: never split a UTF-8 sequence.
        while start < fm.body.endIndex && fm.body[start] & 0xC0 == 0x80 { start += 1 }
      }
      return .success(
        Record(
          path: path, feature: f, version: 0, body: String(decoding: fm.body[start...], as: UTF8.self),
          bodyTruncated: truncated, variant: exported ? .exportMarkdown : .plugin, modified: modified))
    } catch {
      return .failure(error)
    }
  }

  /// Whether a file's front matter is the export's (a `project_slug:` or `type:` line): such
  /// lines are never in the plugin's features.
  static func looksExported(_ bytes: [UInt8]) -> Bool {
    guard bytes.starts(with: Array("---".utf8)) else { return false }
    let slug = Array("project_slug:".utf8)
    let type = Array("type:".utf8)
    var start = 0
    while start < bytes.count {
      var end = start
      while end < bytes.count && bytes[end] != 0x0A { end += 1 }
      let line = bytes[start..<end]
      if start > 0 && (line.elementsEqual("---".utf8) || line.elementsEqual("---\r".utf8)) { return false }
      if line.starts(with: slug) || line.starts(with: type) { return true }
      start = end + 1
    }
    return false
  }
}

/// Typed look-ups of front-matter keys; a wrong type is a problem naming the key's line.
private struct KeyReader {
  let fm: FrontMatter
  let path: String

  func problem(_ key: String, _ why: String) -> FeatureFile.Problem {
    FeatureFile.Problem(file: path, line: fm.lines[key], problem: "`\(key)` \(why)")
  }

  /// A scalar as text (numbers and booleans written out), nil when absent, null or empty;
  /// longer than `max` bytes is cut at a character boundary.
  func text(_ key: String, max: Int = 1024) throws(FeatureFile.Problem) -> String? {
    guard let v = fm[key] else { return nil }
    if case .list = v { throw problem(key, "is a list, not text") }
    guard let s = v.text, !s.isEmpty else { return nil }
    return s.prefix(utf8Bytes: max)
  }

  /// `labels`, `depends_on`: a list of text (at most `max` items, each at most 1024 bytes), empty
  /// ones dropped.
  func list(_ key: String, max: Int) throws(FeatureFile.Problem) -> [String] {
    switch fm[key] {
    case nil, .null?: return []
    case .list(let items)?:
      guard items.count <= max else { throw problem(key, "has more than \(max) items") }
      var out: [String] = []
      for item in items {
        guard let s = item.text else { throw problem(key, "holds an item that is not text") }
        guard s.utf8.count <= 1024 else { throw problem(key, "holds an item longer than 1024 bytes") }
        if !s.isEmpty { out.append(s) }
      }
      return out
    case .some: throw problem(key, "is not a list")
    }
  }
}
