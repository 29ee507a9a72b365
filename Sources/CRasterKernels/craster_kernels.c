#include "craster_kernels.h"
#include "ccpu_features.h"
#include "craster_lanes.h"

#include <string.h>

// MARK: Portable versions: the definition every vector version must match byte for byte.

/// One channel: the horizontal blends of the two rows (exact, ≤ 65280), then the vertical one (exact,
/// ≤ 255·65536), rounded. Equal to round(Σ w·texel / 65536) with the four product weights, because
/// (256−fy)((256−fx)a + fx·b) + fy((256−fx)c + fx·d) is that sum multiplied out.
static inline uint32_t crk_bilinear_pixel(uint32_t p00, uint32_t p10, uint32_t p01, uint32_t p11, uint32_t fx, uint32_t fy) {
    uint32_t result = 0;
    for (int shift = 0; shift < 32; shift += 8) {
        uint32_t a = (p00 >> shift) & 0xFF, b = (p10 >> shift) & 0xFF, c = (p01 >> shift) & 0xFF, d = (p11 >> shift) & 0xFF;
        uint32_t top = (256 - fx) * a + fx * b, bottom = (256 - fx) * c + fx * d;
        uint32_t v = (256 - fy) * top + fy * bottom;
        result |= ((v + 32768) >> 16) << shift;
    }
    return result;
}

void crk_bilinear_columns_scalar(const uint32_t *row0, const uint32_t *row1, uint32_t fy,
                                 const int32_t *index, const uint16_t *fx, int count, uint32_t *out) {
    for (int i = 0; i < count; i++) {
        int32_t x = index[i];
        out[i] = crk_bilinear_pixel(row0[x], row0[x + 1], row1[x], row1[x + 1], fx[i], fy);
    }
}

void crk_bilinear_shift_scalar(const uint32_t *row0, const uint32_t *row1, uint32_t fx, uint32_t fy, int count,
                               uint32_t *out) {
    for (int i = 0; i < count; i++) out[i] = crk_bilinear_pixel(row0[i], row0[i + 1], row1[i], row1[i + 1], fx, fy);
}

/// A sample position in 1/256 pixel clamped to 0…limit and rounded, as RasterCore's
/// PixelMath.samplePosition: NaN gives 0.
static inline int32_t crk_sample_position(double v, double limit) {
    if (v != v) return 0;
    double c = v < 0 ? 0 : v;
    if (c > limit) c = limit;
    return (int32_t)(c + 0.5);
}

/// The texel pair offsets and weights of one sample: `at` indexes the top-left texel; the right texel is
/// `at + 1` (a right-edge sample with no horizontal weight becomes weight 256 on the texel before it,
/// the same pixel with both reads inside the row), the lower row `below` texels further (0 without
/// vertical weight).
typedef struct { int32_t at, below; uint16_t fx, fy; } crk_tap;

static inline crk_tap crk_affine_tap(double u, double v, int width, double maxU, double maxV) {
    int32_t uf = crk_sample_position(u, maxU), vf = crk_sample_position(v, maxV);
    crk_tap t;
    int32_t ix = uf >> 8, iy = vf >> 8;
    t.fx = (uint16_t)(uf & 255);
    t.fy = (uint16_t)(vf & 255);
    if (ix == width - 1 && width >= 2) { ix = width - 2; t.fx = 256; }
    t.at = iy * width + ix;
    t.below = t.fy == 0 ? 0 : width;
    return t;
}

void crk_bilinear_affine_scalar(const uint32_t *pixels, int width, int height, double u0, double v0, double du, double dv,
                                const uint8_t *coverage, int count, uint32_t *out) {
    double u = u0, v = v0, maxU = (double)(width - 1) * 256, maxV = (double)(height - 1) * 256;
    for (int i = 0; i < count; i++, u += du, v += dv) {
        if (coverage[i] == 0) continue;
        crk_tap t = crk_affine_tap(u, v, width, maxU, maxV);
        const uint32_t *p = pixels + t.at;
        // One pixel wide: both horizontal taps are the one texel (its weight is 0 anyway).
        uint32_t right = width >= 2 ? 1 : 0;
        out[i] = crk_bilinear_pixel(p[0], p[right], p[t.below], p[t.below + right], t.fx, t.fy);
    }
}

/// round(x / 255) for x in 0…65025, per 8-bit lane pair, as RasterCore's PixelMath.scale does it.
static inline uint32_t crk_scale(uint32_t pixel, uint32_t factor) {
    uint32_t rb = (pixel & 0x00FF00FFu) * factor + 0x00800080u;
    uint32_t ga = ((pixel >> 8) & 0x00FF00FFu) * factor + 0x00800080u;
    uint32_t rbDiv = ((rb + ((rb >> 8) & 0x00FF00FFu)) >> 8) & 0x00FF00FFu;
    uint32_t gaDiv = ((ga + ((ga >> 8) & 0x00FF00FFu)) >> 8) & 0x00FF00FFu;
    return rbDiv | (gaDiv << 8);
}

void crk_source_over_scalar(uint32_t *dst, const uint32_t *src, int count) {
    for (int i = 0; i < count; i++) {
        uint32_t s = src[i], a = s >> 24;
        if (a == 255) dst[i] = s;
        else if (s != 0) dst[i] = s + crk_scale(dst[i], 255 - a);
    }
}

void crk_source_over_scaled_scalar(uint32_t *dst, const uint32_t *src, const uint8_t *coverage, uint32_t opacity, int count) {
    for (int i = 0; i < count; i++) {
        uint32_t f = opacity;
        if (coverage != NULL) {
            uint32_t t = coverage[i] * opacity + 128;
            f = (t + (t >> 8)) >> 8;
        }
        if (f == 0) continue;
        uint32_t s = f == 255 ? src[i] : crk_scale(src[i], f);
        if (s >> 24 == 255) dst[i] = s;
        else if (s != 0) dst[i] = s + crk_scale(dst[i], 255 - (s >> 24));
    }
}

void crk_solid_over_scalar(uint32_t *dst, uint32_t color, int count) {
    uint32_t inverse = 255 - (color >> 24);
    // Flat UI repeats destination pixels, so the last result is remembered.
    uint32_t lastIn = count > 0 ? dst[0] + 1 : 0, lastOut = 0;
    for (int i = 0; i < count; i++) {
        uint32_t d = dst[i];
        if (d != lastIn) { lastIn = d; lastOut = color + crk_scale(d, inverse); }
        dst[i] = lastOut;
    }
}

void crk_solid_over_coverage_scalar(uint32_t *dst, uint32_t color, const uint8_t *coverage, int count) {
    int opaque = color >> 24 == 255;
    for (int i = 0; i < count; i++) {
        uint32_t c = coverage[i];
        if (c == 0) continue;
        if (c == 255 && opaque) { dst[i] = color; continue; }
        uint32_t s = c == 255 ? color : crk_scale(color, c);
        dst[i] = s + crk_scale(dst[i], 255 - (s >> 24));
    }
}

