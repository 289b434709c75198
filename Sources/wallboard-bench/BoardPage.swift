import Foundation
import Projections
import WallboardCore
import Widgets

/// The board a 1080p snapshot draws, written as one self-contained web page for a browser to
/// show: the stand-in for "a browser dashboard of this board" that Chromium's memory is measured
/// on (issue 25). Made from the same `FrameModel` the snapshot draws, so it holds the same
/// words, numbers and chart points: the header (title, goal, dates and days left, clock and day),
/// the burndown as inline SVG (the remaining work as the same steps, the ideal line, non-working
/// days, scope changes, today), the workflow tallies with their bars, progress, the connections
/// and the recent changes; CSS for the layout, a small script that sets the clock as a
/// dashboard's would. Nothing is fetched: the fonts are the system's DejaVu Sans (the board's own).
enum BoardPage {
  /// The colours of the states' swatches and bars, in order (the orchestra theme's, roughly).
  static let stateColours = [
    "#2f3441", "#3b82f6", "#a20bf0", "#5b4a1a", "#f97316", "#0f4a55", "#14b8a6", "#14532d", "#2e3170",
    "#22c55e", "#5a1d24", "#ef4444", "#2f3441",
  ]

  static func html(_ frame: FrameModel) -> String {
    let h = frame.header
    var page = """
      <!DOCTYPE html>
      <html lang="en"><head><meta charset="utf-8"><title>\(escape(h.title))</title>
      <style>
      html, body { margin: 0; width: 1920px; height: 1080px; overflow: hidden; }
      body { background: #0a0d14; color: #e6e9ef; font-family: "DejaVu Sans", sans-serif; font-size: 22px; }
      .board { display: grid; box-sizing: border-box; height: 1080px; padding: 24px;
        grid-template-columns: 456px 770px 1fr; grid-template-rows: 132px 640px 1fr; gap: 18px; }
      header { grid-column: 1 / 4; display: flex; justify-content: space-between; }
      header h1 { margin: 8px 0 10px; font-size: 42px; }
      header p { margin: 2px 0; font-size: 20px; }
      .clock { text-align: right; } .clock time { display: block; font-size: 64px; font-weight: bold; }
      section { background: #0c1018; border: 2px solid #1f2430; border-radius: 6px; padding: 14px 16px;
        overflow: hidden; }
      section h2 { margin: 0 0 8px; font-size: 22px; }
      .burndown { grid-column: 1 / 3; } .burndown svg { display: block; }
      .legend { float: right; font-size: 19px; font-weight: normal; }
      .tallies ol { list-style: none; margin: 0; padding: 0; }
      .tallies li { display: grid; grid-template-columns: 22px 230px 1fr 150px; align-items: center; height: 44px; }
      .swatch { width: 14px; height: 14px; border-radius: 3px; }
      .bar { height: 18px; border-radius: 9px; background: #141923; } .bar div { height: 18px; border-radius: 9px; }
      .n { text-align: right; font-weight: bold; } .zero { color: #8a93a6; font-weight: normal; }
      .progress { text-align: center; } .progress .big { font-size: 72px; font-weight: bold; margin: 28px 0 20px; }
      .row { display: flex; justify-content: space-between; margin: 6px 0; }
      .dot { display: inline-block; width: 12px; height: 12px; border-radius: 6px; margin-right: 8px; }
      .detail { color: #b6bdcc; font-size: 18px; margin-left: 28px; }
      </style></head>
      <body><div class="board">
      <header><div><h1>\(escape(h.title))</h1>

      """
    for line in [h.goal ?? "", [h.dates, h.daysLeft].filter { !$0.isEmpty }.joined(separator: "  ·  "), h.scope]
    where !line.isEmpty {
      page += "<p>\(escape(line))</p>\n"
    }
    page += """
      </div><div class="clock"><time id="clock">\(escape(h.clock))</time><p>\(escape(h.day))</p></div></header>
      <section class="burndown"><h2>Burndown · points<span class="legend">— Remaining  - - Ideal  — Scope change</span></h2>
      \(frame.burndown.map { chart($0, at: frame.at) } ?? "<p>No sprint</p>")
      </section>

      """
    page += tallies(frame.tallies)
    let p = frame.progress
    page += """
      <section class="progress"><h2 style="text-align:left">Progress</h2>
      <div class="big">\(escape(ProgressText.donePercent(p)))</div><div>\(escape(ProgressText.summary(p)))</div></section>
      <section><h2>Connections</h2>

      """
    for s in frame.sources {
      page += """
        <div class="row"><span><span class="dot" style="background:#22c55e"></span><b>\(escape(s.name))</b></span>\
        <span>\(escape(s.status.rawValue)) · \(escape(s.age))</span></div>

        """
      if let d = s.detail { page += "<div class=\"detail\">\(escape(d))</div>\n" }
    }
    page += "</section>\n<section><h2>Recent changes</h2>\n"
    for r in frame.recent {
      let name = r.title.isEmpty ? r.featureId : r.title
      page += """
        <div class="row"><span><span class="dot" style="background:#c084fc"></span>\(escape(name)) → \(escape(r.to))</span>\
        <span>\(escape(r.age))</span></div>

        """
    }
    page += """
      </section>
      </div>
      <script>
      // A dashboard keeps its clock: the time the board was drawn for, set as the page loads.
      const at = new Date(\(frame.at.millis));
      document.getElementById("clock").textContent =
        String(at.getUTCHours()).padStart(2, "0") + ":" + String(at.getUTCMinutes()).padStart(2, "0");
      </script>
      </body></html>

      """
    return page
  }

