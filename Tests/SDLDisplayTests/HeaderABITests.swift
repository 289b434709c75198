import Foundation
import TestSupport
import Testing

/// `Sources/CSDL2/shim.h` declares the part of SDL2's ABI the display uses, so that building needs
/// no SDL2 headers. Where the real headers are installed (`libsdl2-dev`), these tests compile
/// small C programs with `cc` against both and compare: every size, offset and constant the
/// display relies on, and every signature of the function table.
/// Where SDL2's real headers are, if anywhere.
enum RealSDLHeaders {
  /// The folder holding `SDL2/SDL.h`, when SDL2's headers are installed.
  static let folder: String? = ["/usr/include", "/usr/local/include"].first {
    FileManager.default.fileExists(atPath: "\($0)/SDL2/SDL.h")
  }

  static let skipReason: Comment =
    "SDL2's headers (libsdl2-dev) are not installed: there is nothing to compare shim.h's declarations with"
}

@Suite("SDL2 ABI declared in shim.h", .enabled(if: RealSDLHeaders.folder != nil, RealSDLHeaders.skipReason))
struct HeaderABITests {
  /// What is compared: C expressions, each printed as a number by both programs.
  static let numbers: [String] = {
    var list: [String] = []
    func layout(_ type: String, _ fields: [String]) {
      list += ["sizeof(\(type))", "_Alignof(\(type))"]
      for f in fields {
        list += ["offsetof(\(type), \(f))", "sizeof(((\(type) *)0)->\(f))"]
      }
    }
    layout("Uint8", [])
    layout("Uint16", [])
    layout("Uint32", [])
    layout("Sint32", [])
    layout("SDL_bool", [])
    layout("SDL_Keycode", [])
    layout("SDL_Scancode", [])
    layout("SDL_version", ["major", "minor", "patch"])
    layout("SDL_Rect", ["x", "y", "w", "h"])
    layout(
      "SDL_PixelFormat",
      [
        "format", "palette", "BitsPerPixel", "BytesPerPixel", "padding", "Rmask", "Gmask", "Bmask", "Amask", "Rloss",
        "Gloss", "Bloss", "Aloss", "Rshift", "Gshift", "Bshift", "Ashift", "refcount", "next",
      ])
    layout(
      "SDL_Surface",
      [
        "flags", "format", "w", "h", "pitch", "pixels", "userdata", "locked", "list_blitmap", "clip_rect", "map",
        "refcount",
      ]
    )
    layout("SDL_Keysym", ["scancode", "sym", "mod", "unused"])
    layout("SDL_KeyboardEvent", ["type", "timestamp", "windowID", "state", "repeat", "keysym"])
    layout("SDL_WindowEvent", ["type", "timestamp", "windowID", "event", "data1", "data2"])
    layout("SDL_UserEvent", ["type", "timestamp", "windowID", "code", "data1", "data2"])
    layout("SDL_Event", ["type", "window", "key", "user", "padding"])
    layout("SDL_SysWMinfo", ["version", "subsystem", "info", "info.x11.display", "info.x11.window"])
    list += [
      "SDL_INIT_VIDEO", "SDL_RLEACCEL", "SDL_WINDOWPOS_UNDEFINED", "SDL_WINDOW_FULLSCREEN", "SDL_WINDOW_SHOWN",
      "SDL_WINDOW_HIDDEN", "SDL_WINDOW_RESIZABLE", "SDL_WINDOW_FULLSCREEN_DESKTOP", "SDL_WINDOWEVENT_EXPOSED",
      "SDL_WINDOWEVENT_RESIZED", "SDL_WINDOWEVENT_SIZE_CHANGED", "SDL_QUIT", "SDL_WINDOWEVENT", "SDL_KEYDOWN",
      "SDL_PRESSED", "SDL_RELEASED", "SDL_ENABLE", "SDL_DISABLE", "SDLK_ESCAPE", "SDLK_a", "SDLK_d", "SDLK_f",
      "SDLK_q", "SDLK_t", "SDLK_v", "SDLK_LEFT", "SDLK_RIGHT", "KMOD_LSHIFT", "KMOD_RSHIFT", "KMOD_SHIFT",
      "SDL_PIXELFORMAT_ARGB8888", "SDL_PIXELFORMAT_RGB888", "SDL_SYSWM_X11", "SDL_FALSE", "SDL_TRUE",
    ]
    return list
  }()

