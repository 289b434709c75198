// FramebufferDisplay: the Linux framebuffer (`/dev/fbN`) as a display, and the console guard that
// hands the screen to it.
//
// What lives here: `Framebuffer` (open, map, lend a page to draw in, convert, present, pan,
// blank), `LentPages` (which frame each page drawn in place holds, and what a back page needs
// before it is lent; shared with DRM), `PageRows` (the rows each page needs when frames are
// converted), `PixelFormat` (canvas ARGB → the device's bitfields), `ConsoleGuard`
// (KD_GRAPHICS and the hidden cursor, restored on every exit path) and `FramebufferSyscalls`,
// the seam every syscall goes through so tests can fake the device.
//
// What it may import: Raster, Glibc, Synchronization and CFramebuffer. It is the only module that
// imports CFramebuffer, with `internal import`; no C type appears in its public API.
