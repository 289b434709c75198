/// Everything that ends a command early, with the exit code `cli.md` gives it.
/// Errors from every layer become user text here, in one place.
public enum CLIError: Error, Equatable, CustomStringConvertible {
  /// Unknown option, bad value: exit 2. The message names the option and the accepted values.
  case usage(String)
  /// A value the sources do not have (a `--project` none of them holds): exit 2, as a bad
  /// value is, in one line that lists what they have instead of pointing to `--help`.
  case badValue(String)
  /// A bad input file (layout, theme, config, events), or a path a source names that is not
  /// there (a workspace folder, its `.projects/`): exit 3. Names the file and the line.
  case badInput(String)
  /// The display cannot open, a device is busy…: exit 1.
  case runtime(String)

  public var exitCode: Int32 {
    switch self {
    case .usage, .badValue: 2
    case .badInput: 3
    case .runtime: 1
    }
  }

  /// What went wrong, without the program's name (for a line of its own or a panel).
  var message: String {
    switch self {
    case .usage(let m), .badValue(let m), .badInput(let m), .runtime(let m): m
    }
  }

  public var description: String {
    switch self {
    case .usage(let m): "wallboard: \(m)\nTry 'wallboard --help'."
    case .badValue(let m), .badInput(let m), .runtime(let m): "wallboard: \(m)"
    }
  }
}
