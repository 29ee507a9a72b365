#include "craster_kernels.h"
#include "ccpu_features.h"
#include "craster_lanes.h"

#include <math.h>
#include <pthread.h>
#include <string.h>

// Perspective resampling: each device pixel's centre mapped back through a homography, and the pixel's
// square, seen in the image, filtered. Under perspective one side of a layer is magnified while the other
// is shrunk, so a single bilinear tap aliases on the far side (a slow rotation shimmers). A shrunk pixel
// reads a halved copy of the image (a mipmap level) where its shorter side spans about a texel, with up to
// CRK_PROJECTIVE_TAPS taps along its longer side (anisotropic filtering, as GPUs do): at most four taps
// however far the layer is turned, where a box of the pixel's square took up to sixteen. See the header.
//
// The portable per-pixel code is the reference; where the processor has AVX2, eight pixels whose level and
// tap count agree are done at once with the same operations (doubles to the derivatives, floats for the
// positions, crk_lanes_sample for the taps); a group that disagrees (where the level or the count steps
// up, a few pixels a row) is done pixel by pixel.

/// The thresholds of the level and tap choice, squared lengths in level-0 texels: level l is passed over
/// while the shorter side exceeds `shorter[l]` (1.1 texels of level l) or the longer `longer[l]` (TAPS + 0.1
/// of them); at level l a pixel takes n + 1 taps when its longer side exceeds `taps[l][n]` (n + 0.1 texels).
typedef struct {
    double shorter[CRK_PROJECTIVE_LEVELS], longer[CRK_PROJECTIVE_LEVELS];
    double taps[CRK_PROJECTIVE_LEVELS][CRK_PROJECTIVE_TAPS];
    float scale[CRK_PROJECTIVE_LEVELS];
    /// Tap k of n at `offset[n][k]` along the longer side (−½…½); `offset_by_count[k][n]` the same by count
    /// (0 where k ≥ n), one register of eight lanes per tap; ⌈65536/n⌉ for n ≥ 2.
    float offset[CRK_PROJECTIVE_TAPS + 1][CRK_PROJECTIVE_TAPS], offset_by_count[CRK_PROJECTIVE_TAPS][8];
    int32_t inverse[8];
} crk_projective_limits;

static void crk_projective_fill_limits(crk_projective_limits *t) {
    for (int l = 0; l < CRK_PROJECTIVE_LEVELS; l++) {
        double side = (double)(1u << l);
        t->shorter[l] = 1.1 * side * 1.1 * side;
        t->longer[l] = (CRK_PROJECTIVE_TAPS + 0.1) * side * (CRK_PROJECTIVE_TAPS + 0.1) * side;
        for (int n = 0; n < CRK_PROJECTIVE_TAPS; n++) t->taps[l][n] = ((double)n + 0.1) * side * ((double)n + 0.1) * side;
        t->scale[l] = 1.0f / (float)(1u << l);
    }
    memset(t->offset, 0, sizeof t->offset);
    memset(t->offset_by_count, 0, sizeof t->offset_by_count);
    memset(t->inverse, 0, sizeof t->inverse);
    for (int n = 1; n <= CRK_PROJECTIVE_TAPS; n++) {
        for (int k = 0; k < n; k++) t->offset[n][k] = t->offset_by_count[k][n] = ((float)k + 0.5f) / (float)n - 0.5f;
        if (n >= 2) t->inverse[n] = (65536 + n - 1) / n;
    }
}

/// The limits, made once (they are constants): every row and every corner reads the same table.
static crk_projective_limits crk_projective_table;
static pthread_once_t crk_projective_table_once = PTHREAD_ONCE_INIT;
static void crk_projective_make_table(void) { crk_projective_fill_limits(&crk_projective_table); }
static const crk_projective_limits *crk_projective_limits_table(void) {
    pthread_once(&crk_projective_table_once, crk_projective_make_table);
    return &crk_projective_table;
}

/// What a pixel samples: its centre (u, v) and its longer side (du, dv) in level-0 texels, the level and
/// the number of taps.
typedef struct {
    double u, v, du, dv;
    int level, taps;
} crk_projective_plan;

