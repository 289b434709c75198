import Foundation
import Testing

/// The QUIC tests' certificates, made once per test process by `Tests/OrchestraPeer/make-certs.sh`
/// (Debian's `openssl`) in a temporary folder: an Ed25519 "Orchestra CA" with the server's and
/// the board's certificates as upstream makes them (`ca.crt`, `server.crt`/`.key`,
/// `wallboard-client.crt`/`.key`), and the wrong ones the refusal tests need (`other-ca.crt`,
/// `other-server.*`, `other-client.*`, `wrongname-server.*`).
public enum TestCertificates {
  private static let made: Result<String, Python.Failed> = {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
      "wallboard-certs-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    ).path
    let script = Paths.repoRoot.appendingPathComponent("Tests/OrchestraPeer/make-certs.sh").path
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/bin/bash")
    p.arguments = [script, dir]
    let err = Pipe()
    p.standardOutput = FileHandle.nullDevice
    p.standardError = err
    do { try p.run() } catch { return .failure(Python.Failed(description: "make-certs.sh: \(error)")) }
    let output = Deadline.output(
      of: [err.fileHandleForReading], process: p, timeout: 60, command: "make-certs.sh \(dir)")
    guard p.terminationStatus == 0 else {
      return .failure(Python.Failed(description: "make-certs.sh failed: " + String(decoding: output[0], as: UTF8.self)))
    }
    return .success(dir)
  }()

  /// The folder with every certificate and key.
  public static func folder() throws -> String { try made.get() }

  /// A folder holding only the named files of `folder()`, the first renamed as `as` says
  /// (`["other-ca.crt": "ca.crt"]`): a board's `--certs` with another CA, or no client certificate.
  public static func subset(_ files: [String: String]) throws -> String {
    let source = try folder()
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
      "wallboard-certs-subset-\(UInt32.random(in: 0...UInt32.max))"
    ).path
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    for (from, to) in files {
      try FileManager.default.copyItem(atPath: source + "/" + from, toPath: dir + "/" + to)
    }
    return dir
  }
}
