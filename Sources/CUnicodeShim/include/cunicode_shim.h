#ifndef CUNICODE_SHIM_H
#define CUNICODE_SHIM_H
// ICU's line breaking (UAX #14) and bidirectional algorithm (UAX #9), for Typesetting.
//
// Why C: ICU's headers rename every function by version (ubrk_open is a macro for ubrk_open_72), and
// Swift does not import function-like renaming macros; a few plain C functions keep the version out of
// Swift. Each thread keeps one line-break iterator (opening one costs about 3 µs; resetting its text, nothing).
// ICU is not linked: the first call loads libicuuc (the version of the headers) with dlopen, so runs that
// lay out no text do not map it; when it cannot be loaded the process stops with a message naming it.
#include <stdint.h>

/// Break opportunities of `text` (UTF-16, `length` units) by ICU's line-break iterator for the root
/// locale (UAX #14 with ICU's default tailoring; Japanese kinsoku as the rules give it: closing
/// punctuation and small kana never start a line, opening brackets never end one). On return,
/// `out[i]` for 0 < i <= length is 1 where a line may break before unit i, 2 where it must (after a
/// newline), else 0; `out[0]` is 0. `out` has length + 1 bytes. Returns 0, or ICU's error code.
int32_t cus_line_breaks(const uint16_t *text, int32_t length, uint8_t *out);

/// Embedding levels of one paragraph `text` (UTF-16, `length` units, no paragraph separator inside) by
/// UAX #9: `levels[i]` for each unit (even: left to right, odd: right to left). `base` is -1 for the
/// direction of the first strong character (left to right when there is none), 0 for left to right,
/// 1 for right to left. The paragraph's level goes to `*paragraph_level`. Returns 0, or ICU's error code.
int32_t cus_bidi_levels(const uint16_t *text, int32_t length, int32_t base, uint8_t *levels, uint8_t *paragraph_level);

#endif
