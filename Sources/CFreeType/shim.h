#ifndef WALLBOARD_CFREETYPE_SHIM_H
#define WALLBOARD_CFREETYPE_SHIM_H
#include <ft2build.h>
#include FT_FREETYPE_H

// Helpers for FreeType macros that do not import into Swift. Prefixed `wb_ft_`.

/// FT_LOAD_DEFAULT | FT_LOAD_TARGET_LIGHT: light (vertical-only) hinting for anti-aliased text.
static inline FT_Int32 wb_ft_load_flags_light(void) { return FT_LOAD_DEFAULT | FT_LOAD_TARGET_LIGHT; }

/// FT_HAS_KERNING(face): whether the face has a `kern` table FT_Get_Kerning can read.
static inline FT_Bool wb_ft_has_kerning(FT_Face face) { return FT_HAS_KERNING(face) ? 1 : 0; }

/// FT_IS_SCALABLE(face): whether the face has outlines (not only bitmap strikes).
static inline FT_Bool wb_ft_is_scalable(FT_Face face) { return FT_IS_SCALABLE(face) ? 1 : 0; }

/// FreeType's message for an error code, from FT_ERRORS_H (FT_Error_String returns NULL unless
/// FreeType was built with FT_CONFIG_OPTION_ERROR_STRINGS, which Debian's is not).
static inline const char *wb_ft_error_string(FT_Error error) {
#undef FTERRORS_H_
#define FT_ERRORDEF(e, v, s) \
  case v:                    \
    return s;
#define FT_ERROR_START_LIST switch (error) {
#define FT_ERROR_END_LIST }
#include FT_ERRORS_H
  return "unknown FreeType error";
}

#endif
