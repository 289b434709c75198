/// The colour tokens every theme sets; the raw value is the key in a `.theme` file.
public enum ThemeToken: String, CaseIterable, Hashable, Sendable {
  case bg, bgAlt, bgContrast, bgActive, bgSelection
  case fg, fgDim, fgMuted, fgBright
  case border, accent
}
