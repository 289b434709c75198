public import Foundation

/// A fresh folder under the system's temporary directory, removed when the value goes away.
public final class TempDir {
  public let url: URL

  public init(_ prefix: String = "wallboard-test") throws {
    url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(at: url) }
}
