import Testing

@testable import WallboardCLI

@Suite struct WallIdentityTests {
  func digest(_ args: [String], config: String? = nil) throws -> String {
    var o = try ArgumentParser.parse(args)
    o.commandLine = args
    return WallIdentity.configDigest(o, configText: config)
  }

  @Test func wallsSetUpAlikeHaveOneDigestWhateverTheirOwnSettings() throws {
    let a = try digest(["run", "--source", "nats://h:4222/T", "--theme", "nord", "--wall-name", "hall"])
    let b = try digest([
      "run", "--theme=nord", "--source", "nats://h:4222/T", "--wall-name", "kitchen", "--nats-creds", "/k.nk",
      "--journal", "/j.db",
    ])
    #expect(a == b, "the order, the name, the credential and the journal are the wall's own")
    #expect(try digest(["run", "--source", "nats://h:4222/T", "--theme", "dracula"]) != a)
    let fromFile = try digest(["run", "--source", "nats://h:4222/T"], config: "theme nord\nwall-name x # mine\n")
    #expect(fromFile == (try digest(["run", "--source", "nats://h:4222/T", "--theme", "nord"])))
  }
}

@Suite struct WallOptionTests {
  @Test(arguments: [
    (["run", "--source", "nats://h:4222/T", "--source", "sim"], "the only --source of a wall"),
    (["run", "--source", "nats://h:4222/T", "--project", "shop"], "--project makes the board"),
    (["inspect", "--source", "nats://h:4222/T", "--workflow", "upstream"], "--workflow makes the board"),
  ])
  func aWallTakesNothingThatMakesTheBoard(_ args: [String], _ said: String) throws {
    let o = try ArgumentParser.parse(args)
    #expect(throws: CLIError.self) { try o.checkCombinations() }
    do { try o.checkCombinations() } catch { #expect(error.description.contains(said), "\(error)") }
  }

  @Test func aPublisherTakesThemAll() throws {
    let o = try ArgumentParser.parse([
      "publish", "--source", "sim", "--to", "nats://h:4222/T", "--project", "shop", "--workflow", "upstream",
    ])
    try o.checkCombinations()
  }
}
