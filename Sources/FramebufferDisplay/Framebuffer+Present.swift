internal import Glibc
public import Raster

extension Framebuffer {
  /// Shows `canvas`, of which only the rows touched by `dirty` changed since the previous frame.
  ///
  /// The overlap of the canvas and the screen is copied (from the top-left corner); the rest of
  /// either is left alone. The first frame, and the first after the canvas changes size, is
  /// copied whole whatever `dirty` says.
  ///
  /// Double-buffered, the frame goes into the hidden page, which last held the frame before the
  /// previous one: it gets the rows changed in either of the last two frames. Then, after
  /// `FBIO_WAITFORVSYNC` (skipped for good once it fails with `ENOTTY` or `EINVAL`), an
  /// `FBIOPAN_DISPLAY` shows it. Should the pan fail, the display falls back to single
  /// buffering for good and copies the frame into the visible page instead.
  public func present(_ canvas: Canvas, dirty: [IRect]) {
    let w = min(canvas.width, width)
    let h = min(canvas.height, height)
    if previousCanvasSize.map({ $0 != (canvas.width, canvas.height) }) ?? true {
      pageReady = [false, false]
      previousRows = [Bool](repeating: true, count: h)
    }
    previousCanvasSize = (canvas.width, canvas.height)
    var rows = [Bool](repeating: false, count: h)
    let overlap = IRect(x: 0, y: 0, width: w, height: h)
    for rect in dirty {
      let r = rect.intersection(overlap)
      if !r.isEmpty { for y in r.y..<r.maxY { rows[y] = true } }
    }
    defer { previousRows = rows }
    if isDoubleBuffered, var info = varInfo {
      let back = 1 - visiblePage
      var copy = rows
      for y in 0..<h where !pageReady[back] || previousRows[y] { copy[y] = true }
      write(canvas, rows: copy, width: w, page: back)
      pageReady[back] = true
      waitForVSyncIfOffered()
      info.yoffset = back * height
      do {
        try syscalls.panDisplay(fd, info)
        varInfo = info
        visiblePage = back
        return
      } catch {
        isDoubleBuffered = false
        rows = [Bool](repeating: true, count: h)
      }
    }
    if !pageReady[0] { rows = [Bool](repeating: true, count: h) }
    write(canvas, rows: rows, width: w, page: visiblePage)
    pageReady[0] = true
  }

  /// `FBIO_WAITFORVSYNC`, unless the driver has said it does not have it.
  private func waitForVSyncIfOffered() {
    guard waitsForVSync else { return }
    do {
      try syscalls.waitForVSync(fd)
    } catch {
      if error.errno == ENOTTY || error.errno == EINVAL { waitsForVSync = false }
    }
  }

  /// Converts the marked rows of the canvas's first `w` columns into `page`.
  private func write(_ canvas: Canvas, rows: [Bool], width w: Int, page: Int) {
    guard w > 0 else { return }
    let pageOffset = baseOffset + page * height * lineLength
    let bytes = w * format.bytesPerPixel
    precondition(pageOffset + (rows.count - 1) * lineLength + bytes <= mappedLength, "a row past the mapping")
    canvas.pixels.withUnsafeBufferPointer { pixels in
      for y in rows.indices where rows[y] {
        let start = y * canvas.stride
        let destination = UnsafeMutableRawBufferPointer(start: memory + pageOffset + y * lineLength, count: bytes)
        format.convert(row: UnsafeBufferPointer(rebasing: pixels[start..<start + w]), into: destination)
      }
    }
  }
}
