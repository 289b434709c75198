public import Raster

extension Framebuffer {
  /// Whether frames can be drawn straight into the device's pages: its pixels are the canvas's
  /// (XRGB8888 or ARGB8888, 32 bits) and its rows and pages start on whole pixels. Other
  /// formats (RGB565, BGR888…) are converted from a canvas of the caller's by `present`.
  public var lendsPages: Bool {
    format.path == .xrgb8888 && lineLength % 4 == 0 && baseOffset % 4 == 0
  }

  /// Whether there is a hidden page to lend: double-buffered (panned to), not a file.
  var hasHiddenPage: Bool { isDoubleBuffered && varInfo != nil }

  /// The first byte of `page`.
  func pageAddress(_ page: Int) -> UnsafeMutableRawPointer { memory + baseOffset + page * height * lineLength }

  /// The visible screen, in pixels.
  var screenRect: IRect { IRect(x: 0, y: 0, width: width, height: height) }

  /// A canvas over the hidden page the next frame goes into, `width` ×
  /// `height` with its top-left corner at `offset` on the screen; nil when the device's format
  /// is not the canvas's (`lendsPages`) or it has no hidden page.
  ///
  /// A single-buffered device (most fbdev drivers, a DRM driver's fbdev emulation) lends
  /// nothing: its one page is on screen, where a widget redrawn in place would show for the
  /// moment it takes (its background filled, then its text), and where a driver that tracks
  /// written pages (deferred I/O: virtio-gpu's, udl's) takes a fault for each page a drawing
  /// touches again after each flush — in the emulated aarch64 guest at 1920x1080 that took the
  /// first frame from 0.85–1.3 s to 2–3.4 s and an idle board from 0.2 % to 2.5 %. The board
  /// is then drawn on a canvas of its own and its finished rectangles copied (`present`).
  ///
  /// The page is first brought up to date with the last frame drawn in place (`LentPages`): a
  /// hidden page, which last held the frame before that, gets what that frame changed copied
  /// from the page on screen. `holdsLastFrame` is false when there was no such frame under the
  /// same size, offset and fill: the page is then cleared to `fill` and the frame must be
  /// drawn whole. Show the frame with `present(_:dirty:offset:fill:)` of this canvas.
  public func drawingBuffer(
    width w: Int, height h: Int, offset: (dx: Int, dy: Int), fill: RGBA
  ) -> (canvas: Canvas, holdsLastFrame: Bool)? {
    guard lendsPages, hasHiddenPage else { return nil }
    let page = 1 - visiblePage
    let look = LentPages.Look(width: w, height: h, dx: offset.dx, dy: offset.dy, fill: fill)
    let preparation = lent.lend(page: page, look: look, screen: screenRect)
    switch preparation {
    case .current: break
    case .copy(let rects, let from):
      copiedBytes += LentPages.copy(
        rects, from: pageAddress(from), to: pageAddress(page), lineLength: lineLength, screen: screenRect)
    case .whole:
      copiedBytes += LentPages.fill(
        pageAddress(page), lineLength: lineLength, screen: screenRect, with: Canvas.pack(fill))
    }
    lentPage = page
    let canvas = Canvas(
      lentBy: self, memory: pageAddress(page), stride: lineLength / 4, screen: (width, height), width: w, height: h,
      offset: offset)
    return (canvas, preparation != .whole)
  }

  /// Shows the hidden `page`, into which a frame was drawn in place that changed `dirty` (screen
  /// rectangles; nil: all of it), by a pan to it. Should the pan fail, the page is copied whole
  /// onto the one on screen, single-buffered from then on (nothing is lent again).
  func show(lentPage page: Int, dirty: [IRect]?) {
    // The pages no longer hold what the copying path last wrote into them.
    for p in 0..<2 { pages.lose(page: p) }
    if pan(to: page) {
      lent.shown(page: page, dirty: dirty)
    } else {
      copiedBytes += LentPages.copy(
        [screenRect], from: pageAddress(page), to: pageAddress(visiblePage), lineLength: lineLength, screen: screenRect)
      lent.shown(page: visiblePage, dirty: nil)
    }
  }
}
