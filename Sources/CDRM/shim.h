#ifndef WALLBOARD_CDRM_SHIM_H
#define WALLBOARD_CDRM_SHIM_H
#ifndef _LARGEFILE64_SOURCE
#define _LARGEFILE64_SOURCE 1
#endif
// libdrm's KMS API, and the few ioctls and event calls Swift cannot reach through macros.
#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <xf86drm.h>
#include <xf86drmMode.h>

/// `DRM_IOCTL_MODE_CREATE_DUMB`: a buffer in memory the CPU can write, scanned out as it is.
static inline int wb_drm_create_dumb(int fd, uint32_t width, uint32_t height, uint32_t bpp, uint32_t *handle,
                                     uint32_t *pitch, uint64_t *size) {
  struct drm_mode_create_dumb c;
  memset(&c, 0, sizeof c);
  c.width = width;
  c.height = height;
  c.bpp = bpp;
  if (drmIoctl(fd, DRM_IOCTL_MODE_CREATE_DUMB, &c) < 0) return -1;
  *handle = c.handle;
  *pitch = c.pitch;
  *size = c.size;
  return 0;
}

/// `DRM_IOCTL_MODE_MAP_DUMB`: the offset to `mmap` a dumb buffer at.
static inline int wb_drm_map_dumb(int fd, uint32_t handle, uint64_t *offset) {
  struct drm_mode_map_dumb m;
  memset(&m, 0, sizeof m);
  m.handle = handle;
  if (drmIoctl(fd, DRM_IOCTL_MODE_MAP_DUMB, &m) < 0) return -1;
  *offset = m.offset;
  return 0;
}

/// `DRM_IOCTL_MODE_DESTROY_DUMB`.
static inline int wb_drm_destroy_dumb(int fd, uint32_t handle) {
  struct drm_mode_destroy_dumb d;
  memset(&d, 0, sizeof d);
  d.handle = handle;
  return drmIoctl(fd, DRM_IOCTL_MODE_DESTROY_DUMB, &d);
}

/// `drmModePageFlip` asking for an event when the flip happens (at the next vertical blank),
/// the event carrying `sequence`, so that a late event of an earlier flip is not taken for it.
static inline int wb_drm_page_flip(int fd, uint32_t crtc, uint32_t fb, uint64_t sequence) {
  return drmModePageFlip(fd, crtc, fb, DRM_MODE_PAGE_FLIP_EVENT, (void *)(uintptr_t)sequence);
}

/// The sequence number of the last flip whose event was read. (One board a process, on one
/// thread; only DRMSyscalls+Live.swift calls these, so one copy of the static is used.)
static inline uint64_t *wb_drm_last_flip(void) {
  static uint64_t last = 0;
  return &last;
}

/// The page-flip event's handler: records the sequence number the flip was asked with.
static void wb_drm_flip_done(int fd, unsigned int frame, unsigned int sec, unsigned int usec, void *data) {
  (void)fd;
  (void)frame;
  (void)sec;
  (void)usec;
  *wb_drm_last_flip() = (uint64_t)(uintptr_t)data;
}

/// Waits up to `timeout_ms` for the event of the flip asked with `sequence` (`poll`, then
/// `drmHandleEvent`, which reads the events and calls the handler): 1 when it came, 0 on a
/// time-out, -1 with `errno` on an error. Events of earlier flips are read and passed over.
static inline int wb_drm_wait_flip(int fd, int timeout_ms, uint64_t sequence) {
  while (*wb_drm_last_flip() != sequence) {
    struct pollfd p = {.fd = fd, .events = POLLIN, .revents = 0};
    int r = poll(&p, 1, timeout_ms);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) return -1;
    if (r == 0) return 0;
    drmEventContext ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.version = 2;
    ctx.page_flip_handler = wb_drm_flip_done;
    errno = 0;
    if (drmHandleEvent(fd, &ctx) != 0) {
      if (errno == 0) errno = EIO;  // a short read leaves errno as it was
      return -1;
    }
  }
  return 1;
}

/// The id of the property `name` of a KMS object (`DRM_MODE_OBJECT_CONNECTOR`…), 0 when it has none.
static inline uint32_t wb_drm_property(int fd, uint32_t object, uint32_t type, const char *name) {
  drmModeObjectPropertiesPtr props = drmModeObjectGetProperties(fd, object, type);
  if (!props) return 0;
  uint32_t found = 0;
  for (uint32_t i = 0; i < props->count_props && !found; i++) {
    drmModePropertyPtr p = drmModeGetProperty(fd, props->props[i]);
    if (!p) continue;
    if (strcmp(p->name, name) == 0) found = p->prop_id;
    drmModeFreeProperty(p);
  }
  drmModeFreeObjectProperties(props);
  return found;
}

static inline uint32_t wb_drm_object_connector(void) { return DRM_MODE_OBJECT_CONNECTOR; }
static inline uint64_t wb_drm_dpms_on(void) { return DRM_MODE_DPMS_ON; }
static inline uint64_t wb_drm_dpms_off(void) { return DRM_MODE_DPMS_OFF; }
static inline uint32_t wb_drm_mode_type_preferred(void) { return DRM_MODE_TYPE_PREFERRED; }

/// `mmap` of `length` bytes of the device at `offset`, shared, read-write; NULL with `errno` on failure.
static inline void *wb_drm_mmap(int fd, size_t length, uint64_t offset) {
  // mmap64: the offset is 64 bits on a 32-bit userland too (armhf on a 64-bit kernel).
  void *p = mmap64(NULL, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off64_t)offset);
  return p == MAP_FAILED ? NULL : p;
}

#endif
