// Colours in 16-bit lanes, and bilinear samples taken with them: what the page curl and the perspective
// sampler share, so that both round alike. Internal to CRasterKernels (not in include/).
//
// A pixel's four channels are carried in the 16-bit lanes of a uint64_t (R, G, B, A from the low end),
// values 0…255; the AVX2 versions carry eight pixels in two registers, `lo` and `hi`, and give the same
// bytes as the portable ones. Within each 128-bit half, `lo` has pixels 0, 1 (and 4, 5) and `hi` has 2, 3
// (6, 7): the order in which unpacking bytes spreads them and packing puts them back, with no instruction
// that crosses the halves.
#ifndef CRASTER_LANES_H
#define CRASTER_LANES_H

#include <stddef.h>
#include <stdint.h>

// No a·b + c fused into one rounding, so that the scalar and vector paths round alike.
#pragma STDC FP_CONTRACT OFF

#define CRK_LANES_INLINE static inline __attribute__((always_inline))

CRK_LANES_INLINE uint64_t crk_lanes_spread(uint32_t p) {
    uint64_t q = p;
    return (q & 0xFF) | ((q & 0xFF00) << 8) | ((q & 0xFF0000) << 16) | ((q & 0xFF000000) << 24);
}

CRK_LANES_INLINE uint32_t crk_lanes_pack(uint64_t q) {
    return (uint32_t)((q & 0xFF) | ((q >> 8) & 0xFF00) | ((q >> 16) & 0xFF0000) | ((q >> 24) & 0xFF000000));
}

/// a + (b − a)·w / 256 in every lane (w 0…256), rounded to nearest.
CRK_LANES_INLINE uint64_t crk_lanes_lerp(uint64_t a, uint64_t b, uint64_t w) {
    return (((256 - w) * a + w * b + 0x0080008000800080ull) >> 8) & 0x00FF00FF00FF00FFull;
}

/// A bilinear sample of `image` at (x, y) in its pixels (pixel centres at whole numbers), clamped to the
/// image: horizontal then vertical, each rounded once.
CRK_LANES_INLINE uint64_t crk_lanes_sample(const uint32_t *image, int width, int height, float x, float y) {
    float mx = (float)(width - 1), my = (float)(height - 1);
    x = x < 0 ? 0 : (x > mx ? mx : x);
    y = y < 0 ? 0 : (y > my ? my : y);
    int ix = (int)x, iy = (int)y;
    uint64_t wx = (uint64_t)(int)((x - (float)ix) * 256.0f + 0.5f), wy = (uint64_t)(int)((y - (float)iy) * 256.0f + 0.5f);
    int ix1 = ix + 1 < width ? ix + 1 : ix;
    const uint32_t *r0 = image + (size_t)iy * (size_t)width;
    const uint32_t *r1 = iy + 1 < height ? r0 + width : r0;
    uint64_t top = crk_lanes_lerp(crk_lanes_spread(r0[ix]), crk_lanes_spread(r0[ix1]), wx);
    if (wy == 0) return top;
    uint64_t bottom = crk_lanes_lerp(crk_lanes_spread(r1[ix]), crk_lanes_spread(r1[ix1]), wx);
    return crk_lanes_lerp(top, bottom, wy);
}


#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>

#define CRK_LANES_AVX2 static inline __attribute__((always_inline, target("avx2")))

/// A 32-bit lane per pixel (each ≤ 0xFFFF, pixels in order) copied into the four 16-bit lanes of that
/// pixel: one shuffle each.
CRK_LANES_AVX2 void crk_lanes_widen_avx2(__m256i w, __m256i *lo, __m256i *hi) {
    *lo = _mm256_shuffle_epi8(w, _mm256_setr_epi8(0, 1, 0, 1, 0, 1, 0, 1, 4, 5, 4, 5, 4, 5, 4, 5,
                                                  0, 1, 0, 1, 0, 1, 0, 1, 4, 5, 4, 5, 4, 5, 4, 5));
    *hi = _mm256_shuffle_epi8(w, _mm256_setr_epi8(8, 9, 8, 9, 8, 9, 8, 9, 12, 13, 12, 13, 12, 13, 12, 13,
                                                  8, 9, 8, 9, 8, 9, 8, 9, 12, 13, 12, 13, 12, 13, 12, 13));
}

/// Eight packed pixels (in order) as 16-bit lanes (crk_lanes_spread).
CRK_LANES_AVX2 void crk_lanes_spread_avx2(__m256i p, __m256i *lo, __m256i *hi) {
    *lo = _mm256_unpacklo_epi8(p, _mm256_setzero_si256());
    *hi = _mm256_unpackhi_epi8(p, _mm256_setzero_si256());
}

/// Eight pixels' 16-bit lanes (each ≤ 255) packed, in order (crk_lanes_pack).
CRK_LANES_AVX2 __m256i crk_lanes_pack_avx2(__m256i lo, __m256i hi) { return _mm256_packus_epi16(lo, hi); }

