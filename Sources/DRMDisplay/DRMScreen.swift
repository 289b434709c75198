public import DisplayCore
public import FramebufferDisplay
internal import Glibc
public import Raster

/// The board on DRM/KMS: a connected connector in its preferred mode (or the one `--mode`
/// asks for), a CRTC that can drive it, and two dumb buffers the CPU writes, shown in turn by
/// page flips at the vertical blank: no tearing, and no busy waiting (the next frame waits in
/// `poll` for the last flip's event).
///
/// With XRGB8888 buffers the board is drawn straight into the hidden one (`drawingBuffer`),
/// which last held the frame before the previous one: it is first given what the previous frame
/// changed, copied from the buffer shown, and the frame is then flipped to with no copy. With
/// RGB565 buffers only the rows a frame changed are converted: the rows changed in either of
/// the last two frames. Like the framebuffer, it moves a frame itself (burn-in protection): the
/// lent canvas starts at the offset, or the rows are converted from where the move puts them.
/// (Drawing reads the pixels it blends onto: where a driver maps dumb buffers write-combined,
/// not cached, those reads are slow; not measured on a Pi yet.)
///
/// The first frame sets the mode (`drmModeSetCrtc`); what the CRTC showed before (the
/// console's framebuffer, usually) is put back on `close()`. Should the process die without
/// closing, the kernel gives the console its mode back when the device's last user is gone.
///
/// **Night.** `setPower` switches the connector's `DPMS` property: a monitor or TV goes to
/// standby, and comes back with the board on it.
///
/// **Threads.** Not `Sendable`: open it, present on it and close it on one thread.
public final class DRMScreen: Display {
  let syscalls: DRMSyscalls
  /// The device node, for messages.
  public let device: String
  let fd: Int32
  /// The output the board is on.
  public let connector: DRMConnector
  /// Its mode.
  public let mode: DRMModeInfo
  let crtc: UInt32
  /// What the CRTC showed before the board, put back on close.
  let saved: DRMCrtc
  /// How the buffers' pixels are laid out: XRGB8888, or RGB565 on a device without it.
  public let format: PixelFormat

  struct Buffer {
    var dumb: DRMDumbBuffer
    var framebuffer: UInt32
    var memory: UnsafeMutableRawPointer
  }
  var buffers: [Buffer]
  /// The buffer on screen.
  var front = 0
  /// Whether the mode is set (the first frame is shown).
  public private(set) var modeSet = false
  /// Whether a flip was asked for and its event not yet read.
  var flipPending = false
  /// The sequence number of the last flip asked for (its event carries it).
  var flipSequence: UInt64 = 0
  /// Which rows each buffer needs, for frames copied in.
  var rows: PageRows
  /// Which frame each buffer holds, for frames drawn in place.
  var lentPages: LentPages
  /// The buffer lent for the frame being drawn (`drawingBuffer`).
  var lent: Int?
  /// Whether the last flip's event did not come: the next frame is shown by a mode set.
  var flipLost = false
  /// Bytes written into the buffers: frames copied in, and buffers brought up to date for a
  /// frame drawn in place (for tests: a frame drawn in place copies only what changed).
  public private(set) var copiedBytes = 0
  /// The connector's DPMS property, nil when it has none.
  let dpms: UInt32?
  /// Whether the output is off (DPMS).
  public private(set) var isOff = false
  /// Every flip that was shown by a mode set instead, because the driver refused to flip.
  public private(set) var flipFallbacks = 0
  private var closed = false

  /// How long a frame waits for the previous flip before it goes on without it.
  static let flipTimeout = 0.5

  init(
    syscalls: DRMSyscalls, device: String, fd: Int32, connector: DRMConnector, mode: DRMModeInfo, crtc: UInt32,
    saved: DRMCrtc, format: PixelFormat, buffers: [Buffer], dpms: UInt32?
  ) {
    self.syscalls = syscalls
    self.device = device
    self.fd = fd
    self.connector = connector
    self.mode = mode
    self.crtc = crtc
    self.saved = saved
    self.format = format
    self.buffers = buffers
    self.rows = PageRows(pages: buffers.count)
    self.lentPages = LentPages(pages: buffers.count)
    self.dpms = dpms
  }

