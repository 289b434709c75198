internal import Clock
internal import PNG
internal import Raster
internal import Runtime
internal import WallboardCore
internal import Widgets
internal import ZoneFiles

/// `wallboard snapshot`: renders one frame of the board to a PNG file: what `run` shows on a
/// screen of `--size` under `--rotate`.
enum Snapshot {
  static func run(_ o: Options, resources: Resources, clock: Clock) throws(CLIError) {
    let now = clock.now()
    guard let out = o.out else { throw .usage("snapshot needs --out FILE.png") }
    try checkOutput(out, option: "--out")
    let size = o.size ?? (1920, 1080)
    let screen = Screen(width: size.width, height: size.height, rotation: o.rotate)
    var scene = try Scene.load(o, resources: resources, board: screen.canvasSize)
    let load = try FiniteLoad.load(o, now: now, clock: clock)
    let zone = o.timeZone ?? .current
    // The moment shown is `at`. With `--at`, everything is as of that moment: the ages and the
    // staleness, so the same `--at` gives the same pixels every time (nothing on the board turns
    // with the second itself: the live dot does not pulse); without it, the ages and the
    // staleness are real time.
    let frame = FrameModel(
      state: load.state, at: load.at, now: o.at ?? now, zone: zone, unit: o.unit, activeSprint: o.activeSprint,
      flowDays: o.flowDays, sprintZones: ZoneBook.read(for: load.state))
    let (width, height) = screen.canvasSize
    var board = Canvas(width: width, height: height, background: scene.theme.bg)
    _ = scene.draw(frame, into: &board)
    do {
      try PNG.write(screen.frame(for: board, background: scene.theme.bg), to: out)
    } catch {
      throw .output(error, option: "--out")
    }
  }

  /// Refuses, before anything is drawn, an output path that writing would replace with a file
  /// (a device node, a FIFO, a directory): a usage error naming `option` and the path.
  static func checkOutput(_ path: String, option: String) throws(CLIError) {
    do { _ = try PNG.writeTarget(for: path) } catch {
      throw .output(error, option: option)
    }
  }
}
