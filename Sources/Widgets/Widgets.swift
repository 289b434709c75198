// Widgets — projections drawn into rectangles.
//
// What lives here: one widget per projection (header, burndown, tallies, progress,
// connections, recent changes, key numbers), the "not connected" banner, the `Painter` every
// widget draws text through (it fits text into its box and records what it drew, so tests can
// check legibility), the per-frame models, and `BoardRenderer`, which lays a page out and
// redraws only the widgets whose model changed.
// What it may import: WallboardCore, Projections, Raster, Glyphs, Themes, Layout. No I/O.
