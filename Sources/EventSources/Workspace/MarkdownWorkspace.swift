internal import SourceKit
internal import WallboardCore
internal import Wire
public import WorkspaceFormats

/// Reads an Orchestra workspace's markdown tree `<ws>/.projects/` as plugin-storage-markdown
/// writes it (`orchestra-storage.md` §2): every `<slug>/features/*.md`, its front matter as a
/// feature, its `.md.version` sidecar as the version, its body kept for the audit trail.
///
/// Also reads the lossy `export_markdown` layout (§2d): unquoted `key: value` front matter with
/// `project_slug`/`type` keys, a JSON `project.json`, no sidecars and no labels.
///
/// Capped everywhere: file size, number of files, body size, the front matter's own limits. The
/// walk has a fixed depth (`<slug>/features/<file>`), so paths cannot grow; `.`/`..` are never
/// names, and a symbolic link that leads out of `.projects/` is not followed. A file that cannot
/// be read is one problem naming it (and its line), and never costs the other files.
public struct MarkdownWorkspace: Sendable {
  /// How far the reader goes.
  public struct Limits: Hashable, Sendable {
    public var maxFileBytes = 1 << 20
    public var maxFiles = 100_000
    /// Bytes of each body kept (a longer one is cut at a character boundary).
    public var maxBodyBytes = AuditTrail.maxBodyBytes
    public var frontMatter = FrontMatter.Limits()
    public init() {}
  }

  /// Which writer made a file (`FeatureFile.Variant`).
  public typealias Variant = FeatureFile.Variant

  /// A feature file on disk, as listed: where, which project, and its stamps.
  public struct Entry: Hashable, Sendable {
    public var path: String
    public var project: String
    public var stamp: FileStamp
    /// The `.version` sidecar's stamp, nil when there is none.
    public var sidecar: FileStamp?
  }

  /// One feature file as read (`FeatureFile.Record`).
  public typealias Record = FeatureFile.Record

  /// A file that could not be read (`FeatureFile.Problem`).
  public typealias Problem = FeatureFile.Problem

  /// What is on disk now: the feature files and the folders they are in.
  public struct Listing: Hashable, Sendable {
    /// Feature files by path.
    public var entries: [String: Entry] = [:]
    /// `.projects/`, each project folder and each `features/` folder: what a watcher watches.
    public var folders: [String] = []
    /// Each project folder's `project.json`, by slug, when it has one.
    public var projectFiles: [String: String] = [:]
    /// Links that lead out of the tree.
    public var problems: [Problem] = []
    /// Feature files past `maxFiles` (by project and file name), not listed.
    public var leftOut = 0
    /// Folders that could not be listed this time (no descriptor left, no permission for a
    /// moment): what was under them is not known to be gone.
    public var unreadable: [String] = []
  }

  /// The whole tree, read.
  public struct Snapshot: Hashable, Sendable {
    public var records: [Record]
    public var problems: [Problem]
    public var variant: Variant
  }

  public let workspace: String
  /// `<workspace>/.projects`.
  public let root: String
  public var limits: Limits

  public init(workspace: String, limits: Limits = Limits()) {
    self.workspace = workspace
    root = WorkspaceLocator.tree(of: workspace)
    self.limits = limits
  }

  /// Whether `.projects/` is there (as a folder).
  public var exists: Bool {
    WorkspaceLocator.isDirectory(root)
  }

  /// Every feature file of `projects` (every project when nil), with its stamps: at most
  /// `maxFiles`, the first by project and file name, and how many more there are (`leftOut`).
  public func list(projects: Set<String>? = nil) -> Listing {
    var out = Listing()
    guard let real = MarkdownTree.realPath(root), let top = MarkdownTree.entries(of: root, inside: real) else {
      if exists { out.unreadable.append(root) }
      return out
    }
    out.folders.append(root)
    for link in top.escaping {
      out.problems.append(Problem(file: link, problem: "leads out of .projects/: not followed"))
    }
    for (slug, isDirectory) in top.names.sorted(by: { $0.name < $1.name }) where isDirectory {
      // `.global`, `.workflow`… belong to other plugins; so do folders without `features/`.
      guard !slug.hasPrefix("."), projects?.contains(slug) ?? true else { continue }
      let folder = root + "/" + slug
      guard let inProject = MarkdownTree.entries(of: folder, inside: real) else {
        out.unreadable.append(folder)
        continue
      }
      out.folders.append(folder)
      for link in inProject.escaping {
        out.problems.append(Problem(file: link, problem: "leads out of .projects/: not followed"))
      }
      if inProject.names.contains(where: { $0.name == "project.json" && !$0.isDirectory }) {
        out.projectFiles[slug] = folder + "/project.json"
      }
      guard inProject.names.contains(where: { $0.name == "features" && $0.isDirectory }) else { continue }
      let features = folder + "/features"
      guard let files = MarkdownTree.entries(of: features, inside: real) else {
        out.unreadable.append(features)
        continue
      }
      out.folders.append(features)
      for link in files.escaping {
        out.problems.append(Problem(file: link, problem: "leads out of .projects/: not followed"))
      }
      let names = files.names.filter { !$0.isDirectory && $0.name.hasSuffix(".md") && $0.name.utf8.count > 3 }
      for name in names.map(\.name).sorted() {
        guard out.entries.count < limits.maxFiles else {
          out.leftOut += 1
          continue
        }
        let path = features + "/" + name
        guard let stamp = FileStamp.of(path) else { continue }
        out.entries[path] = Entry(path: path, project: slug, stamp: stamp, sidecar: FileStamp.of(path + ".version"))
      }
    }
    return out
  }

