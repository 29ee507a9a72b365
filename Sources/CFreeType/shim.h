// The system FreeType headers, exposed as one module for Typesetting. FreeType reports errors as return
// codes (no longjmp), so Swift calls it directly and no C shim is needed.
#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_GLYPH_H
#include FT_TRUETYPE_TABLES_H
