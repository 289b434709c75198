// Raster — pixels and colour.
//
// What lives here: `RGBA` (8-bit sRGB colour with straight alpha, `#rrggbb[aa]` parsing,
// source-over compositing, WCAG 2.x relative luminance and contrast ratio); `Canvas`, the pixel
// buffer, in memory of its own (`PixelStorage`, copied on write) or lent by a display; `Path`
// and the scanline rasterizer (nonzero winding, 16 sample rows per pixel, exact horizontal
// coverage); the anti-aliased primitives as `Canvas` extensions (rectangles, rounded
// rectangles, circles, rings, arcs, lines, polylines, dashes); downscaling and cropping; the
// frame cap (`Canvas.maxFrameSide`, `maxFramePixels`) and `Int(saturating:)`, the conversion
// drawing code uses for numbers computed from data (NaN and infinities never trap).
//
// What it may import: the C library's maths (`Glibc`/`Musl`/`Darwin`) and nothing else; no
// Foundation, no other Wallboard module, no C library target.