static inline void crk_horizontal_pixel(uint32_t a, uint32_t b, uint32_t fx, uint16_t *out) {
    for (int c = 0; c < 4; c++) {
        uint32_t x = (a >> (8 * c)) & 0xFF, y = (b >> (8 * c)) & 0xFF;
        out[c] = (uint16_t)((256 - fx) * x + fx * y);
    }
}

void crk_horizontal_columns_scalar(const uint32_t *row, const int32_t *index, const uint16_t *fx, int count, uint16_t *out) {
    for (int i = 0; i < count; i++) crk_horizontal_pixel(row[index[i]], row[index[i] + 1], fx[i], out + 4 * i);
}

void crk_horizontal_shift_scalar(const uint32_t *row, uint32_t fx, int count, uint16_t *out) {
    for (int i = 0; i < count; i++) crk_horizontal_pixel(row[i], row[i + 1], fx, out + 4 * i);
}

void crk_vertical_scalar(const uint16_t *h0, const uint16_t *h1, uint32_t fy, int count, uint32_t *out) {
    for (int i = 0; i < count; i++) {
        uint32_t pixel = 0;
        for (int c = 0; c < 4; c++) {
            uint32_t v = (256 - fy) * h0[4 * i + c] + fy * h1[4 * i + c];
            pixel |= ((v + 32768) >> 16) << (8 * c);
        }
        out[i] = pixel;
    }
}

// MARK: x86-64 vector versions

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>

/// The vertical blend and rounding of 8 channels (two pixels) whose horizontal blends are h0 (upper row)
/// and h1 (lower row) in 16-bit lanes: (h0·256 + fy·(h1 − h0) + 32768) >> 16, in 32-bit lanes.
__attribute__((target("sse4.1")))
static inline __m128i crk_vertical_sse41(__m128i h0, __m128i h1, __m128i wfy) {
    __m128i h0lo = _mm_cvtepu16_epi32(h0), h0hi = _mm_cvtepu16_epi32(_mm_srli_si128(h0, 8));
    __m128i h1lo = _mm_cvtepu16_epi32(h1), h1hi = _mm_cvtepu16_epi32(_mm_srli_si128(h1, 8));
    const __m128i half = _mm_set1_epi32(32768);
    __m128i lo = _mm_add_epi32(_mm_slli_epi32(h0lo, 8), _mm_mullo_epi32(_mm_sub_epi32(h1lo, h0lo), wfy));
    __m128i hi = _mm_add_epi32(_mm_slli_epi32(h0hi, 8), _mm_mullo_epi32(_mm_sub_epi32(h1hi, h0hi), wfy));
    lo = _mm_srli_epi32(_mm_add_epi32(lo, half), 16);
    hi = _mm_srli_epi32(_mm_add_epi32(hi, half), 16);
    return _mm_packus_epi32(lo, hi);  // 8 channels in 16-bit lanes, each ≤ 255
}

/// The horizontal blend of 8 channels in 16-bit lanes: a·256 + fx·(b − a), exact modulo 2^16 and so
/// exact, because the true value lies in 0…65280.
__attribute__((target("sse4.1")))
static inline __m128i crk_horizontal_sse41(__m128i a8, __m128i b8, __m128i wfx) {
    __m128i a = _mm_cvtepu8_epi16(a8), b = _mm_cvtepu8_epi16(b8);
    return _mm_add_epi16(_mm_slli_epi16(a, 8), _mm_mullo_epi16(_mm_sub_epi16(b, a), wfx));
}

__attribute__((target("sse4.1")))
static void crk_bilinear_shift_sse41(const uint32_t *row0, const uint32_t *row1, uint32_t fx, uint32_t fy, int count,
                                     uint32_t *out) {
    const __m128i wfx = _mm_set1_epi16((short)fx), wfy = _mm_set1_epi32((int)fy);
    int i = 0;
    for (; i + 4 <= count; i += 4) {
        __m128i a0 = _mm_loadu_si128((const __m128i *)(row0 + i)), b0 = _mm_loadu_si128((const __m128i *)(row0 + i + 1));
        __m128i a1 = _mm_loadu_si128((const __m128i *)(row1 + i)), b1 = _mm_loadu_si128((const __m128i *)(row1 + i + 1));
        __m128i first = crk_vertical_sse41(crk_horizontal_sse41(a0, b0, wfx), crk_horizontal_sse41(a1, b1, wfx), wfy);
        __m128i second = crk_vertical_sse41(crk_horizontal_sse41(_mm_srli_si128(a0, 8), _mm_srli_si128(b0, 8), wfx),
                                            crk_horizontal_sse41(_mm_srli_si128(a1, 8), _mm_srli_si128(b1, 8), wfx), wfy);
        _mm_storeu_si128((__m128i *)(out + i), _mm_packus_epi16(first, second));
    }
    if (i < count) crk_bilinear_shift_scalar(row0 + i, row1 + i, fx, fy, count - i, out + i);
}

__attribute__((target("avx2")))
static void crk_bilinear_shift_avx2(const uint32_t *row0, const uint32_t *row1, uint32_t fx, uint32_t fy, int count,
                                    uint32_t *out) {
    const __m256i wfx = _mm256_set1_epi16((short)fx), wfy = _mm256_set1_epi32((int)fy);
    const __m256i half = _mm256_set1_epi32(32768);
    int i = 0;
    for (; i + 4 <= count; i += 4) {
        __m256i a0 = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(row0 + i)));
        __m256i b0 = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(row0 + i + 1)));
        __m256i a1 = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(row1 + i)));
        __m256i b1 = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(row1 + i + 1)));
        __m256i h0 = _mm256_add_epi16(_mm256_slli_epi16(a0, 8), _mm256_mullo_epi16(_mm256_sub_epi16(b0, a0), wfx));
        __m256i h1 = _mm256_add_epi16(_mm256_slli_epi16(a1, 8), _mm256_mullo_epi16(_mm256_sub_epi16(b1, a1), wfx));
        __m256i h0lo = _mm256_cvtepu16_epi32(_mm256_castsi256_si128(h0)), h0hi = _mm256_cvtepu16_epi32(_mm256_extracti128_si256(h0, 1));
        __m256i h1lo = _mm256_cvtepu16_epi32(_mm256_castsi256_si128(h1)), h1hi = _mm256_cvtepu16_epi32(_mm256_extracti128_si256(h1, 1));
        __m256i lo = _mm256_add_epi32(_mm256_slli_epi32(h0lo, 8), _mm256_mullo_epi32(_mm256_sub_epi32(h1lo, h0lo), wfy));
        __m256i hi = _mm256_add_epi32(_mm256_slli_epi32(h0hi, 8), _mm256_mullo_epi32(_mm256_sub_epi32(h1hi, h0hi), wfy));
        lo = _mm256_srli_epi32(_mm256_add_epi32(lo, half), 16);
        hi = _mm256_srli_epi32(_mm256_add_epi32(hi, half), 16);
        // lo holds channels 0–7 (pixels 0, 1), hi channels 8–15 (pixels 2, 3).
        __m128i p01 = _mm_packus_epi32(_mm256_castsi256_si128(lo), _mm256_extracti128_si256(lo, 1));
        __m128i p23 = _mm_packus_epi32(_mm256_castsi256_si128(hi), _mm256_extracti128_si256(hi, 1));
        _mm_storeu_si128((__m128i *)(out + i), _mm_packus_epi16(p01, p23));
    }
    if (i < count) crk_bilinear_shift_scalar(row0 + i, row1 + i, fx, fy, count - i, out + i);
}

