#include "ccpu_features.h"

#include <stdatomic.h>
#include <stdlib.h>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>

static unsigned ccpu_probe(void) {
    unsigned a = 0, b = 0, c = 0, d = 0, features = 0;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return 0;
    if (c & bit_SSSE3) features |= CCPU_SSSE3;
    if ((c & bit_SSSE3) && (c & bit_SSE4_1)) features |= CCPU_SSE41;
    // AVX2 also needs the operating system to save the YMM registers (OSXSAVE and XCR0 bits 1-2).
    int osxsave = (c & bit_OSXSAVE) != 0 && (c & bit_AVX) != 0;
    if (osxsave) {
        unsigned lo = 0, hi = 0;
        __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
        if ((lo & 6u) == 6u && __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & bit_AVX2) && (features & CCPU_SSE41))
            features |= CCPU_AVX2;
    }
    return features;
}
#else
static unsigned ccpu_probe(void) { return 0; }
#endif

// Bit 31: probed. Bit 30: scalar forced. Low bits: what the processor has.
#define CCPU_PROBED (1u << 31)
#define CCPU_FORCED (1u << 30)
static _Atomic unsigned ccpu_state = 0;

static unsigned ccpu_load(void) {
    unsigned s = atomic_load_explicit(&ccpu_state, memory_order_relaxed);
    if (s & CCPU_PROBED) return s;
    const char *env = getenv("SMOKESCREEN_FORCE_SCALAR");
    unsigned fresh = ccpu_probe() | CCPU_PROBED | (env != NULL && env[0] == '1' ? CCPU_FORCED : 0);
    // Another thread may have probed (or forced) first: keep what it stored.
    if (atomic_compare_exchange_strong(&ccpu_state, &s, fresh)) return fresh;
    return s;
}

static _Atomic unsigned ccpu_mask = ~0u;

unsigned ccpu_features(void) {
    unsigned s = ccpu_load();
    return (s & CCPU_FORCED) ? 0 : (s & ~(CCPU_PROBED | CCPU_FORCED)) & atomic_load_explicit(&ccpu_mask, memory_order_relaxed);
}

void ccpu_restrict(unsigned mask) { atomic_store_explicit(&ccpu_mask, mask, memory_order_relaxed); }

void ccpu_force_scalar(int on) {
    unsigned s = ccpu_load();
    unsigned next;
    do {
        next = on ? (s | CCPU_FORCED) : (s & ~CCPU_FORCED);
    } while (!atomic_compare_exchange_weak(&ccpu_state, &s, next));
}

int ccpu_scalar_forced(void) { return (ccpu_load() & CCPU_FORCED) != 0; }