/// Plans the pixel centred at device x = `cx` of a row whose (U, V, Q) at x = 0 are `row`; 0 when the pixel
/// is transparent (its centre behind the eye, or a mapping that is not finite there).
static inline int crk_projective_plan_pixel(const double *m, const double *row, double cx, int last_level,
                                            const crk_projective_limits *t, crk_projective_plan *p) {
    double U = cx * m[0] + row[0], V = cx * m[1] + row[1], Q = cx * m[2] + row[2];
    if (!(Q > 0 && Q < HUGE_VAL)) return 0;
    double iq = 1 / Q, u = U * iq, v = V * iq;
    // The derivatives of (u, v) along device x and y: the pixel's square seen in the image.
    double ux = (m[0] - u * m[2]) * iq, vx = (m[1] - v * m[2]) * iq;
    double uy = (m[3] - u * m[5]) * iq, vy = (m[4] - v * m[5]) * iq;
    double lx = ux * ux + vx * vx, ly = uy * uy + vy * vy;
    if (!(fabs(u) < 1e9 && fabs(v) < 1e9 && lx < 1e30 && ly < 1e30)) return 0;
    int x_longer = lx >= ly;
    double longer = x_longer ? lx : ly, shorter = x_longer ? ly : lx;
    int level = 0;
    while (level < last_level && (shorter > t->shorter[level] || longer > t->longer[level])) level++;
    int taps = 1;
    while (taps < CRK_PROJECTIVE_TAPS && t->taps[level][taps] < longer) taps++;
    p->u = u; p->v = v;
    p->du = x_longer ? ux : uy; p->dv = x_longer ? vx : vy;
    p->level = level; p->taps = taps;
    return 1;
}

/// The pixel a plan gives: the mean of its taps, rounded.
static inline uint32_t crk_projective_shade(const crk_projective_source *s, const crk_projective_limits *t, const crk_projective_plan *p) {
    const int l = p->level, n = p->taps;
    const float scale = t->scale[l], u = (float)p->u, v = (float)p->v, du = (float)p->du, dv = (float)p->dv;
    uint64_t sum = 0;
    for (int k = 0; k < n; k++) {
        float o = t->offset[n][k];
        sum += crk_lanes_sample(s->pixels[l], s->width[l], s->height[l], (u + o * du) * scale - 0.5f, (v + o * dv) * scale - 0.5f);
    }
    if (n == 1) return crk_lanes_pack(sum);
    uint64_t half = (uint64_t)(n / 2), mean = 0;
    for (int c = 0; c < 64; c += 16) mean |= ((((sum >> c) & 0xFFFF) + half) / (uint64_t)n) << c;
    return crk_lanes_pack(mean);
}

int crk_projective_level(const double *m, double x, double y) {
    const crk_projective_limits *t = crk_projective_limits_table();
    double row[3] = { y * m[3] + m[6], y * m[4] + m[7], y * m[5] + m[8] };
    crk_projective_plan p;
    return crk_projective_plan_pixel(m, row, x, CRK_PROJECTIVE_LEVELS - 1, t, &p) ? p.level : 0;
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))

/// The rounded mean of four pixels' 16-bit lanes, (a + b + c + d + 2) / 4.
#define CRK_MIP_MEAN(s) _mm_srli_epi16(_mm_add_epi16((s), _mm_set1_epi16(2)), 2)

#endif

