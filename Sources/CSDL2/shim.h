#ifndef WALLBOARD_CSDL2_SHIM_H
#define WALLBOARD_CSDL2_SHIM_H
// SDL2 is not linked and its headers are not needed: the library is opened with dlopen the first
// time a window is, and the part of its ABI the display uses is declared here, written from SDL
// 2.x's stable ABI (SDL keeps every struct layout, constant and signature below for all of 2.x).
// So building needs no libsdl2-dev (which brings Mesa, LLVM, X11's and Wayland's headers), and
// running needs libsdl2-2.0-0 only when a window is opened.
//
// The names are SDL's own, so the Swift code reads as SDL's documentation does. Every size,
// offset, constant and signature here is compared with the real headers by
// Tests/SDLDisplayTests/HeaderABITests.swift when they are installed. Compiled after
// <SDL2/SDL.h> with WB_SDL_ABI_FROM_SDL_H defined, only the function table and the helpers below
// are declared, in SDL's own types: that is how the signatures are checked.
#include <dlfcn.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifndef WB_SDL_ABI_FROM_SDL_H

// SDL_stdinc.h
typedef uint8_t Uint8;
typedef uint16_t Uint16;
typedef int32_t Sint32;
typedef uint32_t Uint32;
typedef enum { SDL_FALSE = 0, SDL_TRUE = 1 } SDL_bool;

// SDL.h
#define SDL_INIT_VIDEO 0x00000020u

// SDL_version.h
typedef struct SDL_version {
  Uint8 major;
  Uint8 minor;
  Uint8 patch;
} SDL_version;

// SDL_rect.h
typedef struct SDL_Rect {
  int x, y;
  int w, h;
} SDL_Rect;

// SDL_pixels.h: the two formats the display names, as SDL_DEFINE_PIXELFORMAT makes them
// (packed 32-bit, ARGB or XRGB order, 8888 layout). SDL_PIXELFORMAT_RGB888 is XRGB8888.
typedef enum {
  SDL_PIXELFORMAT_RGB888 = 0x16161804u,
  SDL_PIXELFORMAT_ARGB8888 = 0x16362004u,
} SDL_PixelFormatEnum;

typedef struct SDL_Palette SDL_Palette;

typedef struct SDL_PixelFormat {
  Uint32 format;
  SDL_Palette *palette;
  Uint8 BitsPerPixel;
  Uint8 BytesPerPixel;
  Uint8 padding[2];
  Uint32 Rmask;
  Uint32 Gmask;
  Uint32 Bmask;
  Uint32 Amask;
  Uint8 Rloss;
  Uint8 Gloss;
  Uint8 Bloss;
  Uint8 Aloss;
  Uint8 Rshift;
  Uint8 Gshift;
  Uint8 Bshift;
  Uint8 Ashift;
  int refcount;
  struct SDL_PixelFormat *next;
} SDL_PixelFormat;

// SDL_surface.h
#define SDL_RLEACCEL 0x00000002

typedef struct SDL_Surface {
  Uint32 flags;
  SDL_PixelFormat *format;
  int w, h;
  int pitch;
  void *pixels;
  void *userdata;
  int locked;
  void *list_blitmap;
  SDL_Rect clip_rect;
  struct SDL_BlitMap *map;
  int refcount;
} SDL_Surface;

// SDL_video.h
typedef struct SDL_Window SDL_Window;

typedef enum {
  SDL_WINDOW_FULLSCREEN = 0x00000001,
  SDL_WINDOW_SHOWN = 0x00000004,
  SDL_WINDOW_HIDDEN = 0x00000008,
  SDL_WINDOW_RESIZABLE = 0x00000020,
  SDL_WINDOW_FULLSCREEN_DESKTOP = (SDL_WINDOW_FULLSCREEN | 0x00001000),
} SDL_WindowFlags;

#define SDL_WINDOWPOS_UNDEFINED_MASK 0x1FFF0000u
#define SDL_WINDOWPOS_UNDEFINED (SDL_WINDOWPOS_UNDEFINED_MASK | 0)

typedef enum {
  SDL_WINDOWEVENT_NONE,
  SDL_WINDOWEVENT_SHOWN,
  SDL_WINDOWEVENT_HIDDEN,
  SDL_WINDOWEVENT_EXPOSED,
  SDL_WINDOWEVENT_MOVED,
  SDL_WINDOWEVENT_RESIZED,
  SDL_WINDOWEVENT_SIZE_CHANGED,
} SDL_WindowEventID;

