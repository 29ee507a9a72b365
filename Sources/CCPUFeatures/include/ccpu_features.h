/*
 * CCPUFeatures: the one place that asks the processor which vector instructions it has.
 *
 * Why it exists: the PNG encoder's filters and Adler-32, and RasterCore's pixel kernels, each choose
 * between vector code and portable scalar code. They must agree on what the processor has and on
 * whether tests (or SMOKESCREEN_FORCE_SCALAR=1) forced the scalar code, so the probe runs once here.
 * Every symbol is prefixed `ccpu_`.
 */
#ifndef CCPU_FEATURES_H
#define CCPU_FEATURES_H

#ifdef __cplusplus
extern "C" {
#endif

/** Feature bits returned by ccpu_features(). */
enum {
    CCPU_SSSE3 = 1u << 0,
    CCPU_SSE41 = 1u << 1,
    CCPU_AVX2 = 1u << 2,
};

/**
 * The vector instructions the kernels may use: the processor's (probed once, thread-safe), or 0 while
 * the scalar code is forced. Every kernel gives the same bytes either way.
 */
unsigned ccpu_features(void);

/**
 * Forces the portable scalar code in every kernel (`on` non-zero), or lets the processor's instructions
 * be used again. Kernels follow it from their next call (a PNG encoder from its creation). Tests use it
 * to check the scalar paths on a machine that has the instructions; `SMOKESCREEN_FORCE_SCALAR=1` in the
 * environment sets it for a whole run.
 */
void ccpu_force_scalar(int on);

/**
 * Lets the kernels use only the features in `mask` (with what the processor has), e.g.
 * `CCPU_SSSE3 | CCPU_SSE41` to run the SSE4.1 code on a machine with AVX2; `~0u` lifts it. For tests,
 * which check every version against the portable one.
 */
void ccpu_restrict(unsigned mask);

/** Whether the scalar code is forced (see ccpu_force_scalar). */
int ccpu_scalar_forced(void);

#ifdef __cplusplus
}
#endif

#endif /* CCPU_FEATURES_H */
