internal import DisplayCore
internal import EventSources
internal import Foundation
internal import Runtime
internal import SourceKit
internal import WorkspaceFormats

/// Who a wall is to its fleet (`wallboard fleet`): its name (`--wall-name`, else the host
/// name), its build, and digests of its effective configuration and of the layout it draws, so
/// that a wall set up unlike the others stands out.
enum WallIdentity {
  /// The wall's presence when a source follows a published board; nil otherwise.
  static func presence(_ o: Options, screen: ScreenWatch) throws(CLIError) -> WallPresence? {
    guard o.effectiveSources.contains(where: { $0.configuration is RelayBoardSource.Spec }) else { return nil }
    let name = o.wallName ?? ProcessInfo.processInfo.hostName
    if let why = RelayAddress.problem(wall: name) {
      throw .usage(
        o.wallName == nil ? "the host name cannot name this wall: \(why); give --wall-name" : "--wall-name: \(why)")
    }
    return WallPresence(name: name, version: App.version, config: configDigest(o)) { screen.current }
  }

  /// The options that decide what a wall shows, in one canonical text, digested: the same on
  /// every wall set up alike (the wall's name, journal and certificates are its own).
  static func configDigest(_ o: Options) -> String {
    let parts: [String] = [
      "sources=" + o.effectiveSources.map(\.name).joined(separator: ","), "layout=\(o.layout)", "theme=\(o.theme)",
      "variant=\(o.variant)", "display=\(o.display.name)", "scale=\(o.scale)", "rotate=\(o.rotate)",
      "size=\(o.size.map { "\($0.width)x\($0.height)" } ?? "")", "tz=\(o.timeZone.map { "\($0)" } ?? "")",
      "unit=\(o.unit)", "flow-days=\(o.flowDays)", "workflow=\(o.workflow)", "estimates=\(o.estimateScale)",
      "night=\(o.night)", "pixel-shift=\(o.pixelShift)", "sprints=\(o.sprints)",
      "active-sprint=\(o.activeSprint ?? "")", "filter=\(o.filter)",
    ]
    return String(SHA256.hex(Array(parts.joined(separator: "\n").utf8)).prefix(16))
  }

  /// The digest of the layout file the board draws ("text" for a display that draws none).
  static func layoutDigest(_ o: Options, display: any Display, environment: [String: String]) -> String {
    guard display.traits.drawsPixels, let resources = try? Resources.locate(environment: environment) else {
      return "text"
    }
    let screen = Screen(width: display.size.width, height: display.size.height, rotation: o.rotate)
    let name =
      o.layout == LayoutIndex.automaticName
      ? LayoutIndex.automatic(width: screen.canvasSize.width, height: screen.canvasSize.height) : o.layout
    guard let path = try? Scene.layoutPath(name, resources: resources),
      let bytes = FileManager.default.contents(atPath: path)
    else { return "unreadable" }
    return String(SHA256.hex([UInt8](bytes)).prefix(16))
  }
}
