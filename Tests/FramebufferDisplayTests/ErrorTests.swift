import FramebufferDisplay
import Glibc
import Testing

@Suite("Framebuffer errors")
struct ErrorTests {
  @Test(
    "a failed call is named with the device and errno text, and the device is closed",
    arguments: [
      ("FBIOGET_VSCREENINFO", ENOTTY, "/dev/fb7: FBIOGET_VSCREENINFO failed: Inappropriate ioctl for device"),
      ("FBIOGET_FSCREENINFO", EIO, "/dev/fb7: FBIOGET_FSCREENINFO failed: Input/output error"),
      ("mmap", ENOMEM, "/dev/fb7: mmap failed: Cannot allocate memory"),
    ])
  func callFails(_ call: String, _ code: Int32, _ message: String) {
    let device = xrgbDevice(8, 8)
    device.failures[call] = code
    do {
      _ = try Framebuffer.open(device: "/dev/fb7", syscalls: device.syscalls)
      Issue.record("open succeeded")
    } catch {
      #expect(error == .callFailed(path: "/dev/fb7", call: call, errno: code))
      #expect(error.description == message)
    }
    #expect(device.calls("close") == ["close 3"])
    #expect(device.calls("munmap").isEmpty)
  }

  @Test("a device that cannot be opened is named")
  func openFails() {
    let device = xrgbDevice(8, 8)
    device.failures["open"] = ENOENT
    #expect(throws: FramebufferError.self) { try Framebuffer.open(device: "/dev/fb9", syscalls: device.syscalls) }
    do { _ = try Framebuffer.open(device: "/dev/fb9", syscalls: device.syscalls) } catch {
      #expect(error.description == "/dev/fb9: open failed: No such file or directory")
    }
    #expect(device.calls("close").isEmpty)
  }

  @Test("an 8-bit palette device is an unsupported format naming the device")
  func paletteDevice() {
    let device = FakeDevice(
      VarScreenInfo(
        xres: 8, yres: 8, bitsPerPixel: 8, red: Bitfield(offset: 0, length: 8), green: Bitfield(offset: 0, length: 8),
        blue: Bitfield(offset: 0, length: 8)),
      lineLength: 8)
    do {
      _ = try Framebuffer.open(device: "/dev/fb2", syscalls: device.syscalls)
      Issue.record("open succeeded")
    } catch {
      #expect(error.description.hasPrefix("/dev/fb2: unsupported pixel format: 8 bits per pixel"))
    }
    #expect(device.calls("close") == ["close 3"])
  }

  @Test("device memory smaller than the screen is refused")
  func memoryTooSmall() {
    let device = xrgbDevice(8, 8)
    device.fixInfo.memoryLength = 100
    #expect(throws: FramebufferError.tooSmall(path: "/dev/fb0", needed: 256, available: 100)) {
      try Framebuffer.open(syscalls: device.syscalls)
    }
  }

  @Test("a file geometry other than 32, 24 or 16 bpp is refused")
  func fileBpp() {
    let device = xrgbDevice(8, 8)
    do {
      _ = try Framebuffer.open(file: "/tmp/fb.raw", geometry: (8, 8, 15), syscalls: device.syscalls)
      Issue.record("open succeeded")
    } catch {
      #expect(error.description == "/tmp/fb.raw: unsupported pixel format: 15 bits per pixel (32, 24 or 16 for a file)")
    }
    #expect(device.log.isEmpty)
  }

  @Test("a file makes no framebuffer ioctls")
  func fileHasNoIoctls() throws {
    let device = xrgbDevice(8, 8)
    let fb = try Framebuffer.open(file: "/tmp/fb.raw", geometry: (8, 8, 32), syscalls: device.syscalls)
    let canvas = TestPixels.solid(width: 8, height: 8, 0x010203)
    fb.present(canvas, dirty: [canvas.bounds])
    fb.present(canvas, dirty: [canvas.bounds])
    try fb.blank(true)
    #expect(device.log == ["open /tmp/fb.raw create", "fstat", "mmap 256"])
  }
}
