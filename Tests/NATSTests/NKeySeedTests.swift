import Foundation
import TestSupport
import Testing

@testable import NATS

/// NKey seeds: NATS's encoding, the public key derived with Ed25519, .creds files, and the
/// errors a mistyped or foreign seed gets.
@Suite struct NKeySeedTests {
  /// The pair in the NATS documentation (checked independently with openssl and Python's base32
  /// before relying on it).
  static let docsSeed = "SUACSSL3UAHUDXKFSNVUZRF5UHPMWZ6BFDTJ7M6USDXIEDNPPQYYYCU3VY"
  static let docsPublic = "UDXU4RCSJNZOIQHZNWXHXORDPRTGNJAHAHFRGZNEEJCPQTT2M7NLCNF4"

  @Test func theDocumentsSeedGivesItsPublicKey() throws {
    let seed = try NKeySeed(text: Self.docsSeed + "\n")
    #expect(try seed.publicKey() == Self.docsPublic)
    #expect(!"\(seed)".contains("SU"), "the description hides the seed")
  }

  @Test func crc16IsXmodem() {
    #expect(CRC16.xmodem(Array("123456789".utf8)) == 0x31C3)
  }

  /// A seed with one character changed, one of another kind, a public key, a cut one.
  @Test(arguments: [
    ("SUACSSL3UAHUDXKFSNVUZRF5UHPMWZ6BFDTJ7M6USDXIEDNPPQYYYCU3VA", "checksum"),
    (String(docsSeed.dropLast(2)), "58"),
    (docsPublic, "not a seed"),
    ("SUACSSL3UAHUDXKFSNVUZRF5UHPMWZ6BFDTJ7M6USDXIEDNPPQYYYCU3V1", "base32"),
    ("", "empty"),
    (docsSeed + "\n" + docsSeed, "one line"),
  ])
  func aBadSeedIsRefusedAndSaysWhy(text: String, why: String) {
    let error = #expect(throws: NATSError.self) { try NKeySeed(text: text) }
    #expect(error?.kind == .badSeed)
    #expect(error?.description.contains(why) == true, "\(String(describing: error))")
  }

  /// A well-formed account seed ("SA…", prefix 0x90 0x00) is a seed, but not a user's.
  @Test func anAccountSeedIsNotAUsers() {
    var raw: [UInt8] = [0x90, 0x00] + [UInt8](repeating: 7, count: 32)
    let crc = CRC16.xmodem(raw)
    raw += [UInt8(crc & 0xFF), UInt8(crc >> 8)]
    let text = Base32.encode(raw)
    #expect(text.hasPrefix("SA"))
    let error = #expect(throws: NATSError.self) { try NKeySeed(text: text) }
    #expect(error?.description.contains("another kind") == true, "\(String(describing: error))")
  }

  /// A .creds file: the seed block is taken, the JWT ignored.
  @Test func aCredsFileGivesItsSeed() throws {
    let creds = """
      -----BEGIN NATS USER JWT-----
      eyJ0eXAiOiJKV1QiLCJhbGciOiJlZDI1NTE5LW5rZXkifQ.eyJqdGkiOiJYWFgifQ.c2lnbmF0dXJl
      ------END NATS USER JWT------

      ************************* IMPORTANT *************************
      NKEY Seed printed below can be used to sign and prove identity.

      -----BEGIN USER NKEY SEED-----
      \(Self.docsSeed)
      ------END USER NKEY SEED------

      *************************************************************

      """
    #expect(try NKeySeed(text: creds).publicKey() == Self.docsPublic)
    let noSeed = creds.components(separatedBy: "-----BEGIN USER NKEY SEED-----")[0]
    let error = #expect(throws: NATSError.self) { try NKeySeed(text: noSeed) }
    #expect(error?.description.contains("BEGIN USER NKEY SEED") == true, "\(String(describing: error))")
  }

  @Test func aFileIsReadWithACapAndNamedInErrors() throws {
    let dir = try TempDir()
    let good = dir.url.appendingPathComponent("wall.nk").path
    try (Self.docsSeed + "\n").write(toFile: good, atomically: true, encoding: .utf8)
    #expect(try NKeySeed.read(path: good).publicKey() == Self.docsPublic)

    let big = dir.url.appendingPathComponent("big.nk").path
    try String(repeating: "A", count: 70_000).write(toFile: big, atomically: true, encoding: .utf8)
    let tooBig = #expect(throws: NATSError.self) { try NKeySeed.read(path: big) }
    #expect(tooBig?.kind == .file)
    #expect(tooBig?.description.contains(big) == true)

    let missing = dir.url.appendingPathComponent("none.nk").path
    let absent = #expect(throws: NATSError.self) { try NKeySeed.read(path: missing) }
    #expect(absent?.kind == .file)
    #expect(absent?.description.contains(missing) == true)
  }

  /// scripts/nats-nkey.sh (openssl and coreutils under dash) makes a seed whose public key,
  /// derived here, is the one it printed; the seed file is private.
  @Test func theScriptsKeyIsReadHere() throws {
    let dir = try TempDir()
    let script = Paths.repoRoot.appendingPathComponent("scripts/nats-nkey.sh").path
    let r = try Command.run(URL(fileURLWithPath: "/bin/dash"), [script, "wall1", dir.url.path], timeout: 30)
    #expect(r.status == 0, "\(r.err)")
    let printed = r.out.trimmingCharacters(in: .whitespacesAndNewlines)
    #expect(printed.count == 56 && printed.hasPrefix("U"))
    let seedPath = dir.url.appendingPathComponent("wall1.nk").path
    #expect(try NKeySeed.read(path: seedPath).publicKey() == printed)
    let written = try String(contentsOfFile: dir.url.appendingPathComponent("wall1.pub").path, encoding: .utf8)
    #expect(written == printed + "\n")
    let mode = try FileManager.default.attributesOfItem(atPath: seedPath)[.posixPermissions] as? Int
    #expect(mode == 0o600)
    // Never overwrites a seed.
    let again = try Command.run(URL(fileURLWithPath: "/bin/dash"), [script, "wall1", dir.url.path], timeout: 30)
    #expect(again.status != 0)
    #expect(try NKeySeed.read(path: seedPath).publicKey() == printed)
  }
}
