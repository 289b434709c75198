// swift-tools-version:6.0
// Wallboard — a native, full-screen team status board for the Orchestra ecosystem.
// Data flows one way: sources → events → reducer → board state → projections → widgets → display.
import Foundation
import PackageDescription

let strict: [SwiftSetting] = [
  .enableUpcomingFeature("InternalImportsByDefault"),
  .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
  name: "Wallboard",
  platforms: [.macOS(.v13)],
  products: [
    .executable(name: "wallboard", targets: ["wallboard"]),
    .executable(name: "wallboard-bench", targets: ["wallboard-bench"]),
  ],
  targets: [
    // Domain values, BoardState and the pure reducer. No I/O, no clocks, no C.
    .target(
      name: "WallboardCore", swiftSettings: strict,
      // Double.rounded() and friends call libm; nothing else links it on Linux.
      linkerSettings: [.linkedLibrary("m", .when(platforms: [.linux]))]),
    // The board's binary codec: every BoardInput and a whole BoardState, both ways, exactly; one
    // decoder per format version, fields declared once.
    .target(name: "Codec", dependencies: ["WallboardCore"], swiftSettings: strict),
    // Pure functions from BoardState to what the widgets draw: burndown, tallies, progress, sources.
    .target(name: "Projections", dependencies: ["WallboardCore"], swiftSettings: strict),
    // tzdata's zone files, read for the projections (which read none).
    .target(name: "ZoneFiles", dependencies: ["WallboardCore", "Projections"], swiftSettings: strict),
    // Pure, size-capped decoders: JSON, JSON Lines framing, JSON → Event.
    .target(name: "Wire", dependencies: ["WallboardCore"], swiftSettings: strict),
    // The one clock: wall time for stamping, monotonic deadlines and waits; `.system` is the only
    // reader of the real clocks (`make lint` checks).
    .target(name: "Clock", dependencies: ["WallboardCore"], swiftSettings: strict),
    // The few file-system and process facts the board asks of the system (a directory's names,
    // a file's bytes up to a cap, a path resolved, the environment), on glibc: no Foundation.
    .target(name: "Posix", swiftSettings: strict),
    // The workspace formats, pure: front matter, YAML, the audit trail, feature files and rows.
    // No I/O, no SQLite, no clock.
    .target(name: "WorkspaceFormats", dependencies: ["WallboardCore", "Wire"], swiftSettings: strict),
    // The seam between a source's shell and a server's bytes: the Transport and TransportDialer
    // protocols, deadline reads on the one clock, and TCP as the first conformer (QUIC next).
    .target(name: "Transport", dependencies: ["Clock"], swiftSettings: strict),
    // ngtcp2 (QUIC) with its GnuTLS crypto, and GnuTLS: their headers (Debian's libngtcp2-dev,
    // libngtcp2-crypto-gnutls-dev, libgnutls28-dev, in /usr/include) type a table of functions
    // that shim.h fills with dlopen when a QUIC connection is first made; nothing is linked (no
    // pkg-config: its Libs would link them), so a board without QUIC never loads them.
    .systemLibrary(name: "CQUIC"),
    // The Orchestra protocol's QUIC transport: one connection on a thread of its own, a stream per
    // request, mutual TLS with the Orchestra CA. The one module that imports CQUIC.
    .target(name: "QUIC", dependencies: ["CQUIC", "Clock", "Transport"], swiftSettings: strict),
    // libnats (NATS with JetStream and key-value; Debian's libnats-dev, /usr/include/nats): its
    // header types a table of functions that shim.h fills with dlopen when a NATS connection is
    // first made, as CQUIC's; with the six libcrypto functions an NKey's Ed25519 needs, declared
    // there (OpenSSL 3's stable ABI, so no libssl-dev). Nothing is linked (no pkg-config).
    .systemLibrary(name: "CNATS"),
    // NATS and JetStream for a fleet of walls: connections, streams, acknowledged publishes,
    // ordered consumers, key-value buckets, NKey seeds. The one module that imports CNATS.
    .target(name: "NATS", dependencies: ["CNATS", "Clock"], swiftSettings: strict),
    // The pure half of the sources: the EventSource protocol, the registry and the specs, every
    // source's machine (the Orchestra session, the workspace, the push hint, polling, the
    // simulation), the workspace locator, backoff. No thread, no file, no socket.
    .target(
      name: "SourceKit", dependencies: ["WallboardCore", "Wire", "WorkspaceFormats", "Codec", "Clock"],
      swiftSettings: strict),
    // The I/O half: where events come from — the simulated team, JSON Lines files, Orchestra's
    // workspaces and servers — as shells that do what their machines ask (sockets through a
    // Transport, files, watchers, the SQLite readers), every one run by the one MachineDriver.
    .target(
      name: "EventSources",
      dependencies: [
        "SourceKit", "WallboardCore", "Wire", "WorkspaceFormats", "SQLite", "Journal", "Clock", "Transport", "QUIC",
        "NATS", "Posix",
      ],
      swiftSettings: strict),
    // A board on NATS JetStream, the publishing side: the publisher (a recorder that sends every
    // input the board takes to the board's stream, and the whole board to its bucket), the
    // broker's stream and buckets made and read back, and the walls' reports read for `fleet`.
    // The walls' side is a source (`nats://`, EventSources).
    .target(
      name: "Relay", dependencies: ["NATS", "EventSources", "SourceKit", "Codec", "WallboardCore", "Clock"],
      swiftSettings: strict),
    // The SQLite journal of what the board received: inputs, snapshots, retention.
    .target(name: "Journal", dependencies: ["WallboardCore", "Codec", "SQLite", "Clock"], swiftSettings: strict),
    // C libraries from Debian packages, one system-library target each, found by pkg-config.
    .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
    .systemLibrary(name: "CFreeType", pkgConfig: "freetype2", providers: [.apt(["libfreetype-dev"])]),
    // SDL2's ABI, declared in Sources/CSDL2/shim.h (no headers, no pkg-config: that would link it):
    // the library (libsdl2-2.0-0) is opened with dlopen when a window is, so other displays never
    // load it and building needs nothing of SDL2.
    .systemLibrary(name: "CSDL2"),
    .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
    // The one module that imports SQLite: connections, prepared statements, typed errors.
    .target(name: "SQLite", dependencies: ["CSQLite"], swiftSettings: strict),

    // Pixels, colour and anti-aliased primitives.
    .target(name: "Raster", swiftSettings: strict),
    // The one line splitter of config, layout and theme files (LF and CRLF).
    .target(name: "TextLines", swiftSettings: strict),
    // PNG encoding and decoding through zlib.
    // Optimized in every build: its filters work 16 bytes at a time (SIMD), which unoptimized
    // code runs some fifty times slower, and every test that writes a PNG would pay for it.
    .target(
      name: "PNG", dependencies: ["Raster", "CZlib"], swiftSettings: strict + [.unsafeFlags(["-O"])]),
    // FreeType faces, the glyph cache, text measurement and drawing.
    .target(name: "Glyphs", dependencies: ["Raster", "CFreeType"], swiftSettings: strict),
    // Layout files → rectangles.
    .target(name: "Layout", dependencies: ["Raster", "TextLines"], swiftSettings: strict),
    // Projections drawn into rectangles.
    .target(
      name: "Widgets",
      dependencies: ["WallboardCore", "Projections", "Raster", "Glyphs", "Themes", "Layout"],
      swiftSettings: strict),
    // The seam between the run loop and every display: the Display protocol, frames, events.
    .target(name: "DisplayCore", dependencies: ["Raster"], swiftSettings: strict),
    // The SDL2 window.
    .target(
      name: "SDLDisplay", dependencies: ["Raster", "DisplayCore", "CSDL2", "Clock"], swiftSettings: strict),
    // The Linux framebuffer header and the syscalls it needs.
    .systemLibrary(name: "CFramebuffer"),
    // The Linux framebuffer, through a syscall seam.
    .target(
      name: "FramebufferDisplay", dependencies: ["Raster", "DisplayCore", "CFramebuffer"], swiftSettings: strict),
    // libdrm's KMS API (mode setting, dumb buffers, page flips), linked: it is small and has no
    // dependencies of its own.
    .systemLibrary(name: "CDRM", pkgConfig: "libdrm", providers: [.apt(["libdrm-dev"])]),
    // The board's own display on DRM/KMS, through a syscall seam.
    .target(
      name: "DRMDisplay", dependencies: ["Raster", "DisplayCore", "FramebufferDisplay", "CDRM"],
      swiftSettings: strict),
    // Every display kind in one registry: `--display` parsed once into a configuration that
    // opens itself (auto, sdl, console, drm, fb, term, text, png), the PNG file and text displays,
    // the console guard around DRM and the framebuffer.
    .target(
      name: "Displays",
      dependencies: [
        "Raster", "PNG", "Clock", "DisplayCore", "SDLDisplay", "FramebufferDisplay", "DRMDisplay", "TerminalDisplay",
      ],
      swiftSettings: strict),
    // What a display on a wall needs: the night schedule, burn-in protection, page turns.
    .target(name: "Kiosk", dependencies: ["WallboardCore", "Projections", "Raster"], swiftSettings: strict),
    // The board as 24-bit-colour half-block characters in a terminal.
    .target(name: "TerminalDisplay", dependencies: ["Raster", "DisplayCore"], swiftSettings: strict),
    // The 26 Orchestra themes, read from data files under assets/.
    .target(name: "Themes", dependencies: ["Raster", "TextLines", "Posix"], swiftSettings: strict),
    // The running board: the run loop as a value stepped a turn at a time, the presenter (the
    // board canvas, the kept screen frame), the pixel and text renderers, the inbox, the stop
    // signals and the shell that turns the loop on the real clock.
    .target(
      name: "Runtime",
      dependencies: [
        "WallboardCore", "Projections", "ZoneFiles", "EventSources", "SourceKit", "Journal", "Clock", "Raster",
        "Glyphs",
        "Themes", "Layout", "Widgets", "DisplayCore", "Kiosk", "Posix",
      ],
      swiftSettings: strict),
    // Argument parsing, commands, inspect JSON, error → message. Only this knows every module.
    .target(
      name: "WallboardCLI",
      dependencies: [
        "WallboardCore", "Projections", "Wire", "EventSources", "SourceKit", "Themes", "Raster", "PNG", "Glyphs",
        "Layout", "Widgets", "DisplayCore", "FramebufferDisplay", "DRMDisplay", "TerminalDisplay", "Kiosk",
        "TextLines", "Journal", "ZoneFiles", "Codec", "Clock", "Runtime", "Displays", "Relay", "NATS",
        "WorkspaceFormats", "Posix",
      ],
      swiftSettings: strict),
    // Linked by lld with packed relative relocations (DT_RELR, glibc ≥ 2.36: Debian 12, Raspberry
    // Pi OS) and no symbol table for other objects to bind to: the dynamic loader no longer reads
    // a megabyte of relocation records at every start (about 1.5 MiB less resident, docs/pi.md).
    // A release build also takes the C++ runtime and the unwinder the Swift runtime uses from
    // their archives (scripts/static-link): libstdc++ and libgcc_s are not loaded at start.
    .executableTarget(
      name: "wallboard", dependencies: ["WallboardCLI"], swiftSettings: strict,
      linkerSettings: [
        .unsafeFlags(
          ["-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs", "-Xlinker", "--no-export-dynamic"],
          .when(platforms: [.linux])),
        .unsafeFlags(
          ["-L", Context.packageDirectory + "/scripts/static-link"], .when(platforms: [.linux], configuration: .release)
        ),
      ]),
    .executableTarget(
      name: "wallboard-bench",
      dependencies: [
        "WallboardCore", "Projections", "Wire", "EventSources", "SourceKit", "SQLite", "Raster", "Glyphs", "Themes",
        "Layout",
        "Widgets", "Journal", "PNG", "Clock", "QUIC", "Transport", "NATS", "Relay", "Codec",
      ],
      swiftSettings: strict),

    .target(
      name: "TestSupport",
      dependencies: ["WallboardCore", "Wire", "Raster", "PNG", "DisplayCore", "Clock", "Transport"],
      path: "Tests/TestSupport",
      swiftSettings: strict),
    .testTarget(
      name: "WallboardCoreTests", dependencies: ["WallboardCore", "Codec", "TestSupport"],
      swiftSettings: strict),
    .testTarget(
      name: "CodecTests", dependencies: ["Codec", "WallboardCore", "TestSupport"],
      swiftSettings: strict),
    .testTarget(
      name: "ProjectionsTests", dependencies: ["Projections", "ZoneFiles", "WallboardCore", "Wire", "TestSupport"],
      swiftSettings: strict),
    .testTarget(
      name: "WireTests", dependencies: ["Wire", "WallboardCore", "TestSupport"],
      swiftSettings: strict),
    .testTarget(
      name: "EventSourcesTests",
      dependencies: [
        "Posix",
        "EventSources", "SourceKit", "Projections", "WallboardCore", "Codec", "Wire", "TestSupport", "Clock",
        "Transport", "QUIC", "SQLite",
      ],
      swiftSettings: strict),
    .testTarget(
      name: "QUICTests",
      dependencies: [
        "QUIC", "Transport", "Clock", "EventSources", "SourceKit", "WallboardCore", "Wire", "TestSupport",
      ],
      swiftSettings: strict),
    // NKey seeds, and the NATS door against a real nats-server (NATSHub).
    .testTarget(name: "NATSTests", dependencies: ["NATS", "TestSupport"], swiftSettings: strict),
    .testTarget(name: "PosixTests", dependencies: ["Posix"], swiftSettings: strict),
    // The relay against a real nats-server: `wallboard publish` (the binary) and walls.
    .testTarget(
      name: "RelayTests",
      dependencies: [
        "Relay", "NATS", "EventSources", "SourceKit", "Codec", "WallboardCore", "Clock", "Wire", "WallboardCLI",
        "Journal", "TestSupport",
      ],
      swiftSettings: strict),
    .testTarget(
      name: "SourceKitTests", dependencies: ["SourceKit", "WallboardCore", "Wire", "Codec", "Clock", "TestSupport"],
      swiftSettings: strict),
    .testTarget(
      name: "WorkspaceFormatsTests", dependencies: ["WorkspaceFormats", "WallboardCore", "TestSupport"],
      swiftSettings: strict),
    .testTarget(name: "SQLiteTests", dependencies: ["SQLite", "TestSupport"], swiftSettings: strict),
    .testTarget(
      name: "JournalTests",
      dependencies: [
        "Journal", "WallboardCore", "Codec", "EventSources", "SourceKit", "SQLite", "TestSupport", "Clock",
      ],
      swiftSettings: strict),
    .testTarget(name: "ThemesTests", dependencies: ["Themes", "Raster"], swiftSettings: strict),
    .testTarget(name: "TextLinesTests", dependencies: ["TextLines"], swiftSettings: strict),
    .testTarget(name: "ClockTests", dependencies: ["Clock", "WallboardCore", "TestSupport"], swiftSettings: strict),
    .testTarget(
      name: "RasterTests", dependencies: ["Raster", "PNG", "TestSupport"], exclude: ["Goldens"],
      swiftSettings: strict),
    .testTarget(name: "PNGTests", dependencies: ["PNG", "Raster", "TestSupport"], swiftSettings: strict),
    .testTarget(name: "GlyphsTests", dependencies: ["Glyphs", "Raster", "PNG", "TestSupport"], swiftSettings: strict),
    .testTarget(
      name: "DRMDisplayTests", dependencies: ["DRMDisplay", "DisplayCore", "FramebufferDisplay", "Raster"],
      swiftSettings: strict),
    .testTarget(
      name: "SDLDisplayTests", dependencies: ["SDLDisplay", "Raster", "TestSupport", "Clock"], swiftSettings: strict),
    .testTarget(name: "LayoutTests", dependencies: ["Layout", "Raster", "TestSupport"], swiftSettings: strict),
    .testTarget(
      name: "WidgetsTests",
      dependencies: [
        "Widgets", "WallboardCore", "Projections", "ZoneFiles", "Raster", "Glyphs", "Themes", "Layout", "PNG",
        "TestSupport", "EventSources", "SourceKit",
      ],
      exclude: ["Goldens"], swiftSettings: strict),
    .testTarget(
      name: "FramebufferDisplayTests", dependencies: ["FramebufferDisplay", "Raster", "TestSupport"],
      swiftSettings: strict),
    .testTarget(
      name: "TerminalDisplayTests", dependencies: ["TerminalDisplay", "DisplayCore", "Raster", "TestSupport"],
      swiftSettings: strict),
    .testTarget(
      name: "KioskTests",
      dependencies: ["Kiosk", "WallboardCore", "Projections", "ZoneFiles", "Raster", "TestSupport"],
      swiftSettings: strict),
    .testTarget(
      name: "WallboardCLITests",
      dependencies: [
        "Posix",
        "WallboardCLI", "TestSupport", "SDLDisplay", "Raster", "Widgets", "Glyphs", "Themes", "Layout",
        "EventSources", "SourceKit", "WallboardCore", "Wire", "PNG", "Journal", "DisplayCore", "TerminalDisplay",
        "Kiosk",
        "Codec", "Clock", "Runtime", "Displays",
      ],
      exclude: ["Goldens"], swiftSettings: strict),
    .testTarget(
      name: "RuntimeTests",
      dependencies: [
        "Runtime", "TestSupport", "WallboardCore", "Clock", "DisplayCore", "Kiosk", "Raster", "Themes", "Layout",
        "Glyphs", "Widgets", "Projections", "EventSources", "SourceKit", "FramebufferDisplay",
      ],
      swiftSettings: strict),
    // The acceptance fuzz of issue 9: mutated events files and layouts, decoded, reduced,
    // projected and drawn in process (`make fuzz-cases` runs more cases).
    .testTarget(
      name: "FuzzTests",
      dependencies: [
        "WallboardCore", "Wire", "EventSources", "SourceKit", "Projections", "Raster", "Glyphs", "Themes", "Layout",
        "Widgets",
        "WallboardCLI", "TestSupport",
      ],
      swiftSettings: strict),
    // The tree `make install` produces, run without the toolchain (make test installs it first).
    .testTarget(name: "InstallTests", dependencies: ["TestSupport"], swiftSettings: strict),
  ],
  swiftLanguageModes: [.v6]
)

// The libFuzzer targets (`make fuzz`): one executable whose decoder WALLBOARD_FUZZ_TARGET
// picks, built only when WALLBOARD_FUZZ is set, with -sanitize=fuzzer,address (libFuzzer brings
// `main`, so the target is parsed as a library and no other build ever links it).
if ProcessInfo.processInfo.environment["WALLBOARD_FUZZ"] != nil {
  package.products.append(.executable(name: "wallboard-fuzz", targets: ["wallboard-fuzz"]))
  package.targets.append(
    .executableTarget(
      name: "wallboard-fuzz",
      dependencies: [
        "WallboardCore", "Codec", "Wire", "EventSources", "SourceKit", "WorkspaceFormats", "Layout", "Themes",
        "Widgets",
        "WallboardCLI", "QUIC", "Clock",
      ],
      path: "Tests/Fuzzers", exclude: ["Corpus"],
      swiftSettings: strict + [.unsafeFlags(["-parse-as-library"])]))
}
