#include "cunicode_shim.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <unicode/ubrk.h>
#include <unicode/ubidi.h>
#include <unicode/uchar.h>
#include <unicode/uvernum.h>

// ICU's common library is loaded on first use, not linked: only text layout needs it, and a linked
// library is mapped and bound at every start of the tool. The headers give each function's type and its
// versioned name (ubrk_open is ubrk_open_72: the macros rename the fields and the names looked up alike);
// every call goes through `icu`, so this file references none of ICU's symbols.
#define CUS_FUNCTIONS(X) \
    X(ubrk_open) X(ubrk_close) X(ubrk_setText) X(ubrk_following) X(ubrk_next) X(ubrk_getRuleStatus) \
    X(ubidi_openSized) X(ubidi_setPara) X(ubidi_getLevels) X(ubidi_getParaLevel) X(ubidi_close)
#define CUS_STRING(name) CUS_STRING_(name)
#define CUS_STRING_(name) #name
// The soname of the ICU whose headers this is compiled with (Debian's libicu72 for ICU 72).
#define CUS_LIBRARY "libicuuc.so." CUS_STRING(U_ICU_VERSION_MAJOR_NUM)

#define CUS_FIELD(name) __typeof__(&name) name;
static struct { CUS_FUNCTIONS(CUS_FIELD) } icu;
#undef CUS_FIELD

static pthread_once_t load_once = PTHREAD_ONCE_INIT;

// Without ICU text cannot be laid out as it must be, and a fallback would draw other pixels: like a
// missing linked library, a missing ICU stops the process, saying which library to install.
static void load(void) {
    char message[768];
    void *library = dlopen(CUS_LIBRARY, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        const char *why = dlerror();
        snprintf(message, sizeof message, "Typesetting: cannot load ICU (%s); install ICU %d (Debian's libicu%d)\n",
                 why ? why : CUS_LIBRARY " not found", U_ICU_VERSION_MAJOR_NUM, U_ICU_VERSION_MAJOR_NUM);
        goto fail;
    }
#define CUS_BIND(name) \
    if (!(icu.name = (__typeof__(&name))dlsym(library, CUS_STRING(name)))) { \
        snprintf(message, sizeof message, "Typesetting: cannot load ICU: %s has no %s\n", CUS_LIBRARY, CUS_STRING(name)); \
        goto fail; \
    }
    CUS_FUNCTIONS(CUS_BIND)
#undef CUS_BIND
    return;
fail:
    (void)!write(STDERR_FILENO, message, strlen(message));
    _exit(1);
}

static inline void cus_load(void) { pthread_once(&load_once, load); }

// One iterator per thread, opened on first use and kept (ubrk_setText on it is cheap), closed when
// the thread exits through the key's destructor.
static _Thread_local UBreakIterator *line_iterator;
static pthread_key_t iterator_key;
static pthread_once_t iterator_once = PTHREAD_ONCE_INIT;
static void close_iterator(void *iterator) { icu.ubrk_close((UBreakIterator *)iterator); }
static void make_key(void) { pthread_key_create(&iterator_key, close_iterator); }

int32_t cus_line_breaks(const uint16_t *text, int32_t length, uint8_t *out) {
    memset(out, 0, (size_t)length + 1);
    if (length <= 0) return 0;
    cus_load();
    UErrorCode status = U_ZERO_ERROR;
    if (!line_iterator) {
        line_iterator = icu.ubrk_open(UBRK_LINE, "", NULL, 0, &status);
        if (U_FAILURE(status)) { line_iterator = NULL; return (int32_t)status; }
        pthread_once(&iterator_once, make_key);
        pthread_setspecific(iterator_key, line_iterator);
    }
    icu.ubrk_setText(line_iterator, (const UChar *)text, length, &status);
    if (U_FAILURE(status)) return (int32_t)status;
    for (int32_t b = icu.ubrk_following(line_iterator, 0); b != UBRK_DONE; b = icu.ubrk_next(line_iterator)) {
        if (b > length) break;
        int32_t tag = icu.ubrk_getRuleStatus(line_iterator);
        out[b] = (tag >= 100 && tag < 200) ? 2 : 1;  // UBRK_LINE_HARD up to its limit
    }
    // Drop the reference to the caller's buffer.
    icu.ubrk_setText(line_iterator, NULL, 0, &status);
    return 0;
}

int32_t cus_bidi_levels(const uint16_t *text, int32_t length, int32_t base, uint8_t *levels, uint8_t *paragraph_level) {
    *paragraph_level = base == 1 ? 1 : 0;
    if (length <= 0) return 0;
    cus_load();
    UErrorCode status = U_ZERO_ERROR;
    UBiDi *bidi = icu.ubidi_openSized(length, 0, &status);
    if (U_FAILURE(status)) return (int32_t)status;
    UBiDiLevel requested = base < 0 ? UBIDI_DEFAULT_LTR : (UBiDiLevel)base;
    icu.ubidi_setPara(bidi, (const UChar *)text, length, requested, NULL, &status);
    if (U_SUCCESS(status)) {
        const UBiDiLevel *resolved = icu.ubidi_getLevels(bidi, &status);
        if (U_SUCCESS(status)) {
            memcpy(levels, resolved, (size_t)length);
            *paragraph_level = icu.ubidi_getParaLevel(bidi);
        }
    }
    icu.ubidi_close(bidi);
    return U_FAILURE(status) ? (int32_t)status : 0;
}
