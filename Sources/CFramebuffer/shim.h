#ifndef WALLBOARD_CFRAMEBUFFER_SHIM_H
#define WALLBOARD_CFRAMEBUFFER_SHIM_H
#include <linux/fb.h>
#include <linux/kd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#endif
