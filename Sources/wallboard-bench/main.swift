// `make bench`: throughput of the parts that must keep up with a busy team, in release mode.
// Each case runs a few times; the best run is reported (the least disturbed by the machine).
import Clock
import EventSources
import Foundation
import Glyphs
import Journal
import Layout
import PNG
import Projections
import Raster
import SQLite
import SourceKit
import Themes
import WallboardCore
import Widgets
import Wire

// `--quic-only`: the QUIC transport's figures alone (issue 23), for a quick look.
// `--nats-only`: the fleet's figures alone (issue 24).
// `--footprint-only`: the binary's size, floor, snapshot beside Chromium and running boards
// (issue 25), and the aarch64 guest's figures with `--guest PREFIX`; `--guest-only`: those alone.
if CommandLine.arguments.contains("--footprint-only") {
  Footprint.only()
  exit(0)
}
if CommandLine.arguments.contains("--guest-only") {
  Guest.only()
  exit(0)
}
if CommandLine.arguments.contains("--nats-only") {
  NATSBench.only()
  exit(0)
}
// `--work-only`: the projections of issue 26 alone (WorkBench).
if CommandLine.arguments.contains("--work-only") {
  WorkBench.only()
  exit(0)
}
if CommandLine.arguments.contains("--quic-only") {
  QUICBench.only()
  exit(0)
}

struct Result {
  var name: String
  var count: Int
  var seconds: Double
  var perSecond: Double { Double(count) / seconds }
}

func measure(_ name: String, count: Int, runs: Int = 5, _ body: () -> Void) -> Result {
  var best = Double.infinity
  for _ in 0..<runs {
    let start = ContinuousClock.now
    body()
    let d = ContinuousClock.now - start
    let s = Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    best = min(best, s)
  }
  return Result(name: name, count: count, seconds: best)
}

func peakRSSKiB() -> Int {
  guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
  for line in text.split(separator: "\n") where line.hasPrefix("VmHWM:") {
    return Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
  }
  return 0
}

let featureCount = 500
let statuses = Workflow.seed.states.map(\.id)
let base = try! Instant(rfc3339: "2026-11-02T09:00:00Z")

/// A 500-feature board in one sprint.
func seededBoard() -> BoardState {
  var s = BoardState()
  var ids: [String] = []
  for i in 0..<featureCount {
    let id = "FEAT-\(i)"
    ids.append(id)
    Reducer.reduce(
      into: &s,
      Event(
        origin: "bench", seq: nil, time: base,
        body: .featureCreated(Feature(id: id, title: "Feature \(i)", status: "todo", estimate: "M"))))
  }
  let sprint = Sprint(
    id: "s1", name: "Sprint 1", startDate: base.utcDate, endDate: base.utcDate.adding(days: 11), featureIds: ids)
  Reducer.reduce(into: &s, Event(origin: "bench", time: base, body: .sprintCreated(sprint)))
  Reducer.reduce(
    into: &s, Event(origin: "bench", time: base, body: .sprintStarted(id: "s1", startedAt: base, patch: SprintPatch())))
  return s
}

// 1. Reducer: status changes over a 500-feature board.
let changes = 1_000_000
let statusEvents: [Event] = (0..<changes).map { i in
  Event(
    origin: "bench", publisher: "p", seq: Int64(i + 1), time: base.adding(seconds: Double(i) * 0.5),
    body: .featureUpdated(
      FeaturePatch(id: "FEAT-\(i % featureCount)", status: statuses[(i / featureCount) % statuses.count])))
}
let board = seededBoard()
var sink = 0
let reducer = measure("reducer: status changes, 500-feature board", count: changes) {
  var s = board
  for e in statusEvents { Reducer.reduce(into: &s, e) }
  sink &+= s.counters.applied
}

// 2. JSON Lines: decode + reduce.
let lineCount = 300_000
var text = [UInt8]()
text.reserveCapacity(lineCount * 180)
for i in 0..<lineCount {
  let t = base.adding(seconds: Double(i) * 0.5).rfc3339
  let line =
    "{\"topic\":\"feature.updated\",\"event_type\":\"status_changed\",\"time\":\"\(t)\",\"seq\":\(i + 1),\"source\":\"tools.features\",\"payload\":{\"id\":\"FEAT-\(i % featureCount)\",\"status\":\"\(statuses[(i / featureCount) % statuses.count])\"}}\n"
  text += Array(line.utf8)
}
let jsonl = measure("JSON Lines: decode + reduce", count: lineCount) {
  var s = board
  var decoder = LineDecoder(origin: "bench", label: "bench")
  let chunk = 65_536
  var offset = 0
  while offset < text.count {
    let end = min(offset + chunk, text.count)
    for input in decoder.push(text[offset..<end], receivedAt: base) { Reducer.reduce(into: &s, input) }
    offset = end
  }
  for input in decoder.finish(receivedAt: base) { Reducer.reduce(into: &s, input) }
  precondition(s.counters.applied == lineCount + featureCount + 2, "every line must apply (\(s.counters.applied))")
  sink &+= s.counters.applied
}