void crk_mip_halve(const uint32_t *src, int width, int height, uint32_t *dst) {
    const int dw = (width + 1) / 2, dh = (height + 1) / 2;
    for (int y = 0; y < dh; y++) {
        const uint32_t *r0 = src + (size_t)(2 * y) * (size_t)width;
        const uint32_t *r1 = 2 * y + 1 < height ? r0 + width : r0;
        uint32_t *out = dst + (size_t)y * (size_t)dw;
        int x = 0;
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
        // Two pixels out of a 4 x 2 block at a time (SSE2, every x86-64), the same sums as below.
        const __m128i zero = _mm_setzero_si128();
        for (; 2 * x + 4 <= width; x += 2) {
            __m128i a = _mm_loadu_si128((const __m128i *)(r0 + 2 * x)), b = _mm_loadu_si128((const __m128i *)(r1 + 2 * x));
            __m128i lo = _mm_add_epi16(_mm_unpacklo_epi8(a, zero), _mm_unpacklo_epi8(b, zero));
            __m128i hi = _mm_add_epi16(_mm_unpackhi_epi8(a, zero), _mm_unpackhi_epi8(b, zero));
            __m128i sum = _mm_add_epi16(_mm_unpacklo_epi64(lo, hi), _mm_unpackhi_epi64(lo, hi));
            _mm_storel_epi64((__m128i *)(out + x), _mm_packus_epi16(CRK_MIP_MEAN(sum), zero));
        }
#endif
        for (; x < dw; x++) {
            int a = 2 * x, b = 2 * x + 1 < width ? 2 * x + 1 : 2 * x;
            uint64_t sum = crk_lanes_spread(r0[a]) + crk_lanes_spread(r0[b]) + crk_lanes_spread(r1[a]) + crk_lanes_spread(r1[b]);
            out[x] = crk_lanes_pack(((sum + 0x0002000200020002ull) >> 2) & 0x00FF00FF00FF00FFull);
        }
    }
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))

// Per-count tables are one register of eight lanes: counts 0…7.
_Static_assert(CRK_PROJECTIVE_TAPS <= 7, "a tap count indexes eight lanes");

#define CRK_PROJECTIVE_AVX2 static inline __attribute__((always_inline, target("avx2")))

/// The sample of level `l`.
CRK_PROJECTIVE_AVX2 void crk_projective_level_sample_avx2(const crk_projective_source *s, int l, __m256 x, __m256 y, __m256i *lo, __m256i *hi) {
    crk_lanes_sample_paired_avx2(s->pixels[l], s->width[l], s->height[l], x, y, lo, hi);
}

/// Four 64-bit lanes' low halves as the low four 32-bit lanes.
CRK_PROJECTIVE_AVX2 __m128i crk_projective_narrow_avx2(__m256i q) {
    return _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(q, _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6)));
}

/// Four pixels of crk_projective_plan_pixel: the same double operations in the same order.
typedef struct {
    __m256d longer, valid;
    __m256i level;
    __m128 u, v, du, dv;
} crk_projective_plan4;

