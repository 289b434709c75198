#ifndef WALLBOARD_CZLIB_SHIM_H
#define WALLBOARD_CZLIB_SHIM_H
#include <zlib.h>
#endif
