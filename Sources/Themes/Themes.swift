// Themes — the Orchestra themes, read from data files under `assets/themes/`.
//
// What lives here: `Theme` (one theme's colour tokens), `SyntaxPalette`, `SemanticColors`,
// `StateColors` (workflow state → colour), `Variant` (component metrics), and `ThemeCatalog`,
// which parses the data files (pure functions over text) and loads them from a directory (the
// only file-system access). Errors are `ThemeLoadError`, naming file, line and key. The file
// format is documented in `assets/themes/README.md`.
//
// What it may import: `Raster` (for `RGBA`) and Foundation's file reading, in `load` only.
