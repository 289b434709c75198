import Foundation
import TestSupport
import Testing

@testable import Runtime
@testable import WallboardCLI

/// `make run ARGS=…` (README's command for a real team) runs the board on the sources ARGS names
/// and nothing else: the simulated team is the board's own default, not the Makefile's.
@Suite struct MakeRunTests {
  /// The arguments `make -n run ARGS=args` would pass to `wallboard`, split into words.
  static func command(args: String) throws -> [String] {
    let make = try #require(
      ["/usr/bin/make", "/bin/make"].first { FileManager.default.isExecutableFile(atPath: $0) }, "make is needed")
    let r = try Command.run(
      URL(fileURLWithPath: make), ["-n", "--no-print-directory", "-C", Paths.repoRoot.path, "run", "ARGS=\(args)"],
      environment: ["PATH": "/usr/bin:/bin"])
    #expect(r.status == 0, "\(r.err)")
    let line = try #require(r.out.split(separator: "\n").last { $0.contains("/wallboard\" run") }, "\(r.out)")
    let words = line.split(separator: "\"").last.map(String.init) ?? ""
    return words.split(separator: " ").map(String.init)
  }

  @Test func aSourceInArgsReplacesTheSimulatedTeam() throws {
    let words = try Self.command(args: "--source orchestra:/srv/shop")
    #expect(words == ["run", "--source", "orchestra:/srv/shop"], "\(words)")
    let options = try ArgumentParser.parse(words)
    #expect(options.effectiveSources.map(\.name) == ["orchestra:/srv/shop"])
  }

  @Test func withoutArgsTheBoardsOwnDefaultIsTheSimulatedTeam() throws {
    let words = try Self.command(args: "")
    #expect(words == ["run"], "\(words)")
    let options = try ArgumentParser.parse(words)
    #expect(options.effectiveSources.map(\.name) == ["sim"])
  }

  /// The default journal is one per set of sources: the real team's run never loads the
  /// simulation's, nor a mixture's; a bare `make run` keeps the journal it always had.
  @Test func theRealTeamsDefaultJournalIsItsOwn() throws {
    let env = ["HOME": "/h"]
    let real = try ArgumentParser.parse(try Self.command(args: "--source orchestra:/srv/shop"))
    let demo = try ArgumentParser.parse(try Self.command(args: ""))
    let mixed = try ArgumentParser.parse(["run", "--source", "sim", "--source", "orchestra:/srv/shop"])
    let explicitSim = try ArgumentParser.parse(["run", "--source", "sim"])
    let paths = [real, demo, mixed].map { JournalPlace.path($0, environment: env) }
    #expect(Set(paths).count == 3, "\(paths)")
    #expect(JournalPlace.path(explicitSim, environment: env) == paths[1], "the demo's journal is as before")
    #expect(paths[0] == "/h/.local/state/wallboard/" + JournalPlace.defaultName(sources: ["orchestra:/srv/shop"]))
  }
}
