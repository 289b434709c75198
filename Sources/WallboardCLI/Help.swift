/// `wallboard --help`, generated from the option table.
enum Help {
  static var text: String {
    var lines = [
      "Wallboard — a full-screen team status board for the Orchestra ecosystem.",
      "",
      "Usage:",
      "  wallboard [run] [options]          the full-screen board (run is the default command)",
      "  wallboard snapshot --out FILE.png  render one frame to a PNG file, then exit",
      "  wallboard inspect                  print the board's projections as JSON, then exit",
      "  wallboard themes                   list themes: id, label, dark|light",
      "  wallboard layouts                  list bundled layouts: name, description",
      "  wallboard publish --source SPEC… --to nats://HOST:PORT/BOARD",
      "                                     follow the sources like a board and publish what it took",
      "                                     to NATS JetStream (until stopped, or until finite sources",
      "                                     ended and the broker acknowledged everything)",
      "  wallboard fleet --source nats://HOST:PORT/BOARD [--json]",
      "                                     the walls following that board, one a line",
      "  wallboard --help | --version",
      "",
      "Options:",
    ]
    for spec in OptionTable.all {
      let head = "  " + spec.name + (spec.value.map { " " + $0 } ?? "")
      lines.append(head.padding(36) + spec.help)
    }
    lines += [
      "",
      "Keys in a window: q/Esc quit, t/T next/previous theme, v variant, ←/→ pages, d diagnostics,",
      "  f full screen ↔ a window (two thirds of the screen, or the --size it was opened at).",
      "",
      "Exit codes: 0 success, 1 runtime failure, 2 usage error, 3 bad input file.",
    ]
    return lines.joined(separator: "\n")
  }
}

extension String {
  func padding(_ width: Int) -> String {
    count >= width ? self + "  " : self + String(repeating: " ", count: width - count)
  }
}
