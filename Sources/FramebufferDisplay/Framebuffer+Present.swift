internal import Glibc
public import Raster

extension Framebuffer {
  /// Shows `canvas`, of which only the rows touched by `dirty` (nil: all of it) changed since the
  /// previous frame.
  ///
  /// A canvas `drawingBuffer` lent (drawn into the page itself) is shown as it is: a pan to it,
  /// or nothing more when it is the page on screen. Any other is converted into a page, as
  /// follows.
  ///
  /// The overlap of the canvas and the screen is copied (from the top-left corner); the rest of
  /// either is left alone. The first frame, and the first after the canvas changes size or
  /// `offset` or `fill`, is copied whole whatever `dirty` says.
  ///
  /// `offset` moves the canvas on the screen (burn-in protection) as `Canvas.shifted(dx:dy:fill:)`
  /// would, without a moved copy of it: each screen row is converted from the canvas row it shows,
  /// and the edge the move uncovers gets `fill`.
  ///
  /// Double-buffered, the frame goes into the hidden page, which last held the frame before the
  /// previous one: it gets the rows changed in either of the last two frames. Then, after
  /// `FBIO_WAITFORVSYNC` (skipped for good once it fails with `ENOTTY` or `EINVAL`), an
  /// `FBIOPAN_DISPLAY` shows it. Should the pan fail, the display falls back to single
  /// buffering for good and copies the frame into the visible page instead.
  public func present(
    _ canvas: Canvas, dirty: [IRect]?, offset: (dx: Int, dy: Int) = (0, 0), fill: RGBA = RGBA(r: 0, g: 0, b: 0)
  ) {
    if let page = lentPage, canvas.isLent(pageAddress(page)) {
      lentPage = nil
      show(lentPage: page, dirty: LentPages.onScreen(dirty, offset: offset, screen: screenRect))
      return
    }
    lentPage = nil
    lent.forget()
    let w = min(canvas.width, width)
    let h = min(canvas.height, height)
    let overlap = IRect(x: 0, y: 0, width: w, height: h)
    let rows = pages.changed(dirty, canvas: canvas, height: h, overlap: overlap, offset: offset, fill: fill)
    defer { pages.finish(rows) }
    let edge = [UInt32](repeating: Canvas.pack(fill), count: w)
    if isDoubleBuffered, varInfo != nil {
      let back = 1 - visiblePage
      write(
        canvas, rows: pages.toWrite(page: back, changed: rows, alternating: true), width: w, page: back, offset: offset,
        edge: edge)
      if pan(to: back) { return }
      // Single-buffered from now on: the visible page is written whole once, then as it changes.
      pages.lose(page: visiblePage)
    }
    write(
      canvas, rows: pages.toWrite(page: visiblePage, changed: rows, alternating: false), width: w, page: visiblePage,
      offset: offset, edge: edge)
  }

  /// Shows `page` by `FBIOPAN_DISPLAY`, after the vertical blank where the driver offers it.
  /// False when the pan failed: the display is single-buffered from then on.
  func pan(to page: Int) -> Bool {
    guard var info = varInfo else { return false }
    waitForVSyncIfOffered()
    info.yoffset = page * height
    do {
      try syscalls.panDisplay(fd, info)
      varInfo = info
      visiblePage = page
      return true
    } catch {
      isDoubleBuffered = false
      return false
    }
  }

  /// `FBIO_WAITFORVSYNC`, unless the driver has said it does not have it.
  func waitForVSyncIfOffered() {
    guard waitsForVSync else { return }
    do {
      try syscalls.waitForVSync(fd)
    } catch {
      if error.errno == ENOTTY || error.errno == EINVAL { waitsForVSync = false }
    }
  }

  /// Converts the marked screen rows of the first `w` columns into `page`: screen pixel (x, y)
  /// is the canvas's (x − dx, y − dy), or `edge`'s colour where that is off the canvas.
  private func write(
    _ canvas: Canvas, rows: [Bool], width w: Int, page: Int, offset: (dx: Int, dy: Int), edge: [UInt32]
  ) {
    guard w > 0 else { return }
    let pageOffset = baseOffset + page * height * lineLength
    precondition(
      pageOffset + (rows.count - 1) * lineLength + w * format.bytesPerPixel <= mappedLength, "a row past the mapping")
    format.write(
      canvas, rows: rows, width: w, into: memory + pageOffset, lineLength: lineLength, offset: offset, edge: edge)
    copiedBytes += rows.count(where: { $0 }) * w * format.bytesPerPixel
  }
}
