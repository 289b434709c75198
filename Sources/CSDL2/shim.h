#ifndef WALLBOARD_CSDL2_SHIM_H
#define WALLBOARD_CSDL2_SHIM_H
// <SDL2/SDL.h>, not <SDL.h>: no pkg-config path (its flags would link SDL2, see below).
#include <SDL2/SDL.h>
#include <dlfcn.h>
#include <stddef.h>

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
  X(SDL_GetWindowSize) X(SDL_GetWindowSizeInPixels) X(SDL_GetWindowSurface) X(SDL_InitSubSystem) \
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

#endif