/// Two output pixels: texels [x, x + 1] of each row for x = index[0], index[1], and their weights.
__attribute__((target("sse4.1")))
static inline __m128i crk_columns_pair_sse41(const uint32_t *row0, const uint32_t *row1, const int32_t *index,
                                              const uint16_t *fx, __m128i wfy) {
    // Lanes 0–3 of the weights: fx[0]; lanes 4–7: fx[1].
    const __m128i spread = _mm_setr_epi8(0, 1, 0, 1, 0, 1, 0, 1, 2, 3, 2, 3, 2, 3, 2, 3);
    uint32_t pair;
    memcpy(&pair, fx, 4);
    __m128i wfx = _mm_shuffle_epi8(_mm_cvtsi32_si128((int)pair), spread);
    __m128i t0 = _mm_unpacklo_epi64(_mm_loadl_epi64((const __m128i *)(row0 + index[0])), _mm_loadl_epi64((const __m128i *)(row0 + index[1])));
    __m128i t1 = _mm_unpacklo_epi64(_mm_loadl_epi64((const __m128i *)(row1 + index[0])), _mm_loadl_epi64((const __m128i *)(row1 + index[1])));
    // [left0, right0, left1, right1] → [left0, left1, right0, right1]
    t0 = _mm_shuffle_epi32(t0, _MM_SHUFFLE(3, 1, 2, 0));
    t1 = _mm_shuffle_epi32(t1, _MM_SHUFFLE(3, 1, 2, 0));
    __m128i h0 = crk_horizontal_sse41(t0, _mm_srli_si128(t0, 8), wfx);
    __m128i h1 = crk_horizontal_sse41(t1, _mm_srli_si128(t1, 8), wfx);
    return crk_vertical_sse41(h0, h1, wfy);
}

/// Two samples with their own weights both ways.
__attribute__((target("sse4.1")))
static inline __m128i crk_affine_pair_sse41(const uint32_t *pixels, crk_tap a, crk_tap b) {
    __m128i wfx = _mm_unpacklo_epi64(_mm_set1_epi16((short)a.fx), _mm_set1_epi16((short)b.fx));
    __m128i t0 = _mm_unpacklo_epi64(_mm_loadl_epi64((const __m128i *)(pixels + a.at)), _mm_loadl_epi64((const __m128i *)(pixels + b.at)));
    __m128i t1 = _mm_unpacklo_epi64(_mm_loadl_epi64((const __m128i *)(pixels + a.at + a.below)),
                                    _mm_loadl_epi64((const __m128i *)(pixels + b.at + b.below)));
    t0 = _mm_shuffle_epi32(t0, _MM_SHUFFLE(3, 1, 2, 0));
    t1 = _mm_shuffle_epi32(t1, _MM_SHUFFLE(3, 1, 2, 0));
    __m128i h0 = crk_horizontal_sse41(t0, _mm_srli_si128(t0, 8), wfx);
    __m128i h1 = crk_horizontal_sse41(t1, _mm_srli_si128(t1, 8), wfx);
    // The vertical blend with pixel a's weight in lanes 0–3 and b's in 4–7.
    __m128i h0lo = _mm_cvtepu16_epi32(h0), h0hi = _mm_cvtepu16_epi32(_mm_srli_si128(h0, 8));
    __m128i h1lo = _mm_cvtepu16_epi32(h1), h1hi = _mm_cvtepu16_epi32(_mm_srli_si128(h1, 8));
    const __m128i half = _mm_set1_epi32(32768);
    __m128i lo = _mm_add_epi32(_mm_slli_epi32(h0lo, 8), _mm_mullo_epi32(_mm_sub_epi32(h1lo, h0lo), _mm_set1_epi32(a.fy)));
    __m128i hi = _mm_add_epi32(_mm_slli_epi32(h0hi, 8), _mm_mullo_epi32(_mm_sub_epi32(h1hi, h0hi), _mm_set1_epi32(b.fy)));
    lo = _mm_srli_epi32(_mm_add_epi32(lo, half), 16);
    hi = _mm_srli_epi32(_mm_add_epi32(hi, half), 16);
    return _mm_packus_epi32(lo, hi);
}

/// Positions one pixel after another (the additions must happen in order to give the general path's
/// positions), then the covered samples two at a time.
__attribute__((target("sse4.1")))
static void crk_bilinear_affine_sse41(const uint32_t *pixels, int width, int height, double u0, double v0, double du, double dv,
                                      const uint8_t *coverage, int count, uint32_t *out) {
    if (width < 2) { crk_bilinear_affine_scalar(pixels, width, height, u0, v0, du, dv, coverage, count, out); return; }
    double u = u0, v = v0, maxU = (double)(width - 1) * 256, maxV = (double)(height - 1) * 256;
    enum { CHUNK = 64 };
    crk_tap taps[CHUNK];
    int where[CHUNK];
    for (int start = 0; start < count; start += CHUNK) {
        int end = start + CHUNK < count ? start + CHUNK : count, n = 0;
        for (int i = start; i < end; i++, u += du, v += dv) {
            if (coverage[i] == 0) continue;
            taps[n] = crk_affine_tap(u, v, width, maxU, maxV);
            where[n++] = i;
        }
        int k = 0;
        for (; k + 2 <= n; k += 2) {
            __m128i pair = _mm_packus_epi16(crk_affine_pair_sse41(pixels, taps[k], taps[k + 1]), _mm_setzero_si128());
            out[where[k]] = (uint32_t)_mm_cvtsi128_si32(pair);
            out[where[k + 1]] = (uint32_t)_mm_extract_epi32(pair, 1);
        }
        if (k < n) {
            const uint32_t *p = pixels + taps[k].at;
            out[where[k]] = crk_bilinear_pixel(p[0], p[1], p[taps[k].below], p[taps[k].below + 1], taps[k].fx, taps[k].fy);
        }
    }
}