// 2b. Orchestra protobuf: framed PluginResponse{event_delivery} status changes, decode + reduce.
let frameCount = 300_000
var orchestraStream = [UInt8]()
orchestraStream.reserveCapacity(frameCount * 140)
for i in 0..<frameCount {
  let delivery = EventDelivery(
    subscriptionId: "sub-1", topic: "feature.updated", eventType: "status_changed",
    payload: [
      "id": .string("FEAT-\(i % featureCount)"), "status": .string(statuses[(i / featureCount) % statuses.count]),
      "seq": .number(Double(i + 1)),
    ], sourcePlugin: "tools.features", timestamp: base.adding(seconds: Double(i) * 0.5))
  orchestraStream += LengthPrefixFramer.frame(PluginResponse(response: .eventDelivery(delivery)).encode())
}
let orchestra = measure("Orchestra protobuf: decode + reduce", count: frameCount) {
  var s = board
  var framer = LengthPrefixFramer()
  let decoder = EventDecoder()
  let chunk = 65_536
  var offset = 0
  while offset < orchestraStream.count {
    let end = min(offset + chunk, orchestraStream.count)
    for frame in try! framer.push(orchestraStream[offset..<end]) {
      guard case .eventDelivery(let d) = try! PluginResponse.decode(frame).response, !d.isAcknowledgement else {
        continue
      }
      Reducer.reduce(
        into: &s, try! OrchestraEvents.event(from: d, origin: "bench", receivedAt: base, decoder: decoder))
    }
    offset = end
  }
  precondition(s.counters.applied == frameCount + featureCount + 2, "every frame must apply (\(s.counters.applied))")
  sink &+= s.counters.applied
}

// 2c. Orchestra markdown tree: the first board (read every file + snapshot + reduce) from
// 10,000 feature files as plugin-storage-markdown writes them, and one look of the scan that
// follows it while idle.
let mdFeatures = 10_000
let mdWorkspace = FileManager.default.temporaryDirectory.appendingPathComponent("wallboard-bench-md-\(getpid())")
for p in 0..<10 {
  let dir = mdWorkspace.appendingPathComponent(".projects/project-\(p)/features")
  try! FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
  for i in stride(from: p, to: mdFeatures, by: 10) {
    let id = "FEAT-\(i)"
    let t = base.adding(seconds: Double(i) * 60).rfc3339
    let labels = i % 3 == 0 ? "labels:\n    - sprint:s1\n    - 'area: ui'\n" : ""
    let text = """
      ---
      assignee: ana
      created_at: "\(t)"
      description: |-
          Line one of feature \(i).
          Line two.
      estimate: M
      id: \(id)
      \(labels)priority: P2
      project_id: project-\(p)
      status: \(statuses[i % statuses.count])
      title: 'Feature \(i): the board''s part'
      updated_at: "\(t)"
      version: 0
      ---

      # Feature \(i)

      Line one of feature \(i).

      ---
      **in-progress -> in-testing** (\(t)):
      Tests pass.

      """
    try! text.write(to: dir.appendingPathComponent("\(id).md"), atomically: false, encoding: .utf8)
    try! "3".write(to: dir.appendingPathComponent("\(id).md.version"), atomically: false, encoding: .utf8)
  }
}
let mdTree = MarkdownWorkspace(workspace: mdWorkspace.path)
let markdownBoard = measure("markdown: first board, 10,000 feature files", count: 1, runs: 3) {
  let snap = mdTree.read()
  precondition(
    snap.records.count == mdFeatures && snap.problems.isEmpty,
    "every file must read (\(snap.problems.first?.description ?? ""))")
  var s = BoardState()
  Reducer.reduce(
    into: &s,
    Event(
      origin: "bench", time: base,
      body: .boardSnapshot(
        BoardSnapshot(
          features: snap.records.map(\.feature), workflows: [WorkflowDefinition(projectId: nil, workflow: .upstream)])))
  )
  precondition(s.features.count == mdFeatures, "every feature must reach the board")
  sink &+= s.features.count
}
let markdownScan = measure("markdown: one idle look, 10,000 feature files", count: 1) {
  sink &+= mdTree.list().entries.count
}
// Followed idle later (section 8), removed at the end.
defer { try? FileManager.default.removeItem(at: mdWorkspace) }

// 3. Projections on the busy board (for reference).
var busy = board
for e in statusEvents.prefix(200_000) { Reducer.reduce(into: &busy, e) }
let projections = measure("projections: burndown + tallies, 500 features", count: 100) {
  for _ in 0..<100 {
    let sprint = busy.activeSprint()!
    let b = Burndown.compute(state: busy, sprint: sprint, at: base.adding(seconds: 86_400 * 9), boardZone: .utc)
    let scope = BoardScope(state: busy, sprint: sprint)
    sink &+= b.days.count + Tally.compute(state: busy, scope: scope).count
  }
}