  deinit { close() }

  public var size: (width: Int, height: Int) { (mode.width, mode.height) }

  public var traits: DisplayTraits { DisplayTraits(fillsScreen: true, movesFrames: true) }

  /// Whether frames are shown by page flips (two buffers) rather than written into the one shown.
  public var pageFlips: Bool { buffers.count == 2 }

  /// "Virtual-1 1024x768@60, XRGB8888, page flips".
  public var summary: String {
    "\(connector.name) \(mode.label), \(format == .rgb565 ? "RGB565" : "XRGB8888"), "
      + (pageFlips ? "page flips" : "one buffer")
  }

  /// Opens `device`, chooses the output, its mode and a CRTC, and makes the buffers. Nothing is
  /// shown until the first frame.
  ///
  /// The output is the first connected connector with a mode. Its mode is the one `request`
  /// names (the first listed of that size, and refresh when given), else the one the monitor
  /// prefers, else its first. The CRTC is the one driving the connector now, else the first an
  /// encoder of it can use.
  public static func open(
    device: String, mode request: DRMModeRequest? = nil, syscalls: DRMSyscalls = .live
  ) throws(DRMError) -> DRMScreen {
    func call<T>(_ name: String, _ body: () throws(DRMFailure) -> T) throws(DRMError) -> T {
      try DRMScreen.call(device, name, body)
    }
    let fd = try call("open") { () throws(DRMFailure) in try syscalls.open(device) }
    var made: [Buffer] = []
    var opened = false
    defer {
      if !opened {
        for b in made { release(b, fd: fd, syscalls: syscalls) }
        syscalls.close(fd)
      }
    }
    // Only the device's master may set a mode: a desktop or Plymouth holding it is found now,
    // before anything is shown (so `--display console` can fall back to the framebuffer).
    guard syscalls.becomeMaster(fd) else { throw .callFailed(device: device, call: "drmSetMaster", errno: EBUSY) }
    let resources = try call("drmModeGetResources") { () throws(DRMFailure) in try syscalls.resources(fd) }
    var connectors: [DRMConnector] = []
    for id in resources.connectors {
      connectors.append(try call("drmModeGetConnector") { () throws(DRMFailure) in try syscalls.connector(fd, id) })
    }
    guard let connector = connectors.first(where: { $0.connected && !$0.modes.isEmpty }) else {
      throw .noConnectedOutput(
        device: device,
        connectors: connectors.map { "\($0.name) \($0.connected ? "connected, no modes" : "disconnected")" })
    }
    let mode: DRMModeInfo
    if let request {
      guard let m = connector.modes.first(where: request.matches) else {
        var seen: [String] = []
        for m in connector.modes where !seen.contains(m.label) { seen.append(m.label) }
        throw .noSuchMode(device: device, connector: connector.name, wanted: request.description, available: seen)
      }
      mode = m
    } else {
      mode = connector.modes.first(where: \.isPreferred) ?? connector.modes[0]
    }
    guard Canvas.frameFits(width: mode.width, height: mode.height) else {
      throw .tooLarge(device: device, mode: mode.label)
    }
    var crtcID: UInt32?
    if connector.encoder != 0 {
      let e = try call("drmModeGetEncoder") { () throws(DRMFailure) in try syscalls.encoder(fd, connector.encoder) }
      if e.crtc != 0 { crtcID = e.crtc }
    }
    if crtcID == nil {
      search: for id in connector.encoders {
        let e = try call("drmModeGetEncoder") { () throws(DRMFailure) in try syscalls.encoder(fd, id) }
        for (i, c) in resources.crtcs.enumerated() where i < 32 && e.possibleCrtcs & (1 << UInt32(i)) != 0 {
          crtcID = c
          break search
        }
      }
    }
    guard let crtc = crtcID else { throw .noCrtc(device: device, connector: connector.name) }
    let saved = try call("drmModeGetCrtc") { () throws(DRMFailure) in try syscalls.crtc(fd, crtc) }

    // XRGB8888 (depth 24), else RGB565 on a device that has no 32-bit buffers.
    var format = PixelFormat.xrgb8888
    for (bpp, depth, f) in [(32, 24, PixelFormat.xrgb8888), (16, 16, PixelFormat.rgb565)] {
      do throws(DRMError) {
        made.append(try makeBuffer(fd: fd, mode: mode, bpp: bpp, depth: depth, device: device, syscalls: syscalls))
        format = f
        break
      } catch {
        if bpp == 16 { throw error }
      }
    }
    // A second buffer for page flips; without one (a device short of memory) frames are
    // written into the buffer shown.
    let bpp = format.bitsPerPixel
    if let second = try? makeBuffer(
      fd: fd, mode: mode, bpp: bpp, depth: bpp == 32 ? 24 : 16, device: device, syscalls: syscalls)
    {
      made.append(second)
    }
    let dpms = syscalls.connectorProperty(fd, connector.id, "DPMS")
    opened = true
    return DRMScreen(
      syscalls: syscalls, device: device, fd: fd, connector: connector, mode: mode, crtc: crtc, saved: saved,
      format: format, buffers: made, dpms: dpms)
  }