// SDL_keycode.h and SDL_scancode.h: the keys the board reads. A key without a character is its
// scancode with bit 30 set (SDL_SCANCODE_TO_KEYCODE).
typedef Sint32 SDL_Keycode;
typedef enum { SDL_SCANCODE_UNKNOWN = 0 } SDL_Scancode;

typedef enum {
  SDLK_ESCAPE = '\x1B',
  SDLK_a = 'a',
  SDLK_d = 'd',
  SDLK_f = 'f',
  SDLK_q = 'q',
  SDLK_t = 't',
  SDLK_v = 'v',
  SDLK_RIGHT = 79 | (1 << 30),
  SDLK_LEFT = 80 | (1 << 30),
} SDL_KeyCode;

typedef enum {
  KMOD_NONE = 0x0000,
  KMOD_LSHIFT = 0x0001,
  KMOD_RSHIFT = 0x0002,
  KMOD_SHIFT = KMOD_LSHIFT | KMOD_RSHIFT,
} SDL_Keymod;

// SDL_keyboard.h
typedef struct SDL_Keysym {
  SDL_Scancode scancode;
  SDL_Keycode sym;
  Uint16 mod;
  Uint32 unused;
} SDL_Keysym;

// SDL_events.h: the three event types the board reads, and the union they travel in. The union
// is padded to 56 bytes on every architecture whose pointers are at most 8 bytes; its
// alignment is a pointer's (SDL_UserEvent holds two).
#define SDL_RELEASED 0
#define SDL_PRESSED 1
#define SDL_DISABLE 0
#define SDL_ENABLE 1

typedef enum {
  SDL_QUIT = 0x100,
  SDL_WINDOWEVENT = 0x200,
  SDL_KEYDOWN = 0x300,
} SDL_EventType;

typedef struct SDL_WindowEvent {
  Uint32 type;
  Uint32 timestamp;
  Uint32 windowID;
  Uint8 event;
  Uint8 padding1;
  Uint8 padding2;
  Uint8 padding3;
  Sint32 data1;
  Sint32 data2;
} SDL_WindowEvent;

typedef struct SDL_KeyboardEvent {
  Uint32 type;
  Uint32 timestamp;
  Uint32 windowID;
  Uint8 state;
  Uint8 repeat;
  Uint8 padding2;
  Uint8 padding3;
  SDL_Keysym keysym;
} SDL_KeyboardEvent;

typedef struct SDL_UserEvent {
  Uint32 type;
  Uint32 timestamp;
  Uint32 windowID;
  Sint32 code;
  void *data1;
  void *data2;
} SDL_UserEvent;

typedef union SDL_Event {
  Uint32 type;
  SDL_WindowEvent window;
  SDL_KeyboardEvent key;
  SDL_UserEvent user;
  Uint8 padding[sizeof(void *) <= 8 ? 56 : sizeof(void *) == 16 ? 64 : 3 * sizeof(void *)];
} SDL_Event;

// SDL_hints.h
#define SDL_HINT_FRAMEBUFFER_ACCELERATION "SDL_FRAMEBUFFER_ACCELERATION"
#define SDL_HINT_NO_SIGNAL_HANDLERS "SDL_NO_SIGNAL_HANDLERS"
#define SDL_HINT_VIDEODRIVER "SDL_VIDEODRIVER"

// SDL_syswm.h: the window system's handles. The union is 64 bytes whichever drivers SDL was
// built with; X11's member is { Display *display; Window window; } (Window is an unsigned long),
// declared with plain types so that no Xlib header is needed.
typedef enum {
  SDL_SYSWM_UNKNOWN,
  SDL_SYSWM_WINDOWS,
  SDL_SYSWM_X11,
} SDL_SYSWM_TYPE;

typedef struct SDL_SysWMinfo {
  SDL_version version;
  SDL_SYSWM_TYPE subsystem;
  union {
    struct {
      void *display;
      unsigned long window;
    } x11;
    Uint8 dummy[64];
  } info;
} SDL_SysWMinfo;

#endif  // WB_SDL_ABI_FROM_SDL_H

/// The SDL version whose ABI the declarations above were written from, told to
/// `SDL_GetWindowWMInfo` (SDL_VERSION's job): 2.26, the first with `SDL_GetWindowSizeInPixels`,
/// so every library that loads (every function below found) is at least as new.
#define WB_SDL_ABI_MAJOR 2
#define WB_SDL_ABI_MINOR 26
#define WB_SDL_ABI_PATCH 0

/// `SDL_WINDOWPOS_UNDEFINED`: let the window manager place the window.
static inline int wb_SDL_WindowPosUndefined(void) { return SDL_WINDOWPOS_UNDEFINED; }

