@_spi(Testing) import SDLDisplay
import Testing

@Suite struct DisplayAvailableTests {
  @Test(
    arguments: [
      ([:], false),
      (["DISPLAY": ":0"], true),
      (["WAYLAND_DISPLAY": "wayland-0"], true),
      (["SDL_VIDEODRIVER": "kmsdrm"], true),
      (["DISPLAY": ""], false),
      (["HOME": "/root", "TERM": "linux"], false),
    ] as [([String: String], Bool)])
  func aDisplayIsAvailableWhenTheEnvironmentNamesOne(_ environment: [String: String], _ expected: Bool) {
    #expect(SDLWindow.displayAvailable(environment: environment) == expected)
  }

  @Test func anErrorNamesTheCallAndSDLsText() {
    #expect(
      SDLError(call: "SDL_CreateWindow", message: "No available video device").description
        == "SDL_CreateWindow failed: No available video device")
    #expect(SDLError(call: "SDL_PushEvent", message: "").description == "SDL_PushEvent failed")
  }
}