CRK_PROJECTIVE_AVX2 void crk_projective_plan_avx2(const double *m, const double *row, __m256d cx, int last_level,
                                                  const crk_projective_limits *t, crk_projective_plan4 *p) {
    const __m256d m0 = _mm256_set1_pd(m[0]), m1 = _mm256_set1_pd(m[1]), m2 = _mm256_set1_pd(m[2]);
    const __m256d m3 = _mm256_set1_pd(m[3]), m4 = _mm256_set1_pd(m[4]), m5 = _mm256_set1_pd(m[5]);
    __m256d U = _mm256_add_pd(_mm256_mul_pd(cx, m0), _mm256_set1_pd(row[0]));
    __m256d V = _mm256_add_pd(_mm256_mul_pd(cx, m1), _mm256_set1_pd(row[1]));
    __m256d Q = _mm256_add_pd(_mm256_mul_pd(cx, m2), _mm256_set1_pd(row[2]));
    __m256d iq = _mm256_div_pd(_mm256_set1_pd(1.0), Q);
    __m256d pu = _mm256_mul_pd(U, iq), pv = _mm256_mul_pd(V, iq);
    __m256d ux = _mm256_mul_pd(_mm256_sub_pd(m0, _mm256_mul_pd(pu, m2)), iq), vx = _mm256_mul_pd(_mm256_sub_pd(m1, _mm256_mul_pd(pv, m2)), iq);
    __m256d uy = _mm256_mul_pd(_mm256_sub_pd(m3, _mm256_mul_pd(pu, m5)), iq), vy = _mm256_mul_pd(_mm256_sub_pd(m4, _mm256_mul_pd(pv, m5)), iq);
    __m256d lx = _mm256_add_pd(_mm256_mul_pd(ux, ux), _mm256_mul_pd(vx, vx)), ly = _mm256_add_pd(_mm256_mul_pd(uy, uy), _mm256_mul_pd(vy, vy));
    const __m256d sign = _mm256_set1_pd(-0.0), big = _mm256_set1_pd(1e9), huge = _mm256_set1_pd(1e30);
    __m256d valid = _mm256_and_pd(_mm256_cmp_pd(Q, _mm256_setzero_pd(), _CMP_GT_OQ), _mm256_cmp_pd(Q, _mm256_set1_pd(HUGE_VAL), _CMP_LT_OQ));
    valid = _mm256_and_pd(valid, _mm256_cmp_pd(_mm256_andnot_pd(sign, pu), big, _CMP_LT_OQ));
    valid = _mm256_and_pd(valid, _mm256_cmp_pd(_mm256_andnot_pd(sign, pv), big, _CMP_LT_OQ));
    valid = _mm256_and_pd(valid, _mm256_and_pd(_mm256_cmp_pd(lx, huge, _CMP_LT_OQ), _mm256_cmp_pd(ly, huge, _CMP_LT_OQ)));
    __m256d x_longer = _mm256_cmp_pd(lx, ly, _CMP_GE_OQ);
    __m256d longer = _mm256_blendv_pd(ly, lx, x_longer), shorter = _mm256_blendv_pd(lx, ly, x_longer);
    // Each threshold passed counts one: the thresholds grow with the level, so this is the scalar's loop.
    __m256i level = _mm256_setzero_si256();
    for (int l = 0; l < last_level; l++) {
        __m256d over = _mm256_and_pd(valid, _mm256_or_pd(_mm256_cmp_pd(shorter, _mm256_set1_pd(t->shorter[l]), _CMP_GT_OQ),
                                                         _mm256_cmp_pd(longer, _mm256_set1_pd(t->longer[l]), _CMP_GT_OQ)));
        if (_mm256_movemask_pd(over) == 0) break;
        level = _mm256_sub_epi64(level, _mm256_castpd_si256(over));
    }
    p->longer = longer; p->valid = valid; p->level = level;
    p->u = _mm256_cvtpd_ps(pu); p->v = _mm256_cvtpd_ps(pv);
    p->du = _mm256_cvtpd_ps(_mm256_blendv_pd(uy, ux, x_longer)); p->dv = _mm256_cvtpd_ps(_mm256_blendv_pd(vy, vx, x_longer));
}

/// The tap count at level `l` of four pixels (the scalar's loop: thresholds passed, plus one).
CRK_PROJECTIVE_AVX2 __m128i crk_projective_taps_avx2(const crk_projective_limits *t, int l, __m256d longer) {
    __m256i n = _mm256_set1_epi64x(1);
    for (int k = 1; k < CRK_PROJECTIVE_TAPS; k++)
        n = _mm256_sub_epi64(n, _mm256_castpd_si256(_mm256_cmp_pd(_mm256_set1_pd(t->taps[l][k]), longer, _CMP_LT_OQ)));
    return crk_projective_narrow_avx2(n);
}