  /// Reads one feature file and its sidecar.
  public func read(_ entry: Entry) -> Result<Record, Problem> {
    let bytes: [UInt8]
    switch MarkdownTree.read(entry.path, limit: limits.maxFileBytes) {
    case .success(let b): bytes = b
    case .failure(.missing):
      return .failure(Problem(file: entry.path, problem: "gone while being read", mayBeTorn: true))
    case .failure(.tooLarge(let n)):
      return .failure(Problem(file: entry.path, problem: "\(n) bytes: larger than \(limits.maxFileBytes)"))
    case .failure(let other): return .failure(Problem(file: entry.path, problem: other.description))
    }
    let stem = String(entry.path.split(separator: "/").last!.dropLast(3))
    let parsed = FeatureFile.record(
      bytes, path: entry.path, stem: stem, project: entry.project,
      limits: FeatureFile.Limits(maxBodyBytes: limits.maxBodyBytes, frontMatter: limits.frontMatter),
      modified: entry.stamp.modified)
    guard case .success(var record) = parsed else { return parsed }
    if record.variant == .plugin { record.version = MarkdownTree.sidecarVersion(entry.path + ".version") }
    return .success(record)
  }

  /// A project folder's `project.json`: its name, and which writer made it.
  public struct Project: Hashable, Sendable {
    public var slug: String
    public var name: String?
    public var variant: Variant
  }

  /// Reads `<slug>/project.json`: front matter only as the plugin writes it (despite the
  /// name), or real JSON (`{"slug":…,"name":…}`) as the export writes it.
  public func project(_ slug: String) -> Result<Project, Problem> {
    let path = root + "/" + slug + "/project.json"
    let bytes: [UInt8]
    switch MarkdownTree.read(path, limit: limits.maxFileBytes) {
    case .success(let b): bytes = b
    case .failure(.missing): return .failure(Problem(file: path, problem: "no such file"))
    case .failure(.tooLarge(let n)):
      return .failure(Problem(file: path, problem: "\(n) bytes: larger than \(limits.maxFileBytes)"))
    case .failure(let other): return .failure(Problem(file: path, problem: other.description))
    }
    if bytes.first(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }) == UInt8(ascii: "{") {
      do {
        guard case .object(let o) = try JSONParser.parse(bytes, limits: JSONLimits(maxDepth: 4)) else {
          return .failure(Problem(file: path, problem: "not a JSON object"))
        }
        guard case .string(let name)? = o["name"] else {
          return .success(Project(slug: slug, name: nil, variant: .exportMarkdown))
        }
        return .success(Project(slug: slug, name: name, variant: .exportMarkdown))
      } catch {
        return .failure(Problem(file: path, problem: "not JSON: \(error)"))
      }
    }
    do {
      let fm = try FrontMatter.parse(bytes, file: path, limits: limits.frontMatter)
      return .success(Project(slug: slug, name: fm["name"]?.text, variant: .plugin))
    } catch {
      return .failure(Problem(file: path, line: error.line, problem: error.reason, mayBeTorn: error.mayBeTorn))
    }
  }

  /// Whether any project of the listing is the export's (its `project.json` is JSON).
  func hasExportedProject(_ listing: Listing) -> Bool {
    listing.projectFiles.keys.contains { slug in
      if case .success(let p) = project(slug) { return p.variant == .exportMarkdown }
      return false
    }
  }

  /// Everything: the feature files of `projects`, read, sorted by feature id.
  public func read(projects: Set<String>? = nil) -> Snapshot {
    let listing = list(projects: projects)
    var records: [Record] = []
    var problems = listing.problems
    records.reserveCapacity(listing.entries.count)
    for entry in listing.entries.values {
      switch read(entry) {
      case .success(let r): records.append(r)
      case .failure(let p): problems.append(p)
      }
    }
    records.sort { $0.feature.key != $1.feature.key ? $0.feature.key < $1.feature.key : $0.path < $1.path }
    problems.sort { ($0.file, $0.line ?? 0) < ($1.file, $1.line ?? 0) }
    var variant = records.contains { $0.variant == .exportMarkdown } ? Variant.exportMarkdown : .plugin
    if variant == .plugin && hasExportedProject(listing) { variant = .exportMarkdown }
    return Snapshot(records: records, problems: problems, variant: variant)
  }

  /// The source's detail for this tree: "markdown /ws/.projects", and what an export lacks;
  /// first, when some feature files cannot be read now, how many and the first of them (the
  /// board's line keeps the start of a detail too long for it, so the problem stays).
  /// Then, past the file cap, how many were left out ("1 feature left out (cap 100,000)").
  public func detail(_ variant: Variant, unreadable: [Problem] = [], leftOut: Int = 0) -> String {
    var tree: String
    switch variant {
    case .plugin: tree = "markdown \(root)"
    case .exportMarkdown: tree = "markdown \(root) · export_markdown snapshot: no labels, versions or timestamps"
    }
    if leftOut > 0 { tree = OrchestraDBSource.leftOutText(leftOut, cap: limits.maxFiles) + " · " + tree }
    return Self.unreadableText(unreadable).map { "\($0) · \(tree)" } ?? tree
  }

  /// "1 feature file unreadable: FEAT-X.md:14: a tab in the indentation": how many files cannot
  /// be read and the first by path, named by its file name (the source's name says the
  /// workspace; `inspect` and the rejected input name the whole path); nil when none.
  public static func unreadableText(_ problems: [Problem]) -> String? {
    guard let first = problems.min(by: { ($0.file, $0.line ?? 0) < ($1.file, $1.line ?? 0) }) else { return nil }
    var named = first
    named.file = String(first.file.split(separator: "/").last ?? Substring(first.file))
    let files = problems.count == 1 ? "1 feature file" : "\(problems.count) feature files"
    return "\(files) unreadable: \(named.description)"
  }
}