/// crk_lanes_lerp: 256·a + (b − a)·w + 128 is the scalar's (256 − w)·a + w·b + 128, at most 65408, so
/// working modulo 65536 gives it exactly with one multiply.
CRK_LANES_AVX2 __m256i crk_lanes_lerp_avx2(__m256i a, __m256i b, __m256i w) {
    __m256i x = _mm256_add_epi16(_mm256_slli_epi16(a, 8), _mm256_mullo_epi16(_mm256_sub_epi16(b, a), w));
    return _mm256_srli_epi16(_mm256_add_epi16(x, _mm256_set1_epi16(128)), 8);
}

/// Eight pixels' four texels (top left, top right, bottom left, bottom right) blended by their weights
/// (0…256, 32-bit lanes): horizontally, then vertically, each rounded once, as crk_lanes_sample.
CRK_LANES_AVX2 void crk_lanes_blend_avx2(__m256i t00, __m256i t01, __m256i t10, __m256i t11, __m256i wx, __m256i wy,
                                         __m256i *lo, __m256i *hi) {
    __m256i wx_lo, wx_hi, wy_lo, wy_hi, a_lo, a_hi, b_lo, b_hi, c_lo, c_hi, d_lo, d_hi;
    crk_lanes_widen_avx2(wx, &wx_lo, &wx_hi);
    crk_lanes_widen_avx2(wy, &wy_lo, &wy_hi);
    crk_lanes_spread_avx2(t00, &a_lo, &a_hi);
    crk_lanes_spread_avx2(t01, &b_lo, &b_hi);
    crk_lanes_spread_avx2(t10, &c_lo, &c_hi);
    crk_lanes_spread_avx2(t11, &d_lo, &d_hi);
    // (Where wy is 0 the vertical blend gives the top row unchanged, as the scalar's early return does.)
    *lo = crk_lanes_lerp_avx2(crk_lanes_lerp_avx2(a_lo, b_lo, wx_lo), crk_lanes_lerp_avx2(c_lo, d_lo, wx_lo), wy_lo);
    *hi = crk_lanes_lerp_avx2(crk_lanes_lerp_avx2(a_hi, b_hi, wx_hi), crk_lanes_lerp_avx2(c_hi, d_hi, wx_hi), wy_hi);
}

/// Eight points clamped to the image as crk_lanes_sample clamps them: their top-left texels' columns and
/// rows, and their weights (0…256) towards the next column and row.
CRK_LANES_AVX2 void crk_lanes_locate_avx2(int width, int height, __m256 x, __m256 y, __m256i *ix, __m256i *iy, __m256i *wx, __m256i *wy) {
    // (max then min: the scalar's x < 0 ? 0 : (x > mx ? mx : x), but for −0, which gives the same texel and weight.)
    x = _mm256_min_ps(_mm256_max_ps(x, _mm256_setzero_ps()), _mm256_set1_ps((float)(width - 1)));
    y = _mm256_min_ps(_mm256_max_ps(y, _mm256_setzero_ps()), _mm256_set1_ps((float)(height - 1)));
    *ix = _mm256_cvttps_epi32(x);
    *iy = _mm256_cvttps_epi32(y);
    const __m256 k256 = _mm256_set1_ps(256.0f), k05 = _mm256_set1_ps(0.5f);
    *wx = _mm256_cvttps_epi32(_mm256_add_ps(_mm256_mul_ps(_mm256_sub_ps(x, _mm256_cvtepi32_ps(*ix)), k256), k05));
    *wy = _mm256_cvttps_epi32(_mm256_add_ps(_mm256_mul_ps(_mm256_sub_ps(y, _mm256_cvtepi32_ps(*iy)), k256), k05));
}

/// crk_lanes_sample at eight points.
CRK_LANES_AVX2 void crk_lanes_sample_avx2(const uint32_t *image, int width, int height, __m256 x, __m256 y, __m256i *lo, __m256i *hi) {
    __m256i ix, iy, wx, wy;
    crk_lanes_locate_avx2(width, height, x, y, &ix, &iy, &wx, &wy);
    const __m256i one = _mm256_set1_epi32(1), w = _mm256_set1_epi32(width);
    __m256i ix1 = _mm256_min_epi32(_mm256_add_epi32(ix, one), _mm256_set1_epi32(width - 1));
    __m256i row0 = _mm256_mullo_epi32(iy, w);
    __m256i row1 = _mm256_mullo_epi32(_mm256_min_epi32(_mm256_add_epi32(iy, one), _mm256_set1_epi32(height - 1)), w);
    const int *base = (const int *)image;
    __m256i t00 = _mm256_i32gather_epi32(base, _mm256_add_epi32(row0, ix), 4), t01 = _mm256_i32gather_epi32(base, _mm256_add_epi32(row0, ix1), 4);
    __m256i t10 = _mm256_i32gather_epi32(base, _mm256_add_epi32(row1, ix), 4), t11 = _mm256_i32gather_epi32(base, _mm256_add_epi32(row1, ix1), 4);
    crk_lanes_blend_avx2(t00, t01, t10, t11, wx, wy, lo, hi);
}