// 4. Rendering the `wall` layout on the simulated team.
let root = ProcessInfo.processInfo.environment["WALLBOARD_HOME"] ?? FileManager.default.currentDirectoryPath
let catalog = try! ThemeCatalog.load(directory: root + "/assets/themes")
let textRenderer = try! TextRenderer(fontsDirectory: root + "/assets/fonts")
let wall = try! LayoutParser.parse(
  String(contentsOfFile: root + "/Layouts/wall.layout", encoding: .utf8), file: "wall.layout",
  vocabulary: WidgetRegistry.vocabulary)
let simAt = try! Instant(rfc3339: "2026-11-11T15:00:00Z")
var simState = BoardState()
for i in SimSource.inputs(team: SimulatedTeam(seed: 1), origin: "sim", through: simAt) {
  Reducer.reduce(into: &simState, i)
}
let simFrame = FrameModel(state: simState, at: simAt, now: simAt, zone: .utc, unit: .auto)
let nextSecond = FrameModel(state: simState, at: simAt, now: simAt.adding(seconds: 1), zone: .utc, unit: .auto)

@MainActor func style(height: Int) -> Style {
  Style(
    theme: catalog.theme(id: "orchestra")!, catalog: catalog, variant: catalog.variant(named: "default")!,
    unit: Double(height) / 1080, frameHeight: Double(height))
}

@MainActor func fullFrame(_ w: Int, _ h: Int, frames: Int) -> () -> Void {
  var renderer = BoardRenderer(layout: wall, painter: Painter(text: textRenderer))
  var canvas = Canvas(width: w, height: h)
  let st = style(height: h)
  renderer.render(simFrame, style: st, into: &canvas)  // warm the glyph cache
  return {
    for _ in 0..<frames {
      renderer.invalidate()
      sink &+= renderer.render(simFrame, style: st, into: &canvas).count
    }
  }
}
let frames = 20
let render1080 = measure(
  "render wall 1920x1080, full frame", count: frames, fullFrame(1920, 1080, frames: frames))
let render4K = measure(
  "render wall 3840x2160, full frame", count: frames, fullFrame(3840, 2160, frames: frames))
let render720 = measure(
  "render wall 1280x720, full frame", count: frames, fullFrame(1280, 720, frames: frames))

// One widget changed: a second passes and only the connections' "s ago" moves.
var tickRenderer = BoardRenderer(layout: wall, painter: Painter(text: textRenderer))
var tickCanvas = Canvas(width: 1920, height: 1080)
let tickStyle = style(height: 1080)
tickRenderer.render(simFrame, style: tickStyle, into: &tickCanvas)
var flip = false
var changedWidgets = 0
let oneWidget = measure("render wall 1920x1080, one widget changed", count: frames) {
  for _ in 0..<frames {
    flip.toggle()
    let dirty = tickRenderer.render(flip ? nextSecond : simFrame, style: tickStyle, into: &tickCanvas)
    changedWidgets = dirty.count
  }
}
// PNG: a whole 1080p frame, and the frame after one widget changed (what a png: display writes).
var pngCanvas = Canvas(width: 1920, height: 1080)
var pngRenderer = BoardRenderer(layout: wall, painter: Painter(text: textRenderer))
pngRenderer.render(simFrame, style: tickStyle, into: &pngCanvas)
let pngWhole = measure("PNG: encode a whole 1920x1080 frame", count: 5) {
  for _ in 0..<5 { sink &+= PNG.encode(pngCanvas).count }
}
// The two frames a second apart and what changed between them, drawn before the timing.
let pngFirst = pngCanvas
let pngDirty = pngRenderer.render(nextSecond, style: tickStyle, into: &pngCanvas)
let pngSecond = pngCanvas
var pngEncoder = PNGEncoder()
_ = pngEncoder.encode(pngFirst, changed: nil)
var pngFlip = false
let pngOneWidget = measure("PNG: encode 1920x1080 after one widget changed", count: frames) {
  for _ in 0..<frames {
    pngFlip.toggle()
    sink &+= pngEncoder.encode(pngFlip ? pngSecond : pngFirst, changed: pngDirty).count
  }
}
var floorCanvas = Canvas(width: 1920, height: 1080)
let floorFill = measure("fill 1920x1080 with one colour (the floor)", count: frames) {
  for i in 0..<frames { floorCanvas.fill(floorCanvas.bounds, RGBA(r: UInt8(i), g: 0, b: 0)) }
}
let frameModel = measure("frame model: projections for one frame", count: frames) {
  for _ in 0..<frames {
    sink &+= FrameModel(state: simState, at: simAt, now: simAt, zone: .utc, unit: .auto).tallies.count
  }
}

