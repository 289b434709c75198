#ifndef WALLBOARD_CSDL2_SHIM_H
#define WALLBOARD_CSDL2_SHIM_H
#include <SDL.h>
#endif