/// The 32-bit elements `base[index]` and `base[index + 1]` of eight lanes, in lane order: each pair one
/// 64-bit load (both elements must be readable). Eight plain loads, not AVX2's gathered ones: on the AMD
/// machines measured, two gathers of four pairs cost more than eight loads (a page curl 5–9 % faster).
CRK_LANES_AVX2 void crk_lanes_gather_pairs_avx2(const void *base, __m256i index, __m256i *first, __m256i *second) {
    const char *bytes = (const char *)base;
    // (The indices moved to general registers two at a time, without a trip through memory.)
    const __m128i low = _mm256_castsi256_si128(index), high = _mm256_extracti128_si256(index, 1);
    const uint64_t i01 = (uint64_t)_mm_cvtsi128_si64(low), i23 = (uint64_t)_mm_extract_epi64(low, 1);
    const uint64_t i45 = (uint64_t)_mm_cvtsi128_si64(high), i67 = (uint64_t)_mm_extract_epi64(high, 1);
    const int32_t at[8] = { (int32_t)i01, (int32_t)(i01 >> 32), (int32_t)i23, (int32_t)(i23 >> 32),
                            (int32_t)i45, (int32_t)(i45 >> 32), (int32_t)i67, (int32_t)(i67 >> 32) };
    // (Loads of a double's bits, moved and never computed with: any bit pattern passes unchanged.)
#define CRK_LANES_PAIR(k) ((const double *)(bytes + 4 * (ptrdiff_t)at[k]))
    const __m128d p01 = _mm_loadh_pd(_mm_load_sd(CRK_LANES_PAIR(0)), CRK_LANES_PAIR(1));
    const __m128d p23 = _mm_loadh_pd(_mm_load_sd(CRK_LANES_PAIR(2)), CRK_LANES_PAIR(3));
    const __m128d p45 = _mm_loadh_pd(_mm_load_sd(CRK_LANES_PAIR(4)), CRK_LANES_PAIR(5));
    const __m128d p67 = _mm_loadh_pd(_mm_load_sd(CRK_LANES_PAIR(6)), CRK_LANES_PAIR(7));
#undef CRK_LANES_PAIR
    // Pairs 0, 1 and 4, 5 in one register, 2, 3 and 6, 7 in the other: a shuffle within each 128-bit half
    // of the two then takes first elements (the even 32-bit elements) or second ones (the odd) in lane order.
    __m256 a = _mm256_castpd_ps(_mm256_set_m128d(p45, p01));
    __m256 b = _mm256_castpd_ps(_mm256_set_m128d(p67, p23));
    *first = _mm256_castps_si256(_mm256_shuffle_ps(a, b, 0x88));
    *second = _mm256_castps_si256(_mm256_shuffle_ps(a, b, 0xDD));
}

/// crk_lanes_sample at eight points of an image at least 2 pixels wide, the same bytes with half the
/// gathered loads: each row's two texels are one pair (a point in the last column reads the pair before it
/// with the whole weight on its right texel, which is that column's texel unchanged).
CRK_LANES_AVX2 void crk_lanes_sample_pairs_avx2(const uint32_t *image, int width, int height, __m256 x, __m256 y,
                                                __m256i *lo, __m256i *hi) {
    __m256i ix, iy, wx, wy;
    crk_lanes_locate_avx2(width, height, x, y, &ix, &iy, &wx, &wy);
    const __m256i last_pair = _mm256_set1_epi32(width - 2);
    __m256i in_last = _mm256_cmpgt_epi32(ix, last_pair);
    ix = _mm256_blendv_epi8(ix, last_pair, in_last);
    wx = _mm256_blendv_epi8(wx, _mm256_set1_epi32(256), in_last);
    const __m256i w = _mm256_set1_epi32(width);
    __m256i at0 = _mm256_add_epi32(_mm256_mullo_epi32(iy, w), ix);
    __m256i at1 = _mm256_add_epi32(_mm256_mullo_epi32(_mm256_min_epi32(_mm256_add_epi32(iy, _mm256_set1_epi32(1)), _mm256_set1_epi32(height - 1)), w), ix);
    __m256i t00, t01, t10, t11;
    crk_lanes_gather_pairs_avx2(image, at0, &t00, &t01);
    crk_lanes_gather_pairs_avx2(image, at1, &t10, &t11);
    crk_lanes_blend_avx2(t00, t01, t10, t11, wx, wy, lo, hi);
}

/// crk_lanes_sample at eight points: by pairs where the image is at least two pixels wide.
CRK_LANES_AVX2 void crk_lanes_sample_paired_avx2(const uint32_t *image, int width, int height, __m256 x, __m256 y, __m256i *lo, __m256i *hi) {
    if (width >= 2) crk_lanes_sample_pairs_avx2(image, width, height, x, y, lo, hi);
    else crk_lanes_sample_avx2(image, width, height, x, y, lo, hi);
}

#endif

#endif
