import Clock
import DisplayCore
import Displays
import Raster
import Synchronization
import TestSupport
import Testing

/// `--display` is read by the registry: every spelling comes back as its own name, a text no kind
/// takes lists every kind, and a new kind is a line in a registry, not a change to the command line.
@Suite("The display registry")
struct DisplayRegistryTests {
  @Test(arguments: [
    "auto", "sdl", "console", "drm", "drm:/dev/dri/card1", "fb", "fb:/dev/fb1", "term", "text", "png:/tmp/board.png",
  ])
  func everySpellingComesBackAsItsName(_ text: String) throws {
    let display = try DisplayRegistry.standard.parse(text)
    #expect(display.name == text)
    #expect("\(display)" == text)
    // Where `--mode` means something: the displays that may take DRM.
    #expect(
      display.mayUseDRM == ["auto", "console", "drm"].contains(text.split(separator: ":").first.map(String.init)))
  }

  @Test(arguments: ["", "png", "png:", "drm:", "sdl:0", "DRM", "terminal", " auto"])
  func aTextNoKindTakesListsThemAll(_ text: String) {
    #expect(throws: DisplaySpecError.self) { try DisplayRegistry.standard.parse(text) }
    do {
      _ = try DisplayRegistry.standard.parse(text)
    } catch {
      #expect(
        error.description
          == "\"\(text)\" is not one of auto, sdl, console, drm[:DEVICE], fb[:DEVICE], term, text, png:PATH")
    }
  }

  @Test func theUsageAndTheWordsAreTheKinds() {
    let r = DisplayRegistry.standard
    #expect(r.valueSpelling == "auto|sdl|console|drm[:DEVICE]|fb[:DEVICE]|term|text|png:PATH")
    #expect(r.words == ["auto", "sdl", "console", "drm", "fb", "term", "text", "png"])
  }

  /// A display the standard registry does not have: a kind and a configuration, and the registry
  /// parses and opens it through the same context every display gets.
  @Test func aNewKindIsALineInTheRegistry() throws {
    struct WallKind: DisplayKind {
      var usage: String { "wall:N" }
      var word: String { "wall" }
      func parse(_ text: String) -> (any DisplayConfiguration)? {
        guard text.hasPrefix("wall:"), let n = Int(text.dropFirst(5)) else { return nil }
        return Wall(n: n)
      }
    }
    struct Wall: DisplayConfiguration {
      var n: Int
      var name: String { "wall:\(n)" }
      func open(_ c: DisplayContext) throws(DisplayOpenError) -> any Display {
        c.say("wall \(n) at \(c.size.map { "\($0.width)x\($0.height)" } ?? "?")")
        return try TextKind.Text().open(c)
      }
    }
    let registry = DisplayRegistry(kinds: DisplayRegistry.standard.kinds + [WallKind()])
    #expect(registry.usages.hasSuffix("png:PATH, wall:N"))
    let display = try registry.parse("wall:3")
    #expect(display.name == "wall:3")
    #expect(!display.mayUseDRM)

    let said = Mutex<[String]>([])
    let context = DisplayContext(
      size: (64, 32), mode: nil, fbGeometry: nil, environment: [:], keysFromStandardInput: false,
      say: { line in said.withLock { $0.append(line) } }, show: { _ in }, clock: TestClock().clock,
      registry: registry)
    let opened = try display.open(context)
    #expect(said.withLock { $0 } == ["wall 3 at 64x32"])
    opened.close()
  }
}
