import Foundation
import TestSupport
import Testing

/// Where SDL2 can be hidden from the board: a mount namespace of its own (`unshare -m`), in which
/// the library is covered by `/dev/null`. Any failure to set that up — not root, no `unshare`,
/// no library to hide, a chroot or a container without CAP_SYS_ADMIN — is a reason, and the suite
/// is skipped with it; never a failure, never a silent pass.
enum SDLSandbox: Equatable {
  /// The sandbox works: this library can be hidden.
  case ready(library: String)
  /// It cannot be made here, and why.
  case unavailable(String)

  /// Decides from what was found: the user, whether `unshare` is there, the library (resolved;
  /// nil when missing) and the probe's outcome (nil when it was not run).
  static func decide(
    uid: uid_t, unshare: Bool, library: String?, probe: (status: Int32, err: String)?
  ) -> SDLSandbox {
    guard uid == 0 else { return .unavailable("not root (uid \(uid)): no mount namespace to hide SDL2 in") }
    guard unshare else { return .unavailable("no /usr/bin/unshare") }
    guard let library else { return .unavailable("libSDL2-2.0.so.0 is not installed: nothing to hide") }
    guard let probe else { return .unavailable("the mount namespace was not tried") }
    guard probe.status == 0 else {
      let said = probe.err.trimmingCharacters(in: .whitespacesAndNewlines)
      return .unavailable(
        "cannot hide \(library) in a mount namespace (exit \(probe.status)\(said.isEmpty ? "" : ": \(said)"))")
    }
    return .ready(library: library)
  }

  /// This machine's sandbox: the probe is the very mount the tests make, on `/bin/true`.
  static let current: SDLSandbox = {
    let unshare = FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare")
    let path = URL(fileURLWithPath: "/usr/lib/x86_64-linux-gnu/libSDL2-2.0.so.0").resolvingSymlinksInPath().path
    let library = FileManager.default.fileExists(atPath: path) ? path : nil
    var probe: (status: Int32, err: String)?
    if getuid() == 0, unshare, let library {
      do {
        let r = try Command.run(
          URL(fileURLWithPath: "/usr/bin/unshare"),
          ["-m", "/bin/sh", "-c", "mount --bind /dev/null '\(library)' && exec /bin/true"],
          environment: ["PATH": "/usr/bin:/bin"])
        probe = (r.status, r.err)
      } catch {
        probe = (-1, "\(error)")
      }
    }
    return decide(uid: getuid(), unshare: unshare, library: library, probe: probe)
  }()

  var isReady: Bool { if case .ready = self { true } else { false } }

  /// Why the suite is skipped (or that it runs).
  var reason: String {
    switch self {
    case .ready(let library): "hides \(library)"
    case .unavailable(let why): why
    }
  }
}

