public import Clock
public import SourceKit

/// What a driver's machine cannot do itself: the I/O of its actions (sockets through a
/// `Transport`, files, handing inputs to the board) and the wait for what it reads.
public protocol MachineShell<Machine>: AnyObject, Sendable {
  associatedtype Machine: SourceMachine
  /// Does `action`; what it answered (a stream opened, a call's answer) is the machine's next
  /// input, taken before anything posted.
  func perform(_ action: Machine.Action) -> [Machine.Input]
  /// Waits until `deadline` for what the shell reads (an open stream's frames, a watched file's
  /// change) and returns it; `[]` at the deadline or when interrupted; nil when it reads nothing
  /// now, and the driver waits on its own.
  func await(until deadline: Monotonic) -> [Machine.Input]?
  /// Makes an `await` in progress (or the next) return now, and — when `stopping` — any
  /// blocking I/O of `perform` end early. From any thread.
  func interrupt(stopping: Bool)
  /// Called after every input with the machine as it then is (on the driver's thread): what the
  /// shell shows of it (a retry time) is taken here.
  func turned(_ machine: Machine)
  /// The machine stopped: close what is open.
  func finish()
}

extension MachineShell {
  public func turned(_ machine: Machine) {}
  public func finish() {}
}

/// Runs one machine on a thread of its own: one lock, one queue of posted inputs, and a wait
/// until the machine's next wake, the shell's readable input, or a post — whichever is first.
/// Every live source is one of these with its machine and its shell; none has a thread, a lock
/// or a sleep of its own.
///
/// Order: the answers of the actions of one input come first, then a stop, then what was
/// posted, then a tick when the wait ended with nothing.
public final class MachineDriver<Machine: SourceMachine>: @unchecked Sendable {
  public let name: String
  private let clock: Clock
  private let lock = Condition()
  private var machine: Machine
  /// A slice: taking the first is O(1) however many wait (a publisher's queue after an outage).
  private var posted: ArraySlice<Machine.Input> = []
  private var stopping = false
  private var interruptShell: (@Sendable (_ stopping: Bool) -> Void)?

  public init(_ machine: Machine, clock: Clock, name: String) {
    self.machine = machine
    self.clock = clock
    self.name = name
  }

  /// The machine now (a copy), read under the lock: what another thread shows of it.
  public var current: Machine { lock.withLock { machine } }

  /// What `body` reads of the machine now, under the lock (without copying it).
  public func read<T>(_ body: (Machine) -> T) -> T { lock.withLock { body(machine) } }

  /// Starts the thread, which feeds `Machine.start` first and ends when the machine stops.
  public func start(_ shell: some MachineShell<Machine>) {
    lock.withLock { interruptShell = { [shell] stopping in shell.interrupt(stopping: stopping) } }
    Threads.start(named: name) { [self] in run(shell) }
  }

  /// Gives the machine `input` soon, from any thread.
  public func post(_ input: Machine.Input) {
    let wake = lock.withLock { () -> (@Sendable (Bool) -> Void)? in
      posted.append(input)
      lock.broadcast()
      return interruptShell
    }
    wake?(false)
  }

  /// Gives the machine `Machine.stop` before anything else posted; the thread ends soon after.
  public func stop() {
    let wake = lock.withLock { () -> (@Sendable (Bool) -> Void)? in
      stopping = true
      lock.broadcast()
      return interruptShell
    }
    wake?(true)
  }

  /// The loop, on the calling thread, until the machine stops.
  public func run(_ shell: some MachineShell<Machine>) {
    var answers: [Machine.Input] = [Machine.start]
    while true {
      let input: Machine.Input
      if let next = answers.first {
        answers.removeFirst()
        input = lock.withLock { stopping ? Machine.stop : next }
      } else if let next = takePosted() {
        input = next
      } else {
        let deadline = lock.withLock { machine.nextWake } ?? .distantFuture
        if let read = shell.await(until: deadline) {
          answers = read
        } else {
          waitForPost(until: deadline)
        }
        input = answers.isEmpty ? (takePosted() ?? Machine.tick) : answers.removeFirst()
      }
      let (actions, after, stopped) = lock.withLock { () -> ([Machine.Action], Machine, Bool) in
        let actions = machine.on(input, at: clock.monotonic(), stamp: clock.now())
        return (actions, machine, machine.isStopped)
      }
      for action in actions { answers += shell.perform(action) }
      shell.turned(after)
      if stopped { break }
    }
    lock.withLock { interruptShell = nil }
    shell.finish()
  }

  /// A stop first, then the oldest posted input.
  private func takePosted() -> Machine.Input? {
    lock.withLock {
      if stopping { return Machine.stop }
      return posted.isEmpty ? nil : posted.removeFirst()
    }
  }

  private func waitForPost(until deadline: Monotonic) {
    lock.lock()
    defer { lock.unlock() }
    while posted.isEmpty && !stopping && clock.monotonic() < deadline {
      if !clock.wait(until: deadline, on: lock) { break }
    }
  }
}