__attribute__((target("sse4.1")))
static void crk_bilinear_columns_sse41(const uint32_t *row0, const uint32_t *row1, uint32_t fy,
                                       const int32_t *index, const uint16_t *fx, int count, uint32_t *out) {
    const __m128i wfy = _mm_set1_epi32((int)fy);
    int i = 0;
    for (; i + 4 <= count; i += 4) {
        __m128i first = crk_columns_pair_sse41(row0, row1, index + i, fx + i, wfy);
        __m128i second = crk_columns_pair_sse41(row0, row1, index + i + 2, fx + i + 2, wfy);
        _mm_storeu_si128((__m128i *)(out + i), _mm_packus_epi16(first, second));
    }
    if (i < count) crk_bilinear_columns_scalar(row0, row1, fy, index + i, fx + i, count - i, out + i);
}

/// Source-over of four pixels in 16-bit lanes, exactly as crk_scale rounds; opaque and empty groups of
/// four take a shortcut.
__attribute__((target("sse4.1")))
static void crk_source_over_sse41(uint32_t *dst, const uint32_t *src, int count) {
    const __m128i alphaMask = _mm_set1_epi32((int)0xFF000000u);
    const __m128i spreadAlpha = _mm_setr_epi8(3, -1, 3, -1, 3, -1, 3, -1, 7, -1, 7, -1, 7, -1, 7, -1);
    const __m128i spreadAlphaHigh = _mm_setr_epi8(11, -1, 11, -1, 11, -1, 11, -1, 15, -1, 15, -1, 15, -1, 15, -1);
    const __m128i c255 = _mm_set1_epi16(255), c128 = _mm_set1_epi16(128), zero = _mm_setzero_si128();
    int i = 0;
    for (; i + 4 <= count; i += 4) {
        __m128i s = _mm_loadu_si128((const __m128i *)(src + i));
        __m128i alphas = _mm_and_si128(s, alphaMask);
        if (_mm_movemask_epi8(_mm_cmpeq_epi32(alphas, alphaMask)) == 0xFFFF) {
            _mm_storeu_si128((__m128i *)(dst + i), s);
            continue;
        }
        if (_mm_testz_si128(s, s)) continue;
        __m128i d = _mm_loadu_si128((const __m128i *)(dst + i));
        __m128i invLo = _mm_sub_epi16(c255, _mm_shuffle_epi8(s, spreadAlpha));
        __m128i invHi = _mm_sub_epi16(c255, _mm_shuffle_epi8(s, spreadAlphaHigh));
        __m128i lo = _mm_add_epi16(_mm_mullo_epi16(_mm_unpacklo_epi8(d, zero), invLo), c128);
        __m128i hi = _mm_add_epi16(_mm_mullo_epi16(_mm_unpackhi_epi8(d, zero), invHi), c128);
        lo = _mm_srli_epi16(_mm_add_epi16(lo, _mm_srli_epi16(lo, 8)), 8);
        hi = _mm_srli_epi16(_mm_add_epi16(hi, _mm_srli_epi16(hi, 8)), 8);
        // A 32-bit add, as the portable code adds packed pixels.
        _mm_storeu_si128((__m128i *)(dst + i), _mm_add_epi32(s, _mm_packus_epi16(lo, hi)));
    }
    if (i < count) crk_source_over_scalar(dst + i, src + i, count - i);
}

/// round(x / 255) in 16-bit lanes for x in 0…65025 (as crk_scale).
__attribute__((target("sse4.1")))
static inline __m128i crk_div255_epu16(__m128i x) {
    x = _mm_add_epi16(x, _mm_set1_epi16(128));
    return _mm_srli_epi16(_mm_add_epi16(x, _mm_srli_epi16(x, 8)), 8);
}

__attribute__((target("sse4.1")))
static void crk_source_over_scaled_sse41(uint32_t *dst, const uint32_t *src, const uint8_t *coverage, uint32_t opacity,
                                         int count) {
    const __m128i spreadAlpha = _mm_setr_epi8(3, -1, 3, -1, 3, -1, 3, -1, 7, -1, 7, -1, 7, -1, 7, -1);
    const __m128i spreadAlphaHigh = _mm_setr_epi8(11, -1, 11, -1, 11, -1, 11, -1, 15, -1, 15, -1, 15, -1, 15, -1);
    // Factors of pixels 0, 1 (16-bit lanes 0, 1) and 2, 3 (lanes 2, 3), each repeated over four channels.
    const __m128i spreadLow = _mm_setr_epi8(0, 1, 0, 1, 0, 1, 0, 1, 2, 3, 2, 3, 2, 3, 2, 3);
    const __m128i spreadHigh = _mm_setr_epi8(4, 5, 4, 5, 4, 5, 4, 5, 6, 7, 6, 7, 6, 7, 6, 7);
    const __m128i c255 = _mm_set1_epi16(255), zero = _mm_setzero_si128();
    const __m128i op = _mm_set1_epi16((short)opacity);
    int i = 0;
    for (; i + 4 <= count; i += 4) {
        __m128i f = op;
        if (coverage != NULL) {
            uint32_t four;
            memcpy(&four, coverage + i, 4);
            if (four == 0) continue;
            f = crk_div255_epu16(_mm_mullo_epi16(_mm_cvtepu8_epi16(_mm_cvtsi32_si128((int)four)), op));
        }
        __m128i s = _mm_loadu_si128((const __m128i *)(src + i));
        __m128i sLo = crk_div255_epu16(_mm_mullo_epi16(_mm_unpacklo_epi8(s, zero), _mm_shuffle_epi8(f, spreadLow)));
        __m128i sHi = crk_div255_epu16(_mm_mullo_epi16(_mm_unpackhi_epi8(s, zero), _mm_shuffle_epi8(f, spreadHigh)));
        s = _mm_packus_epi16(sLo, sHi);
        if (_mm_testz_si128(s, s)) continue;
        __m128i d = _mm_loadu_si128((const __m128i *)(dst + i));
        __m128i dLo = crk_div255_epu16(_mm_mullo_epi16(_mm_unpacklo_epi8(d, zero), _mm_sub_epi16(c255, _mm_shuffle_epi8(s, spreadAlpha))));
        __m128i dHi = crk_div255_epu16(_mm_mullo_epi16(_mm_unpackhi_epi8(d, zero), _mm_sub_epi16(c255, _mm_shuffle_epi8(s, spreadAlphaHigh))));
        _mm_storeu_si128((__m128i *)(dst + i), _mm_add_epi32(s, _mm_packus_epi16(dLo, dHi)));
    }
    if (i < count) crk_source_over_scaled_scalar(dst + i, src + i, coverage != NULL ? coverage + i : NULL, opacity, count - i);
}