/// `SDL_WINDOW_FULLSCREEN_DESKTOP`: fullscreen at the desktop's resolution, no mode change.
static inline Uint32 wb_SDL_WindowFullscreenDesktop(void) { return SDL_WINDOW_FULLSCREEN_DESKTOP; }

/// `SDL_MUSTLOCK(surface)`: whether the surface must be locked before its pixels are touched.
static inline int wb_SDL_MustLock(const SDL_Surface *surface) { return (surface->flags & SDL_RLEACCEL) != 0; }

// SDL2 is not linked: it is opened with dlopen the first time a window is, so a board on the
// framebuffer, a file or a terminal never loads it (nor the forty-odd libraries it needs: X11,
// Wayland, PulseAudio, ALSA, D-Bus…). The functions the display calls, each a pointer of the
// type SDL's headers declare it with (SDLCALL is empty on Linux).
#define WB_SDL_FUNCTIONS(X) \
  X(int, SDL_ConvertPixels, (int width, int height, Uint32 src_format, const void *src, int src_pitch, \
                             Uint32 dst_format, void *dst, int dst_pitch)) \
  X(SDL_Window *, SDL_CreateWindow, (const char *title, int x, int y, int w, int h, Uint32 flags)) \
  X(void, SDL_DestroyWindow, (SDL_Window * window)) \
  X(int, SDL_FillRect, (SDL_Surface * dst, const SDL_Rect *rect, Uint32 color)) \
  X(const char *, SDL_GetCurrentVideoDriver, (void)) \
  X(int, SDL_GetDisplayBounds, (int displayIndex, SDL_Rect *rect)) \
  X(const char *, SDL_GetError, (void)) \
  X(const char *, SDL_GetHint, (const char *name)) \
  X(const char *, SDL_GetPixelFormatName, (Uint32 format)) \
  X(int, SDL_GetWindowDisplayIndex, (SDL_Window * window)) \
  X(Uint32, SDL_GetWindowFlags, (SDL_Window * window)) \
  X(Uint32, SDL_GetWindowID, (SDL_Window * window)) \
  X(void, SDL_GetWindowPosition, (SDL_Window * window, int *x, int *y)) \
  X(void, SDL_GetWindowSize, (SDL_Window * window, int *w, int *h)) \
  X(void, SDL_GetWindowSizeInPixels, (SDL_Window * window, int *w, int *h)) \
  X(SDL_Surface *, SDL_GetWindowSurface, (SDL_Window * window)) \
  X(SDL_bool, SDL_GetWindowWMInfo, (SDL_Window * window, SDL_SysWMinfo *info)) \
  X(int, SDL_InitSubSystem, (Uint32 flags)) \
  X(void, SDL_ShowWindow, (SDL_Window * window)) \
  X(int, SDL_LockSurface, (SDL_Surface * surface)) \
  X(Uint32, SDL_MapRGB, (const SDL_PixelFormat *format, Uint8 r, Uint8 g, Uint8 b)) \
  X(int, SDL_PollEvent, (SDL_Event * event)) \
  X(int, SDL_PushEvent, (SDL_Event * event)) \
  X(void, SDL_Quit, (void)) \
  X(void, SDL_QuitSubSystem, (Uint32 flags)) \
  X(SDL_bool, SDL_SetHint, (const char *name, const char *value)) \
  X(int, SDL_SetWindowFullscreen, (SDL_Window * window, Uint32 flags)) \
  X(void, SDL_SetWindowPosition, (SDL_Window * window, int x, int y)) \
  X(void, SDL_SetWindowSize, (SDL_Window * window, int w, int h)) \
  X(int, SDL_ShowCursor, (int toggle)) \
  X(void, SDL_UnlockSurface, (SDL_Surface * surface)) \
  X(int, SDL_UpdateWindowSurface, (SDL_Window * window)) \
  X(int, SDL_UpdateWindowSurfaceRects, (SDL_Window * window, const SDL_Rect *rects, int numrects)) \
  X(int, SDL_WaitEventTimeout, (SDL_Event * event, int timeout)) \
  X(Uint32, SDL_WasInit, (Uint32 flags))

#define WB_SDL_FIELD(result, name, parameters) result(*name) parameters;
/// The SDL2 functions the display calls, from the loaded library.
typedef struct wb_SDL { WB_SDL_FUNCTIONS(WB_SDL_FIELD) } wb_SDL;
#undef WB_SDL_FIELD

