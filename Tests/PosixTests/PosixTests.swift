import Foundation
import Posix
import Testing

/// The file-system and process facts the board asks of glibc.
@Suite struct FileSystemTests {
  let dir: String

  init() throws {
    dir = FileManager.default.temporaryDirectory.appendingPathComponent("wallboard-posix-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
  }

  @Test func namesListsADirectoryWithoutItsDotsAndNothingForAFile() throws {
    try Data().write(to: URL(fileURLWithPath: dir + "/a.layout"))
    try FileManager.default.createDirectory(atPath: dir + "/sub", withIntermediateDirectories: false)
    #expect(FileSystem.names(in: dir)?.sorted() == ["a.layout", "sub"])
    #expect(FileSystem.names(in: dir + "/a.layout") == nil)
    #expect(FileSystem.names(in: dir + "/missing") == nil)
    #expect(FileSystem.kind(of: dir + "/sub") == .directory)
    #expect(FileSystem.kind(of: dir + "/a.layout") == .file)
    #expect(FileSystem.kind(of: "/dev/null") == .other)
    #expect(FileSystem.kind(of: dir + "/missing") == nil)
  }

  @Test func aPathIsResolvedThroughItsLinksAndAMissingTailIsKept() throws {
    try FileManager.default.createDirectory(atPath: dir + "/real", withIntermediateDirectories: false)
    try FileManager.default.createSymbolicLink(atPath: dir + "/link", withDestinationPath: dir + "/real")
    let real = FileSystem.resolved(dir + "/real")
    #expect(FileSystem.resolved(dir + "/link/journal.db") == real + "/journal.db")
    #expect(FileSystem.resolved(dir + "/link/../real/./journal.db") == real + "/journal.db")
    #expect(FileSystem.resolved(dir + "/link/new/..") == real)
    #expect(FileSystem.linkTarget(dir + "/link") == dir + "/real")
    #expect(FileSystem.linkTarget(dir + "/real") == nil)
    #expect(FileSystem.parent(of: "/a/b") == "/a")
    #expect(FileSystem.parent(of: "/a") == "/")
  }

  @Test func directoriesAreMadeWithTheirParentsAndAFileInTheWayIsNamed() throws {
    #expect(FileSystem.makeDirectories(dir + "/x/y/z", mode: 0o700) == nil)
    #expect(FileSystem.kind(of: dir + "/x/y/z") == .directory)
    let mode = try FileManager.default.attributesOfItem(atPath: dir + "/x/y/z")[.posixPermissions] as? Int
    #expect(mode == 0o700)
    #expect(FileSystem.makeDirectories(dir + "/x/y/z") == nil, "there already")
    try Data().write(to: URL(fileURLWithPath: dir + "/file"))
    let failed = FileSystem.makeDirectories(dir + "/file/below")
    #expect(failed?.path == dir + "/file" && failed?.errno == ENOTDIR, "\(String(describing: failed))")
  }

  @Test func aRenameSaysTheCallThatFailed() throws {
    try Data([1]).write(to: URL(fileURLWithPath: dir + "/from"))
    #expect(FileSystem.rename(dir + "/from", to: dir + "/to") == nil)
    #expect(FileSystem.exists(dir + "/to") && !FileSystem.exists(dir + "/from"))
    let failed = FileSystem.rename(dir + "/from", to: dir + "/again")
    #expect(failed?.call == "rename" && failed?.errno == ENOENT)
  }

  @Test func theProcessSeesItsEnvironmentAndHostName() {
    #expect(ProcessFacts.environment()["PATH"] == ProcessInfo.processInfo.environment["PATH"])
    #expect(ProcessFacts.environment().count == ProcessInfo.processInfo.environment.count)
    var name = [CChar](repeating: 0, count: 256)
    gethostname(&name, 255)
    let expected = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    #expect(ProcessFacts.hostName() == expected)
  }
}