// 5. A FileWatcher waiting on an idle folder of 100 files for 3 s: the CPU it used (getrusage,
// user + system) as a share of one core — what following an idle workspace costs.
func idleWatcher(_ mode: FileWatcher.Mode) -> (name: String, percent: Double) {
  let dir = FileManager.default.temporaryDirectory.appendingPathComponent("wallboard-bench-watch-\(getpid())")
  try! FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: dir) }
  for i in 0..<100 { _ = FileManager.default.createFile(atPath: dir.path + "/FEAT-\(i).md", contents: Data("x".utf8)) }
  let watcher = FileWatcher(mode: mode, clock: .system)
  watcher.watch(dir.path)
  func cpu() -> Double {
    var u = rusage()
    getrusage(RUSAGE_SELF.rawValue, &u)
    let t = [u.ru_utime, u.ru_stime]
    return t.reduce(0) { $0 + Double($1.tv_sec) + Double($1.tv_usec) / 1e6 }
  }
  _ = watcher.wait(timeout: 0.1)  // first calls (lazy binding, first faults) are not the idle cost
  let (cpu0, wall0) = (cpu(), ContinuousClock.now)
  _ = watcher.wait(timeout: 3)
  let d = ContinuousClock.now - wall0
  let wall = Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
  let kind = watcher.usesInotify ? "inotify" : "polling every 1 s"
  return ("idle file watcher, 3 s, \(kind)", (cpu() - cpu0) / wall * 100)
}
let idleWatchers = [idleWatcher(.inotify), idleWatcher(.polling)]

// 6. An Orchestra workspace database of 10,000 features, each body with a few trail entries.
let workspaceFeatures = 10_000
let workspaceDir = FileManager.default.temporaryDirectory.appendingPathComponent("wallboard-bench-\(getpid())")
try! FileManager.default.createDirectory(at: workspaceDir, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: workspaceDir) }
let workspacePath = workspaceDir.appendingPathComponent("8fe0db68781ee67c.db").path
let workspaceWriter = try! Database(path: workspacePath, mode: .readWrite(create: true))
try! workspaceWriter.execute(
  """
  PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;
  CREATE TABLE projects (slug TEXT PRIMARY KEY, name TEXT NOT NULL, body TEXT DEFAULT '', version INTEGER DEFAULT 1,
    created_at TEXT NOT NULL DEFAULT (datetime('now')), updated_at TEXT NOT NULL DEFAULT (datetime('now')));
  CREATE TABLE features (id TEXT PRIMARY KEY, project_id TEXT NOT NULL REFERENCES projects(slug) ON DELETE CASCADE,
    title TEXT NOT NULL, description TEXT DEFAULT '', status TEXT DEFAULT 'backlog', priority TEXT DEFAULT 'P2',
    kind TEXT DEFAULT 'feature', assignee TEXT DEFAULT '', estimate TEXT DEFAULT '', labels TEXT DEFAULT '[]',
    depends_on TEXT DEFAULT '[]', body TEXT DEFAULT '', version INTEGER DEFAULT 1,
    created_at TEXT NOT NULL DEFAULT (datetime('now')), updated_at TEXT NOT NULL DEFAULT (datetime('now')));
  CREATE TABLE change_log (id INTEGER PRIMARY KEY AUTOINCREMENT, entity_type TEXT NOT NULL, entity_id TEXT NOT NULL,
    action TEXT NOT NULL, version INTEGER NOT NULL, timestamp TEXT NOT NULL DEFAULT (datetime('now')),
    synced INTEGER DEFAULT 0);
  INSERT INTO projects (slug, name) VALUES ('web', 'web');
  """)
/// A body as the tools leave it: the description, then up to four moves with evidence.
func workspaceBody(_ i: Int, at t: (Int) -> String) -> (body: String, status: String) {
  var body = "# Feature \(i)\n\nAs a user I want feature \(i), so that the team can ship it.\n"
  let path = ["in-progress", "in-testing", "in-docs", "in-review"]
  let moves = i % 5
  for k in 0..<min(moves, 3) {
    body +=
      "\n\n---\n**\(path[k]) -> \(path[k + 1])** (\(t(k))):\n## Changes\n- `internal/svc/f\(i).go`\n"
      + "- **svc package** (internal/svc): the store\n"
  }
  if moves == 4 { body += "\n\n---\n**Review (approved)** (\(t(3))): ship it\n" }
  return (body, moves == 0 ? "todo" : moves == 4 ? "done" : path[moves])
}
try! workspaceWriter.transaction { () throws(SQLiteError) in
  let insert = try workspaceWriter.prepare(
    "INSERT INTO features (id, project_id, title, status, estimate, labels, body, version, created_at, updated_at) "
      + "VALUES (?, 'web', ?, ?, 'M', '[\"sprint:s1\"]', ?, 1, ?, ?)")
  let log = try workspaceWriter.prepare(
    "INSERT INTO change_log (entity_type, entity_id, action, version, timestamp) VALUES ('features', ?, 'upsert', 1, ?)"
  )
  for i in 0..<workspaceFeatures {
    let created = base.adding(seconds: Double(i))
    let (body, status) = workspaceBody(i) { k in created.adding(seconds: Double(k + 1) * 3600).rfc3339 }
    let updated = created.adding(seconds: Double(i % 5) * 3600).rfc3339
    try insert.run([
      .text("FEAT-\(i)"), .text("Feature \(i)"), .text(status), .text(body), .text(created.rfc3339), .text(updated),
    ])
    try log.run([.text("FEAT-\(i)"), .text(updated)])
  }
}
let workspaceNow = base.adding(seconds: 86_400 * 14)

