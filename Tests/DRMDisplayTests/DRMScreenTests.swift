import DRMDisplay
import DisplayCore
import FramebufferDisplay
import Glibc
import Raster
import Testing

/// The DRM display through its syscall seam: mode choice, the first mode set, page flips, only
/// the changed rows copied, DPMS, the CRTC put back, and errors that name the device and call.
@Suite struct DRMScreenTests {
  /// A canvas of the mode's size whose every pixel says where it is.
  func pattern(_ w: Int, _ h: Int, seed: UInt32 = 0) -> Canvas {
    var c = Canvas(width: w, height: h)
    for y in 0..<h { for x in 0..<w { c[x: x, y: y] = 0xFF00_0000 | UInt32(y << 8 | x) &+ seed } }
    return c
  }

  func xrgb(_ c: Canvas, _ x: Int, _ y: Int) -> UInt32 { c[x: x, y: y] & 0x00FF_FFFF }

  @Test func thePreferredModeOfTheFirstConnectedOutputIsChosen() throws {
    let dev = FakeDRM(modes: [FakeDRM.mode720, FakeDRM.mode1080])
    dev.connectors[31] = DRMConnector(id: 31, name: "DP-1", connected: false, modes: [], encoder: 0, encoders: [])
    dev.resources.connectors = [31, 30]
    let s = try DRMScreen.open(device: "/dev/dri/card0", syscalls: dev.syscalls)
    #expect(s.connector.name == "HDMI-A-1")
    #expect(s.mode == FakeDRM.mode1080)
    #expect(s.size == (1920, 1080))
    #expect(s.format == .xrgb8888)
    #expect(s.pageFlips)
    #expect(s.summary == "HDMI-A-1 1920x1080@60, XRGB8888, page flips")
    #expect(dev.calls("drmModeSetCrtc").isEmpty, "nothing is shown before the first frame")
  }