__attribute__((target("sse4.1")))
static void crk_solid_over_sse41(uint32_t *dst, uint32_t color, int count) {
    const __m128i inverse = _mm_set1_epi16((short)(255 - (color >> 24)));
    const __m128i colors = _mm_set1_epi32((int)color), zero = _mm_setzero_si128();
    int i = 0;
    for (; i + 4 <= count; i += 4) {
        __m128i d = _mm_loadu_si128((const __m128i *)(dst + i));
        __m128i lo = crk_div255_epu16(_mm_mullo_epi16(_mm_unpacklo_epi8(d, zero), inverse));
        __m128i hi = crk_div255_epu16(_mm_mullo_epi16(_mm_unpackhi_epi8(d, zero), inverse));
        _mm_storeu_si128((__m128i *)(dst + i), _mm_add_epi32(colors, _mm_packus_epi16(lo, hi)));
    }
    if (i < count) crk_solid_over_scalar(dst + i, color, count - i);
}

__attribute__((target("sse4.1")))
static void crk_solid_over_coverage_sse41(uint32_t *dst, uint32_t color, const uint8_t *coverage, int count) {
    const __m128i spreadAlpha = _mm_setr_epi8(3, -1, 3, -1, 3, -1, 3, -1, 7, -1, 7, -1, 7, -1, 7, -1);
    const __m128i spreadAlphaHigh = _mm_setr_epi8(11, -1, 11, -1, 11, -1, 11, -1, 15, -1, 15, -1, 15, -1, 15, -1);
    const __m128i spreadLow = _mm_setr_epi8(0, 1, 0, 1, 0, 1, 0, 1, 2, 3, 2, 3, 2, 3, 2, 3);
    const __m128i spreadHigh = _mm_setr_epi8(4, 5, 4, 5, 4, 5, 4, 5, 6, 7, 6, 7, 6, 7, 6, 7);
    const __m128i c255 = _mm_set1_epi16(255), zero = _mm_setzero_si128();
    const __m128i colors16 = _mm_unpacklo_epi8(_mm_set1_epi32((int)color), zero);  // two pixels' channels
    int i = 0;
    for (; i + 4 <= count; i += 4) {
        uint32_t four;
        memcpy(&four, coverage + i, 4);
        if (four == 0) continue;
        __m128i f = _mm_cvtepu8_epi16(_mm_cvtsi32_si128((int)four));
        __m128i sLo = crk_div255_epu16(_mm_mullo_epi16(colors16, _mm_shuffle_epi8(f, spreadLow)));
        __m128i sHi = crk_div255_epu16(_mm_mullo_epi16(colors16, _mm_shuffle_epi8(f, spreadHigh)));
        __m128i s = _mm_packus_epi16(sLo, sHi);
        __m128i d = _mm_loadu_si128((const __m128i *)(dst + i));
        __m128i dLo = crk_div255_epu16(_mm_mullo_epi16(_mm_unpacklo_epi8(d, zero), _mm_sub_epi16(c255, _mm_shuffle_epi8(s, spreadAlpha))));
        __m128i dHi = crk_div255_epu16(_mm_mullo_epi16(_mm_unpackhi_epi8(d, zero), _mm_sub_epi16(c255, _mm_shuffle_epi8(s, spreadAlphaHigh))));
        _mm_storeu_si128((__m128i *)(dst + i), _mm_add_epi32(s, _mm_packus_epi16(dLo, dHi)));
    }
    if (i < count) crk_solid_over_coverage_scalar(dst + i, color, coverage + i, count - i);
}

__attribute__((target("sse4.1")))
static void crk_horizontal_columns_sse41(const uint32_t *row, const int32_t *index, const uint16_t *fx, int count, uint16_t *out) {
    const __m128i spread = _mm_setr_epi8(0, 1, 0, 1, 0, 1, 0, 1, 2, 3, 2, 3, 2, 3, 2, 3);
    int i = 0;
    for (; i + 2 <= count; i += 2) {
        uint32_t pair;
        memcpy(&pair, fx + i, 4);
        __m128i wfx = _mm_shuffle_epi8(_mm_cvtsi32_si128((int)pair), spread);
        __m128i t = _mm_unpacklo_epi64(_mm_loadl_epi64((const __m128i *)(row + index[i])), _mm_loadl_epi64((const __m128i *)(row + index[i + 1])));
        t = _mm_shuffle_epi32(t, _MM_SHUFFLE(3, 1, 2, 0));
        _mm_storeu_si128((__m128i *)(out + 4 * i), crk_horizontal_sse41(t, _mm_srli_si128(t, 8), wfx));
    }
    if (i < count) crk_horizontal_columns_scalar(row, index + i, fx + i, count - i, out + 4 * i);
}

__attribute__((target("avx2")))
static void crk_horizontal_shift_avx2(const uint32_t *row, uint32_t fx, int count, uint16_t *out) {
    const __m256i wfx = _mm256_set1_epi16((short)fx);
    int i = 0;
    for (; i + 4 <= count; i += 4) {
        __m256i a = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(row + i)));
        __m256i b = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(row + i + 1)));
        __m256i h = _mm256_add_epi16(_mm256_slli_epi16(a, 8), _mm256_mullo_epi16(_mm256_sub_epi16(b, a), wfx));
        _mm256_storeu_si256((__m256i *)(out + 4 * i), h);
    }
    if (i < count) crk_horizontal_shift_scalar(row + i, fx, count - i, out + 4 * i);
}

__attribute__((target("sse4.1")))
static void crk_horizontal_shift_sse41(const uint32_t *row, uint32_t fx, int count, uint16_t *out) {
    const __m128i wfx = _mm_set1_epi16((short)fx);
    int i = 0;
    for (; i + 2 <= count; i += 2) {
        __m128i a = _mm_loadl_epi64((const __m128i *)(row + i)), b = _mm_loadl_epi64((const __m128i *)(row + i + 1));
        _mm_storeu_si128((__m128i *)(out + 4 * i), crk_horizontal_sse41(a, b, wfx));
    }
    if (i < count) crk_horizontal_shift_scalar(row + i, fx, count - i, out + 4 * i);
}

__attribute__((target("sse4.1")))
static void crk_vertical_rows_sse41(const uint16_t *h0, const uint16_t *h1, uint32_t fy, int count, uint32_t *out) {
    const __m128i wfy = _mm_set1_epi32((int)fy);
    int i = 0;
    for (; i + 4 <= count; i += 4) {
        __m128i first = crk_vertical_sse41(_mm_loadu_si128((const __m128i *)(h0 + 4 * i)), _mm_loadu_si128((const __m128i *)(h1 + 4 * i)), wfy);
        __m128i second = crk_vertical_sse41(_mm_loadu_si128((const __m128i *)(h0 + 4 * i + 8)), _mm_loadu_si128((const __m128i *)(h1 + 4 * i + 8)), wfy);
        _mm_storeu_si128((__m128i *)(out + i), _mm_packus_epi16(first, second));
    }
    if (i < count) crk_vertical_scalar(h0 + 4 * i, h1 + 4 * i, fy, count - i, out + i);
}