/// The board after the source's first snapshot: the real source, from start to its first board.
func firstWorkspaceBoard() -> BoardState {
  final class Box: @unchecked Sendable {
    let lock = NSLock()
    var state = BoardState()
    let ready = DispatchSemaphore(value: 0)
  }
  let box = Box()
  let (now, path) = (workspaceNow, workspacePath)
  let source = OrchestraDBSource(origin: "orchestra-db:bench", clock: .system.stamping { now }) {
    (path, "SQLite bench")
  }
  source.pollInterval = 60
  source.start { input in
    box.lock.withLock { _ = Reducer.reduce(into: &box.state, input) }
    if case .connection(_, .live, _, _) = input { box.ready.signal() }
  }
  box.ready.wait()
  source.stop()
  return box.lock.withLock { box.state }
}
var workspaceBoard = BoardState()
let firstBoard = measure("first board from a 10,000-feature database", count: 1) {
  workspaceBoard = firstWorkspaceBoard()
}
precondition(workspaceBoard.features.count == workspaceFeatures, "every feature must arrive")
let backfilledVersions = workspaceBoard.history.values.reduce(0) { $0 + $1.versions.count }

// One change: the plugin writes one feature and its change-log row (not timed); the poll reads
// `data_version`, the change-log rows after the cursor and the feature, applies one event, and
// takes the fingerprint (the steps of `OrchestraDBSource.poll`).
let workspaceReader = try! OrchestraDatabase(path: workspacePath)
var workspaceCursor = try! workspaceReader.lastChange()!
var workspaceVersion = try! workspaceReader.dataVersion()
let oneChangeCount = 50
var oneChangeSeconds = 0.0
for n in 0..<oneChangeCount {
  let id = "FEAT-\(n * 97 % workspaceFeatures)"
  let t = workspaceNow.adding(seconds: Double(n)).rfc3339
  try! workspaceWriter.execute(
    "UPDATE features SET status = '\(statuses[n % statuses.count])', version = version + 1, updated_at = '\(t)' WHERE id = '\(id)';"
      + "INSERT INTO change_log (entity_type, entity_id, action, version, timestamp) VALUES ('features', '\(id)', 'upsert', 2, '\(t)')"
  )
  let start = ContinuousClock.now
  let version = try! workspaceReader.dataVersion()
  precondition(version != workspaceVersion, "the reader must see the commit")
  workspaceVersion = version
  for c in try! workspaceReader.changes(after: workspaceCursor)! {
    for case .success(let f) in try! workspaceReader.features(id: c.entityID) {
      Reducer.reduce(
        into: &workspaceBoard, Event(origin: "orchestra-db:bench", time: c.at ?? workspaceNow, body: .featureCreated(f))
      )
    }
    workspaceCursor = c.id
  }
  // The poll then checks for rows changed without log rows (count, latest updated_at, versions).
  sink &+= try! workspaceReader.fingerprint().count
  let d = ContinuousClock.now - start
  oneChangeSeconds += Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
}
let oneChange = Result(
  name: "one change from a 10,000-feature database", count: oneChangeCount, seconds: oneChangeSeconds
)

// 7. A team without sprints: the cumulative flow of 10,000 features with a month of moves, and
// the frame model that computes it (the burndown's slot shows it).
var sprintless = BoardState(settings: BoardSettings(workflow: .upstream))
let upstreamStates = Workflow.upstream.states.map(\.id)
for i in 0..<10_000 {
  var t = base.adding(seconds: Double(i % 720) * 3600)
  let id = "F\(i)"
  Reducer.reduce(
    into: &sprintless, Event(origin: "bench", time: t, body: .featureCreated(Feature(id: id, status: "todo"))))
  for step in 1...(1 + i % 6) {
    t = t.adding(seconds: Double(3600 * (4 + (i &* step) % 30)))
    let status = upstreamStates[step % upstreamStates.count]
    Reducer.reduce(
      into: &sprintless, Event(origin: "bench", time: t, body: .featureUpdated(FeaturePatch(id: id, status: status))))
  }
}
let flowAt = base.adding(seconds: 86_400 * 40)
let flow14 = measure("flow: 10,000 features, 14 days", count: 20) {
  for _ in 0..<20 { sink &+= Flow.compute(state: sprintless, sprint: nil, at: flowAt, zone: .utc, days: 14).throughput }
}
let flow90 = measure("flow: 10,000 features, 90 days", count: 20) {
  for _ in 0..<20 { sink &+= Flow.compute(state: sprintless, sprint: nil, at: flowAt, zone: .utc, days: 90).throughput }
}
let flowFrame = measure("frame model without a sprint, 10,000 features", count: 20) {
  for _ in 0..<20 {
    sink &+= FrameModel(state: sprintless, at: flowAt, now: flowAt, zone: .utc, unit: .auto).tallies.count
  }
}

