// DisplayCore — the seam between the run loop and every place the board is shown.
//
// What lives here: `Display` (the protocol every display conforms to: the SDL window, the
// framebuffer, DRM/KMS, the terminal, a PNG file, the text board and the tests' in-memory one),
// `DisplayTraits` (what a display can do, which is all the run loop asks of its kind),
// `DisplayFrame` (one frame handed to a display, with `DisplayText`: the lines of text it shows,
// for a display that writes text as characters), `DrawingBuffer` (a display's own memory lent
// for a frame to be drawn into, with no copy to show it), `DisplayEvent` (what a user asked
// through it) and `DisplayError`.
//
// What it may import: Raster (publicly, for `Canvas`, `IRect` and `RGBA`). Nothing else: each
// display's own module imports this one and its one C library.
