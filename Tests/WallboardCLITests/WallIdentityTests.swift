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
