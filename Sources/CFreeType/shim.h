// The system FreeType headers, exposed as one module for Typesetting. FreeType reports errors as return
// codes (no longjmp), so Swift calls it directly and no C shim file is needed.
#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_GLYPH_H
#include FT_OUTLINE_H
#include FT_ADVANCES_H
#include FT_TRUETYPE_TABLES_H

// FreeType's own message for an error code, or NULL for an unknown code. Debian's FreeType is built
// without FT_CONFIG_OPTION_ERROR_STRINGS, so FT_Error_String returns NULL; this builds the table from
// fterrdef.h with the X-macro pattern that fterrors.h documents.
static inline const char *cft_error_message(int code) {
#undef FTERRORS_H_
#define FT_ERRORDEF(e, v, s) case v: return s;
#define FT_ERROR_START_LIST switch (code) {
#define FT_ERROR_END_LIST default: return 0; }
#include FT_ERRORS_H
}
