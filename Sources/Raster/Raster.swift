// Raster — pixels and colour.
//
// What lives here: `RGBA` (8-bit sRGB colour with straight alpha, `#rrggbb[aa]` parsing,
// source-over compositing, WCAG 2.x relative luminance and contrast ratio). The pixel buffer
// and the anti-aliased primitives arrive with the renderer.
//
// What it may import: the C library's maths (`Glibc`/`Musl`/`Darwin`) and nothing else; no
// Foundation, no other Wallboard module, no C library target.