  /// Hints, compared as text.
  static let strings = ["SDL_HINT_FRAMEBUFFER_ACCELERATION", "SDL_HINT_NO_SIGNAL_HANDLERS", "SDL_HINT_VIDEODRIVER"]

  /// A C program printing `expression value` for each of `numbers` and `strings`, after `includes`.
  static func probe(includes: String) -> String {
    var c = includes + "\n#include <stdio.h>\n#include <stddef.h>\nint main(void) {\n"
    for e in numbers { c += "  printf(\"%s %lld\\n\", \"\(e)\", (long long)(\(e)));\n" }
    for e in strings { c += "  printf(\"%s %s\\n\", \"\(e)\", \(e));\n" }
    return c + "  return 0;\n}\n"
  }

  /// The real headers, X11's member of `SDL_SysWMinfo` included (through Xlib's headers).
  static let realIncludes = "#include <SDL2/SDL.h>\n#include <SDL2/SDL_syswm.h>"

  static var shim: URL { Paths.repoRoot.appendingPathComponent("Sources/CSDL2/shim.h") }

  /// Compiles `source` with `cc` in `dir` and runs it; its output.
  static func compileAndRun(_ source: String, named name: String, in dir: URL) throws -> String {
    let file = dir.appendingPathComponent("\(name).c")
    let exe = dir.appendingPathComponent(name)
    try source.write(to: file, atomically: true, encoding: .utf8)
    let cc = try Command.run(
      URL(fileURLWithPath: "/usr/bin/env"), ["cc", "-std=c11", "-Wall", "-Werror", "-o", exe.path, file.path],
      timeout: 60)
    try #require(cc.status == 0, "cc \(name).c failed:\n\(cc.err)")
    let run = try Command.run(exe, [], timeout: 10)
    try #require(run.status == 0, "\(name) exited \(run.status): \(run.err)")
    return run.out
  }

  @Test("every size, offset and constant the display uses is SDL's")
  func layoutsAndConstants() throws {
    let dir = try TempDir()
    let real = try Self.compileAndRun(Self.probe(includes: Self.realIncludes), named: "real", in: dir.url)
    let ours = try Self.compileAndRun(
      Self.probe(includes: "#include \"\(Self.shim.path)\""), named: "shim", in: dir.url)
    let realLines = real.split(separator: "\n")
    let ourLines = ours.split(separator: "\n")
    #expect(realLines.count == Self.numbers.count + Self.strings.count)
    for (r, o) in zip(realLines, ourLines) { #expect(o == r, "shim.h: \(o); SDL's headers: \(r)") }
    #expect(ourLines.contains("sizeof(SDL_Event) 56"))
    #expect(ourLines.contains("sizeof(((SDL_SysWMinfo *)0)->info) 64"))
  }

  @Test("every function of the table has the type SDL's headers declare it with")
  func signatures() throws {
    let dir = try TempDir()
    // The table's fields are declared in SDL's own types here (WB_SDL_ABI_FROM_SDL_H), so a
    // parameter or result that differs from SDL's prototype is a compile error.
    let source = """
      \(Self.realIncludes)
      #define WB_SDL_ABI_FROM_SDL_H
      #include "\(Self.shim.path)"
      #include <stdio.h>
      #define WB_CHECK(result, name, parameters) \\
        _Static_assert(__builtin_types_compatible_p(__typeof__(((wb_SDL *)0)->name), __typeof__(&name)), #name);
      WB_SDL_FUNCTIONS(WB_CHECK)
      #define WB_COUNT(result, name, parameters) + 1
      int main(void) { printf("%d\\n", 0 WB_SDL_FUNCTIONS(WB_COUNT)); return 0; }

      """
    let out = try Self.compileAndRun(source, named: "signatures", in: dir.url)
    #expect(Int(out.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0 >= 34)
  }
}