/// The pixels of a group of eight that sample level `l` (`lanes`, every 32-bit lane all ones or zero):
/// their taps' means, packed; other lanes hold anything.
CRK_PROJECTIVE_AVX2 __m256i crk_projective_group_avx2(const crk_projective_source *s, const crk_projective_limits *t, int l,
                                                      __m256i lanes, const crk_projective_plan4 *a, const crk_projective_plan4 *b) {
    const __m256 half = _mm256_set1_ps(0.5f);
    const __m256i one = _mm256_set1_epi32(1);
    // Each pixel's tap count (1 in the other lanes), and the most of them.
    __m256i counts = _mm256_set_m128i(crk_projective_taps_avx2(t, l, b->longer), crk_projective_taps_avx2(t, l, a->longer));
    counts = _mm256_blendv_epi8(one, counts, lanes);
    __m256i most = _mm256_max_epi32(counts, _mm256_permute4x64_epi64(counts, 0x4E));
    most = _mm256_max_epi32(most, _mm256_shuffle_epi32(most, 0x4E));
    most = _mm256_max_epi32(most, _mm256_shuffle_epi32(most, 0xB1));
    const int n = _mm256_cvtsi256_si32(most);
    // (The other lanes count as the most, so that they do not stop the group from taking the same taps.)
    const int same_taps = _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(_mm256_blendv_epi8(most, counts, lanes), most))) == 0xFF;
    const __m256 u = _mm256_set_m128(b->u, a->u), v = _mm256_set_m128(b->v, a->v);
    const __m256 du = _mm256_set_m128(b->du, a->du), dv = _mm256_set_m128(b->dv, a->dv);
    const __m256 scale = _mm256_set1_ps(t->scale[l]);
    __m256i sum_lo = _mm256_setzero_si256(), sum_hi = _mm256_setzero_si256();
    if (same_taps) {
        for (int k = 0; k < n; k++) {
            const __m256 o = _mm256_set1_ps(t->offset[n][k]);
            __m256 x = _mm256_sub_ps(_mm256_mul_ps(_mm256_add_ps(u, _mm256_mul_ps(o, du)), scale), half);
            __m256 y = _mm256_sub_ps(_mm256_mul_ps(_mm256_add_ps(v, _mm256_mul_ps(o, dv)), scale), half);
            __m256i lo, hi;
            crk_projective_level_sample_avx2(s, l, x, y, &lo, &hi);
            sum_lo = _mm256_add_epi16(sum_lo, lo);
            sum_hi = _mm256_add_epi16(sum_hi, hi);
        }
        if (n > 1) {
            // (sum + ⌊n/2⌋) / n: a multiply by ⌈65536/n⌉ keeping the high half is exact for sums this small.
            const __m256i bias = _mm256_set1_epi16((short)(n / 2)), inverse = _mm256_set1_epi16((short)t->inverse[n]);
            sum_lo = _mm256_mulhi_epu16(_mm256_add_epi16(sum_lo, bias), inverse);
            sum_hi = _mm256_mulhi_epu16(_mm256_add_epi16(sum_hi, bias), inverse);
        }
    } else {
        // Counts that differ (where a count steps up along the row): each lane its own offsets, the taps past
        // its count left out, each lane's sum divided by its count.
        for (int k = 0; k < n; k++) {
            const __m256 o = _mm256_permutevar8x32_ps(_mm256_loadu_ps(t->offset_by_count[k]), counts);
            __m256 x = _mm256_sub_ps(_mm256_mul_ps(_mm256_add_ps(u, _mm256_mul_ps(o, du)), scale), half);
            __m256 y = _mm256_sub_ps(_mm256_mul_ps(_mm256_add_ps(v, _mm256_mul_ps(o, dv)), scale), half);
            __m256i lo, hi, in_lo, in_hi;
            crk_projective_level_sample_avx2(s, l, x, y, &lo, &hi);
            crk_lanes_widen_avx2(_mm256_and_si256(_mm256_cmpgt_epi32(counts, _mm256_set1_epi32(k)), _mm256_set1_epi32(0xFFFF)), &in_lo, &in_hi);
            sum_lo = _mm256_add_epi16(sum_lo, _mm256_and_si256(lo, in_lo));
            sum_hi = _mm256_add_epi16(sum_hi, _mm256_and_si256(hi, in_hi));
        }
        // Count 1 keeps its sum (its ⌈65536/1⌉ does not fit 16 bits).
        __m256i inverse_lo, inverse_hi, bias_lo, bias_hi, single_lo, single_hi;
        crk_lanes_widen_avx2(_mm256_permutevar8x32_epi32(_mm256_loadu_si256((const __m256i *)t->inverse), counts), &inverse_lo, &inverse_hi);
        crk_lanes_widen_avx2(_mm256_srli_epi32(counts, 1), &bias_lo, &bias_hi);
        crk_lanes_widen_avx2(_mm256_and_si256(_mm256_cmpeq_epi32(counts, one), _mm256_set1_epi32(0xFFFF)), &single_lo, &single_hi);
        sum_lo = _mm256_blendv_epi8(_mm256_mulhi_epu16(_mm256_add_epi16(sum_lo, bias_lo), inverse_lo), sum_lo, single_lo);
        sum_hi = _mm256_blendv_epi8(_mm256_mulhi_epu16(_mm256_add_epi16(sum_hi, bias_hi), inverse_hi), sum_hi, single_hi);
    }
    return crk_lanes_pack_avx2(sum_lo, sum_hi);
}

