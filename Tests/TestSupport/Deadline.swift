public import Foundation
public import Testing

/// How a test waits for a process it started: never for ever. Past the deadline the process's
/// group is killed with SIGKILL and reaped, and the test fails with an issue that names the
/// command and the timeout (issue 20, item 9: one hung child once held `make test` for ten
/// minutes).
public enum Deadline {
  /// Runs `body` on a thread of its own and waits at most `timeout` seconds for it: a call that
  /// blocks fails the test that checks the result instead of hanging it. Nil when it did not
  /// finish (the thread is left to end on its own).
  public static func within<T: Sendable>(_ timeout: Double, _ body: @escaping @Sendable () -> T) -> T? {
    let box = ThreadResult<T>()
    let done = DispatchSemaphore(value: 0)
    Thread {
      box.value = body()
      done.signal()
    }.start()
    return done.wait(timeout: .now() + timeout) == .success ? box.value : nil
  }

  /// Waits up to `timeout` seconds for `process` to end; whether it ended by itself.
  ///
  /// At the deadline, the process's group (Foundation starts each child as the leader of a group
  /// of its own, so its children go too; a process that leads none is killed alone) gets SIGKILL,
  /// the process is reaped, and an issue naming `command` (by default the executable and its
  /// arguments) and `timeout` is recorded.
  @discardableResult
  public static func wait(
    for process: Process, timeout: Double, command: String? = nil, sourceLocation: SourceLocation = #_sourceLocation
  ) -> Bool {
    let end = Date().addingTimeInterval(timeout)
    while process.isRunning && Date() < end { Thread.sleep(forTimeInterval: 0.01) }
    guard process.isRunning else {
      process.waitUntilExit()  // already ended: only collects the status
      return true
    }
    kill(process)
    Issue.record(
      "\(command ?? describe(process)) did not exit within \(timeout) s: its process group was killed (SIGKILL)",
      sourceLocation: sourceLocation)
    return false
  }

  /// Everything each of `handles` (the read ends of pipes the child writes) yields until its end,
  /// read while `process` runs, within the same deadline as `wait(for:timeout:command:)`. The
  /// pipes are read as the output comes, so a child that writes much never blocks on a full one.
  public static func output(
    of handles: [FileHandle], process: Process, timeout: Double, command: String? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
  ) -> [Data] {
    let readers = handles.map(PipeDrain.init)
    wait(for: process, timeout: timeout, command: command, sourceLocation: sourceLocation)
    // The child is gone; a pipe ends unless something it started still holds it open.
    return readers.map { reader in
      if let data = reader.finish(within: 2) { return data }
      Issue.record(
        "\(command ?? describe(process)): its output was still open 2 s after it ended (a child of it holds the pipe)",
        sourceLocation: sourceLocation)
      return reader.partial
    }
  }

  /// `output(of: [handle], …)` for one pipe.
  public static func output(
    of handle: FileHandle, process: Process, timeout: Double, command: String? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
  ) -> Data {
    output(of: [handle], process: process, timeout: timeout, command: command, sourceLocation: sourceLocation)[0]
  }

  /// SIGKILL to `process`'s group (or to it alone when it leads none), then reaps it. The wait
  /// after SIGKILL is bounded by the kernel.
  public static func kill(_ process: Process) {
    let pid = process.processIdentifier
    guard pid > 0, process.isRunning else { return }
    if getpgid(pid) == pid { Foundation.kill(-pid, SIGKILL) } else { Foundation.kill(pid, SIGKILL) }
    process.waitUntilExit()
  }

  static func describe(_ process: Process) -> String {
    ([process.executableURL?.path ?? "?"] + (process.arguments ?? [])).joined(separator: " ")
  }
}

/// Reads a file handle to its end on a thread of its own.
private final class PipeDrain: @unchecked Sendable {
  private let lock = NSLock()
  private var data = Data()
  private let done = DispatchSemaphore(value: 0)

  init(_ handle: FileHandle) {
    let thread = Thread { [self] in
      while true {
        let chunk = handle.availableData
        if chunk.isEmpty { break }
        lock.withLock { data.append(chunk) }
      }
      done.signal()
    }
    thread.name = "test pipe reader"
    thread.start()
  }

  /// What was read so far.
  var partial: Data { lock.withLock { data } }

  /// Everything, once the end was reached within `seconds`; nil if it was not.
  func finish(within seconds: Double) -> Data? {
    done.wait(timeout: .now() + seconds) == .success ? partial : nil
  }
}

/// What a thread a test started left, read after it signalled.
private final class ThreadResult<T>: @unchecked Sendable { var value: T? }
