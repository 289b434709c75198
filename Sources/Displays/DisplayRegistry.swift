public import Clock
public import DRMDisplay
public import DisplayCore

/// A display as `--display` names it, parsed once: it knows its spelling and opens itself.
public protocol DisplayConfiguration: Sendable, CustomStringConvertible {
  /// Its spelling, as `--display` takes it back: "drm:/dev/dri/card1".
  var name: String { get }
  /// Whether it may draw through DRM (where `--mode` means something).
  var mayUseDRM: Bool { get }
  /// Opens it; why not, named.
  func open(_ context: DisplayContext) throws(DisplayOpenError) -> any Display
}

extension DisplayConfiguration {
  public var description: String { name }
  public var mayUseDRM: Bool { false }
}

/// One kind of display: the spelling it takes and how it reads it.
public protocol DisplayKind: Sendable {
  /// How the usage names it: "drm[:DEVICE]".
  var usage: String { get }
  /// Its bare word, for suggestions: "drm".
  var word: String { get }
  /// The display `text` names, when it is this kind's; nil when it is another kind's.
  func parse(_ text: String) -> (any DisplayConfiguration)?
}

/// What a display needs from the edge to open: the options that shape it, the environment, where
/// to say things, and the one clock.
public struct DisplayContext: Sendable {
  /// `--size`: the window's, the terminal's or the PNG's size.
  public var size: (width: Int, height: Int)?
  /// `--mode`: DRM's mode instead of the preferred one.
  public var mode: DRMModeRequest?
  /// `--fb-geometry`: a file standing in for a framebuffer device.
  public var fbGeometry: (width: Int, height: Int, bpp: Int)?
  public var environment: [String: String]
  /// Whether the terminal display reads keys from standard input (no source reads it).
  public var keysFromStandardInput: Bool
  /// Writes a line to standard error (what `auto` chose, why the console stays in text mode).
  public var say: @Sendable (String) -> Void
  /// Writes to standard output (the text board).
  public var show: @Sendable (String) -> Void
  public var clock: Clock
  /// The registry `auto` and `console` open their choice through.
  public var registry: DisplayRegistry

  public init(
    size: (width: Int, height: Int)?, mode: DRMModeRequest?, fbGeometry: (width: Int, height: Int, bpp: Int)?,
    environment: [String: String], keysFromStandardInput: Bool, say: @escaping @Sendable (String) -> Void,
    show: @escaping @Sendable (String) -> Void, clock: Clock, registry: DisplayRegistry = .standard
  ) {
    self.size = size
    self.mode = mode
    self.fbGeometry = fbGeometry
    self.environment = environment
    self.keysFromStandardInput = keysFromStandardInput
    self.say = say
    self.show = show
    self.clock = clock
    self.registry = registry
  }
}

/// Why a display could not be opened: a usage mistake (exit 2: a PNG path that is a folder, a
/// size the terminal cannot hold) or a failure of the machine (exit 1: no such device, no
/// display server).
public struct DisplayOpenError: Error, Hashable, Sendable, CustomStringConvertible {
  public enum Kind: Hashable, Sendable { case usage, failed }
  public var kind: Kind
  public var message: String

  public init(_ kind: Kind, _ message: String) {
    self.kind = kind
    self.message = message
  }

  public var description: String { message }
}

/// A `--display` text no kind takes.
public struct DisplaySpecError: Error, Hashable, Sendable, CustomStringConvertible {
  public var text: String
  /// Every kind's usage: "auto, sdl, console, drm[:DEVICE], …".
  public var usages: String
  public var description: String { "\"\(text)\" is not one of \(usages)" }
}

/// Every display kind, in one place: `--display` is parsed here, its usage and its suggestions
/// come from here, and `auto` opens its choice through here.
public struct DisplayRegistry: Sendable {
  public let kinds: [any DisplayKind]

  public init(kinds: [any DisplayKind]) { self.kinds = kinds }

  /// The kinds Wallboard has.
  public static let standard = DisplayRegistry(kinds: [
    AutoKind(), SDLKind(), ConsoleKind(), DRMKind(), FramebufferKind(), TerminalKind(), TextKind(), PNGKind(),
  ])

  /// "auto, sdl, console, drm[:DEVICE], fb[:DEVICE], term, text, png:PATH".
  public var usages: String { kinds.map(\.usage).joined(separator: ", ") }
  /// "auto|sdl|console|…", for the option's value.
  public var valueSpelling: String { kinds.map(\.usage).joined(separator: "|") }
  /// The bare words, for "did you mean".
  public var words: [String] { kinds.map(\.word) }

  /// The display `text` names.
  public func parse(_ text: String) throws(DisplaySpecError) -> any DisplayConfiguration {
    for kind in kinds {
      if let c = kind.parse(text) { return c }
    }
    throw DisplaySpecError(text: text, usages: usages)
  }
}