  @Test func modeAsksForASizeAndARefresh() throws {
    let modes = [FakeDRM.mode1080, FakeDRM.mode720, FakeDRM.mode720at50]
    let a = try DRMScreen.open(
      device: "card", mode: DRMModeRequest(parsing: "1280x720"), syscalls: FakeDRM(modes: modes).syscalls)
    #expect(a.mode == FakeDRM.mode720)
    let b = try DRMScreen.open(
      device: "card", mode: DRMModeRequest(parsing: "1280x720@50"), syscalls: FakeDRM(modes: modes).syscalls)
    #expect(b.mode == FakeDRM.mode720at50)
    #expect(
      throws: DRMError.noSuchMode(
        device: "card", connector: "HDMI-A-1", wanted: "800x600",
        available: ["1920x1080@60", "1280x720@60", "1280x720@50"])
    ) {
      _ = try DRMScreen.open(
        device: "card", mode: DRMModeRequest(parsing: "800x600"), syscalls: FakeDRM(modes: modes).syscalls)
    }
  }

  @Test func modeRequestsAreParsedStrictly() {
    #expect(DRMModeRequest(parsing: "1920x1080@60") == DRMModeRequest(width: 1920, height: 1080, refresh: 60))
    #expect(DRMModeRequest(parsing: "640x480") == DRMModeRequest(width: 640, height: 480))
    for bad in [
      "", "x", "1920", "1920x", "1920x1080@", "0x10", "20000x10", "1920x1080@0", "1920x1080@60@1", "-1x5", "+5x5",
      "1e3x5",
    ] {
      #expect(DRMModeRequest(parsing: bad) == nil, "\(bad)")
    }
  }

  @Test func noConnectedOutputIsAnErrorThatListsTheConnectors() {
    let dev = FakeDRM(connected: false)
    #expect(throws: DRMError.noConnectedOutput(device: "/dev/dri/card1", connectors: ["HDMI-A-1 disconnected"])) {
      _ = try DRMScreen.open(device: "/dev/dri/card1", syscalls: dev.syscalls)
    }
    #expect(dev.openFds == 0, "the device is closed again")
    let text = DRMError.noConnectedOutput(device: "/dev/dri/card1", connectors: ["HDMI-A-1 disconnected"]).description
    #expect(text == "/dev/dri/card1: no connected output with a mode (HDMI-A-1 disconnected)")
  }

  @Test func aConnectorWithNoEncoderGetsACrtcItsEncoderCanUse() throws {
    let dev = FakeDRM()
    dev.connectors[30]!.encoder = 0
    dev.encoders[35] = DRMEncoder(id: 35, crtc: 0, possibleCrtcs: 0b10)
    let s = try DRMScreen.open(device: "card", syscalls: dev.syscalls)
    try s.present(DisplayFrame(canvas: pattern(64, 48), dirty: nil))
    #expect(dev.calls("drmModeSetCrtc") == ["drmModeSetCrtc 41 fb=101 [30] 64x48@60"])
    dev.encoders[35] = DRMEncoder(id: 35, crtc: 0, possibleCrtcs: 0)
    #expect(throws: DRMError.noCrtc(device: "card", connector: "HDMI-A-1")) {
      _ = try DRMScreen.open(device: "card", syscalls: dev.syscalls)
    }
  }

  @Test func theFirstFrameSetsTheModeThenFramesFlipOnVerticalBlank() throws {
    let dev = FakeDRM()
    let s = try DRMScreen.open(device: "card", syscalls: dev.syscalls)
    let one = pattern(64, 48)
    try s.present(DisplayFrame(canvas: one, dirty: nil))
    #expect(dev.calls("drmModeSetCrtc", "drmModePageFlip") == ["drmModeSetCrtc 40 fb=101 [30] 64x48@60"])
    #expect(dev.shown == 101)
    #expect(dev.shownPixel(5, 7) == xrgb(one, 5, 7))
    let two = pattern(64, 48, seed: 3)
    try s.present(DisplayFrame(canvas: two, dirty: nil))
    #expect(dev.calls("drmModePageFlip").last == "drmModePageFlip 40 fb=102")
    // The flip waits for its event before the next frame touches the buffer it hid.
    try s.present(DisplayFrame(canvas: one, dirty: nil))
    #expect(Array(dev.log.suffix(2)) == ["drmHandleEvent", "drmModePageFlip 40 fb=101"])
    #expect(dev.calls("drmModeSetCrtc").count == 1, "one mode set, then flips")
  }

  @Test func onlyTheRowsChangedInEitherOfTheLastTwoFramesAreCopied() throws {
    let dev = FakeDRM()
    let s = try DRMScreen.open(device: "card", syscalls: dev.syscalls)
    var canvas = pattern(64, 48)
    try s.present(DisplayFrame(canvas: canvas, dirty: nil))  // buffer 1
    try s.present(DisplayFrame(canvas: canvas, dirty: nil))  // buffer 2
    canvas.fill(IRect(x: 0, y: 10, width: 64, height: 3), RGBA(r: 255, g: 0, b: 0))
    try s.present(DisplayFrame(canvas: canvas, dirty: [IRect(x: 0, y: 10, width: 64, height: 3)]))  // buffer 1
    // Buffer 2 is next: it lacks rows 10-12 (the last frame's) and gets rows 20-21 (this one's).
    let two = dev.memory[2]!
    let pitch = dev.pitches[2]!
    for y in [0, 5, 30, 47] { for i in 0..<pitch { two[y * pitch + i] = 0x5A } }
    canvas.fill(IRect(x: 0, y: 20, width: 64, height: 2), RGBA(r: 0, g: 0, b: 255))
    try s.present(DisplayFrame(canvas: canvas, dirty: [IRect(x: 3, y: 20, width: 5, height: 2)]))
    #expect(dev.pendingFlips == [102], "buffer 2 is flipped to")
    for y in [10, 11, 12, 20, 21] { #expect(dev.pixel(2, 40, y) == xrgb(canvas, 40, y), "row \(y)") }
    for y in [0, 5, 30, 47] { #expect(dev.pixel(2, 40, y) == 0x5A5A5A, "row \(y) was left alone") }
  }

  @Test func aMovedFrameIsMovedAsItIsCopied() throws {
    let dev = FakeDRM()
    let s = try DRMScreen.open(device: "card", syscalls: dev.syscalls)
    let c = pattern(64, 48)
    let fill = RGBA(r: 1, g: 2, b: 3)
    try s.present(DisplayFrame(canvas: c, dirty: nil, offset: (2, 1), background: fill))
    #expect(dev.shownPixel(0, 0) == 0x0001_0203)
    #expect(dev.shownPixel(1, 30) == 0x0001_0203)
    #expect(dev.shownPixel(2, 1) == xrgb(c, 0, 0))
    #expect(dev.shownPixel(63, 47) == xrgb(c, 61, 46))
  }

  @Test func aFlipWhoseEventNeverCameIsFollowedByAModeSet() throws {
    let dev = FakeDRM()
    dev.flipEventsCome = false
    let s = try DRMScreen.open(device: "card", syscalls: dev.syscalls)
    try s.present(DisplayFrame(canvas: pattern(64, 48), dirty: nil))
    try s.present(DisplayFrame(canvas: pattern(64, 48, seed: 1), dirty: nil))
    // The event never came: which buffer is shown is unknown, so a mode set shows the frame.
    try s.present(DisplayFrame(canvas: pattern(64, 48, seed: 2), dirty: nil))
    #expect(s.flipFallbacks == 1)
    #expect(dev.calls("drmModeSetCrtc").count == 2)
    #expect(dev.shownPixel(9, 9) == xrgb(pattern(64, 48, seed: 2), 9, 9))
    // Flips go on after it, each with its own sequence number.
    dev.flipEventsCome = true
    try s.present(DisplayFrame(canvas: pattern(64, 48, seed: 3), dirty: nil))
    try s.present(DisplayFrame(canvas: pattern(64, 48, seed: 4), dirty: nil))
    #expect(dev.sequences == [1, 2, 3])
    #expect(dev.shownPixel(9, 9) == xrgb(pattern(64, 48, seed: 3), 9, 9), "the flip before the last is on screen")
  }

  @Test func aRefusedFlipIsShownByAModeSet() throws {
    let dev = FakeDRM()
    let s = try DRMScreen.open(device: "card", syscalls: dev.syscalls)
    try s.present(DisplayFrame(canvas: pattern(64, 48), dirty: nil))
    dev.failures["drmModePageFlip"] = EINVAL
    try s.present(DisplayFrame(canvas: pattern(64, 48, seed: 1), dirty: nil))
    #expect(s.flipFallbacks == 1)
    #expect(dev.shownPixel(9, 9) == xrgb(pattern(64, 48, seed: 1), 9, 9))
  }

  @Test func aDeviceHeldByAnotherMasterIsRefusedAtOpen() {
    let dev = FakeDRM()
    dev.master = false
    #expect(throws: DRMError.callFailed(device: "/dev/dri/card0", call: "drmSetMaster", errno: EBUSY)) {
      _ = try DRMScreen.open(device: "/dev/dri/card0", syscalls: dev.syscalls)
    }
    #expect(dev.openFds == 0 && dev.calls("DRM_IOCTL_MODE_CREATE_DUMB").isEmpty)
    #expect(
      DRMError.callFailed(device: "/dev/dri/card0", call: "drmSetMaster", errno: EBUSY).description
        == "/dev/dri/card0: drmSetMaster failed: Device or resource busy (is a desktop or another program showing on it?)"
    )
  }

  @Test func aDeviceWithoutThirtyTwoBitBuffersGetsRGB565() throws {
    let dev = FakeDRM()
    dev.bppAccepted = [16]
    let s = try DRMScreen.open(device: "card", syscalls: dev.syscalls)
    #expect(s.format == .rgb565)
    #expect(dev.calls("drmModeAddFB") == ["drmModeAddFB depth=16 bpp=16", "drmModeAddFB depth=16 bpp=16"])
    var c = Canvas(width: 64, height: 48)
    c.fill(c.bounds, RGBA(r: 255, g: 0, b: 0))
    try s.present(DisplayFrame(canvas: c, dirty: nil))
    #expect(dev.memory[1]!.load(fromByteOffset: 0, as: UInt16.self) == 0xF800)
  }

  @Test func withOneBufferFramesAreWrittenIntoTheOneShown() throws {
    let dev = FakeDRM()
    dev.bufferLimit = 1
    let s = try DRMScreen.open(device: "card", syscalls: dev.syscalls)
    #expect(!s.pageFlips)
    try s.present(DisplayFrame(canvas: pattern(64, 48), dirty: nil))
    try s.present(DisplayFrame(canvas: pattern(64, 48, seed: 4), dirty: nil))
    #expect(dev.calls("drmModePageFlip").isEmpty)
    #expect(dev.shownPixel(3, 3) == xrgb(pattern(64, 48, seed: 4), 3, 3))
  }

  @Test func dpmsTurnsTheOutputOffAndOn() throws {
    let dev = FakeDRM()
    let s = try DRMScreen.open(device: "card", syscalls: dev.syscalls)
    try s.present(DisplayFrame(canvas: pattern(64, 48), dirty: nil))
    #expect(s.setPower(false))
    #expect(dev.dpmsValue == 3 && s.isOff)
    #expect(s.setPower(true))
    #expect(dev.dpmsValue == 0 && !s.isOff)
    dev.failures["drmModeConnectorSetProperty"] = EINVAL
    #expect(!s.setPower(false), "a refusal is said, and the loop shows black instead")
    let none = FakeDRM()
    none.hasDPMS = false
    #expect(try !DRMScreen.open(device: "card", syscalls: none.syscalls).setPower(false))
  }

  @Test func closingPutsTheConsoleBackOnAndLetsEverythingGo() throws {
    let dev = FakeDRM()
    let s = try DRMScreen.open(device: "card", syscalls: dev.syscalls)
    try s.present(DisplayFrame(canvas: pattern(64, 48), dirty: nil))
    try s.present(DisplayFrame(canvas: pattern(64, 48, seed: 1), dirty: nil))
    _ = s.setPower(false)
    s.close()
    #expect(dev.dpmsValue == 0, "the output is on again for the console")
    #expect(dev.calls("drmModeSetCrtc").last == "drmModeSetCrtc 40 fb=7 [30] 1024x768@60")
    #expect(dev.shown == 7)
    #expect(dev.calls("drmModeRmFB").count == 2 && dev.memory.isEmpty && dev.openFds == 0)
    s.close()
    #expect(dev.calls("drmModeSetCrtc").count == 2, "a second close does nothing")
  }

  @Test func errorsNameTheDeviceTheCallAndErrno() throws {
    let dev = FakeDRM()
    dev.failures["open"] = ENOENT
    #expect(throws: DRMError.callFailed(device: "/dev/dri/card3", call: "open", errno: ENOENT)) {
      _ = try DRMScreen.open(device: "/dev/dri/card3", syscalls: dev.syscalls)
    }
    #expect(
      DRMError.callFailed(device: "/dev/dri/card3", call: "open", errno: ENOENT).description
        == "/dev/dri/card3: open failed: No such file or directory")
    let busy = FakeDRM()
    busy.failures["drmModeSetCrtc"] = EACCES
    let s = try DRMScreen.open(device: "/dev/dri/card0", syscalls: busy.syscalls)
    #expect(
      throws: DisplayError(
        "/dev/dri/card0: drmModeSetCrtc failed: Permission denied (is a desktop or another program showing on it?)")
    ) {
      try s.present(DisplayFrame(canvas: pattern(64, 48), dirty: nil))
    }
    let noMemory = FakeDRM()
    noMemory.bufferLimit = 0
    #expect(throws: DRMError.callFailed(device: "card", call: "DRM_IOCTL_MODE_CREATE_DUMB", errno: ENOMEM)) {
      _ = try DRMScreen.open(device: "card", syscalls: noMemory.syscalls)
    }
    #expect(noMemory.openFds == 0)
  }
}
