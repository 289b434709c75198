public import Layout
internal import Raster

/// Whether a layout's widgets can show their text on a screen of a given size: each page drawn
/// once, off screen, with the painter recording, and every piece of text looked at.
///
/// A widget fails when a number does not fit its box even at the smallest legible size
/// (`Painter.Floors`), or when a third or more of its pieces of text are left with nothing
/// legible (every word shortened away). Shortened labels ("Recent c…") are not failures: they
/// still read.
public enum LayoutFit {
  /// One piece of text a layout cannot show.
  public struct Problem: Hashable, Sendable, CustomStringConvertible {
    public enum Reason: Hashable, Sendable {
      /// Its numbers are wider than their box at the smallest legible size.
      case overflows
      /// Nothing of it fits.
      case nothingFits
    }
    public var page: String
    public var kind: String
    /// The layout file's line declaring the widget.
    public var line: Int
    /// The text asked for.
    public var text: String
    public var reason: Reason

    public var description: String {
      switch reason {
      case .overflows: "\(kind) (line \(line)): \"\(text)\" does not fit at a legible size"
      case .nothingFits: "\(kind) (line \(line)): no room for \"\(text)\""
      }
    }
  }

  /// What `layout` cannot show on a `width`×`height` frame drawing `frame` in `style`; empty
  /// when every widget shows its text.
  public static func problems(
    _ layout: LayoutFile, frame: FrameModel, width: Int, height: Int, style: Style, painter: Painter,
    scale: Double = 1
  ) -> [Problem] {
    var painter = painter
    painter.recording = true
    painter.floors = Painter.Floors(info: style.minimumInfoSize, key: style.minimumKeySize)
    var canvas = Canvas(width: Swift.max(1, width), height: Swift.max(1, height), background: style.theme.bg)
    var problems: [Problem] = []
    for (index, page) in layout.pages.enumerated() {
      let frames = layout.frames(page: index, width: width, height: height, scale: scale)
      for (placement, rect) in frames {
        let widget = WidgetRegistry.make(placement)
        painter.records = []
        canvas.withClip(rect.enclosing.intersection(canvas.bounds)) { c in
          widget.draw(widget.model(frame), in: rect, style: style, painter: &painter, canvas: &c)
        }
        let lost = painter.records.filter { $0.text.isEmpty && $0.requested.contains { !$0.text.isEmpty } }
        // One name that does not fit beside its status is shortened away, and the widget still
        // reads; a third of its text gone, it does not.
        let tooMuchLost = !lost.isEmpty && lost.count * 3 >= painter.records.count
        for r in painter.records where r.overflows || (tooMuchLost && lost.contains(r)) {
          problems.append(
            Problem(
              page: page.name, kind: placement.kind, line: placement.line, text: r.requested.map(\.text).joined(),
              reason: r.overflows ? .overflows : .nothingFits))
        }
      }
    }
    return problems
  }
}

/// A layout refused for a screen: its widgets cannot show their text there (`LayoutFit`).
public struct LayoutFitError: Error, Hashable, Sendable, CustomStringConvertible {
  public var layout: String
  public var width: Int
  public var height: Int
  public var problems: [LayoutFit.Problem]
  /// A bundled layout that fits the screen, if one does.
  public var suggestion: String?

  public init(layout: String, width: Int, height: Int, problems: [LayoutFit.Problem], suggestion: String?) {
    self.layout = layout
    self.width = width
    self.height = height
    self.problems = problems
    self.suggestion = suggestion
  }

  /// "layout wall cannot show its text on a 1080x1920 screen: progress (line 12): … (and 3
  /// more); try --layout portrait".
  public var description: String {
    let shown = problems.prefix(2).map(\.description).joined(separator: "; ")
    let more = problems.count > 2 ? " (and \(problems.count - 2) more)" : ""
    let hint = suggestion.map { "; try --layout \($0), which fits" } ?? "; no bundled layout fits this screen"
    return "layout \(layout) cannot show its text on a \(width)x\(height) screen: \(shown)\(more)\(hint)"
  }
}
