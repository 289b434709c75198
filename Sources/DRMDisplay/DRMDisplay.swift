// DRMDisplay — the board's own display on DRM/KMS (`/dev/dri/cardN`), with no Mesa, EGL or GL.
//
// What lives here: `DRMScreen` (a connected connector, its mode, a CRTC, two dumb buffers shown
// by page flips on vertical blank, the board drawn into the hidden one (or, RGB565, only the
// rows that changed converted), DPMS for the night, the
// CRTC put back on close), `DRMSyscalls` (the seam every libdrm call and ioctl goes through, so
// tests drive a fake device), the KMS values it reads (`DRMModeInfo`, `DRMConnector`…),
// `DRMModeRequest` (`--mode WxH[@Hz]`) and `DRMError`.
//
// What it may import: Raster and DisplayCore (publicly), FramebufferDisplay (for `PixelFormat`,
// the canvas → device row conversion, and `LentPages`, which frame each buffer drawn in place
// holds, both kernel displays share), Glibc, and CDRM: this is the
// only module that imports CDRM (libdrm), with `internal import`; no C type is in its public API.