/// crk_bilinear_projective's row eight pixels at a time from `i`, up to the last whole group; returns where
/// it stopped.
__attribute__((target("avx2")))
static int crk_projective_row_avx2(const crk_projective_source *s, const crk_projective_limits *t, const double *m,
                                   const double *row, int last_level, int x0, const uint8_t *coverage, int count, uint32_t *out) {
    int i = 0;
    for (; i + 8 <= count; i += 8) {
        uint64_t covered;
        memcpy(&covered, coverage + i, 8);
        if (covered == 0) continue;
        double first = (double)(x0 + i) + 0.5;
        crk_projective_plan4 a, b;
        crk_projective_plan_avx2(m, row, _mm256_add_pd(_mm256_set1_pd(first), _mm256_setr_pd(0, 1, 2, 3)), last_level, t, &a);
        crk_projective_plan_avx2(m, row, _mm256_add_pd(_mm256_set1_pd(first), _mm256_setr_pd(4, 5, 6, 7)), last_level, t, &b);
        // The pixels drawn: covered, and seen in front of the eye; the others are left transparent.
        __m256i valid = _mm256_set_m128i(crk_projective_narrow_avx2(_mm256_castpd_si256(b.valid)), crk_projective_narrow_avx2(_mm256_castpd_si256(a.valid)));
        __m256i live = _mm256_andnot_si256(_mm256_cmpeq_epi32(_mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(coverage + i))), _mm256_setzero_si256()), valid);
        __m256i levels = _mm256_set_m128i(crk_projective_narrow_avx2(b.level), crk_projective_narrow_avx2(a.level));
        __m256i pixels = _mm256_setzero_si256();
        // Level by level (one for the whole group but where the level steps up).
        int left = _mm256_movemask_ps(_mm256_castsi256_ps(live));
        while (left) {
            int32_t level_of[8];
            _mm256_storeu_si256((__m256i *)level_of, levels);
            const int l = level_of[__builtin_ctz((unsigned)left)];
            __m256i lanes = _mm256_and_si256(live, _mm256_cmpeq_epi32(levels, _mm256_set1_epi32(l)));
            pixels = _mm256_blendv_epi8(pixels, crk_projective_group_avx2(s, t, l, lanes, &a, &b), lanes);
            left &= ~_mm256_movemask_ps(_mm256_castsi256_ps(lanes));
        }
        _mm256_storeu_si256((__m256i *)(out + i), pixels);
    }
    return i;
}
#define CRK_PROJECTIVE_HAS_AVX2 1
#endif

void crk_bilinear_projective(const crk_projective_source *source, const double *m, int y, int x0,
                             const uint8_t *coverage, int count, uint32_t *out) {
    if (source->levels < 1) return;
    const crk_projective_limits *t = crk_projective_limits_table();
    const int last_level = source->levels > CRK_PROJECTIVE_LEVELS ? CRK_PROJECTIVE_LEVELS - 1 : source->levels - 1;
    double cy = (double)y + 0.5;
    // The row's homogeneous coordinates are linear in x; only the division is per pixel.
    const double row[3] = { cy * m[3] + m[6], cy * m[4] + m[7], cy * m[5] + m[8] };
    int i = 0;
#ifdef CRK_PROJECTIVE_HAS_AVX2
    // 32-bit texel indices must reach every texel of level 0 (the largest).
    if ((ccpu_features() & CCPU_AVX2) && (size_t)source->width[0] * (size_t)source->height[0] <= (size_t)INT32_MAX)
        i = crk_projective_row_avx2(source, t, m, row, last_level, x0, coverage, count, out);
#endif
    for (; i < count; i++) {
        if (coverage[i] == 0) continue;
        crk_projective_plan p;
        out[i] = crk_projective_plan_pixel(m, row, (double)(x0 + i) + 0.5, last_level, t, &p) ? crk_projective_shade(source, t, &p) : 0;
    }
}
