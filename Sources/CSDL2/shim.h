#ifndef WALLBOARD_CSDL2_SHIM_H
#define WALLBOARD_CSDL2_SHIM_H
#include <SDL.h>

/// `SDL_WINDOWPOS_UNDEFINED`: let the window manager place the window.
static inline int wb_SDL_WindowPosUndefined(void) { return SDL_WINDOWPOS_UNDEFINED; }

/// `SDL_WINDOW_FULLSCREEN_DESKTOP`: fullscreen at the desktop's resolution, no mode change.
static inline Uint32 wb_SDL_WindowFullscreenDesktop(void) { return SDL_WINDOW_FULLSCREEN_DESKTOP; }

/// `SDL_MUSTLOCK(surface)`: whether the surface must be locked before its pixels are touched.
static inline int wb_SDL_MustLock(const SDL_Surface *surface) { return SDL_MUSTLOCK(surface); }

#endif
