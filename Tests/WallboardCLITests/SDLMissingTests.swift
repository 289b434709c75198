import Foundation
import TestSupport
import Testing

/// SDL2 is opened when a window is: without it, `--display sdl` says what is missing and how to
/// install it, and a snapshot never notices. Run where the
/// machine allows a mount namespace (root): the library is hidden behind an empty file there.
@Suite("Without SDL2", .serialized)
struct SDLMissingTests {
  /// Runs `wallboard arguments` with SDL2 hidden; nil where no mount namespace can be made.
  static func runWithoutSDL(_ arguments: [String], environment: String = "") throws -> (status: Int32, err: String)? {
    guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare") else { return nil }
    let library = URL(fileURLWithPath: "/usr/lib/x86_64-linux-gnu/libSDL2-2.0.so.0").resolvingSymlinksInPath().path
    guard FileManager.default.fileExists(atPath: library) else { return nil }
    let command =
      "mount --bind /dev/null '\(library)' || exit 99; \(environment) exec '\(Paths.binary.path)' "
      + arguments.map { "'\($0)'" }.joined(separator: " ")
    let r = try Command.run(
      URL(fileURLWithPath: "/usr/bin/unshare"), ["-m", "/bin/sh", "-c", command],
      environment: ["WALLBOARD_HOME": Paths.repoRoot.path, "PATH": "/usr/bin:/bin"])
    if r.status == 99 { return nil }  // no mount namespace here after all
    return (r.status, r.err)
  }

  @Test func sdlSaysWhatIsMissingAndASnapshotDoesNotNeedIt() throws {
    guard
      let sdl = try Self.runWithoutSDL(
        ["run", "--display", "sdl", "--source", "sim", "--no-journal"], environment: "SDL_VIDEODRIVER=dummy")
    else { return }
    #expect(sdl.status == 1)
    #expect(sdl.err.contains("dlopen(libSDL2-2.0.so.0) failed"), "\(sdl.err)")
    #expect(sdl.err.contains("apt-get install libsdl2-2.0-0"), "\(sdl.err)")
    // A snapshot never needs it.
    let dir = try TempDir("wallboard-nosdl")
    let out = dir.url.appendingPathComponent("board.png").path
    let snapshot = try #require(
      try Self.runWithoutSDL([
        "snapshot", "--source", "sim:seed=1", "--at", "2026-11-11T15:00:00Z", "--tz", "UTC", "--size", "320x180",
        "--out", out, "--no-journal",
      ]))
    #expect(snapshot.status == 0, "\(snapshot.err)")
    #expect(FileManager.default.fileExists(atPath: out))
  }
}
