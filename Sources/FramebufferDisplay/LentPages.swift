public import Raster

/// Which frame each page (buffer) of a kernel display holds when frames are drawn in place, and
/// what a page must be given before it is lent for the next frame: the framebuffer's two pages
/// and the DRM display's two dumb buffers share it.
///
/// Shown in turn, a page lent for frame N last held frame N − 2: it is brought up to date by
/// copying from the page on screen what changed in frame N − 1, after which the renderer draws
/// only what changed in frame N, as on a canvas of its own. A page that holds no frame of the
/// same look (the first frame, a changed size, offset or fill, a frame that was not drawn in
/// place, a whole frame shown from another page) gets the whole screen copied, or, when no page
/// holds one, nothing: the frame is then drawn whole.
public struct LentPages: Sendable {
  /// What a frame drawn in place looks like on the screen: its canvas's size, where it is, and
  /// the colour of the edge a move uncovers.
  public struct Look: Equatable, Sendable {
    public var width: Int, height: Int, dx: Int, dy: Int
    public var fill: RGBA
    public init(width: Int, height: Int, dx: Int, dy: Int, fill: RGBA) {
      (self.width, self.height, self.dx, self.dy, self.fill) = (width, height, dx, dy, fill)
    }
  }

  /// What a page needs before it is lent.
  public enum Preparation: Equatable, Sendable {
    /// It holds the last frame: nothing.
    case current
    /// These screen rectangles copied from `page` (the last frame's changes, or the whole screen).
    case copy([IRect], from: Int)
    /// Nothing holds the last frame: the page is cleared to the look's fill and drawn whole.
    case whole
  }

  private var holds: [Int?]
  private var look: Look?
  /// The last frame shown from a lent page: its number, its page and the screen rectangles it
  /// changed (nil: all of them).
  private var last: (frame: Int, page: Int, dirty: [IRect]?)?

  public init(pages: Int) { holds = [Int?](repeating: nil, count: pages) }

  /// What `page` needs to hold the last frame shown in place under `look`, on a screen of
  /// `screen` (for a whole-screen copy). Afterwards the page is taken to hold that frame.
  public mutating func lend(page: Int, look: Look, screen: IRect) -> Preparation {
    if look != self.look {
      self.look = look
      forget()
    }
    guard let last else { return .whole }
    defer { holds[page] = last.frame }
    if holds[page] == last.frame { return .current }
    // What the last frame changed, unless it covers the screen: then the screen, once.
    if holds[page] == last.frame - 1, let dirty = last.dirty,
      !dirty.contains(where: { $0.intersection(screen) == screen })
    {
      return .copy(dirty, from: last.page)
    }
    return .copy([screen], from: last.page)
  }

  /// `page`, lent for the frame, is shown; `dirty` are the screen rectangles the frame changed
  /// (nil: all of it, and then no other page holds anything to build on).
  public mutating func shown(page: Int, dirty: [IRect]?) {
    let frame = (last?.frame ?? 0) + 1
    if dirty == nil { holds = holds.map { _ in nil } }
    holds[page] = frame
    last = (frame, page, dirty)
  }

  /// Forgets what every page holds: a frame not drawn in place was shown, or the pages' contents
  /// are not known any more.
  public mutating func forget() {
    holds = holds.map { _ in nil }
    last = nil
  }
}

extension LentPages {
  /// Copies `rects` (clipped to `screen`) from one page of 32-bit pixels to another, rows
  /// `lineLength` bytes apart. Returns the bytes copied.
  public static func copy(
    _ rects: [IRect], from source: UnsafeRawPointer, to target: UnsafeMutableRawPointer, lineLength: Int,
    screen: IRect
  ) -> Int {
    var bytes = 0
    for rect in rects {
      let r = rect.intersection(screen)
      guard !r.isEmpty else { continue }
      for y in r.y..<r.maxY {
        let at = y * lineLength + r.x * 4
        (target + at).copyMemory(from: source + at, byteCount: r.width * 4)
      }
      bytes += r.width * r.height * 4
    }
    return bytes
  }

  /// Fills `screen` on a page of 32-bit pixels, rows `lineLength` bytes apart, with `pixel`.
  /// Returns the bytes written.
  public static func fill(_ page: UnsafeMutableRawPointer, lineLength: Int, screen: IRect, with pixel: UInt32) -> Int {
    for y in 0..<screen.height {
      (page + y * lineLength).bindMemory(to: UInt32.self, capacity: screen.width).update(
        repeating: pixel, count: screen.width)
    }
    return screen.width * screen.height * 4
  }

  /// `dirty` (nil: all) of a canvas moved by `offset`, clipped to `screen`: the screen
  /// rectangles a frame drawn in place changed.
  public static func onScreen(_ dirty: [IRect]?, offset: (dx: Int, dy: Int), screen: IRect) -> [IRect]? {
    dirty.map { rects in
      rects.map { IRect(x: $0.x + offset.dx, y: $0.y + offset.dy, width: $0.width, height: $0.height) }
        .map { $0.intersection(screen) }.filter { !$0.isEmpty }
    }
  }
}
