// DRMDisplay — the board's own display on DRM/KMS (`/dev/dri/cardN`), with no Mesa, EGL or GL.
//
// What lives here: `DRMScreen` (a connected connector, its mode, a CRTC, two dumb buffers shown
// by page flips on vertical blank, only the rows that changed copied, DPMS for the night, the
// CRTC put back on close), `DRMSyscalls` (the seam every libdrm call and ioctl goes through, so
// tests drive a fake device), the KMS values it reads (`DRMModeInfo`, `DRMConnector`…),
// `DRMModeRequest` (`--mode WxH[@Hz]`) and `DRMError`.
//
// What it may import: Raster and DisplayCore (publicly), FramebufferDisplay (for `PixelFormat`,
// the canvas → device row conversion both kernel displays share), Glibc, and CDRM: this is the
// only module that imports CDRM (libdrm), with `internal import`; no C type is in its public API.