/// crk_vertical_rows_sse41 eight pixels at a time.
__attribute__((target("avx2")))
static void crk_vertical_rows_avx2(const uint16_t *h0, const uint16_t *h1, uint32_t fy, int count, uint32_t *out) {
    const __m256i wfy = _mm256_set1_epi32((int)fy), half = _mm256_set1_epi32(32768);
    int i = 0;
    for (; i + 4 <= count; i += 4) {
        __m256i a = _mm256_loadu_si256((const __m256i *)(h0 + 4 * i)), b = _mm256_loadu_si256((const __m256i *)(h1 + 4 * i));
        __m256i alo = _mm256_cvtepu16_epi32(_mm256_castsi256_si128(a)), ahi = _mm256_cvtepu16_epi32(_mm256_extracti128_si256(a, 1));
        __m256i blo = _mm256_cvtepu16_epi32(_mm256_castsi256_si128(b)), bhi = _mm256_cvtepu16_epi32(_mm256_extracti128_si256(b, 1));
        __m256i lo = _mm256_add_epi32(_mm256_slli_epi32(alo, 8), _mm256_mullo_epi32(_mm256_sub_epi32(blo, alo), wfy));
        __m256i hi = _mm256_add_epi32(_mm256_slli_epi32(ahi, 8), _mm256_mullo_epi32(_mm256_sub_epi32(bhi, ahi), wfy));
        lo = _mm256_srli_epi32(_mm256_add_epi32(lo, half), 16);
        hi = _mm256_srli_epi32(_mm256_add_epi32(hi, half), 16);
        // lo: channels of pixels 0, 1; hi: pixels 2, 3.
        __m128i p01 = _mm_packus_epi32(_mm256_castsi256_si128(lo), _mm256_extracti128_si256(lo, 1));
        __m128i p23 = _mm_packus_epi32(_mm256_castsi256_si128(hi), _mm256_extracti128_si256(hi, 1));
        _mm_storeu_si128((__m128i *)(out + i), _mm_packus_epi16(p01, p23));
    }
    if (i < count) crk_vertical_scalar(h0 + 4 * i, h1 + 4 * i, fy, count - i, out + i);
}

/// round(x / 255) in 16-bit lanes for x in 0…65025 (as crk_scale), sixteen lanes.
__attribute__((target("avx2")))
static inline __m256i crk_div255_epu16_avx2(__m256i x) {
    x = _mm256_add_epi16(x, _mm256_set1_epi16(128));
    return _mm256_srli_epi16(_mm256_add_epi16(x, _mm256_srli_epi16(x, 8)), 8);
}

/// crk_solid_over_sse41 eight pixels at a time (the smokescreen over a whole frame is one such run).
__attribute__((target("avx2")))
static void crk_solid_over_avx2(uint32_t *dst, uint32_t color, int count) {
    const __m256i inverse = _mm256_set1_epi16((short)(255 - (color >> 24)));
    const __m256i colors = _mm256_set1_epi32((int)color), zero = _mm256_setzero_si256();
    int i = 0;
    for (; i + 8 <= count; i += 8) {
        __m256i d = _mm256_loadu_si256((const __m256i *)(dst + i));
        __m256i lo = crk_div255_epu16_avx2(_mm256_mullo_epi16(_mm256_unpacklo_epi8(d, zero), inverse));
        __m256i hi = crk_div255_epu16_avx2(_mm256_mullo_epi16(_mm256_unpackhi_epi8(d, zero), inverse));
        _mm256_storeu_si256((__m256i *)(dst + i), _mm256_add_epi32(colors, _mm256_packus_epi16(lo, hi)));
    }
    if (i < count) crk_solid_over_scalar(dst + i, color, count - i);
}

/// The byte shuffles the AVX2 blends use, within each 128-bit lane (pixels 0–3 low, 4–7 high): each of the
/// lane's first two pixels' alpha (`alpha`) or last two's (`alpha_high`) spread over its four 16-bit lanes;
/// and a factor per pixel (16-bit lane k is pixel k of the 128-bit lane) spread over its pixel's four
/// lanes, for pixels 0–1 (`low`) or 2–3 (`high`).
typedef struct { __m256i alpha, alpha_high, low, high; } crk_spreads_avx2;

__attribute__((target("avx2")))
static inline crk_spreads_avx2 crk_make_spreads_avx2(void) {
    crk_spreads_avx2 s;
    s.alpha = _mm256_setr_epi8(3, -1, 3, -1, 3, -1, 3, -1, 7, -1, 7, -1, 7, -1, 7, -1,
                               3, -1, 3, -1, 3, -1, 3, -1, 7, -1, 7, -1, 7, -1, 7, -1);
    s.alpha_high = _mm256_setr_epi8(11, -1, 11, -1, 11, -1, 11, -1, 15, -1, 15, -1, 15, -1, 15, -1,
                                    11, -1, 11, -1, 11, -1, 11, -1, 15, -1, 15, -1, 15, -1, 15, -1);
    s.low = _mm256_setr_epi8(0, 1, 0, 1, 0, 1, 0, 1, 2, 3, 2, 3, 2, 3, 2, 3,
                             0, 1, 0, 1, 0, 1, 0, 1, 2, 3, 2, 3, 2, 3, 2, 3);
    s.high = _mm256_setr_epi8(4, 5, 4, 5, 4, 5, 4, 5, 6, 7, 6, 7, 6, 7, 6, 7,
                              4, 5, 4, 5, 4, 5, 4, 5, 6, 7, 6, 7, 6, 7, 6, 7);
    return s;
}

/// Eight premultiplied pixels `s` over eight `d`: s + d·(255 − sA)/255 a channel, rounded as crk_scale, and
/// the sum a 32-bit add, as the portable code adds packed pixels.
__attribute__((always_inline, target("avx2")))
static inline __m256i crk_over_avx2(__m256i s, __m256i d, const crk_spreads_avx2 *spreads) {
    const __m256i c255 = _mm256_set1_epi16(255), zero = _mm256_setzero_si256();
    const __m256i lo = crk_div255_epu16_avx2(_mm256_mullo_epi16(_mm256_unpacklo_epi8(d, zero), _mm256_sub_epi16(c255, _mm256_shuffle_epi8(s, spreads->alpha))));
    const __m256i hi = crk_div255_epu16_avx2(_mm256_mullo_epi16(_mm256_unpackhi_epi8(d, zero), _mm256_sub_epi16(c255, _mm256_shuffle_epi8(s, spreads->alpha_high))));
    return _mm256_add_epi32(s, _mm256_packus_epi16(lo, hi));
}

