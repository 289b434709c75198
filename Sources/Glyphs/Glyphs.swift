// Glyphs — fonts, the glyph cache, text measurement and drawing.
//
// What lives here: `FontFace` (a FreeType face loaded from a file or from bytes), `FontMetrics`,
// `TextRenderer` (the regular and bold faces, a bounded glyph cache, `measure`, `draw`, `fit`
// with an ellipsis, aligned drawing in a rectangle, tabular figures) and `FontError`.
//
// Text layout is simple: one line, left to right, one glyph per Unicode scalar, with the face's
// `kern` table pairs. There is no shaping engine (no HarfBuzz): no ligatures, no contextual
// forms, no right-to-left runs, no mark positioning beyond what the glyphs' own bearings give.
// Characters the font lacks draw its .notdef box.
//
// Threading: a face, a renderer and everything drawn from them belong to one thread, the render
// thread. `FontFace` is `@unchecked Sendable` only so that it may be created elsewhere and handed
// over; `TextRenderer` is not `Sendable` at all.
//
// What it may import: `Raster` and, with `internal import`, `CFreeType` (this module is its only
// importer; no FreeType type appears in a public API).
