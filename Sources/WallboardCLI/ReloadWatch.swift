internal import Foundation
internal import Layout
internal import Synchronization
internal import Themes

/// Set by the SIGHUP handler (an atomic store is async-signal-safe); read by the run loop.
private let hangup = Atomic<Int32>(0)
private let hangupInstalled = Atomic<Bool>(false)

/// Hot reload: on SIGHUP, or when the layout file, the config file or a theme file changes, the
/// config is read again under the original command line and the scene loaded again from it: the
/// layout, the themes, the theme and variant (when the file changed them; until then a key's
/// choice stays), the scale, and `LiveSettings`. A broken file keeps the old scene and leaves an
/// error line on the board; the next frame shows the change with no blank frame in between.
struct ReloadWatch {
  let options: Options
  let resources: Resources
  /// The options after the last good reload (`LiveSettings` are taken from them).
  private(set) var latest: Options
  private var stamps: [String: Date] = [:]
  private var lastCheck = Date.distantPast

  init(options: Options, resources: Resources) {
    self.options = options
    self.resources = resources
    self.latest = options
    ReloadWatch.installHangup()
    stamps = currentStamps()
  }

  /// SIGHUP only sets a flag; the run loop does the work.
  static func installHangup() {
    guard !hangupInstalled.exchange(true, ordering: .relaxed) else { return }
    signal(SIGHUP) { _ in hangup.store(1, ordering: .relaxed) }
  }

  /// The files whose change reloads the board.
  var watched: [String] {
    var files: [String] = []
    if let c = options.config { files.append(c) }
    if let l = try? Scene.layoutPath(options.layout, resources: resources) { files.append(l) }
    if let names = try? FileManager.default.contentsOfDirectory(atPath: resources.themes) {
      files += names.sorted().map { resources.themes + "/" + $0 }
    }
    return files
  }

  func currentStamps() -> [String: Date] {
    var out: [String: Date] = [:]
    for f in watched {
      if let d = (try? FileManager.default.attributesOfItem(atPath: f))?[.modificationDate] as? Date { out[f] = d }
    }
    return out
  }

  /// Reloads when asked to (SIGHUP, or `force`) or when a file changed (checked every 2 s).
  /// Returns nil when nothing was reloaded, "" after a good reload (clearing an old error line),
  /// else the error line to show.
  mutating func check(_ scene: inout Scene, force: Bool = false) -> String? {
    let signalled = hangup.exchange(0, ordering: .relaxed) != 0 || force
    guard signalled || Date().timeIntervalSince(lastCheck) >= 2 else { return nil }
    lastCheck = Date()
    let now = currentStamps()
    guard signalled || now != stamps else { return nil }
    stamps = now
    do {
      var o = options
      if let config = options.config {
        let text = try TextFile.read(config, what: "config file")
        o = try ArgumentParser.applyConfig(text, file: config, under: options.commandLine)
        o.commandLine = options.commandLine
      }
      let fresh = try Scene.load(o, resources: resources)
      scene.replace(with: fresh, themeChanged: o.theme != latest.theme, variantChanged: o.variant != latest.variant)
      latest = o
      return ""
    } catch let error as CLIError {
      return "Reload failed: " + error.description.replacingOccurrences(of: "wallboard: ", with: "")
    } catch {
      return "Reload failed: \(error)"
    }
  }
}