/// The skip decision itself, everywhere: each way the sandbox cannot be made gives a reason.
@Suite struct SDLSandboxDecisionTests {
  @Test func everyFailureToMakeTheSandboxIsAReason() {
    let lib = "/usr/lib/x86_64-linux-gnu/libSDL2-2.0.so.0.2600.5"
    #expect(
      SDLSandbox.decide(uid: 1000, unshare: true, library: lib, probe: nil)
        == .unavailable(
          "not root (uid 1000): no mount namespace to hide SDL2 in"))
    #expect(SDLSandbox.decide(uid: 0, unshare: false, library: lib, probe: nil) == .unavailable("no /usr/bin/unshare"))
    #expect(!SDLSandbox.decide(uid: 0, unshare: true, library: nil, probe: nil).isReady)
    #expect(!SDLSandbox.decide(uid: 0, unshare: true, library: lib, probe: nil).isReady)
    // A container without CAP_SYS_ADMIN: unshare itself is refused.
    let refused = SDLSandbox.decide(
      uid: 0, unshare: true, library: lib, probe: (1, "unshare: unshare failed: Operation not permitted\n"))
    #expect(
      refused
        == .unavailable(
          "cannot hide \(lib) in a mount namespace (exit 1: unshare: unshare failed: Operation not permitted)"))
    // The namespace is made but the bind mount is refused (a read-only or chrooted /usr).
    #expect(!SDLSandbox.decide(uid: 0, unshare: true, library: lib, probe: (32, "mount: permission denied")).isReady)
    #expect(SDLSandbox.decide(uid: 0, unshare: true, library: lib, probe: (0, "")) == .ready(library: lib))
  }

  /// The decision on this machine agrees with what the sandbox does: when it says ready, the
  /// library really is hidden inside it.
  @Test func theDecisionHereMatchesTheSandbox() throws {
    guard case .ready(let library) = SDLSandbox.current else {
      #expect(!SDLSandbox.current.reason.isEmpty)
      return
    }
    let r = try Command.run(
      URL(fileURLWithPath: "/usr/bin/unshare"),
      ["-m", "/bin/sh", "-c", "mount --bind /dev/null '\(library)' && exec /usr/bin/stat -L -c %s '\(library)'"],
      environment: ["PATH": "/usr/bin:/bin"])
    #expect(r.status == 0 && r.out.trimmingCharacters(in: .whitespacesAndNewlines) == "0", "\(r.out) \(r.err)")
  }
}

/// SDL2 is opened when a window is: without it, `--display sdl` says what is missing and how to
/// install it, and a snapshot never notices. Runs where a mount namespace can be made (root, with
/// CAP_SYS_ADMIN): the library is hidden behind an empty file there; elsewhere the suite is
/// skipped and says why (`SDLSandbox`).
@Suite(
  "Without SDL2", .serialized,
  .enabled(if: SDLSandbox.current.isReady, Comment(rawValue: "SDL2 cannot be hidden: \(SDLSandbox.current.reason)")))
struct SDLMissingTests {
  /// Runs `wallboard arguments` with SDL2 hidden. The suite runs only where the probe made this
  /// very sandbox, so a sandbox that fails now is a failure.
  static func runWithoutSDL(_ arguments: [String], environment: String = "") throws -> (status: Int32, err: String) {
    guard case .ready(let library) = SDLSandbox.current else { throw XServer.Failure(SDLSandbox.current.reason) }
    let command =
      "mount --bind /dev/null '\(library)' || exit 99; \(environment) exec '\(Paths.binary.path)' "
      + arguments.map { "'\($0)'" }.joined(separator: " ")
    let r = try Command.run(
      URL(fileURLWithPath: "/usr/bin/unshare"), ["-m", "/bin/sh", "-c", command],
      environment: ["WALLBOARD_HOME": Paths.repoRoot.path, "PATH": "/usr/bin:/bin"])
    if r.status == 99 { throw XServer.Failure("the probe hid SDL2, this run could not: \(r.err)") }
    return (r.status, r.err)
  }

  @Test func sdlSaysWhatIsMissingAndASnapshotDoesNotNeedIt() throws {
    let sdl = try Self.runWithoutSDL(
      ["run", "--display", "sdl", "--source", "sim", "--no-journal"], environment: "SDL_VIDEODRIVER=dummy")
    #expect(sdl.status == 1)
    #expect(sdl.err.contains("dlopen(libSDL2-2.0.so.0) failed"), "\(sdl.err)")
    #expect(sdl.err.contains("apt-get install libsdl2-2.0-0"), "\(sdl.err)")
    // A snapshot never needs it.
    let dir = try TempDir("wallboard-nosdl")
    let out = dir.url.appendingPathComponent("board.png").path
    let snapshot = try Self.runWithoutSDL([
      "snapshot", "--source", "sim:seed=1", "--at", "2026-11-11T15:00:00Z", "--tz", "UTC", "--size", "320x180",
      "--out", out, "--no-journal",
    ])
    #expect(snapshot.status == 0, "\(snapshot.err)")
    #expect(FileManager.default.fileExists(atPath: out))
  }
}
