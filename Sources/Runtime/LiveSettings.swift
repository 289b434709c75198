public import Kiosk
public import Projections
public import WallboardCore

/// The options a running board takes from the config file again on every reload, besides the
/// scene (layout, themes, theme, variant, scale): the time zone, the burndown unit, the flow's
/// window, the night schedule, burn-in protection, the diagnostics panel, the declared sprints
/// (delivered again as their source's snapshot when they changed) and `--active-sprint`.
///
/// The filters (`--project`, `--label`, `--assignee`) are the reducer's: read at start. Sources,
/// the display, `--size`, `--rotate`, `--fb-geometry`, the workflow and the estimate scale are
/// read once, at start: changing them needs a restart.
public struct LiveSettings: Equatable, Sendable {
  public var zone: Zone
  public var unit: UnitChoice
  public var flowDays: Int
  public var night: [NightSchedule.Rule]
  /// Burn-in protection: `on`, `off`, or `auto` (on when the board fills the screen).
  public var pixelShift: PixelShiftMode
  public var diagnostics: Bool
  public var sprints: [Sprint]
  public var activeSprint: String?

  public init(
    zone: Zone, unit: UnitChoice = .auto, flowDays: Int = Flow.defaultDays, night: [NightSchedule.Rule] = [],
    pixelShift: PixelShiftMode = .auto, diagnostics: Bool = false, sprints: [Sprint] = [], activeSprint: String? = nil
  ) {
    self.zone = zone
    self.unit = unit
    self.flowDays = flowDays
    self.night = night
    self.pixelShift = pixelShift
    self.diagnostics = diagnostics
    self.sprints = sprints
    self.activeSprint = activeSprint
  }

  /// Whether burn-in protection moves the frame on a display that does or does not fill its screen.
  public func shifts(fillsScreen: Bool) -> Bool { pixelShift.shifts(fillsScreen: fillsScreen) }
}
