public import Clock
public import WallboardCore

/// The logic of `orchestra:WORKSPACE` as a value: the store found again every `checkInterval`
/// seconds, and the push hint (`PushHintMachine`) beside it; says when what the detail tells of
/// the push changed. The shell, `OrchestraWorkspaceSource`, reads the files and the socket.
public struct WorkspaceMachine: SourceMachine {
  public enum Input: Sendable {
    case start, tick, stop
    case push(PushHintMachine.Input)
  }

  public enum Action: Hashable, Sendable {
    /// Find the store again (and follow it when it changed).
    case locateStore
    case push(PushHintMachine.Action)
    /// What the detail says of the push changed: "push from 127.0.0.1:50234", a refusal, nil.
    case pushNote(String?)
  }

  public static var start: Input { .start }
  public static var stop: Input { .stop }
  public static var tick: Input { .tick }

  public private(set) var push: PushHintMachine
  public let checkInterval: Double
  private var nextLook: Monotonic?
  private var note: String?

  public init(push: PushHintMachine, checkInterval: Double = 5) {
    self.push = push
    self.checkInterval = checkInterval
  }

  public var isStopped: Bool { push.phase == .stopped }

  public var nextWake: Monotonic? { [nextLook, push.nextWake].compactMap { $0 }.min() }

  public mutating func on(_ input: Input, at now: Monotonic, stamp: Instant) -> [Action] {
    var out: [Action] = []
    let given: PushHintMachine.Input
    switch input {
    case .stop:
      nextLook = nil
      return push.on(.stop, at: now).map(Action.push)
    case .start:
      nextLook = now
      given = .start
    case .tick: given = .tick
    case .push(let p): given = p
    }
    // The store first, then the push: what it hints at is read from the store just found.
    if let look = nextLook, now >= look {
      nextLook = now.adding(seconds: checkInterval)
      out.append(.locateStore)
    }
    out += push.on(given, at: now).map(Action.push)
    if push.note != note {
      note = push.note
      out.append(.pushNote(note))
    }
    return out
  }
}
