#ifndef WALLBOARD_CSDL2_SHIM_H
#define WALLBOARD_CSDL2_SHIM_H
// <SDL2/SDL.h>, not <SDL.h>: no pkg-config path (its flags would link SDL2, see below).
#include <SDL2/SDL.h>
// SDL_syswm.h without Xlib's headers (their Display, Window, None, True… would reach Swift): the
// union keeps its size (`dummy[64]`), and X11's part is read from its bytes below.
#pragma push_macro("SDL_VIDEO_DRIVER_X11")
#undef SDL_VIDEO_DRIVER_X11
#include <SDL2/SDL_syswm.h>
#pragma pop_macro("SDL_VIDEO_DRIVER_X11")
#include <dlfcn.h>
#include <stddef.h>
#include <string.h>

/// `SDL_WINDOWPOS_UNDEFINED`: let the window manager place the window.
static inline int wb_SDL_WindowPosUndefined(void) { return SDL_WINDOWPOS_UNDEFINED; }

/// `SDL_WINDOW_FULLSCREEN_DESKTOP`: fullscreen at the desktop's resolution, no mode change.
static inline Uint32 wb_SDL_WindowFullscreenDesktop(void) { return SDL_WINDOW_FULLSCREEN_DESKTOP; }

/// `SDL_MUSTLOCK(surface)`: whether the surface must be locked before its pixels are touched.
static inline int wb_SDL_MustLock(const SDL_Surface *surface) { return SDL_MUSTLOCK(surface); }

// SDL2 is not linked: it is opened with dlopen the first time a window is, so a board on the
// framebuffer, a file or a terminal never loads it (nor the forty-odd libraries it needs: X11,
// Wayland, PulseAudio, ALSA, D-Bus…). The functions the display calls, each a pointer of the
// exact type SDL.h declares it with (`__typeof__`, unevaluated: no reference to the symbol).
#define WB_SDL_FUNCTIONS(X) \
  X(SDL_ConvertPixels) X(SDL_CreateWindow) X(SDL_DestroyWindow) X(SDL_FillRect) \
  X(SDL_GetCurrentVideoDriver) X(SDL_GetDisplayBounds) X(SDL_GetError) X(SDL_GetHint) \
  X(SDL_GetPixelFormatName) X(SDL_GetWindowDisplayIndex) X(SDL_GetWindowFlags) X(SDL_GetWindowID) \
  X(SDL_GetWindowSize) X(SDL_GetWindowSizeInPixels) X(SDL_GetWindowSurface) X(SDL_GetWindowWMInfo) \
  X(SDL_InitSubSystem) X(SDL_ShowWindow) \
  X(SDL_LockSurface) X(SDL_MapRGB) X(SDL_PollEvent) X(SDL_PushEvent) X(SDL_Quit) \
  X(SDL_QuitSubSystem) X(SDL_SetHint) X(SDL_SetWindowFullscreen) X(SDL_SetWindowPosition) \
  X(SDL_SetWindowSize) X(SDL_ShowCursor) X(SDL_UnlockSurface) X(SDL_UpdateWindowSurface) \
  X(SDL_UpdateWindowSurfaceRects) X(SDL_WaitEventTimeout) X(SDL_WasInit)

#define WB_SDL_FIELD(name) __typeof__(&name) name;
/// The SDL2 functions the display calls, from the loaded library.
typedef struct wb_SDL { WB_SDL_FUNCTIONS(WB_SDL_FIELD) } wb_SDL;
#undef WB_SDL_FIELD

/// Opens SDL2 (`soname`, e.g. "libSDL2-2.0.so.0") and fills `table`; NULL on success, else what
/// failed (dlerror's text: the library is missing, or lacks one of the functions).
static inline const char *wb_SDL_Load(const char *soname, wb_SDL *table) {
  void *library = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
  if (library == NULL) return dlerror();
#define WB_SDL_SYMBOL(name) \
  *(void **)(&table->name) = dlsym(library, #name); \
  if (table->name == NULL) return dlerror();
  WB_SDL_FUNCTIONS(WB_SDL_SYMBOL)
#undef WB_SDL_SYMBOL
  return NULL;
}

/// Asks the X server to map `window` (`XMapRaised`, then `XFlush`), without waiting for it.
///
/// SDL's own `SDL_ShowWindow` waits for the `MapNotify` with no timeout (`XIfEvent`); a window
/// manager starting at the same moment can swallow the map request, and the wait then never
/// ends. Returns 1 when the request was sent; 0 when the window is not an X11 one or libX11 (loaded
/// by SDL's X11 driver) cannot be found.
static inline int wb_SDL_X11MapRaised(const wb_SDL *table, SDL_Window *window) {
  SDL_SysWMinfo info;
  memset(&info, 0, sizeof info);
  SDL_VERSION(&info.version);
  if (!table->SDL_GetWindowWMInfo(window, &info) || info.subsystem != SDL_SYSWM_X11) return 0;
  // The union's X11 member: { Display *display; Window window; } (Window is an unsigned long).
  struct { void *display; unsigned long window; } x11;
  memcpy(&x11, &info.info, sizeof x11);
  void *library = dlopen("libX11.so.6", RTLD_LAZY | RTLD_NOLOAD);
  if (library == NULL) return 0;
  int (*mapRaised)(void *, unsigned long) = NULL;
  int (*flush)(void *) = NULL;
  *(void **)(&mapRaised) = dlsym(library, "XMapRaised");
  *(void **)(&flush) = dlsym(library, "XFlush");
  int sent = 0;
  if (mapRaised != NULL && flush != NULL && x11.display != NULL) {
    mapRaised(x11.display, x11.window);
    flush(x11.display);
    sent = 1;
  }
  dlclose(library);
  return sent;
}

/// `SDL_WINDOW_HIDDEN`: created unmapped.
static inline Uint32 wb_SDL_WindowHidden(void) { return SDL_WINDOW_HIDDEN; }

/// `SDL_WINDOW_SHOWN`: mapped (SDL sets it when the map is seen).
static inline Uint32 wb_SDL_WindowShown(void) { return SDL_WINDOW_SHOWN; }

#endif