  /// The devices `--display drm` looks at, in order: `/dev/dri/card0` to `card15`.
  public static let devices = (0..<16).map { "/dev/dri/card\($0)" }

  /// Opens the first of `devices` that exists and has a connected output (a Raspberry Pi's
  /// first card may be its render-only GPU). Throws the first device's error when none does, or
  /// "no /dev/dri/card*" when there is none.
  public static func openFirst(
    mode request: DRMModeRequest? = nil, among devices: [String] = DRMScreen.devices,
    exists: ((String) -> Bool)? = nil, syscalls: DRMSyscalls = .live
  ) throws(DRMError) -> DRMScreen {
    var first: DRMError?
    for device in devices where (exists ?? { access($0, F_OK) == 0 })(device) {
      do {
        return try open(device: device, mode: request, syscalls: syscalls)
      } catch {
        if first == nil { first = error }
      }
    }
    throw first ?? .callFailed(device: devices.first ?? "/dev/dri/card0", call: "open", errno: ENOENT)
  }

  /// Runs a call on `device`, its failure a `DRMError` naming the device, the call and errno.
  static func call<T>(_ device: String, _ name: String, _ body: () throws(DRMFailure) -> T) throws(DRMError) -> T {
    do { return try body() } catch { throw .callFailed(device: device, call: name, errno: error.errno) }
  }

  /// A dumb buffer of the mode's size, a framebuffer of it, and its memory mapped.
  private static func makeBuffer(
    fd: Int32, mode: DRMModeInfo, bpp: Int, depth: Int, device: String, syscalls: DRMSyscalls
  ) throws(DRMError) -> Buffer {
    func call<T>(_ name: String, _ body: () throws(DRMFailure) -> T) throws(DRMError) -> T {
      try DRMScreen.call(device, name, body)
    }
    let dumb = try call("DRM_IOCTL_MODE_CREATE_DUMB") { () throws(DRMFailure) in
      try syscalls.createDumb(fd, mode.width, mode.height, bpp)
    }
    guard dumb.pitch >= mode.width * bpp / 8, dumb.size >= dumb.pitch * mode.height else {
      syscalls.destroyDumb(fd, dumb.handle)
      throw .callFailed(device: device, call: "DRM_IOCTL_MODE_CREATE_DUMB", errno: EINVAL)
    }
    let framebuffer: UInt32
    do {
      framebuffer = try syscalls.addFramebuffer(fd, mode.width, mode.height, depth, bpp, dumb.pitch, dumb.handle)
    } catch {
      syscalls.destroyDumb(fd, dumb.handle)
      throw .callFailed(device: device, call: "drmModeAddFB", errno: error.errno)
    }
    do {
      let memory = try syscalls.mapDumb(fd, dumb.handle, dumb.size)
      return Buffer(dumb: dumb, framebuffer: framebuffer, memory: memory)
    } catch {
      syscalls.removeFramebuffer(fd, framebuffer)
      syscalls.destroyDumb(fd, dumb.handle)
      throw .callFailed(device: device, call: "mmap", errno: error.errno)
    }
  }

