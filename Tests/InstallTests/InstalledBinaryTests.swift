import Foundation
import TestSupport
import Testing

/// The tree `make install` produces, run the way a kiosk runs it: no Swift toolchain on the
/// library path, an empty environment, the data found from the binary's own place.
///
/// `make test` installs a release build into `.build/install-test` and names its prefix in
/// `WALLBOARD_INSTALLED`; without that variable (a bare `swift test`) the suite is skipped, and
/// with it a missing binary fails.
/// Where `make test` installed the tree: `<DESTDIR>/usr/local`, from `WALLBOARD_INSTALLED`.
enum Installed {
  static var prefix: URL? {
    ProcessInfo.processInfo.environment["WALLBOARD_INSTALLED"].map { URL(fileURLWithPath: $0) }
  }
}

@Suite(
  "The installed binary",
  .enabled(if: Installed.prefix != nil, "make test installs a release build and sets WALLBOARD_INSTALLED"))
struct InstalledBinaryTests {
  /// What a run printed and how it ended.
  typealias Run = Command.Result

  /// The folder this test process loaded the toolchain's `libswiftCore.so` from.
  static let toolchainLibraries: String? = {
    // Read to the end: String(contentsOfFile:) stops after the first page of a /proc file.
    guard let data = FileHandle(forReadingAtPath: "/proc/self/maps")?.readDataToEndOfFile() else { return nil }
    let maps = String(decoding: data, as: UTF8.self)
    let suffix = "/libswiftCore.so"
    for line in maps.split(separator: "\n") {
      if let path = line.split(separator: " ").last, path.hasSuffix(suffix) {
        return String(path.dropLast(suffix.count))
      }
    }
    return nil
  }()

  /// `unshare --mount`, then an empty tmpfs over the toolchain's libraries, then `command`;
  /// nil where this process may not make a mount namespace (not root, or a container that
  /// forbids it).
  static let hidingToolchain: [String]? = {
    guard let libraries = toolchainLibraries else { return nil }
    let hide = [
      "/usr/bin/unshare", "--mount", "/bin/sh", "-c", #"mount -t tmpfs none "$0" && exec "$@""#, libraries,
    ]
    guard let probe = try? run(hide + ["/bin/true"], in: FileManager.default.temporaryDirectory), probe.status == 0
    else {
      print("InstallTests: cannot hide \(libraries) (unshare --mount refused); the binary runs with env -i only")
      return nil
    }
    return hide
  }()

  /// Runs `command` under `env -i PATH=/usr/bin:/bin`: nothing of the test's environment
  /// (`LD_LIBRARY_PATH`, `WALLBOARD_HOME`, the toolchain on `PATH`) reaches it. With
  /// `withoutToolchain`, the toolchain's libraries are also hidden where that is allowed.
  static func run(
    _ command: [String], in dir: URL, path: String = "/usr/bin:/bin", withoutToolchain: Bool = false
  ) throws -> Run {
    let clean = ["/usr/bin/env", "-i", "PATH=\(path)"] + command
    let full = (withoutToolchain ? hidingToolchain ?? [] : []) + clean
    // A binary copied a moment ago can be "busy" (ETXTBSY, status 126): a process another test
    // forked while the copy's file was open for writing holds that descriptor until it execs.
    // That lasts milliseconds; the run is tried again, a few times.
    var attempt = 0
    while true {
      let r = try Command.run(URL(fileURLWithPath: full[0]), Array(full.dropFirst()), in: dir)
      attempt += 1
      guard r.status == 126, r.err.contains("Text file busy"), attempt < 5 else { return r }
      Thread.sleep(forTimeInterval: 0.1 * Double(attempt))
    }
  }

  /// Copies the installed prefix into a fresh temporary folder and passes its `bin/wallboard`.
  ///
  /// Outside the checkout, the binary can only find its data in `../share/wallboard`: none of
  /// the folders above it holds a build tree's `assets/`.
  func withInstalledCopy(_ body: (_ binary: URL, _ dir: URL) throws -> Void) throws {
    let prefix = try #require(Installed.prefix)
    let installed = prefix.appendingPathComponent("bin/wallboard")
    try #require(
      FileManager.default.isExecutableFile(atPath: installed.path), "no installed binary at \(installed.path)")
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("wallboard-installed-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let copy = dir.appendingPathComponent("usr-local")
    try FileManager.default.copyItem(at: prefix, to: copy)
    try body(copy.appendingPathComponent("bin/wallboard"), dir)
  }

