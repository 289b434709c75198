internal import Foundation
internal import Raster
internal import WallboardCore
internal import Widgets

/// The diagnostics panel: frame time, frames per second, memory, events per second, uptime —
/// and the last reload error, which shows whether or not the panel is on.
struct Diagnostics {
  var enabled: Bool
  var frameTime: Double = 0
  var reloadMessage: String?
  private let started = Date()
  private var framesThisSecond = 0
  private var eventsThisSecond = 0
  private var secondStarted = Date()
  private(set) var fps = 0
  private(set) var eventsPerSecond = 0

  init(enabled: Bool) { self.enabled = enabled }

  mutating func count(_ inputs: [BoardInput]) {
    for i in inputs { if case .event = i { eventsThisSecond += 1 } }
    roll()
  }

  mutating func framePresented() {
    framesThisSecond += 1
    roll()
  }

  private mutating func roll() {
    if Date().timeIntervalSince(secondStarted) >= 1 {
      fps = framesThisSecond
      eventsPerSecond = eventsThisSecond
      framesThisSecond = 0
      eventsThisSecond = 0
      secondStarted = Date()
    }
  }

  /// Resident memory in MiB, from /proc.
  static func residentMiB() -> Double {
    guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
    for line in text.split(separator: "\n") where line.hasPrefix("VmRSS:") {
      return Double(line.split(separator: " ").dropFirst().first ?? "0").map { $0 / 1024 } ?? 0
    }
    return 0
  }

  var lines: [String] {
    var out: [String] = []
    if enabled {
      let up = Int(Date().timeIntervalSince(started))
      out += [
        String(format: "frame %.1f ms · %d frames/s", frameTime * 1000, fps),
        String(format: "memory %.0f MiB", Self.residentMiB()),
        "events \(eventsPerSecond)/s",
        "uptime \(up / 3600) h \(up / 60 % 60) min \(up % 60) s",
      ]
    }
    if let m = reloadMessage { out.append(m) }
    return out
  }

  /// Draws the panel in the top-right corner; returns its rectangle.
  func draw(on canvas: inout Canvas, scene: inout Scene, state: BoardState, now: Instant) -> IRect {
    let style = scene.style(height: canvas.height)
    let size = style.size(.small)
    let lineH = size * 1.5
    let text = lines
    let width =
      min(Double(canvas.width) * 0.6, text.map { scene.renderer.painter.width($0, size: size) }.max() ?? 0)
      + style.u(32)
    let rect = Rect(
      x: Double(canvas.width) - width - style.u(12), y: style.u(12), width: width,
      height: Double(text.count) * lineH + style.u(20))
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
