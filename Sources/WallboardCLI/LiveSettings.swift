internal import Projections
internal import WallboardCore
internal import ZoneFiles

/// The options a running board takes from the config file again on every reload, besides the
/// scene (layout, themes, theme, variant, scale): the time zone, the burndown unit, the flow's
/// window, the night schedule, burn-in protection, the diagnostics panel, the declared sprints
/// (delivered again as their source's snapshot when they changed) and `--active-sprint`.
///
/// The filters (`--project`, `--label`, `--assignee`) are the reducer's: read at start. Sources, the display, `--size`, `--rotate`, `--fb-geometry`, the workflow and the estimate
/// scale are read once, at start: changing them needs a restart.
struct LiveSettings: Equatable {
  var zone: Zone
  var unit: UnitChoice
  var flowDays: Int
  var night: [String]
  var pixelShift: String
  var diagnostics: Bool
  var sprints: [Sprint]
  var activeSprint: String?

  init(_ o: Options) {
    zone = o.timeZone ?? .current
    unit = o.unit
    flowDays = o.flowDays
    night = o.night
    pixelShift = o.pixelShift
    diagnostics = o.diagnostics
    sprints = o.sprints
    activeSprint = o.activeSprint
  }

  /// Whether burn-in protection moves the frame on a display that does or does not fill its screen.
  func shifts(fillsScreen: Bool) -> Bool { pixelShift == "on" || (pixelShift == "auto" && fillsScreen) }
}