  @Test func lddListsNoSwiftLibrary() throws {
    let prefix = try #require(Installed.prefix)
    let binary = prefix.appendingPathComponent("bin/wallboard")
    try #require(FileManager.default.isExecutableFile(atPath: binary.path), "no installed binary at \(binary.path)")
    let r = try Self.run(["/usr/bin/ldd", binary.path], in: FileManager.default.temporaryDirectory)
    #expect(r.status == 0, "ldd: \(r.err)")
    let lines = r.out.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
    // A real dynamic executable with the C libraries it links: not an empty or failed listing.
    for needed in ["libc.so.6", "libfreetype.so.6", "libz.so.1"] {
      #expect(lines.contains { $0.hasPrefix(needed + " => /") }, "\(needed) in\n\(r.out)")
    }
    // SDL2 is opened when a window is, not at start: a board on the framebuffer never loads it.
    #expect(!lines.contains { $0.contains("libSDL2") }, "SDL2 is not linked:\n\(r.out)")
    // Nor QUIC's libraries: opened when an orchestra+quic:// source first connects.
    #expect(
      !lines.contains { $0.contains("ngtcp2") || $0.contains("gnutls") }, "ngtcp2 and GnuTLS are not linked:\n\(r.out)")
    // Nor the C++ runtime and the unwinder: linked in from their archives (scripts/static-link),
    // so the loader neither maps nor relocates them at every start.
    #expect(
      !lines.contains { $0.hasPrefix("libstdc++") || $0.hasPrefix("libgcc_s") },
      "libstdc++ and libgcc_s are linked in:\n\(r.out)")
    let swift = ["swift", "foundation", "dispatch", "blocksruntime", "icu", "xctest", "testing"]
    let offending = lines.filter { line in
      line.contains("not found") || swift.contains { line.lowercased().contains($0) }
    }
    #expect(offending.isEmpty, "the toolchain's libraries or missing ones:\n\(r.out)")
  }

  @Test func snapshotThemesAndLayoutsWorkFromTheInstalledData() throws {
    try withInstalledCopy { binary, dir in
      let png = dir.appendingPathComponent("board.png")
      let r = try Self.run(
        [
          binary.path, "snapshot", "--source", "sim:seed=1", "--at", "2026-11-11T15:00:00Z", "--tz", "UTC",
          "--layout", "tv", "--theme", "dracula", "--size", "640x360", "--out", png.path,
        ], in: dir, withoutToolchain: true)
      #expect(r.status == 0, "\(r.err)")
      let bytes = [UInt8](try Data(contentsOf: png).prefix(24))
      try #require(bytes.count == 24, "a PNG of \(bytes.count) bytes")
      #expect(bytes[0..<8] == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "the PNG signature")
      #expect(bytes[12..<16] == [0x49, 0x48, 0x44, 0x52], "IHDR first")
      let width = bytes[16..<20].reduce(0) { $0 << 8 | Int($1) }
      let height = bytes[20..<24].reduce(0) { $0 << 8 | Int($1) }
      #expect(width == 640 && height == 360)

      let themes = try Self.run([binary.path, "themes"], in: dir, withoutToolchain: true)
      #expect(themes.status == 0, "\(themes.err)")
      #expect(themes.out.split(separator: "\n").count == 26)
      let layouts = try Self.run([binary.path, "layouts"], in: dir, withoutToolchain: true)
      #expect(layouts.status == 0, "\(layouts.err)")
      let names = layouts.out.split(separator: "\n").map { String($0.prefix { $0 != "\t" }) }
      #expect(Set(names) == ["wall", "glance", "tv", "portrait"])
    }
  }

  /// Started by name through `PATH` (as from a shell), from a folder that is not its own.
  @Test func findsItsDataWhenStartedThroughPATH() throws {
    try withInstalledCopy { binary, dir in
      let bin = binary.deletingLastPathComponent().path
      let r = try Self.run(["wallboard", "layouts"], in: dir, path: bin + ":/usr/bin:/bin", withoutToolchain: true)
      #expect(r.status == 0, "\(r.err)")
      #expect(r.out.split(separator: "\n").count == 4)
    }
  }

  /// The static build prints what the debug build prints, time zones (tzdata) included.
  @Test func inspectMatchesTheDebugBuild() throws {
    let debug = Paths.binary
    try #require(FileManager.default.isExecutableFile(atPath: debug.path), "no debug build at \(debug.path)")
    try withInstalledCopy { binary, dir in
      for zone in ["UTC", "Europe/Berlin", "America/New_York"] {
        let arguments = ["inspect", "--source", "sim:seed=1", "--at", "2026-11-11T15:00:00Z", "--tz", zone]
        let installed = try Self.run([binary.path] + arguments, in: dir, withoutToolchain: true)
        #expect(installed.status == 0, "\(zone): \(installed.err)")
        #expect(installed.out.contains(#""at": "2026-11-11T15:00:00Z""#))
        let reference = try Self.run([debug.path] + arguments, in: dir)
        try #require(reference.status == 0, "\(zone): \(reference.err)")
        #expect(installed.out == reference.out, "\(zone)")
      }
    }
  }
}