/// crk_solid_over_coverage_avx2 of a black of alpha `alpha` (a shadow's usual colour): the scaled colour is
/// alpha alone, ⌊alpha·c/255⌉ (at c = 255, alpha itself), so each pixel's one factor is worked out once in a
/// 16-bit lane and copied to its channels, not scaled four channels at a time; the same bytes.
__attribute__((target("avx2")))
static void crk_black_over_coverage_avx2(uint32_t *dst, uint32_t alpha, const uint8_t *coverage, int count) {
    const __m256i zero = _mm256_setzero_si256(), opaque = _mm256_set1_epi32((int)0xFF000000u);
    const __m128i a16 = _mm_set1_epi16((short)alpha);
    int i = 0;
    for (; i + 8 <= count; i += 8) {
        uint64_t eight;
        memcpy(&eight, coverage + i, 8);
        if (eight == 0) continue;
        if (eight == ~0ull && alpha == 255) { _mm256_storeu_si256((__m256i *)(dst + i), opaque); continue; }
        // Each pixel's alpha, α·c/255 rounded (crk_scale's), then 255 − that for what lies below.
        const __m128i c16 = _mm_cvtepu8_epi16(_mm_cvtsi64_si128((long long)eight));
        __m128i scaled = _mm_add_epi16(_mm_mullo_epi16(c16, a16), _mm_set1_epi16(128));
        scaled = _mm_srli_epi16(_mm_add_epi16(scaled, _mm_srli_epi16(scaled, 8)), 8);
        const __m256i a32 = _mm256_cvtepu16_epi32(scaled);
        // 255 − alpha in each pixel's four lanes, in the order bytes unpacked within each 128-bit half take
        // (craster_lanes.h's: pixels 0, 1, 4, 5 low, 2, 3, 6, 7 high).
        __m256i keep_lo, keep_hi;
        crk_lanes_widen_avx2(_mm256_sub_epi32(_mm256_set1_epi32(255), a32), &keep_lo, &keep_hi);
        const __m256i d = _mm256_loadu_si256((const __m256i *)(dst + i));
        const __m256i dLo = crk_div255_epu16_avx2(_mm256_mullo_epi16(_mm256_unpacklo_epi8(d, zero), keep_lo));
        const __m256i dHi = crk_div255_epu16_avx2(_mm256_mullo_epi16(_mm256_unpackhi_epi8(d, zero), keep_hi));
        _mm256_storeu_si256((__m256i *)(dst + i), _mm256_add_epi32(_mm256_slli_epi32(a32, 24), _mm256_packus_epi16(dLo, dHi)));
    }
    if (i < count) crk_solid_over_coverage_scalar(dst + i, alpha << 24, coverage + i, count - i);
}

/// crk_solid_over_coverage_sse41 eight pixels at a time (a shadow's blurred coverage, an anti-aliased fill):
/// eight uncovered pixels are skipped, eight fully covered ones of an opaque colour are stored; a black
/// goes to crk_black_over_coverage_avx2.
__attribute__((target("avx2")))
static void crk_solid_over_coverage_avx2(uint32_t *dst, uint32_t color, const uint8_t *coverage, int count) {
    if ((color & 0x00FFFFFFu) == 0 && color != 0) { crk_black_over_coverage_avx2(dst, color >> 24, coverage, count); return; }
    // Within each 128-bit lane, as in the SSE4.1 version: pixels 0–3 in the low lane, 4–7 in the high.
    const crk_spreads_avx2 spreads = crk_make_spreads_avx2();
    const __m256i spreadLow = spreads.low, spreadHigh = spreads.high, zero = _mm256_setzero_si256();
    const __m256i colors = _mm256_set1_epi32((int)color), colors16 = _mm256_unpacklo_epi8(colors, zero);
    const uint64_t full = 0xFFFFFFFFFFFFFFFFull;
    const int opaque = color >> 24 == 255;
    int i = 0;
    for (; i + 8 <= count; i += 8) {
        uint64_t eight;
        memcpy(&eight, coverage + i, 8);
        if (eight == 0) continue;
        if (eight == full && opaque) { _mm256_storeu_si256((__m256i *)(dst + i), colors); continue; }
        // Coverage of pixels 0–3 in the low lane's 16-bit lanes 0–3, of 4–7 in the high lane's.
        __m128i c8 = _mm_cvtsi64_si128((long long)eight);
        __m256i f = _mm256_cvtepu8_epi16(_mm_unpacklo_epi32(c8, _mm_shuffle_epi32(c8, 0x55)));
        __m256i sLo = crk_div255_epu16_avx2(_mm256_mullo_epi16(colors16, _mm256_shuffle_epi8(f, spreadLow)));
        __m256i sHi = crk_div255_epu16_avx2(_mm256_mullo_epi16(colors16, _mm256_shuffle_epi8(f, spreadHigh)));
        __m256i src = _mm256_packus_epi16(sLo, sHi);
        _mm256_storeu_si256((__m256i *)(dst + i), crk_over_avx2(src, _mm256_loadu_si256((const __m256i *)(dst + i)), &spreads));
    }
    if (i < count) crk_solid_over_coverage_scalar(dst + i, color, coverage + i, count - i);
}

/// crk_source_over_sse41 eight pixels at a time: an opaque group is stored and an empty one skipped with one
/// test each (a full-screen opaque layer, the usual snapshot, blends 2.7 times as fast as by fours).
__attribute__((target("avx2")))
static void crk_source_over_avx2(uint32_t *dst, const uint32_t *src, int count) {
    const crk_spreads_avx2 spreads = crk_make_spreads_avx2();
    const __m256i alpha = _mm256_set1_epi32((int)0xFF000000u);
    int i = 0;
    for (; i + 8 <= count; i += 8) {
        const __m256i s = _mm256_loadu_si256((const __m256i *)(src + i));
        if (_mm256_testc_si256(s, alpha)) { _mm256_storeu_si256((__m256i *)(dst + i), s); continue; }
        if (_mm256_testz_si256(s, s)) continue;
        _mm256_storeu_si256((__m256i *)(dst + i), crk_over_avx2(s, _mm256_loadu_si256((const __m256i *)(dst + i)), &spreads));
    }
    if (i < count) crk_source_over_sse41(dst + i, src + i, count - i);
}

