public import DisplayCore
public import Displays
internal import EventSources
public import Journal
public import PNG
public import Posix
public import SourceKit

/// Everything that ends a command early, with the exit code `cli.md` gives it. A layer's own
/// error is carried as it is (a `SourceError`, a `DisplayOpenError`, a `JournalError`…) and
/// becomes text here, in one place: `message` and `exitCode` are the only switches over it.
public enum CLIError: Error, Equatable, CustomStringConvertible {
  /// Unknown option, bad value: exit 2. The message names the option and the accepted values.
  case usage(String)
  /// A value the sources do not have (a `--project` none of them holds): exit 2, as a bad
  /// value is, in one line that lists what they have instead of pointing to `--help`.
  case badValue(String)
  /// A bad input file (layout, theme, config): exit 3. Names the file and the line.
  case badInput(String)
  /// A source whose data cannot be had: a path it names that is not there (a workspace folder,
  /// its `.projects/`, a database), a file it cannot read or decode: exit 3, as a bad input is.
  case source(SourceError)
  /// The display `--display` names cannot open: exit 2 for a usage mistake (a PNG path that is a
  /// folder), else 1 (no device, no display server).
  case display(DisplayOpenError)
  /// The display failed while the board ran (the window server went away): exit 1.
  case displayLost(DisplayError)
  /// A journal that cannot be used: one named with `--journal`, or one read by `inspect`: exit 1.
  case journal(JournalError)
  /// An image that cannot be written (`snapshot --out`): exit 1, or 2 when the path is not a
  /// regular file's. `option` is what named the path.
  case output(PNGError, option: String)
  /// A system call on an input file failed (the config, a layout): the call, its path and its
  /// `errno`, and what the file was; exit 3, as a bad input is.
  case system(SystemCallError, what: String)
  /// What the machine lacks (Wallboard's assets, a font that does not load): exit 1.
  case runtime(String)

  public var exitCode: Int32 {
    switch self {
    case .usage, .badValue: 2
    case .badInput, .source, .system: 3
    case .display(let e): e.kind == .usage ? 2 : 1
    case .output(let e, _): e.kind == .notRegularFile ? 2 : 1
    case .displayLost, .journal, .runtime: 1
    }
  }

  /// What went wrong, without the program's name (for a line of its own or a panel).
  var message: String {
    switch self {
    case .usage(let m), .badValue(let m), .badInput(let m), .runtime(let m): m
    case .source(let e): e.description
    case .display(let e): e.message
    case .displayLost(let e): e.message
    case .journal(let e): e.description
    case .output(let e, let option): "\(option): \(e.message)"
    case .system(let e, let what): "cannot read \(what): \(e)"
    }
  }

  public var description: String {
    pointsToHelp ? "wallboard: \(message)\nTry 'wallboard --help'." : "wallboard: \(message)"
  }

  /// Whether the fix is in the command line, which the help explains.
  private var pointsToHelp: Bool {
    switch self {
    case .usage: true
    case .display(let e): e.kind == .usage
    case .output(let e, _): e.kind == .notRegularFile
    case .badValue, .badInput, .source, .system, .displayLost, .journal, .runtime: false
    }
  }
}