/// Opens SDL2 (`soname`, e.g. "libSDL2-2.0.so.0") and fills `table`; NULL on success, else what
/// failed (dlerror's text: the library is missing, or lacks one of the functions).
static inline const char *wb_SDL_Load(const char *soname, wb_SDL *table) {
  void *library = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
  if (library == NULL) return dlerror();
#define WB_SDL_SYMBOL(result, name, parameters) \
  *(void **)(&table->name) = dlsym(library, #name); \
  if (table->name == NULL) return dlerror();
  WB_SDL_FUNCTIONS(WB_SDL_SYMBOL)
#undef WB_SDL_SYMBOL
  return NULL;
}

/// An X11 window's display and id, from SDL's window-manager info.
typedef struct { void *display; unsigned long window; } wb_X11Window;

/// `window`'s X11 display and id, and libX11 (loaded by SDL's X11 driver, `RTLD_NOLOAD`: never
/// loaded here), which the caller `dlclose`s. Returns NULL when the window is not an X11 one or
/// libX11 is not loaded.
static inline void *wb_SDL_X11Open(const wb_SDL *table, SDL_Window *window, wb_X11Window *x11) {
  SDL_SysWMinfo info;
  memset(&info, 0, sizeof info);
  info.version.major = WB_SDL_ABI_MAJOR;
  info.version.minor = WB_SDL_ABI_MINOR;
  info.version.patch = WB_SDL_ABI_PATCH;
  if (!table->SDL_GetWindowWMInfo(window, &info) || info.subsystem != SDL_SYSWM_X11) return NULL;
  // The union's X11 member: { Display *display; Window window; } (Window is an unsigned long).
  memcpy(x11, &info.info, sizeof *x11);
  if (x11->display == NULL) return NULL;
  return dlopen("libX11.so.6", RTLD_LAZY | RTLD_NOLOAD);
}

/// Asks the X server to map `window` (`XMapRaised`, then `XFlush`), without waiting for it.
///
/// SDL's own `SDL_ShowWindow` waits for the `MapNotify` with no timeout (`XIfEvent`); a window
/// manager starting at the same moment can swallow the map request, and the wait then never
/// ends. Returns 1 when the request was sent; 0 when the window is not an X11 one or libX11 (loaded
/// by SDL's X11 driver) cannot be found.
static inline int wb_SDL_X11MapRaised(const wb_SDL *table, SDL_Window *window) {
  wb_X11Window x11;
  void *library = wb_SDL_X11Open(table, window, &x11);
  if (library == NULL) return 0;
  int (*mapRaised)(void *, unsigned long) = NULL;
  int (*flush)(void *) = NULL;
  *(void **)(&mapRaised) = dlsym(library, "XMapRaised");
  *(void **)(&flush) = dlsym(library, "XFlush");
  int sent = 0;
  if (mapRaised != NULL && flush != NULL) {
    mapRaised(x11.display, x11.window);
    flush(x11.display);
    sent = 1;
  }
  dlclose(library);
  return sent;
}

/// Where an X11 window's top-left corner is on its screen (`XTranslateCoordinates` to the root
/// window): SDL keeps the position it asked for, so a window a window manager reparented into a
/// frame still reads (0, 0) there. Returns 1 with `*x`, `*y` set; 0 when the window is not an X11
/// one, libX11 cannot be found or the call fails.
static inline int wb_SDL_X11RootPosition(const wb_SDL *table, SDL_Window *window, int *x, int *y) {
  wb_X11Window x11;
  void *library = wb_SDL_X11Open(table, window, &x11);
  if (library == NULL) return 0;
  unsigned long (*rootWindow)(void *) = NULL;
  int (*translate)(void *, unsigned long, unsigned long, int, int, int *, int *, unsigned long *) = NULL;
  *(void **)(&rootWindow) = dlsym(library, "XDefaultRootWindow");
  *(void **)(&translate) = dlsym(library, "XTranslateCoordinates");
  int found = 0;
  if (rootWindow != NULL && translate != NULL) {
    unsigned long child = 0;
    found = translate(x11.display, x11.window, rootWindow(x11.display), 0, 0, x, y, &child) != 0;
  }
  dlclose(library);
  return found;
}

/// `SDL_WINDOW_HIDDEN`: created unmapped.
static inline Uint32 wb_SDL_WindowHidden(void) { return SDL_WINDOW_HIDDEN; }

/// `SDL_WINDOW_SHOWN`: mapped (SDL sets it when the map is seen).
static inline Uint32 wb_SDL_WindowShown(void) { return SDL_WINDOW_SHOWN; }

#endif