/// crk_source_over_scaled_sse41 eight pixels at a time (two 128-bit lanes of four).
__attribute__((target("avx2")))
static void crk_source_over_scaled_avx2(uint32_t *dst, const uint32_t *src, const uint8_t *coverage, uint32_t opacity, int count) {
    // Within each 128-bit lane, as in the SSE4.1 version.
    const crk_spreads_avx2 spreads = crk_make_spreads_avx2();
    const __m256i spreadLow = spreads.low, spreadHigh = spreads.high, zero = _mm256_setzero_si256();
    const __m256i op = _mm256_set1_epi16((short)opacity);
    int i = 0;
    for (; i + 8 <= count; i += 8) {
        __m256i f = op;
        if (coverage != NULL) {
            uint64_t eight;
            memcpy(&eight, coverage + i, 8);
            if (eight == 0) continue;
            if (eight == ~0ull && opacity == 255) {
                // Whole coverage at full opacity scales nothing (s·255/255 is s): opaque groups are stored.
                __m256i s = _mm256_loadu_si256((const __m256i *)(src + i));
                const __m256i alpha = _mm256_set1_epi32((int)0xFF000000);
                if (_mm256_testc_si256(s, alpha)) { _mm256_storeu_si256((__m256i *)(dst + i), s); continue; }
            }
            // Pixels 0–3 to the low lane, 4–7 to the high lane, each as four 16-bit factors.
            __m128i bytes = _mm_cvtsi64_si128((long long)eight);
            __m256i wide = _mm256_set_m128i(_mm_cvtepu8_epi16(_mm_srli_si128(bytes, 4)), _mm_cvtepu8_epi16(bytes));
            f = crk_div255_epu16_avx2(_mm256_mullo_epi16(wide, op));
        }
        __m256i s = _mm256_loadu_si256((const __m256i *)(src + i));
        __m256i sLo = crk_div255_epu16_avx2(_mm256_mullo_epi16(_mm256_unpacklo_epi8(s, zero), _mm256_shuffle_epi8(f, spreadLow)));
        __m256i sHi = crk_div255_epu16_avx2(_mm256_mullo_epi16(_mm256_unpackhi_epi8(s, zero), _mm256_shuffle_epi8(f, spreadHigh)));
        s = _mm256_packus_epi16(sLo, sHi);
        if (_mm256_testz_si256(s, s)) continue;
        _mm256_storeu_si256((__m256i *)(dst + i), crk_over_avx2(s, _mm256_loadu_si256((const __m256i *)(dst + i)), &spreads));
    }
    if (i < count) crk_source_over_scaled_sse41(dst + i, src + i, coverage != NULL ? coverage + i : NULL, opacity, count - i);
}
#endif

// MARK: Dispatch

void crk_bilinear_columns(const uint32_t *row0, const uint32_t *row1, uint32_t fy,
                          const int32_t *index, const uint16_t *fx, int count, uint32_t *out) {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    if (ccpu_features() & CCPU_SSE41) { crk_bilinear_columns_sse41(row0, row1, fy, index, fx, count, out); return; }
#endif
    crk_bilinear_columns_scalar(row0, row1, fy, index, fx, count, out);
}

void crk_bilinear_shift(const uint32_t *row0, const uint32_t *row1, uint32_t fx, uint32_t fy, int count, uint32_t *out) {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    unsigned features = ccpu_features();
    if (features & CCPU_AVX2) { crk_bilinear_shift_avx2(row0, row1, fx, fy, count, out); return; }
    if (features & CCPU_SSE41) { crk_bilinear_shift_sse41(row0, row1, fx, fy, count, out); return; }
#endif
    crk_bilinear_shift_scalar(row0, row1, fx, fy, count, out);
}

void crk_source_over(uint32_t *dst, const uint32_t *src, int count) {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    const unsigned features = ccpu_features();
    if (features & CCPU_AVX2) { crk_source_over_avx2(dst, src, count); return; }
    if (features & CCPU_SSE41) { crk_source_over_sse41(dst, src, count); return; }
#endif
    crk_source_over_scalar(dst, src, count);
}

void crk_source_over_scaled(uint32_t *dst, const uint32_t *src, const uint8_t *coverage, uint32_t opacity, int count) {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    unsigned features = ccpu_features();
    if (features & CCPU_AVX2) { crk_source_over_scaled_avx2(dst, src, coverage, opacity, count); return; }
    if (features & CCPU_SSE41) { crk_source_over_scaled_sse41(dst, src, coverage, opacity, count); return; }
#endif
    crk_source_over_scaled_scalar(dst, src, coverage, opacity, count);
}

void crk_solid_over(uint32_t *dst, uint32_t color, int count) {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    uint32_t features = ccpu_features();
    if (features & CCPU_AVX2) { crk_solid_over_avx2(dst, color, count); return; }
    if (features & CCPU_SSE41) { crk_solid_over_sse41(dst, color, count); return; }
#endif
    crk_solid_over_scalar(dst, color, count);
}

void crk_bilinear_affine(const uint32_t *pixels, int width, int height, double u0, double v0, double du, double dv,
                         const uint8_t *coverage, int count, uint32_t *out) {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    if (ccpu_features() & CCPU_SSE41) { crk_bilinear_affine_sse41(pixels, width, height, u0, v0, du, dv, coverage, count, out); return; }
#endif
    crk_bilinear_affine_scalar(pixels, width, height, u0, v0, du, dv, coverage, count, out);
}

void crk_solid_over_coverage(uint32_t *dst, uint32_t color, const uint8_t *coverage, int count) {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    if (ccpu_features() & CCPU_AVX2) { crk_solid_over_coverage_avx2(dst, color, coverage, count); return; }
    if (ccpu_features() & CCPU_SSE41) { crk_solid_over_coverage_sse41(dst, color, coverage, count); return; }
#endif
    crk_solid_over_coverage_scalar(dst, color, coverage, count);
}

void crk_multiply_coverage(uint8_t *out, const uint8_t *a, const uint8_t *b, int count) {
    // Plain C that compilers vectorize: the products fit 16 bits, as does the rounding division.
    for (int i = 0; i < count; i++) {
        uint32_t t = (uint32_t)a[i] * b[i] + 128;
        out[i] = (uint8_t)((t + (t >> 8)) >> 8);
    }
}

void crk_horizontal_columns(const uint32_t *row, const int32_t *index, const uint16_t *fx, int count, uint16_t *out) {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    if (ccpu_features() & CCPU_SSE41) { crk_horizontal_columns_sse41(row, index, fx, count, out); return; }
#endif
    crk_horizontal_columns_scalar(row, index, fx, count, out);
}

void crk_horizontal_shift(const uint32_t *row, uint32_t fx, int count, uint16_t *out) {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    unsigned features = ccpu_features();
    if (features & CCPU_AVX2) { crk_horizontal_shift_avx2(row, fx, count, out); return; }
    if (features & CCPU_SSE41) { crk_horizontal_shift_sse41(row, fx, count, out); return; }
#endif
    crk_horizontal_shift_scalar(row, fx, count, out);
}

void crk_vertical(const uint16_t *h0, const uint16_t *h1, uint32_t fy, int count, uint32_t *out) {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    unsigned features = ccpu_features();
    if (features & CCPU_AVX2) { crk_vertical_rows_avx2(h0, h1, fy, count, out); return; }
    if (features & CCPU_SSE41) { crk_vertical_rows_sse41(h0, h1, fy, count, out); return; }
#endif
    crk_vertical_scalar(h0, h1, fy, count, out);
}
