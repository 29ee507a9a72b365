#include "cunicode_shim.h"
#include <pthread.h>
#include <string.h>
#include <unicode/ubrk.h>
#include <unicode/ubidi.h>
#include <unicode/uchar.h>

// One iterator per thread, opened on first use and kept (ubrk_setText on it is cheap), closed when
// the thread exits through the key's destructor.
static _Thread_local UBreakIterator *line_iterator;
static pthread_key_t iterator_key;
static pthread_once_t iterator_once = PTHREAD_ONCE_INIT;
static void close_iterator(void *iterator) { ubrk_close((UBreakIterator *)iterator); }
static void make_key(void) { pthread_key_create(&iterator_key, close_iterator); }

int32_t cus_line_breaks(const uint16_t *text, int32_t length, uint8_t *out) {
    memset(out, 0, (size_t)length + 1);
    if (length <= 0) return 0;
    UErrorCode status = U_ZERO_ERROR;
    if (!line_iterator) {
        line_iterator = ubrk_open(UBRK_LINE, "", NULL, 0, &status);
        if (U_FAILURE(status)) { line_iterator = NULL; return (int32_t)status; }
        pthread_once(&iterator_once, make_key);
        pthread_setspecific(iterator_key, line_iterator);
    }
    ubrk_setText(line_iterator, (const UChar *)text, length, &status);
    if (U_FAILURE(status)) return (int32_t)status;
    for (int32_t b = ubrk_following(line_iterator, 0); b != UBRK_DONE; b = ubrk_next(line_iterator)) {
        if (b > length) break;
        int32_t tag = ubrk_getRuleStatus(line_iterator);
        out[b] = (tag >= 100 && tag < 200) ? 2 : 1;  // UBRK_LINE_HARD up to its limit
    }
    // Drop the reference to the caller's buffer.
    ubrk_setText(line_iterator, NULL, 0, &status);
    return 0;
}

int32_t cus_bidi_levels(const uint16_t *text, int32_t length, int32_t base, uint8_t *levels, uint8_t *paragraph_level) {
    *paragraph_level = base == 1 ? 1 : 0;
    if (length <= 0) return 0;
    UErrorCode status = U_ZERO_ERROR;
    UBiDi *bidi = ubidi_openSized(length, 0, &status);
    if (U_FAILURE(status)) return (int32_t)status;
    UBiDiLevel requested = base < 0 ? UBIDI_DEFAULT_LTR : (UBiDiLevel)base;
    ubidi_setPara(bidi, (const UChar *)text, length, requested, NULL, &status);
    if (U_SUCCESS(status)) {
        const UBiDiLevel *resolved = ubidi_getLevels(bidi, &status);
        if (U_SUCCESS(status)) {
            memcpy(levels, resolved, (size_t)length);
            *paragraph_level = ubidi_getParaLevel(bidi);
        }
    }
    ubidi_close(bidi);
    return U_FAILURE(status) ? (int32_t)status : 0;
}