  private static func release(_ b: Buffer, fd: Int32, syscalls: DRMSyscalls) {
    syscalls.unmap(b.memory, b.dumb.size)
    syscalls.removeFramebuffer(fd, b.framebuffer)
    syscalls.destroyDumb(fd, b.dumb.handle)
  }

  /// A canvas over the buffer the next frame goes into (the hidden one, once the flip that hid
  /// it is done; the one shown before the first frame and with one buffer), brought up to date
  /// with the last frame drawn in place (`LentPages`: the hidden buffer gets what that frame
  /// changed, copied from the one on screen). Nil unless the buffers are XRGB8888: RGB565 is
  /// converted from a canvas of the caller's by `present`.
  public func drawingBuffer(
    width: Int, height: Int, offset: (dx: Int, dy: Int), background: RGBA
  ) throws(DisplayError) -> DrawingBuffer? {
    precondition(!closed, "drawing after close")
    guard format == .xrgb8888, buffers.allSatisfy({ $0.dumb.pitch % 4 == 0 }) else { return nil }
    try settleFlip()
    let target = pageFlips && modeSet ? 1 - front : front
    let look = LentPages.Look(width: width, height: height, dx: offset.dx, dy: offset.dy, fill: background)
    let preparation = lentPages.lend(page: target, look: look, screen: screenRect)
    let b = buffers[target]
    switch preparation {
    case .current: break
    case .copy(let rects, let from):
      copiedBytes += LentPages.copy(
        rects, from: buffers[from].memory, to: b.memory, lineLength: b.dumb.pitch, screen: screenRect)
    case .whole:
      copiedBytes += LentPages.fill(
        b.memory, lineLength: b.dumb.pitch, screen: screenRect, with: Canvas.pack(background))
    }
    lent = target
    let canvas = Canvas(
      lentBy: self, memory: b.memory, stride: b.dumb.pitch / 4, screen: size, width: width, height: height,
      offset: offset)
    return DrawingBuffer(canvas: canvas, holdsLastFrame: preparation != .whole)
  }

  public func present(_ frame: DisplayFrame) throws(DisplayError) {
    precondition(!closed, "present after close")
    let canvas = frame.canvas
    if let target = lent, canvas.isLent(buffers[target].memory) {
      // Drawn in place: shown as it is.
      lent = nil
      for page in buffers.indices { rows.lose(page: page) }
      lentPages.shown(page: target, dirty: LentPages.onScreen(frame.dirty, offset: frame.offset, screen: screenRect))
      try settleFlip()
      try show(target)
      return
    }
    lent = nil
    lentPages.forget()
    let (w, h) = (min(canvas.width, mode.width), min(canvas.height, mode.height))
    // The whole screen is written (the edge a move uncovers, or a smaller canvas, in the fill).
    let changed = rows.changed(
      frame.dirty, canvas: canvas, height: mode.height, overlap: IRect(x: 0, y: 0, width: w, height: h),
      offset: frame.offset, fill: frame.background)
    defer { rows.finish(changed) }
    // The buffer to draw into: the hidden one, once the flip that hid it is done.
    try settleFlip()
    let target = pageFlips && modeSet ? 1 - front : front
    let edge = [UInt32](repeating: Canvas.pack(frame.background), count: mode.width)
    let b = buffers[target]
    let write = rows.toWrite(page: target, changed: changed, alternating: pageFlips)
    format.write(
      canvas, rows: write, width: mode.width, into: b.memory, lineLength: b.dumb.pitch, offset: frame.offset,
      edge: edge)
    copiedBytes += write.count(where: { $0 }) * mode.width * format.bytesPerPixel
    try show(target)
  }