  /// The tallies: a swatch, the state's name, a bar as long as its share of the largest count,
  /// and "count · points".
  static func tallies(_ tallies: [Tally]) -> String {
    let total = tallies.reduce(0) { $0 + $1.count }
    let most = max(1, tallies.map(\.count).max() ?? 1)
    var out = "<section class=\"tallies\"><h2>Workflow · \(total) features</h2><ol>\n"
    for (i, t) in tallies.enumerated() {
      let colour = stateColours[i % stateColours.count]
      let width = t.count == 0 ? 0 : max(14, Int(Double(t.count) / Double(most) * 100))
      out += """
        <li><span class="swatch" style="background:\(colour)"></span><span>\(escape(t.label))</span>\
        <span class="bar"><div style="width:\(width)%;background:\(colour)"></div></span>\
        <span class="n\(t.count == 0 ? " zero" : "")">\(t.count) · \(Numbers.short(t.points)) pt</span></li>

        """
    }
    return out + "</ol></section>\n"
  }

  /// The burndown as inline SVG, 1200×540: gridlines and their values, the non-working days, the
  /// ideal line, the remaining work as steps at the moments it changed (the points the widget
  /// draws), the scope changes' marks and today's line.
  static func chart(_ b: Burndown, at now: Instant) -> String {
    let (left, top, width, height) = (40.0, 10.0, 1150.0, 500.0)
    let span = Double(max(1, b.days.count)) * 86_400
    let start = b.startMoment
    let top0 = max(
      b.committed, b.ideal.max() ?? 0, b.steps.map(\.remaining).max() ?? 0, b.startScope - b.startCompleted)
    let ceiling = max(10, (top0 / 10).rounded(.up) * 10)
    func x(_ t: Instant) -> Double { left + min(1, max(0, Double(t.millis - start.millis) / 1000 / span)) * width }
    func y(_ v: Double) -> Double { top + (1 - v / ceiling) * height }
    func f(_ v: Double) -> String { String(format: "%.1f", v) }
    var svg = "<svg width=\"1200\" height=\"540\" viewBox=\"0 0 1200 540\" font-size=\"18\" fill=\"#e6e9ef\">\n"
    for (i, working) in b.working.enumerated() where !working {
      let x0 = left + Double(i) / Double(b.days.count) * width
      svg += "<rect x=\"\(f(x0))\" y=\"\(f(top))\" width=\"\(f(width / Double(b.days.count)))\" "
      svg += "height=\"\(f(height))\" fill=\"#151922\"/>\n"
    }
    for v in stride(from: 0.0, through: ceiling, by: 10) {
      svg +=
        "<line x1=\"\(f(left))\" x2=\"\(f(left + width))\" y1=\"\(f(y(v)))\" y2=\"\(f(y(v)))\" stroke=\"#1a1f2a\"/>"
      svg += "<text x=\"\(f(left - 8))\" y=\"\(f(y(v) + 6))\" text-anchor=\"end\">\(Int(v))</text>\n"
    }
    for (i, day) in b.days.enumerated() {
      let label = i == 0 || day.day == 1 ? "\(day.day) \(months[day.month - 1])" : "\(day.day)"
      svg += "<text x=\"\(f(left + Double(i) / Double(b.days.count) * width + 4))\" y=\"\(f(top + height + 24))\">"
      svg += "\(label)</text>\n"
    }
    // From the committed total at the start of the first day, then each day's end.
    let dayW = width / Double(max(1, b.days.count))
    let ideal =
      ["\(f(left)),\(f(y(b.committed)))"]
      + b.ideal.enumerated().map { i, v in "\(f(left + Double(i + 1) * dayW)),\(f(y(v)))" }
    svg += "<polyline points=\"\(ideal.joined(separator: " "))\" fill=\"none\" stroke=\"#8290a8\" "
    svg += "stroke-width=\"2\" stroke-dasharray=\"8 6\"/>\n"
    var remaining = b.startScope - b.startCompleted
    var points = ["\(f(x(b.stepsFrom))),\(f(y(remaining)))"]
    for s in b.steps {
      points.append("\(f(x(s.at))),\(f(y(remaining)))")
      remaining = s.remaining
      points.append("\(f(x(s.at))),\(f(y(remaining)))")
    }
    // To today while the sprint runs, else to its end.
    let end = b.todayIndex == nil ? start.adding(seconds: span) : now
    points.append("\(f(x(end))),\(f(y(remaining)))")
    svg +=
      "<polyline points=\"\(points.joined(separator: " "))\" fill=\"none\" stroke=\"#a20bf0\" stroke-width=\"4\"/>\n"
    for s in b.steps where s.kind != .burn && s.scopeDelta != 0 {
      let sign = s.scopeDelta > 0 ? "+" : "−"
      svg += "<circle cx=\"\(f(x(s.at)))\" cy=\"\(f(y(s.remaining)))\" r=\"6\" fill=\"#f59e0b\"/>"
      svg += "<text x=\"\(f(x(s.at)))\" y=\"\(f(y(s.remaining) - 14))\" text-anchor=\"middle\" font-weight=\"bold\">"
      svg += "\(sign)\(Numbers.short(abs(s.scopeDelta)))</text>\n"
    }
    if b.todayIndex != nil {
      let today = x(now)
      svg +=
        "<line x1=\"\(f(today))\" x2=\"\(f(today))\" y1=\"\(f(top))\" y2=\"\(f(top + height))\" stroke=\"#9aa3b5\"/>\n"
    }
    return svg + "</svg>"
  }

  static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

  static func escape(_ s: String) -> String {
    var out = ""
    for c in s {
      switch c {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      default: out.append(c)
      }
    }
    return out
  }
}
