#ifndef WALLBOARD_CFRAMEBUFFER_SHIM_H
#define WALLBOARD_CFRAMEBUFFER_SHIM_H
#include <linux/fb.h>
#include <linux/kd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

/// `ioctl(fd, FBIOGET_VSCREENINFO, v)`: reads the variable screen info (mode, offsets, bitfields).
static inline int wb_fb_get_vinfo(int fd, struct fb_var_screeninfo *v) { return ioctl(fd, FBIOGET_VSCREENINFO, v); }

/// `ioctl(fd, FBIOPUT_VSCREENINFO, v)`: asks the driver for new variable screen info.
static inline int wb_fb_put_vinfo(int fd, struct fb_var_screeninfo *v) { return ioctl(fd, FBIOPUT_VSCREENINFO, v); }

/// `ioctl(fd, FBIOGET_FSCREENINFO, f)`: reads the fixed screen info (line length, memory size).
static inline int wb_fb_get_finfo(int fd, struct fb_fix_screeninfo *f) { return ioctl(fd, FBIOGET_FSCREENINFO, f); }

/// `ioctl(fd, FBIOPAN_DISPLAY, v)`: shows the part of the virtual screen at `v->xoffset`, `v->yoffset`.
static inline int wb_fb_pan_display(int fd, struct fb_var_screeninfo *v) { return ioctl(fd, FBIOPAN_DISPLAY, v); }

/// `ioctl(fd, FBIO_WAITFORVSYNC, &crtc)` with CRTC 0: waits for the next vertical blank.
static inline int wb_fb_wait_for_vsync(int fd) {
  __u32 crtc = 0;
  return ioctl(fd, FBIO_WAITFORVSYNC, &crtc);
}

/// `ioctl(fd, FBIOBLANK, level)`: blanks (`FB_BLANK_POWERDOWN`…) or unblanks (`FB_BLANK_UNBLANK`) the screen.
static inline int wb_fb_blank(int fd, int level) { return ioctl(fd, FBIOBLANK, (unsigned long)level); }

/// `ioctl(fd, KDGETMODE, &mode)`: the console's mode, `KD_TEXT` or `KD_GRAPHICS`.
static inline int wb_kd_get_mode(int fd, int *mode) { return ioctl(fd, KDGETMODE, mode); }

/// `ioctl(fd, KDSETMODE, mode)`: switches the console to `KD_TEXT` or `KD_GRAPHICS`. Async-signal-safe.
static inline int wb_kd_set_mode(int fd, int mode) { return ioctl(fd, KDSETMODE, (unsigned long)mode); }

/// `KD_TEXT`: the console draws text.
static inline int wb_kd_text(void) { return KD_TEXT; }

/// `KD_GRAPHICS`: the console leaves the screen to a graphics program.
static inline int wb_kd_graphics(void) { return KD_GRAPHICS; }

#endif
