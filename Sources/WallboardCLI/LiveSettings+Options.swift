internal import Kiosk
internal import Runtime
internal import ZoneFiles

extension LiveSettings {
  /// The live settings `o` asks for (its night rules were checked when it was parsed).
  init(_ o: Options) {
    self.init(
      zone: o.timeZone ?? .current, unit: o.unit, flowDays: o.flowDays,
      night: o.night, pixelShift: o.pixelShift,
      diagnostics: o.diagnostics, sprints: o.sprints, activeSprint: o.activeSprint)
  }
}
