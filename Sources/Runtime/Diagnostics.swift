public import Clock
internal import Journal
internal import Posix
internal import Projections
internal import Raster
internal import WallboardCore
internal import Widgets

/// The diagnostics panel: frame time, frames per second, memory, events per second, uptime, why
/// each offline source is (in full), what each source rejected (how much and the last, in
/// full) — and the last reload error, which shows whether or not the panel is on.
public struct Diagnostics {
  public var enabled: Bool
  var frameTime: Double = 0
  var reloadMessage: String?
  /// The journal's state, when the board keeps one.
  var journal: JournalStatus?
  /// The sources as the board stands (`SourceStatus.compute`), for what they rejected.
  var sources: [SourceStatus] = []
  private let clock: Clock
  private let started: Monotonic
  private var framesThisSecond = 0
  private var eventsThisSecond = 0
  private var secondStarted: Monotonic
  private(set) var fps = 0
  private(set) var eventsPerSecond = 0

  public init(enabled: Bool, clock: Clock) {
    self.enabled = enabled
    self.clock = clock
    started = clock.monotonic()
    secondStarted = started
  }

  mutating func count(_ inputs: [BoardInput]) {
    for i in inputs { if case .event = i { eventsThisSecond += 1 } }
    roll()
  }

  /// When the panel next reads differently by itself: its uptime's next second (the rates and
  /// the memory with it); nil while it is off (the reload and journal lines change only with
  /// what they say).
  func nextChange(after t: Monotonic) -> Monotonic? {
    guard enabled else { return nil }
    return started.adding(seconds: t.seconds(since: started).rounded(.down) + 1)
  }

  mutating func framePresented() {
    framesThisSecond += 1
    roll()
  }

  private mutating func roll() {
    if clock.monotonic().seconds(since: secondStarted) >= 1 {
      fps = framesThisSecond
      eventsPerSecond = eventsThisSecond
      framesThisSecond = 0
      eventsThisSecond = 0
      secondStarted = clock.monotonic()
    }
  }

  /// Resident memory in MiB, from /proc.
  static func residentMiB() -> Double {
    guard case .success(let bytes) = RegularFile.read("/proc/self/status", limit: 64 * 1024) else { return 0 }
    let text = String(decoding: bytes, as: UTF8.self)
    for line in text.split(separator: "\n") where line.hasPrefix("VmRSS:") {
      return Double(line.split(separator: " ").dropFirst().first ?? "0").map { $0 / 1024 } ?? 0
    }
    return 0
  }

  var lines: [String] {
    var out: [String] = []
    if enabled {
      let up = Int(clock.monotonic().seconds(since: started))
      out += [
        "frame \(String(fixed: frameTime * 1000, digits: 1)) ms · \(fps) frames/s",
        "memory \(String(fixed: Self.residentMiB(), digits: 0)) MiB",
        "events \(eventsPerSecond)/s",
        "uptime \(up / 3600) h \(up / 60 % 60) min \(up % 60) s",
      ]
      if let j = journal {
        var line = "journal \(j.written) kept · \(String(fixed: Double(j.bytes) / 1_048_576, digits: 1)) MB"
        if j.dropped > 0 { line += " · \(j.dropped) not kept" }
        if j.overBound { line += " · over its size bound" }
        out.append(line)
      }
      out += Self.offline(sources)
      out += Self.rejections(sources)
    }
    if let m = reloadMessage { out.append(m) }
    // A journal that cannot write is said whether or not the panel is on.
    if let e = journal?.lastError { out.append("journal: " + e) }
    return out
  }

  /// "orchestra-md:/ws: 1 rejected · last: /ws/.projects/go/features/FEAT-X.md:14: …": each
  /// source that rejected input (lines it could not decode, files or rows it could not read),
  /// with the whole reason the source's line on the board shortens.
  static func rejections(_ sources: [SourceStatus]) -> [String] {
    sources.filter { $0.rejected > 0 }.map { s in
      "\(s.name): \(s.rejected) rejected" + (s.lastError.map { " · last: \($0)" } ?? "")
    }
  }

