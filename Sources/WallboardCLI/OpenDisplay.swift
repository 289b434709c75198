internal import Clock
internal import DisplayCore
internal import Displays

extension Options {
  /// Opens the display `--display` names (`DisplayRegistry`: each kind opens itself), with what
  /// the options and the environment say; its failure as the command line's error.
  func openDisplay(environment: [String: String], console: Console, clock: Clock) throws(CLIError) -> any Display {
    let context = DisplayContext(
      size: size, mode: mode, fbGeometry: fbGeometry, environment: environment,
      keysFromStandardInput: !effectiveSources.contains { $0.name.hasSuffix(":-") }, say: console.error,
      show: console.out, clock: clock)
    do throws(DisplayOpenError) {
      return try display.open(context)
    } catch {
      throw .display(error)
    }
  }
}