// 8. CPU while following an idle workspace: the real sources, started on the 10,000-feature
// database and the 10,000-file markdown tree, settled, then left alone for 15 s while nothing
// writes (getrusage of the whole process: the sources' threads are all that runs).
func processCPU() -> Double {
  var u = rusage()
  getrusage(RUSAGE_SELF.rawValue, &u)
  return [u.ru_utime, u.ru_stime].reduce(0) { $0 + Double($1.tv_sec) + Double($1.tv_usec) / 1e6 }
}
func idleFollowing(_ name: String, _ source: any EventSource, seconds: Double = 15) -> (name: String, percent: Double) {
  let live = DispatchSemaphore(value: 0)
  final class Once: @unchecked Sendable {
    let lock = NSLock()
    var signalled = false
  }
  let once = Once()
  source.start { input in
    guard case .connection(_, .live, _, _) = input else { return }
    let first = once.lock.withLock { () -> Bool in
      defer { once.signalled = true }
      return !once.signalled
    }
    if first { live.signal() }
  }
  live.wait()
  Thread.sleep(forTimeInterval: 2)  // past the first snapshot and its reading
  let (cpu0, wall0) = (processCPU(), ContinuousClock.now)
  Thread.sleep(forTimeInterval: seconds)
  let d = ContinuousClock.now - wall0
  let wall = Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
  let used = processCPU() - cpu0
  source.stop()
  Thread.sleep(forTimeInterval: 0.5)
  return (name, used / wall * 100)
}
let idleDatabase = OrchestraDBSource(origin: "orchestra-db:bench", clock: .system) { (workspacePath, "SQLite bench") }
let idleTree = OrchestraMarkdownSource(origin: "orchestra-md:bench", workspace: mdWorkspace.path, clock: .system)
// The one command, `orchestra:WORKSPACE`: the workspace found through a home whose
// `.orchestra/db/` holds the bench database under the hash rule's name.
let idleHome = workspaceDir.appendingPathComponent("home").path
let idleWorkspace = workspaceDir.appendingPathComponent("team-ws").path
try! FileManager.default.createDirectory(atPath: idleWorkspace, withIntermediateDirectories: true)
let idleLocator = WorkspaceLocator(home: idleHome, currentDirectory: "/")
let hashedBenchDB = idleLocator.hashedDatabase(for: idleWorkspace)
try! FileManager.default.createDirectory(
  atPath: (hashedBenchDB as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
try! FileManager.default.createSymbolicLink(atPath: hashedBenchDB, withDestinationPath: workspacePath)
let idleWorkspaceSource = try! SourceRegistry.make(
  try! SourceRegistry.standard.parse("orchestra:" + idleWorkspace),
  context: SourceContext(locator: idleLocator, clock: .system))
let idleSources = [
  idleFollowing("following idle 10,000-feature database, 15 s", idleDatabase),
  idleFollowing("following idle 10,000-file markdown tree, 15 s", idleTree),
  idleFollowing("orchestra:WORKSPACE, its database, idle, 15 s", idleWorkspaceSource),
]

// 9. The journal. Writing: 200,000 status changes encoded and inserted in transactions of 4,096
// (what the writer's thread does with a busy board's inputs). Restoring: a journal of 110,000
// inputs over the 500-feature board whose last 9,999 came after its last snapshot (a crash just
// before the next one): opened, played into a store, and the first frame computed and drawn.
let journalDir = NSTemporaryDirectory() + "wallboard-bench-journal-\(getpid())"
try! FileManager.default.createDirectory(atPath: journalDir, withIntermediateDirectories: true)
let journalInputs = statusEvents.prefix(200_000).map { BoardInput.event($0) }
var journalRun = 0
let journalWrite = measure("journal: encode + insert, batches of 4,096", count: journalInputs.count) {
  journalRun += 1
  let path = journalDir + "/write-\(journalRun).db"
  let file = try! JournalFile(path: path, mode: .write)
  var i = 0
  var at = base
  while i < journalInputs.count {
    var batch = JournalBatch()
    for input in journalInputs[i..<min(i + 4096, journalInputs.count)] {
      if case .event(let e) = input { at = e.time }
      try! batch.append(input, .applied, at: at)
    }
    try! file.write(batch)
    i += 4096
  }
  for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
}
let restorePath = journalDir + "/restore.db"
do {
  let writer = try! JournalWriter(path: restorePath, snapshotEvery: 10_000, clock: .system)
  var store = BoardStore(settings: BoardSettings(), recorder: writer)
  writer.start()
  // The seeded board's own events, then status changes up to 9,999 past the 11th snapshot.
  var seed = BoardState()
  var ids: [String] = []
  for i in 0..<featureCount {
    let e = Event(
      origin: "bench", time: base,
      body: .featureCreated(Feature(id: "FEAT-\(i)", title: "Feature \(i)", status: statuses[0], estimate: "M")))
    store.apply(.event(e))
    Reducer.reduce(into: &seed, e)
    ids.append("FEAT-\(i)")
  }
  let sprint = Sprint(
    id: "s1", name: "Sprint 1", startDate: base.utcDate, endDate: base.utcDate.adding(days: 11), featureIds: ids)
  store.apply(.event(Event(origin: "bench", time: base, body: .sprintCreated(sprint))))
  store.apply(
    .event(Event(origin: "bench", time: base, body: .sprintStarted(id: "s1", startedAt: base, patch: SprintPatch()))))
  var n = featureCount + 2
  for e in statusEvents where n < 109_999 {
    store.apply(.event(e))
    n += 1
  }
  writer.close()  // no last snapshot: as after a crash
}
let restoreFile = try! JournalFile(path: restorePath, mode: .read)
let restoreRows = try! restoreFile.inputRange().count
let restoreTail = restoreRows - (try! restoreFile.snapshots().last?.through ?? 0)
let restoreFrame = measure(
  "restore 110,000-input journal + first frame 1080p", count: 1
) {
  let file = try! JournalFile(path: restorePath, mode: .read)
  var store = BoardStore(settings: BoardSettings())
  _ = try! file.play(through: nil, settings: BoardSettings()) { i, at in store.apply(i, at: at, asOfRule: .none) }
  let at = store.clock!
  let frame = FrameModel(state: store.state, at: at, now: at, zone: .utc, unit: .auto, restoredFrom: at)
  var renderer = BoardRenderer(layout: wall, painter: Painter(text: textRenderer))
  var canvas = Canvas(width: 1920, height: 1080)
  sink &+= renderer.render(frame, style: style(height: 1080), into: &canvas).count
}
try? FileManager.default.removeItem(atPath: journalDir)

// 10. The binary as a whole process (`--wallboard PATH`): its floor, a snapshot from start to
// PNG, start with a large journal, and running boards at 1080p on each display kind.
let arguments = CommandLine.arguments
func argument(_ name: String) -> String? {
  arguments.firstIndex(of: name).flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
}
let report = Report()
let mib = 1024.0

let inProcess = "In process (best of 5 runs)"
for (r, goal) in [
  (reducer, 1_000_000.0), (jsonl, 200_000), (orchestra, 300_000), (projections, nil), (journalWrite, 200_000),
]
  as [(Result, Double?)]
{
  report.add(inProcess, r.name, r.perSecond, "/s", goal: goal, .atLeast)
}
let floorMs = floorFill.seconds / Double(floorFill.count) * 1000
for (r, goalMs) in [
  (render1080, 8.0), (render720, nil), (render4K, 30.0), (oneWidget, 2.0), (floorFill, nil), (frameModel, nil),
  (markdownBoard, 1000.0), (markdownScan, nil), (firstBoard, 300), (oneChange, 20), (flow14, nil), (flow90, nil),
  (flowFrame, nil), (restoreFrame, 300), (pngWhole, nil), (pngOneWidget, nil),
]
  as [(Result, Double?)]
{
  let ms = r.seconds / Double(r.count) * 1000
  var note: String?
  if r.name == oneWidget.name {
    note = "\(changedWidgets) rectangle(s) redrawn; \(Report.number(ms / floorMs))× the fill floor"
  }
  if r.name == render1080.name { note = "\(Report.number(ms / floorMs))× the fill floor" }
  if r.name == restoreFrame.name { note = "\(restoreRows) inputs, \(restoreTail) after the last snapshot" }
  if r.name == firstBoard.name {
    note = "\(workspaceFeatures) features, \(backfilledVersions) versions from their trails"
  }
  report.add(inProcess, r.name, ms, "ms", goal: goalMs, note: note)
}
WorkBench.figures(into: report)
report.add(
  inProcess, "peak resident memory of the bench itself", Double(peakRSSKiB()) / mib, "MiB",
  note: "pre-built inputs included")
for w in idleWatchers + idleSources {
  report.add("Following idle sources, in process", w.name, w.percent, "% core", goal: 0.3)
}

if let binary = argument("--wallboard") {
  signal(SIGPIPE, SIG_IGN)
  let p = WallboardProcess(binary: binary)
  let dir = NSTemporaryDirectory() + "wallboard-bench-process-\(getpid())"
  try! FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(atPath: dir) }
  let group = Footprint.processGroup
  let chromium = Footprint.process(into: report, p: p, dir: dir)
  if let prefix = argument("--guest") {
    let root = ProcessInfo.processInfo.environment["WALLBOARD_HOME"] ?? FileManager.default.currentDirectoryPath
    Guest.figures(into: report, prefix: prefix, root: root, chromium: chromium)
  }

  // Start with a journal of 100,000 inputs (300 features, then status changes), written by
  // `inspect` reading a file, as a board would have.
  var load = ""
  let states = ["todo", "in-progress", "in-review", "done"]
  let loadBase = try! Instant(rfc3339: "2026-11-02T00:00:00Z")
  for n in 1...100_000 {
    let t = loadBase.adding(seconds: Double(n)).rfc3339
    if n <= 300 {
      load +=
        #"{"topic":"feature.created","time":"\#(t)","seq":\#(n),"source":"load","payload":{"id":"F-\#(n)","title":"Feature \#(n)","status":"todo","points":\#(n % 8 + 1)}}"#
        + "\n"
    } else {
      load +=
        #"{"topic":"feature.updated","time":"\#(t)","seq":\#(n),"source":"load","payload":{"id":"F-\#(n % 300 + 1)","status":"\#(states[n % 4])"}}"#
        + "\n"
    }
  }
  try! load.write(toFile: dir + "/load.jsonl", atomically: false, encoding: .utf8)
  let journal = dir + "/journal.db"
  _ = p.best(
    ["inspect", "--source", "jsonl:" + dir + "/load.jsonl", "--journal", journal, "--tz", "UTC", "--wait", "120"],
    runs: 1)
  let inspectJournal = p.best(["inspect", "--journal", journal, "--tz", "UTC"])
  report.add(group, "inspect --journal (100,000 inputs), start to JSON", inspectJournal.wall * 1000, "ms")
  let snapshotJournal = p.best([
    "snapshot", "--journal", journal, "--tz", "UTC", "--size", "1920x1080", "--out", dir + "/journal.png",
  ])
  report.add(
    group, "snapshot --journal (100,000 inputs) 1920x1080, start to PNG", snapshotJournal.wall * 1000, "ms", goal: 300)

  Footprint.displays(into: report, p: p, dir: dir, root: root)

  // Issue 21, item 7: what an idle board costs must not grow with what it holds. Boards of 100
  // and 100,000 features (no sprint: the flow, which reads every feature's history, is drawn),
  // idle after their first frames, on a png: file.
  func features(_ count: Int) -> String {
    let path = dir + "/features-\(count).jsonl"
    var text = ""
    text.reserveCapacity(count * 190)
    for n in 0..<count {
      text +=
        #"{"topic":"feature.created","time":"2026-10-30T09:00:00Z","seq":\#(n + 1),"source":"size","payload":{"id":"F-\#(n)","title":"Feature \#(n)","status":"\#(states[n % 4])","points":\#(n % 8 + 1)}}"#
        + "\n"
    }
    try! text.write(toFile: path, atomically: false, encoding: .utf8)
    return path
  }
  let sized = "A running 1920x1080 board on a png: file, idle (20 s each), by its size"
  var sizedCPU: [Int: Double] = [:]
  for (count, name) in [(100, "100"), (100_000, "100,000")] {
    let png = dir + "/sized-\(count).png"
    let args = [
      "run", "--source", "jsonl:" + features(count), "--size", "1920x1080", "--tz", "UTC", "--no-journal",
      "--display", "png:" + png,
    ]
    // The 100,000 features take some seconds to read: the board is measured once idle.
    let r = p.running(args, settle: count > 1000 ? 15 : 3, seconds: 20, watching: png)
    sizedCPU[count] = r.cpu
    report.add(
      sized, "\(name) features: CPU", r.cpu, "% core", goal: count > 1000 ? 2 : 1,
      note: "resident \(Report.number(Double(r.rssKiB) / mib)) MiB")
  }
  report.add(
    sized, "100,000 features: CPU beyond the 100-feature board's", sizedCPU[100_000]! - sizedCPU[100]!, "points",
    goal: 1, note: "idle, nothing is projected again (ProjectionMemo)")

  // A busy team: 500 status changes a second on standard input, drawn to a png: file.
  let busyRun = p.running(
    [
      "run", "--source", "jsonl:-", "--size", "1920x1080", "--tz", "UTC", "--no-journal", "--display",
      "png:" + dir + "/busy.png",
    ],
    seconds: 10,
    feed: { fd, stopped in
      var n = 0
      var last = ContinuousClock.now
      while !stopped() {
        var chunk = ""
        for _ in 0..<50 {
          n += 1
          let id = n <= 50 ? "B-\(n)" : "B-\(n % 50 + 1)"
          let topic = n <= 50 ? "feature.created" : "feature.updated"
          chunk +=
            #"{"topic":"\#(topic)","seq":\#(n),"source":"busy","payload":{"id":"\#(id)","status":"\#(states[(n / 50) % 4])"}}"#
            + "\n"
        }
        let bytes = Array(chunk.utf8)
        if bytes.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) < 0 { return }
        last = last.advanced(by: .milliseconds(100))
        let wait = last - ContinuousClock.now
        if wait > .zero {
          Thread.sleep(forTimeInterval: Double(wait.components.attoseconds) / 1e18 + Double(wait.components.seconds))
        }
      }
    }, watching: dir + "/busy.png")
  let busy = "A running 1920x1080 board, 500 events a second on standard input (10 s)"
  report.add(busy, "png: file: CPU", busyRun.cpu, "% core")
  report.add(busy, "png: file: files written", busyRun.writesPerSecond ?? 0, "/s", goal: 1)
  report.add(busy, "png: file: resident memory", Double(busyRun.rssKiB) / mib, "MiB", goal: 32)

  QUICBench.figures(into: report, p: p, dir: dir, root: root)
  NATSBench.figures(into: report, p: p, dir: dir, root: root)
}

report.show(title: "Wallboard benchmarks (release)", json: argument("--json"))
if sink == 42 { print("") }
