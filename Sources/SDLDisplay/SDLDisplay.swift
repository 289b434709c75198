// SDLDisplay — the SDL2 window the board is shown in.
//
// What lives here: `SDLWindow` (an SDL window and its software surface: present a canvas, read it
// back, fullscreen, input events), `InputEvent` and `Key` (the few inputs the board reacts to),
// `SDLError`, and `SDLWindow.displayAvailable(environment:)` for `--display auto`.
//
// What it may import: `Raster` (publicly, for `Canvas`) and `CSDL2` (internally: this is the only
// module that imports it, and no SDL type appears in its public API).