  /// The screen in pixels.
  var screenRect: IRect { IRect(x: 0, y: 0, width: mode.width, height: mode.height) }

  /// Waits for the pending flip, if any. A flip whose event never came (a lost vertical blank)
  /// leaves which buffer is shown unknown: the next frame is then shown by a mode set, and the
  /// late event, if it comes, is passed over.
  private func settleFlip() throws(DisplayError) {
    guard flipPending else { return }
    if try !finishFlip() { flipLost = true }
  }

  /// Shows buffer `target`: by a page flip, or by a mode set for the first frame, after a lost
  /// flip, or when the driver refuses to flip.
  private func show(_ target: Int) throws(DisplayError) {
    let lost = flipLost
    flipLost = false
    guard modeSet && target != front && !lost else {
      if !modeSet || lost { try setMode(showing: target) }
      if lost { flipFallbacks += 1 }
      return
    }
    do {
      flipSequence += 1
      try syscalls.pageFlip(fd, crtc, buffers[target].framebuffer, flipSequence)
      flipPending = true
      front = target
    } catch {
      // A driver that cannot flip now (EBUSY after a lost event, EINVAL): show it by a mode set.
      flipFallbacks += 1
      try setMode(showing: target)
    }
  }

  /// Shows buffer `i` by a mode set (the first frame, or a flip refused).
  private func setMode(showing i: Int) throws(DisplayError) {
    do {
      try syscalls.setCrtc(fd, crtc, buffers[i].framebuffer, 0, 0, [connector.id], mode)
    } catch {
      throw DisplayError(DRMError.callFailed(device: device, call: "drmModeSetCrtc", errno: error.errno).description)
    }
    modeSet = true
    front = i
  }

  /// Waits for the pending flip's event (in `poll`); false when it did not come within
  /// `flipTimeout`.
  @discardableResult
  private func finishFlip() throws(DisplayError) -> Bool {
    flipPending = false
    do {
      return try syscalls.waitForFlip(fd, Self.flipTimeout, flipSequence)
    } catch {
      throw DisplayError(DRMError.callFailed(device: device, call: "drmHandleEvent", errno: error.errno).description)
    }
  }

  /// The connector's DPMS: off (standby) for the night's `blank`, on again in the morning. False
  /// when the connector has no DPMS property or the driver refused.
  public func setPower(_ on: Bool) -> Bool {
    guard let dpms, !closed else { return false }
    if flipPending { _ = try? finishFlip() }
    do {
      try syscalls.setConnectorProperty(fd, connector.id, dpms, on ? 0 : 3)
    } catch {
      return false
    }
    isOff = !on
    return true
  }

  /// Puts back what the CRTC showed (the console), with the output on, and lets go of the
  /// buffers and the device. Later calls do nothing.
  public func close() {
    guard !closed else { return }
    closed = true
    if flipPending { _ = try? finishFlip() }
    if isOff, let dpms { try? syscalls.setConnectorProperty(fd, connector.id, dpms, 0) }
    if modeSet {
      if saved.framebuffer != 0, let m = saved.mode {
        try? syscalls.setCrtc(fd, saved.id, saved.framebuffer, saved.x, saved.y, [connector.id], m)
      } else {
        try? syscalls.setCrtc(fd, saved.id, 0, 0, 0, [], nil)
      }
    }
    for b in buffers { Self.release(b, fd: fd, syscalls: syscalls) }
    buffers = []
    syscalls.close(fd)
  }
}