  /// "orchestra:/srv/ws: offline · /srv/ws: no such folder": each source that is offline, with
  /// the whole reason (a path that is not there, a server that does not answer) the source's
  /// line on the board shortens.
  static func offline(_ sources: [SourceStatus]) -> [String] {
    sources.filter { $0.status == .offline }.map { s in "\(s.name): offline" + (s.detail.map { " · \($0)" } ?? "") }
  }

  /// Whether the panel shows: when it is on, or when there is a reload error to say.
  var visible: Bool { enabled || reloadMessage != nil || journal?.lastError != nil }

  /// Where the panel for `text` goes on a `width`×`height` board: the top-right corner, or else
  /// the first place clear of the header's clock and the banner (`Scene.keepClear`) going down
  /// the right edge, then down the left edge; nil when no place is clear.
  func panel(for text: [String], width: Int, height: Int, scene: Scene, bannerShown: Bool) -> Rect? {
    let style = scene.style(height: height)
    let size = style.size(.small)
    let widest = text.map { scene.renderer.painter.width($0, size: size) }.max() ?? 0
    // In whole steps, so that the panel keeps its width while the numbers in it change.
    let step = style.u(48)
    let content = min(Double(width) * 0.6, (widest / step).rounded(.up) * step)
    return Diagnostics.place(
      width: content + style.u(32), height: Double(text.count) * size * 1.5 + style.u(20),
      in: Rect(x: 0, y: 0, width: Double(width), height: Double(height)),
      avoiding: scene.keepClear(width: width, height: height, bannerShown: bannerShown), margin: style.u(12))
  }

  /// The first `width`×`height` rectangle `margin` inside `bounds` and clear of every rectangle of
  /// `avoiding` by half a margin at least: at the top, then `margin` below each of them, along the
  /// right edge, then along the left edge.
  static func place(width: Double, height: Double, in bounds: Rect, avoiding: [Rect], margin: Double) -> Rect? {
    let tops = ([bounds.minY + margin] + avoiding.map { $0.maxY + margin }).sorted()
    for x in [bounds.maxX - margin - width, bounds.minX + margin] {
      for y in tops {
        let r = Rect(x: x, y: y, width: width, height: height)
        guard r.minX >= bounds.minX + margin, r.maxY <= bounds.maxY - margin else { continue }
        let clear = r.inset(-margin / 2)
        if !avoiding.contains(where: { overlap(clear, $0) }) { return r }
      }
    }
    return nil
  }

  static func overlap(_ a: Rect, _ b: Rect) -> Bool {
    a.minX < b.maxX && b.minX < a.maxX && a.minY < b.maxY && b.minY < a.maxY
  }

  /// Places and draws the panel; returns its rectangle (empty when no place is clear of the
  /// clock and the banner, and the panel is not drawn).
  func draw(on canvas: inout Canvas, scene: inout Scene, bannerShown: Bool) -> IRect {
    let text = lines
    guard
      let rect = panel(for: text, width: canvas.width, height: canvas.height, scene: scene, bannerShown: bannerShown)
    else { return IRect(x: 0, y: 0, width: 0, height: 0) }
    return draw(text, in: rect, on: &canvas, scene: &scene)
  }

  /// Draws `text` in the panel `rect` (from `panel(for:…)`); returns the pixels it covers.
  func draw(_ text: [String], in rect: Rect, on canvas: inout Canvas, scene: inout Scene) -> IRect {
    let style = scene.style(height: canvas.height)
    let size = style.size(.small)
    let lineH = size * 1.5
    let bg = style.theme.bgContrast
    canvas.fill(rect.enclosing, bg)
    canvas.strokeRoundedRect(rect, radius: style.radius / 2, width: max(1, style.u(2)), style.theme.border)
    for (i, line) in text.enumerated() {
      let box = Rect(
        x: rect.minX + style.u(16), y: rect.minY + style.u(10) + Double(i) * lineH, width: rect.width - style.u(32),
        height: lineH)
      scene.renderer.painter.draw(
        line, in: box, size: size, color: style.text(on: bg), background: bg, tabular: true, canvas: &canvas)
    }
    return rect.enclosing.intersection(canvas.bounds)
  }
}
