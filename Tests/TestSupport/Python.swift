public import Foundation
import Testing

/// Runs Python for tests that want an independent implementation (Pillow, Google's protobuf).
public enum Python {
  public struct Failed: Error, CustomStringConvertible {
    public var description: String
    public init(description: String) { self.description = description }
  }

  /// The interpreter: `$WALLBOARD_PYTHON` (`make test` sets Debian's), else `python3` on `PATH`.
  public static var interpreter: String { ProcessInfo.processInfo.environment["WALLBOARD_PYTHON"] ?? "python3" }

  /// The Python of the QUIC test peer: `$WALLBOARD_QUIC_PYTHON`, else the venv `make test` makes
  /// (`scripts/quic-venv.sh`: Debian's Python with aioquic from PyPI, under `.build/`); an
  /// error saying how to make it when it is not there.
  public static func quicInterpreter() throws -> String {
    if let p = ProcessInfo.processInfo.environment["WALLBOARD_QUIC_PYTHON"] { return p }
    let venv = Paths.repoRoot.appendingPathComponent(".build/quic-venv/bin/python").path
    guard FileManager.default.isExecutableFile(atPath: venv) else {
      throw Failed(description: "no QUIC peer Python at \(venv): run scripts/quic-venv.sh (make test does)")
    }
    return venv
  }

  /// Runs `python3 -B <arguments>` (no `__pycache__` left in the tree) with `input` on stdin;
  /// returns stdout, throws with stderr. Still running after `timeout` seconds, it is killed and
  /// the test fails (`Deadline`).
  public static func run(_ arguments: [String], input: Data = Data(), timeout: Double = 120) throws -> Data {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    p.arguments = [interpreter, "-B"] + arguments
    let inPipe = Pipe()
    let out = Pipe()
    let err = Pipe()
    p.standardInput = inPipe
    p.standardOutput = out
    p.standardError = err
    try p.run()
    // Feed stdin on another thread so a large output cannot deadlock us.
    let writer = Thread {
      inPipe.fileHandleForWriting.write(input)
      try? inPipe.fileHandleForWriting.close()
    }
    writer.start()
    let output = Deadline.output(
      of: [out.fileHandleForReading, err.fileHandleForReading], process: p, timeout: timeout,
      command: "\(interpreter) \(arguments.joined(separator: " "))")
    let (data, errData) = (output[0], output[1])
    guard p.terminationStatus == 0 else {
      throw Failed(
        description:
          "\(interpreter) \(arguments.joined(separator: " ")) failed: \(String(decoding: errData, as: UTF8.self))")
    }
    return data
  }

  /// Runs a script given as text.
  public static func run(_ script: String, arguments: [String]) throws -> String {
    String(decoding: try run(["-c", script] + arguments), as: UTF8.self)
  }

  /// `Tests/OrchestraPeer/codec.py`.
  public static var codec: String { Paths.repoRoot.appendingPathComponent("Tests/OrchestraPeer/codec.py").path }
}
