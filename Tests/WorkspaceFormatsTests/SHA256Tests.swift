import Foundation
import TestSupport
import Testing
import WorkspaceFormats

/// The digest that names a workspace's database (`~/.orchestra/db/<first 16 hex digits>.db`).
@Suite("SHA-256 of a workspace's path")
struct SHA256Tests {
  @Test func sha256MatchesTheStandardAndPython() throws {
    #expect(SHA256.hex([]) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    #expect(SHA256.hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    for text in ["/home/ana/ws", String(repeating: "ü/", count: 300), "/"] {
      let python = try Python.run(
        "import hashlib, sys; print(hashlib.sha256(sys.argv[1].encode()).hexdigest())", arguments: [text])
      #expect(
        SHA256.hex(Array(text.utf8)) == python.trimmingCharacters(in: .whitespacesAndNewlines), "\(text.prefix(20))")
    }
  }
}
