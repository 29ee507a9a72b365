#include "craster_kernels.h"
#include "ccpu_features.h"
#include "craster_lanes.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

// A layer turned about an axis parallel to one of its sides: the card flip of nearly every transition
// (`CATransform3DMakeRotation(θ, 0, 1, 0)` or `(θ, 1, 0, 0)` under perspective). Then every device
// column (a turn about the vertical axis) sees a single column of the image, or every device row (the
// horizontal axis) a single row, and the resampling separates into two passes along the image's axes,
// each a box filter over contiguous texels: no gathered loads, no halved copies of the image.
//
// Vertical axis: u depends on device x alone, v is linear in device y within a column.
//   1. For each image row the drawing needs (made in order, up to the last a device row reads), each device
//      column filtered along u: H[row][column], through a table made once per draw (the same for every row).
//   2. Each device pixel filtered along v from H's rows in its column: the rows of H are contiguous across
//      columns, so eight neighbouring pixels read eight neighbouring texels of each row.
// Horizontal axis: v depends on device y alone, u is affine in device x within a row.
//   1. For each device row, the image's rows filtered along v into one row of texels, G.
//   2. Each device pixel filtered along u from G.
//
// A filter is the box the pixel's square spans along that axis (its side along it, and the skew of the
// other: about y, ∂v/∂y and ∂v/∂x), at least one texel long, over texels taken as unit squares (texel i
// covers [i, i + 1)) and clamped to the image's edge, as bilinear sampling clamps: a box one texel long
// weighs two texels as a bilinear sample does, so a magnified pixel is the bilinear sample the general
// sampler takes. A box longer than CRK_TURN_LONGEST (a layer nearly edge-on) is not made here.
//
// Weights are 16-bit fractions of one (65536, at most 65535, rounded down); a texel's channel v contributes
// ⌊256·v·w / 65536⌋, summed in 16 bits, and the sum is rounded once: (sum + 128) / 256. The weights of a box
// sum to one but for rounding (a float box's ends can make them a little more: at most 65599 in a 16384-
// pixel image, which leaves a channel's sum under 65536). The SSE2 and AVX2 passes give the portable code's
// bytes.

/// Weights of the box [lo, hi] (hi − lo ≥ 1) along an axis of `n` texels: texels `*start` … `*start +
/// count − 1`, written to `w` when it is not NULL. What lies beyond an edge weighs the edge texel.
static int crk_turn_box(double lo, double hi, int n, int *start, uint16_t *w) {
    const double length = hi - lo, scale = 65536.0 / length;
    const double below = fmax(0.0, fmin(hi, 0.0) - lo), above = fmax(0.0, hi - fmax(lo, (double)n));
    const double a = fmax(lo, 0.0), b = fmin(hi, (double)n);
    int first, last;
    if (b > a) {
        first = (int)floor(a);
        last = (int)ceil(b) - 1;
        if (last > n - 1) last = n - 1;
        if (first > last) first = last;
    } else {
        first = last = hi <= 0 ? 0 : n - 1;
    }
    *start = first;
    if (w) {
        for (int i = first; i <= last; i++) {
            double overlap = fmax(0.0, fmin(b, (double)(i + 1)) - fmax(a, (double)i));
            if (i == 0) overlap += below;
            if (i == n - 1) overlap += above;
            double q = floor(overlap * scale);
            w[i - first] = (uint16_t)(q > 65535.0 ? 65535.0 : q);
        }
    }
    return last - first + 1;
}

/// One texel's channels weighed: ⌊256·v·w / 65536⌋ in each 16-bit lane.
static inline uint64_t crk_turn_weigh(uint32_t texel, uint32_t w) {
    uint64_t q = crk_lanes_spread(texel), out = 0;
    for (int c = 0; c < 64; c += 16) out |= ((((q >> c) & 0xFF) * 256u * w) >> 16) << c;
    return out;
}

/// A sum of weighed texels, rounded to a pixel.
static inline uint32_t crk_turn_round(uint64_t sum) {
    return crk_lanes_pack(((sum + 0x0080008000800080ull) >> 8) & 0x00FF00FF00FF00FFull);
}

typedef struct {
    int32_t start, count, first;
} crk_turn_span;

/// The most texels a column of the AVX2 pass of H weighs.
#define CRK_TURN_SLOTS 4

/// The longest box along either axis, in texels. Each texel's term loses less than 1/256 of a level to
/// rounding down, so with at most 64 texels in a box a one-colour image (an opaque one above all) keeps its
/// colour exactly; a longer box (a layer nearly edge-on) is left to the general sampler.
#define CRK_TURN_LONGEST 62.0

/// What H may keep whatever the image's size: a million pixels (4 MiB).
#define CRK_TURN_SMALL ((size_t)1 << 20)

struct crk_turn {
    const uint32_t *image;
    int width, height;
    /// 0: about the vertical axis; 1: about the horizontal.
    int axis;
    double m[9];
    /// The device pixels drawn, [x0, x1) x [y0, y1).
    int x0, x1, y0, y1;
    // Vertical axis: each column's span of texels along u and its weights; v = a + b·(y + ½), ∂v/∂y = b
    // and ∂v/∂x = c1 − v·c2; H's rows [r0, r1), made when first read.
    crk_turn_span *spans;
    uint16_t *weights;
    float *a, *b, *c1, *c2;
    uint8_t *valid;
    int r0, r1;
    /// Per group of eight columns whose boxes are at most CRK_TURN_SLOTS texels within sixteen from
    /// `group_base` (−1 where not), for the AVX2 pass of H: how many texels the widest takes, and for each
    /// of those slots each column's texel from `group_base` and its weight (0 past the column's box), the
    /// weights already widened (crk_lanes_widen_avx2: 16 lanes for the low register, then 16 for the high).
    int32_t *group_base, *group_slots, *group_index;
    uint16_t *group_weight;
    uint32_t *h;
    /// H's rows [r0, made) are made, in order (the columns' spans of rows overlap, so nearly every row
    /// between r0 and r1 is read by some column; at most a spare row at each end and the rows only uncovered
    /// pixels would read are made and not read).
    int made;
    // Horizontal axis: one row of texels filtered along v, and the weights of the image's rows.
    uint32_t *g;
    uint16_t *row_weights;
};

void crk_turn_free(crk_turn *t) {
    if (!t) return;
    free(t->spans); free(t->weights); free(t->a); free(t->b); free(t->c1); free(t->c2); free(t->valid);
    free(t->h); free(t->g); free(t->row_weights);
    free(t->group_base); free(t->group_slots); free(t->group_index); free(t->group_weight);
    free(t);
}

/// Whether `small` is negligible beside `large` (a matrix entry that is zero but for rounding).
static int crk_turn_negligible(double small, double large) { return fabs(small) <= 1e-12 * fabs(large); }

/// Column centre cx's u (about the vertical axis, Q > 0 its depth there) and its box's length along u.
static inline void crk_turn_column_u(const double *m, double cx, double Q, double *u, double *wu) {
    *u = (cx * m[0] + m[6]) / Q;
    *wu = fmax(fabs((m[0] - *u * m[2]) / Q), 1.0);
}

static int crk_turn_make_vertical(crk_turn *t, int y0, int y1) {
    const double *m = t->m;
    const int n = t->x1 - t->x0;
    t->spans = malloc(sizeof(crk_turn_span) * (size_t)n);
    t->a = malloc(sizeof(float) * (size_t)n); t->b = malloc(sizeof(float) * (size_t)n);
    t->c1 = malloc(sizeof(float) * (size_t)n); t->c2 = malloc(sizeof(float) * (size_t)n);
    t->valid = malloc((size_t)n);
    if (!t->spans || !t->a || !t->b || !t->c1 || !t->c2 || !t->valid) return 0;
    double vmin = HUGE_VAL, vmax = -HUGE_VAL;
    size_t total = 0;
    for (int c = 0; c < n; c++) {
        const double cx = (double)(t->x0 + c) + 0.5;
        const double Q = cx * m[2] + m[8];
        crk_turn_span *s = &t->spans[c];
        t->valid[c] = 0;
        t->a[c] = 0; t->b[c] = 0; t->c1[c] = 0; t->c2[c] = 0;
        s->start = 0; s->count = 0;
        if (!(Q > 0 && Q < HUGE_VAL)) continue;
        double u, wu;
        crk_turn_column_u(m, cx, Q, &u, &wu);
        const double a = (cx * m[1] + m[7]) / Q, b = m[4] / Q, c1 = m[1] / Q, c2 = m[2] / Q;
        if (!(fabs(u) < 1e9 && wu < 1e9 && fabs(a) < 1e9 && fabs(b) < 1e9)) continue;
        // A box longer than CRK_TURN_LONGEST along either axis (a layer nearly edge-on) is left to the
        // general sampler's halvings, where the pixel sees the image (beyond it, where nothing is covered,
        // a box weighs one edge texel).
        const int sees = u + wu / 2 > 0 && u - wu / 2 < (double)t->width;
        if (sees && wu > CRK_TURN_LONGEST) return 0;
        for (int k = 0; k < 2; k++) {
            // v and the box along it are linear in y within the column: their ends are the drawing's ends
            // (the box's length checked within the image).
            const double cy = (double)(k ? y1 : y0) + (k ? -0.5 : 0.5), v = a + b * cy;
            const double wv = fmax(fabs(b) + fabs(c1 - v * c2), 1.0), inside = fmin(fmax(v, 0.0), (double)t->height);
            if (sees && fmax(fabs(b) + fabs(c1 - inside * c2), 1.0) > CRK_TURN_LONGEST) return 0;
            vmin = fmin(vmin, v - wv / 2);
            vmax = fmax(vmax, v + wv / 2);
        }
        int start;
        s->count = crk_turn_box(u - wu / 2, u + wu / 2, t->width, &start, NULL);
        s->start = start;
        total += (size_t)s->count;
        t->valid[c] = 1;
        t->a[c] = (float)a; t->b[c] = (float)b; t->c1[c] = (float)c1; t->c2[c] = (float)c2;
    }
    t->weights = malloc(sizeof(uint16_t) * (total ? total : 1));
    if (!t->weights) return 0;
    size_t at = 0;
    for (int c = 0; c < n; c++) {
        crk_turn_span *s = &t->spans[c];
        s->first = (int32_t)at;
        if (!t->valid[c]) continue;
        const double cx = (double)(t->x0 + c) + 0.5;
        double u, wu;
        crk_turn_column_u(m, cx, cx * m[2] + m[8], &u, &wu);
        int start;
        crk_turn_box(u - wu / 2, u + wu / 2, t->width, &start, t->weights + at);
        at += (size_t)s->count;
    }
    // The groups of eight columns the vector pass can take from two loads of a row.
    const size_t groups = (size_t)(n / 8), room = groups ? groups : 1;
    t->group_base = malloc(sizeof(int32_t) * room);
    t->group_slots = malloc(sizeof(int32_t) * room);
    t->group_index = malloc(sizeof(int32_t) * 8 * CRK_TURN_SLOTS * room);
    t->group_weight = malloc(sizeof(uint16_t) * 32 * CRK_TURN_SLOTS * room);
    if (!t->group_base || !t->group_slots || !t->group_index || !t->group_weight) return 0;
    for (size_t g = 0; g < groups; g++) {
        int base = INT32_MAX, top = -1, slots = 0, ok = 1;
        for (int k = 0; k < 8 && ok; k++) {
            const crk_turn_span s = t->spans[8 * g + k];
            ok = t->valid[8 * g + k] && s.count >= 1 && s.count <= CRK_TURN_SLOTS;
            if (s.start < base) base = s.start;
            if (s.start + s.count - 1 > top) top = s.start + s.count - 1;
            if (s.count > slots) slots = s.count;
        }
        ok = ok && top - base < 16 && base + 16 <= t->width;
        t->group_base[g] = ok ? base : -1;
        t->group_slots[g] = slots;
        for (int j = 0; ok && j < CRK_TURN_SLOTS; j++) {
            for (int k = 0; k < 8; k++) {
                const crk_turn_span s = t->spans[8 * g + k];
                const size_t at = (g * CRK_TURN_SLOTS + (size_t)j) * 8 + (size_t)k;
                t->group_index[at] = j < s.count ? s.start + j - base : 0;
                // Column k's weight in its pixel's four lanes (craster_lanes.h's order: columns 0, 1, 4, 5
                // in the low 16, 2, 3, 6, 7 in the high).
                const uint16_t weight = j < s.count ? t->weights[s.first + j] : 0;
                const size_t lane = (g * CRK_TURN_SLOTS + (size_t)j) * 32 + (size_t)((k & 2) ? 16 : 0) + (size_t)((k & 4) ? 8 : 0) + (size_t)(k & 1) * 4;
                for (int q = 0; q < 4; q++) t->group_weight[lane + (size_t)q] = weight;
            }
        }
    }
    if (vmin > vmax) { t->r0 = 0; t->r1 = 0; return 1; }
    // (A row more each side: the pixels' boxes are worked out in single precision. Clamped before they
    // become integers.)
    vmin = fmax(vmin, -2.0);
    vmax = fmin(vmax, (double)t->height + 2);
    int r0 = (int)floor(vmin) - 1, r1 = (int)ceil(vmax) + 1;
    if (r0 < 0) r0 = 0;
    if (r0 > t->height - 1) r0 = t->height - 1;
    if (r1 > t->height) r1 = t->height;
    if (r1 < r0 + 1) r1 = r0 + 1;
    // H has the image's rows and the drawing's columns: kept to the image's size (or 4 MiB).
    const size_t image_pixels = (size_t)t->width * (size_t)t->height;
    if ((size_t)(r1 - r0) * (size_t)n > (image_pixels > CRK_TURN_SMALL ? image_pixels : CRK_TURN_SMALL)) return 0;
    t->r0 = r0; t->r1 = r1;
    t->h = malloc(sizeof(uint32_t) * (size_t)(r1 - r0) * (size_t)n);
    t->made = r0;
    return t->h != NULL;
}

static int crk_turn_make_horizontal(crk_turn *t) {
    const double *m = t->m;
    // The boxes' lengths, at each row's ends (the box along u is linear in u, which is in x).
    for (int y = t->y0; y < t->y1; y++) {
        const double cy = (double)y + 0.5, Q = cy * m[5] + m[8];
        if (!(Q > 0 && Q < HUGE_VAL)) continue;
        const double v = (cy * m[4] + m[7]) / Q, vy = (m[4] - v * m[5]) / Q, ux = m[0] / Q, row0 = cy * m[3] + m[6];
        const double wv = fmax(fabs(vy), 1.0);
        // (Only where the row sees the image.)
        if (!(v + wv / 2 > 0 && v - wv / 2 < (double)t->height)) continue;
        if (wv > CRK_TURN_LONGEST) return 0;
        for (int k = 0; k < 2; k++) {
            // (Within the image, where pixels are covered.)
            const double u = fmin(fmax((((double)(k ? t->x1 : t->x0) + (k ? -0.5 : 0.5)) * m[0] + row0) / Q, 0.0), (double)t->width);
            if (fmax(fabs(ux) + fabs((m[3] - u * m[5]) / Q), 1.0) > CRK_TURN_LONGEST) return 0;
        }
    }
    // (Sixteen more: the vector pass reads G sixteen texels at a time.)
    t->g = calloc((size_t)t->width + 16, sizeof(uint32_t));
    t->row_weights = malloc(sizeof(uint16_t) * (size_t)t->height);
    return t->g && t->row_weights;
}

static _Atomic int crk_turn_off = 0;
void crk_turn_sample_generally(int on) { crk_turn_off = on != 0; }

crk_turn *crk_turn_make(const uint32_t *image, int width, int height, const double *m, int x0, int y0, int x1, int y1) {
    if (crk_turn_off) return NULL;
    // (The 16-bit sums of the vector passes have room for the rounding of boxes in images up to 16384
    // pixels a side, Bitmap's largest.)
    if (!image || width < 1 || height < 1 || width > 16384 || height > 16384 || x1 <= x0 || y1 <= y0) return NULL;
    if ((int64_t)x1 - x0 > (1 << 20) || (int64_t)y1 - y0 > (1 << 20)) return NULL;
    for (int i = 0; i < 9; i++) if (!isfinite(m[i])) return NULL;
    int axis;
    if (crk_turn_negligible(m[3] * (fabs((double)y0) + fabs((double)y1) + 1), fabs(m[0]) + fabs(m[6])) &&
        crk_turn_negligible(m[5] * (fabs((double)y0) + fabs((double)y1) + 1), fabs(m[2]) * (fabs((double)x0) + fabs((double)x1) + 1) + fabs(m[8])))
        axis = 0;
    else if (crk_turn_negligible(m[1] * (fabs((double)x0) + fabs((double)x1) + 1), fabs(m[4]) + fabs(m[7])) &&
             crk_turn_negligible(m[2] * (fabs((double)x0) + fabs((double)x1) + 1), fabs(m[5]) * (fabs((double)y0) + fabs((double)y1) + 1) + fabs(m[8])))
        axis = 1;
    else
        return NULL;
    crk_turn *t = calloc(1, sizeof(crk_turn));
    if (!t) return NULL;
    t->image = image; t->width = width; t->height = height; t->axis = axis;
    memcpy(t->m, m, sizeof t->m);
    if (axis == 0) { t->m[3] = 0; t->m[5] = 0; } else { t->m[1] = 0; t->m[2] = 0; }
    t->x0 = x0; t->x1 = x1; t->y0 = y0; t->y1 = y1;
    if (!(axis == 0 ? crk_turn_make_vertical(t, y0, y1) : crk_turn_make_horizontal(t))) {
        crk_turn_free(t);
        return NULL;
    }
    return t;
}

int crk_turn_axis(const crk_turn *t) { return t->axis; }

// MARK: - About the vertical axis

/// Column c of row r of H, texel by texel.
static inline uint32_t crk_turn_h_pixel(const crk_turn *t, const uint32_t *src, int c) {
    const crk_turn_span s = t->spans[c];
    const uint16_t *w = t->weights + s.first;
    uint64_t sum = 0;
    for (int k = 0; k < s.count; k++) sum += crk_turn_weigh(src[s.start + k], w[k]);
    return s.count ? crk_turn_round(sum) : 0;
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>

/// Columns [c, end) of an H row with SSE2 (run where the processor probe reports SSE4.1, so that forcing
/// the scalar code turns it off): a texel pair per multiply.
static void crk_turn_h_columns_sse2(const crk_turn *t, const uint32_t *src, int c, int end, uint32_t *out) {
    const __m128i zero = _mm_setzero_si128(), round = _mm_set1_epi16(128);
    for (; c < end; c++) {
        const crk_turn_span s = t->spans[c];
        const uint16_t *w = t->weights + s.first;
        const uint32_t *p = src + s.start;
        __m128i sum = zero;
        int k = 0;
        for (; k + 2 <= s.count; k += 2) {
            __m128i texels = _mm_unpacklo_epi8(_mm_loadl_epi64((const __m128i *)(p + k)), zero);
            __m128i weights = _mm_set_epi16((short)w[k + 1], (short)w[k + 1], (short)w[k + 1], (short)w[k + 1],
                                            (short)w[k], (short)w[k], (short)w[k], (short)w[k]);
            sum = _mm_add_epi16(sum, _mm_mulhi_epu16(_mm_slli_epi16(texels, 8), weights));
        }
        if (k < s.count) {
            __m128i texel = _mm_unpacklo_epi8(_mm_cvtsi32_si128((int)p[k]), zero);
            sum = _mm_add_epi16(sum, _mm_mulhi_epu16(_mm_slli_epi16(texel, 8), _mm_set1_epi16((short)w[k])));
        }
        sum = _mm_add_epi16(sum, _mm_srli_si128(sum, 8));
        sum = _mm_srli_epi16(_mm_add_epi16(sum, round), 8);
        out[c] = s.count ? (uint32_t)_mm_cvtsi128_si32(_mm_packus_epi16(sum, zero)) : 0;
    }
}

#define CRK_TURN_AVX2 static inline __attribute__((always_inline, target("avx2")))

/// Eight texels (in order) weighed into sums kept in craster_lanes.h's order, by weights widened to that
/// order: each channel v as 256·v (the byte unpacked above a zero byte) times the 16-bit weight, the high
/// half kept, ⌊256·v·w / 65536⌋, as crk_turn_weigh.
CRK_TURN_AVX2 void crk_turn_weigh_avx2(__m256i texels, __m256i w_lo, __m256i w_hi, __m256i *sum_lo, __m256i *sum_hi) {
    const __m256i zero = _mm256_setzero_si256();
    *sum_lo = _mm256_add_epi16(*sum_lo, _mm256_mulhi_epu16(_mm256_unpacklo_epi8(zero, texels), w_lo));
    *sum_hi = _mm256_add_epi16(*sum_hi, _mm256_mulhi_epu16(_mm256_unpackhi_epi8(zero, texels), w_hi));
}

/// Eight sums rounded to pixels, in order (crk_turn_round).
CRK_TURN_AVX2 __m256i crk_turn_round_avx2(__m256i sum_lo, __m256i sum_hi) {
    const __m256i round = _mm256_set1_epi16(128);
    return crk_lanes_pack_avx2(_mm256_srli_epi16(_mm256_add_epi16(sum_lo, round), 8), _mm256_srli_epi16(_mm256_add_epi16(sum_hi, round), 8));
}

/// The groups of eight columns of an H row that two loads of the row reach (AVX2); the others with SSE2.
__attribute__((target("avx2")))
static void crk_turn_h_row_avx2(const crk_turn *t, const uint32_t *src, uint32_t *out) {
    const int n = t->x1 - t->x0, groups = n / 8;
    const __m256i seven = _mm256_set1_epi32(7);
    for (int g = 0; g < groups; g++) {
        const int base = t->group_base[g];
        if (base < 0) { crk_turn_h_columns_sse2(t, src, 8 * g, 8 * g + 8, out); continue; }
        const __m256i a = _mm256_loadu_si256((const __m256i *)(src + base)), b = _mm256_loadu_si256((const __m256i *)(src + base + 8));
        const int32_t *index = t->group_index + (size_t)g * CRK_TURN_SLOTS * 8;
        const uint16_t *weight = t->group_weight + (size_t)g * CRK_TURN_SLOTS * 32;
        __m256i sum_lo = _mm256_setzero_si256(), sum_hi = _mm256_setzero_si256();
        for (int j = 0; j < t->group_slots[g]; j++) {
            const __m256i at = _mm256_loadu_si256((const __m256i *)(index + 8 * j));
            const __m256i texels = _mm256_blendv_epi8(_mm256_permutevar8x32_epi32(a, at), _mm256_permutevar8x32_epi32(b, at), _mm256_cmpgt_epi32(at, seven));
            crk_turn_weigh_avx2(texels, _mm256_loadu_si256((const __m256i *)(weight + 32 * j)), _mm256_loadu_si256((const __m256i *)(weight + 32 * j + 16)), &sum_lo, &sum_hi);
        }
        _mm256_storeu_si256((__m256i *)(out + 8 * g), crk_turn_round_avx2(sum_lo, sum_hi));
    }
    crk_turn_h_columns_sse2(t, src, 8 * groups, n, out);
}
#define CRK_TURN_H_HAS_AVX2 1
#endif

/// Row r of H: every column's box along u over image row r.
static void crk_turn_h_row(crk_turn *t, int r) {
    const uint32_t *src = t->image + (size_t)r * (size_t)t->width;
    const int n = t->x1 - t->x0;
    uint32_t *out = t->h + (size_t)(r - t->r0) * (size_t)n;
    int c = 0;
#ifdef CRK_TURN_H_HAS_AVX2
    if (ccpu_features() & CCPU_AVX2) { crk_turn_h_row_avx2(t, src, out); c = n; }
    else if (ccpu_features() & CCPU_SSE41) { crk_turn_h_columns_sse2(t, src, 0, n, out); c = n; }
#endif
    for (; c < n; c++) out[c] = crk_turn_h_pixel(t, src, c);
}

/// H's rows up to `last` made, in order from the first (see `made`): at most H's rows in all.
static inline void crk_turn_make_rows(crk_turn *t, int last) {
    while (t->made <= last) crk_turn_h_row(t, t->made++);
}

static inline const uint32_t *crk_turn_h(crk_turn *t, int r) {
    crk_turn_make_rows(t, r);
    return t->h + (size_t)(r - t->r0) * (size_t)(t->x1 - t->x0);
}

/// The rows of the box [lo, hi] a pixel reads, clamped to H's rows (before they become integers).
static inline void crk_turn_rows(const crk_turn *t, float lo, float hi, int *first, int *last) {
    const float top = (float)t->r0, bottom = (float)(t->r1 - 1);
    *first = (int)floorf(fminf(fmaxf(lo, top), bottom));
    *last = (int)ceilf(fminf(fmaxf(hi, top + 1.0f), bottom + 1.0f)) - 1;
}

/// A pixel's box along v in column c of device row cy: v ± half of its length, which is what the pixel's
/// square spans along v (∂v/∂y and the skew ∂v/∂x), at least a texel; and 65536 over that length.
static inline void crk_turn_v_box(const crk_turn *t, int c, float cy, float *lo, float *hi, float *scale) {
    const float v = t->a[c] + t->b[c] * cy;
    const float length = fmaxf(fabsf(t->b[c]) + fabsf(t->c1[c] - v * t->c2[c]), 1.0f), half = length * 0.5f;
    *lo = v - half;
    *hi = v + half;
    *scale = 65536.0f / length;
}

/// The weight of image row r in the box [lo, hi] of a column whose 65536 / length is `scale`: what the row
/// covers, and what lies beyond the image's edge if r is the edge row. (The vector code's steps.)
static inline uint32_t crk_turn_row_weight(float lo, float hi, float scale, int r, int height) {
    const float n = (float)height, fr = (float)r;
    const float a = fmaxf(lo, 0.0f), b = fminf(hi, n);
    float overlap = fmaxf(0.0f, fminf(b, fr + 1.0f) - fmaxf(a, fr));
    if (r == 0) overlap += fmaxf(0.0f, fminf(hi, 0.0f) - lo);
    if (r == height - 1) overlap += fmaxf(0.0f, hi - fmaxf(lo, n));
    const float q = overlap * scale;
    return q >= 65535.0f ? 65535u : (uint32_t)q;
}

static void crk_turn_pixel_vertical(crk_turn *t, float cy, int c, uint32_t *out) {
    if (!t->valid[c]) { *out = 0; return; }
    float lo, hi, scale;
    crk_turn_v_box(t, c, cy, &lo, &hi, &scale);
    int first, last;
    crk_turn_rows(t, lo, hi, &first, &last);
    uint64_t sum = 0;
    for (int r = first; r <= last; r++) {
        const uint32_t w = crk_turn_row_weight(lo, hi, scale, r, t->height);
        if (w) sum += crk_turn_weigh(crk_turn_h(t, r)[c], w);
    }
    *out = crk_turn_round(sum);
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))

/// crk_turn_row_weight in eight lanes (the same float operations), as 32-bit lanes; `fr` is r in every lane
/// and `fr1` r + 1.
CRK_TURN_AVX2 __m256i crk_turn_row_weight_avx2(__m256 lo, __m256 hi, __m256 scale, int r, __m256 fr, __m256 fr1, int height) {
    const __m256 zero = _mm256_setzero_ps(), n = _mm256_set1_ps((float)height);
    const __m256 a = _mm256_max_ps(lo, zero), b = _mm256_min_ps(hi, n);
    __m256 overlap = _mm256_max_ps(zero, _mm256_sub_ps(_mm256_min_ps(b, fr1), _mm256_max_ps(a, fr)));
    if (r == 0) overlap = _mm256_add_ps(overlap, _mm256_max_ps(zero, _mm256_sub_ps(_mm256_min_ps(hi, zero), lo)));
    if (r == height - 1) overlap = _mm256_add_ps(overlap, _mm256_max_ps(zero, _mm256_sub_ps(hi, _mm256_max_ps(lo, n))));
    const __m256 q = _mm256_min_ps(_mm256_mul_ps(overlap, scale), _mm256_set1_ps(65535.0f));
    return _mm256_cvttps_epi32(q);
}

/// Eight pixels of crk_turn_pixel_vertical from column c (all eight valid).
CRK_TURN_AVX2 __m256i crk_turn_group_vertical_avx2(crk_turn *t, float cy, int c) {
    // crk_turn_v_box's operations.
    const __m256 sign = _mm256_set1_ps(-0.0f);
    const __m256 v = _mm256_add_ps(_mm256_loadu_ps(t->a + c), _mm256_mul_ps(_mm256_loadu_ps(t->b + c), _mm256_set1_ps(cy)));
    const __m256 skew = _mm256_sub_ps(_mm256_loadu_ps(t->c1 + c), _mm256_mul_ps(v, _mm256_loadu_ps(t->c2 + c)));
    const __m256 length = _mm256_max_ps(_mm256_add_ps(_mm256_andnot_ps(sign, _mm256_loadu_ps(t->b + c)), _mm256_andnot_ps(sign, skew)), _mm256_set1_ps(1.0f));
    const __m256 half = _mm256_mul_ps(length, _mm256_set1_ps(0.5f)), scale = _mm256_div_ps(_mm256_set1_ps(65536.0f), length);
    const __m256 lo = _mm256_sub_ps(v, half), hi = _mm256_add_ps(v, half);
    // The rows any of the eight read: the scalar's per pixel, over the least lo and the most hi.
    __m128 l4 = _mm_min_ps(_mm256_castps256_ps128(lo), _mm256_extractf128_ps(lo, 1));
    l4 = _mm_min_ps(l4, _mm_movehl_ps(l4, l4));
    l4 = _mm_min_ss(l4, _mm_shuffle_ps(l4, l4, 1));
    __m128 h4 = _mm_max_ps(_mm256_castps256_ps128(hi), _mm256_extractf128_ps(hi, 1));
    h4 = _mm_max_ps(h4, _mm_movehl_ps(h4, h4));
    h4 = _mm_max_ss(h4, _mm_shuffle_ps(h4, h4, 1));
    int first, last;
    crk_turn_rows(t, _mm_cvtss_f32(l4), _mm_cvtss_f32(h4), &first, &last);
    crk_turn_make_rows(t, last);
    const size_t stride = (size_t)(t->x1 - t->x0);
    const uint32_t *row = t->h + (size_t)(first - t->r0) * stride + c;
    // (A row that weighs nothing in all eight adds zeros, which measured cheaper than a branch to skip it.
    // Row numbers as floats, counted up: exact for every row a Bitmap has.)
    __m256i sum_lo = _mm256_setzero_si256(), sum_hi = _mm256_setzero_si256();
    __m256 fr = _mm256_set1_ps((float)first);
    for (int r = first; r <= last; r++, row += stride) {
        const __m256 fr1 = _mm256_add_ps(fr, _mm256_set1_ps(1.0f));
        __m256i w_lo, w_hi;
        crk_lanes_widen_avx2(crk_turn_row_weight_avx2(lo, hi, scale, r, fr, fr1, t->height), &w_lo, &w_hi);
        fr = fr1;
        crk_turn_weigh_avx2(_mm256_loadu_si256((const __m256i *)row), w_lo, w_hi, &sum_lo, &sum_hi);
    }
    return crk_turn_round_avx2(sum_lo, sum_hi);
}

__attribute__((target("avx2")))
static int crk_turn_row_vertical_avx2(crk_turn *t, float cy, int c0, const uint8_t *coverage, int count, uint32_t *out) {
    int i = 0;
    for (; i + 8 <= count; i += 8) {
        uint64_t covered, valid;
        memcpy(&covered, coverage + i, 8);
        if (covered == 0) continue;
        memcpy(&valid, t->valid + c0 + i, 8);
        if (valid != 0x0101010101010101ull) {
            for (int k = 0; k < 8; k++) if (coverage[i + k]) crk_turn_pixel_vertical(t, cy, c0 + i + k, out + i + k);
            continue;
        }
        _mm256_storeu_si256((__m256i *)(out + i), crk_turn_group_vertical_avx2(t, cy, c0 + i));
    }
    // The last few pixels as the last eight, again (the pixels before them come out the same), where
    // any is covered.
    uint8_t tail = 0;
    for (int k = i; k < count; k++) tail |= coverage[k];
    if (tail && count >= 8) {
        uint64_t valid;
        memcpy(&valid, t->valid + c0 + count - 8, 8);
        if (valid == 0x0101010101010101ull) {
            _mm256_storeu_si256((__m256i *)(out + count - 8), crk_turn_group_vertical_avx2(t, cy, c0 + count - 8));
            i = count;
        }
    }
    return i;
}
#define CRK_TURN_HAS_AVX2 1
#endif

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))

/// crk_turn_g's texels eight at a time from t0; returns where it stopped.
__attribute__((target("avx2")))
static int crk_turn_g_avx2(crk_turn *t, int start, int rows, const uint16_t *w, int t0, int t1) {
    int i = t0;
    for (; i + 8 <= t1; i += 8) {
        // (One weight for all eight: in every lane whatever the order.)
        __m256i sum_lo = _mm256_setzero_si256(), sum_hi = _mm256_setzero_si256();
        for (int k = 0; k < rows; k++) {
            if (!w[k]) continue;
            const __m256i weight = _mm256_set1_epi16((short)w[k]);
            crk_turn_weigh_avx2(_mm256_loadu_si256((const __m256i *)(t->image + (size_t)(start + k) * (size_t)t->width + (size_t)i)), weight, weight, &sum_lo, &sum_hi);
        }
        _mm256_storeu_si256((__m256i *)(t->g + i), crk_turn_round_avx2(sum_lo, sum_hi));
    }
    return i;
}

static inline uint32_t crk_turn_pixel_horizontal(const crk_turn *t, double u, double ux, double k3, double k5, int t0, int t1);

/// The least of four doubles.
CRK_TURN_AVX2 double crk_turn_least_avx2(__m256d x) {
    __m128d two = _mm_min_pd(_mm256_castpd256_pd128(x), _mm256_extractf128_pd(x, 1));
    return _mm_cvtsd_f64(_mm_min_sd(two, _mm_unpackhi_pd(two, two)));
}

/// crk_turn_pixel_horizontal for the pixels [i, end) of a row, eight at a time where all eight are
/// covered, their boxes lie inside the image and G's texels [t0, t1), and their texels within sixteen of
/// the least: the same double operations, lane by lane; other groups pixel by pixel. Returns where it
/// stopped (fewer than eight pixels before `end`).
__attribute__((target("avx2")))
static int crk_turn_row_horizontal_avx2(const crk_turn *t, int x0, double u0, double ux, double k3, double k5,
                                        int t0, int t1, const uint8_t *coverage, int i, int end, uint32_t *out) {
    const __m256d step = _mm256_set1_pd(ux), start = _mm256_set1_pd(u0);
    const __m256d zero = _mm256_setzero_pd(), one = _mm256_set1_pd(1.0), cap = _mm256_set1_pd(65535.0), sign = _mm256_set1_pd(-0.0);
    const __m256d ux_abs = _mm256_set1_pd(fabs(ux)), c3 = _mm256_set1_pd(k3), c5 = _mm256_set1_pd(k5);
    const __m256i seven = _mm256_set1_epi32(7);
    for (; i + 8 <= end; i += 8) {
        uint64_t covered;
        memcpy(&covered, coverage + i, 8);
        __m256d lo[2], hi[2], first[2], scale[2];
        int ok = covered == ~0ull;
        double least = HUGE_VAL, most = -HUGE_VAL, longest = 0;
        __m256d least4 = _mm256_set1_pd(HUGE_VAL), most4 = _mm256_set1_pd(-HUGE_VAL), longest4 = _mm256_setzero_pd();
        for (int h = 0; h < 2 && ok; h++) {
            // crk_turn_pixel_horizontal's operations.
            const __m256d cx = _mm256_add_pd(_mm256_set1_pd((double)(x0 + i + 4 * h) + 0.5), _mm256_setr_pd(0, 1, 2, 3));
            const __m256d u = _mm256_add_pd(_mm256_mul_pd(cx, step), start);
            const __m256d skew = _mm256_sub_pd(c3, _mm256_mul_pd(u, c5));
            const __m256d length = _mm256_max_pd(_mm256_add_pd(ux_abs, _mm256_andnot_pd(sign, skew)), one);
            const __m256d half = _mm256_mul_pd(length, _mm256_set1_pd(0.5));
            scale[h] = _mm256_div_pd(_mm256_set1_pd(65536.0), length);
            lo[h] = _mm256_sub_pd(u, half);
            hi[h] = _mm256_add_pd(u, half);
            first[h] = _mm256_floor_pd(lo[h]);
            least4 = _mm256_min_pd(least4, lo[h]);
            most4 = _mm256_max_pd(most4, hi[h]);
            longest4 = _mm256_max_pd(longest4, length);
        }
        if (ok) {
            least = crk_turn_least_avx2(least4);
            most = -crk_turn_least_avx2(_mm256_sub_pd(_mm256_setzero_pd(), most4));
            longest = -crk_turn_least_avx2(_mm256_sub_pd(_mm256_setzero_pd(), longest4));
        }
        // Inside the image and G (no edge texel takes what lies beyond), within two loads of G, and at most
        // four texels a pixel.
        const int slots = ok ? (int)ceil(longest) + 1 : 0;
        ok = ok && slots <= 4 && least >= (double)t0 && most <= (double)t1 && most <= (double)t->width && (int)ceil(most) - (int)floor(least) <= 16;
        if (!ok) {
            for (int k = i; k < i + 8; k++)
                if (coverage[k]) out[k] = crk_turn_pixel_horizontal(t, ((double)(x0 + k) + 0.5) * ux + u0, ux, k3, k5, t0, t1);
            continue;
        }
        const int base = (int)floor(least);
        const __m256i window_a = _mm256_loadu_si256((const __m256i *)(t->g + base)), window_b = _mm256_loadu_si256((const __m256i *)(t->g + base + 8));
        __m256i index = _mm256_set_m128i(_mm256_cvttpd_epi32(first[1]), _mm256_cvttpd_epi32(first[0]));
        index = _mm256_sub_epi32(index, _mm256_set1_epi32(base));
        __m256i sum_lo = _mm256_setzero_si256(), sum_hi = _mm256_setzero_si256();
        for (int k = 0; k < slots; k++) {
            __m128i w4[2];
            for (int h = 0; h < 2; h++) {
                // The scalar's overlap of texel first + k, inside the image: a = lo, b = hi.
                const __m256d at = _mm256_add_pd(first[h], _mm256_set1_pd((double)k));
                const __m256d overlap = _mm256_max_pd(zero, _mm256_sub_pd(_mm256_min_pd(hi[h], _mm256_add_pd(at, one)), _mm256_max_pd(lo[h], at)));
                w4[h] = _mm256_cvttpd_epi32(_mm256_min_pd(_mm256_floor_pd(_mm256_mul_pd(overlap, scale[h])), cap));
            }
            const __m256i w = _mm256_set_m128i(w4[1], w4[0]);
            // Texels at or past 16 have no weight (the box ends before them); keep their index in range.
            const __m256i at = _mm256_min_epi32(_mm256_add_epi32(index, _mm256_set1_epi32(k)), _mm256_set1_epi32(15));
            const __m256i texels = _mm256_blendv_epi8(_mm256_permutevar8x32_epi32(window_a, at), _mm256_permutevar8x32_epi32(window_b, at), _mm256_cmpgt_epi32(at, seven));
            __m256i w_lo, w_hi;
            crk_lanes_widen_avx2(w, &w_lo, &w_hi);
            crk_turn_weigh_avx2(texels, w_lo, w_hi, &sum_lo, &sum_hi);
        }
        _mm256_storeu_si256((__m256i *)(out + i), crk_turn_round_avx2(sum_lo, sum_hi));
    }
    return i;
}
#endif

// MARK: - About the horizontal axis

/// G[t0, t1): the image's rows `start` … `start + rows − 1` weighed by `w` (the box along v), summed.
static void crk_turn_g(crk_turn *t, int start, int rows, const uint16_t *w, int t0, int t1) {
    int i = t0;
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    if (ccpu_features() & CCPU_AVX2) i = crk_turn_g_avx2(t, start, rows, w, t0, t1);
#endif
    for (; i < t1; i++) {
        uint64_t sum = 0;
        for (int k = 0; k < rows; k++)
            if (w[k]) sum += crk_turn_weigh(t->image[(size_t)(start + k) * (size_t)t->width + (size_t)i], w[k]);
        t->g[i] = crk_turn_round(sum);
    }
}

/// A pixel centred at u (texels) of a row where ∂u/∂x is `ux` and ∂u/∂y is k3 − u·k5: the box over G
/// (whose texels [t0, t1) hold the row) as long as the pixel's square spans along u, at least a texel.
static inline uint32_t crk_turn_pixel_horizontal(const crk_turn *t, double u, double ux, double k3, double k5, int t0, int t1) {
    const double length = fmax(fabs(ux) + fabs(k3 - u * k5), 1.0), half = length * 0.5, scale = 65536.0 / length;
    const double lo = u - half, hi = u + half;
    const double below = fmax(0.0, fmin(hi, 0.0) - lo), above = fmax(0.0, hi - fmax(lo, (double)t->width));
    const double a = fmax(lo, 0.0), b = fmin(hi, (double)t->width);
    int f, l;
    if (b > a) {
        f = (int)floor(a); l = (int)ceil(b) - 1;
        if (l > t->width - 1) l = t->width - 1;
        if (f > l) f = l;
    } else {
        f = l = hi <= 0 ? 0 : t->width - 1;
    }
    if (f < t0) f = t0;
    if (l > t1 - 1) l = t1 - 1;
    uint64_t sum = 0;
    for (int k = f; k <= l; k++) {
        double overlap = fmax(0.0, fmin(b, (double)(k + 1)) - fmax(a, (double)k));
        if (k == 0) overlap += below;
        if (k == t->width - 1) overlap += above;
        const double q = floor(overlap * scale);
        if (q > 0) sum += crk_turn_weigh(t->g[k], (uint32_t)(q > 65535.0 ? 65535.0 : q));
    }
    return crk_turn_round(sum);
}

static void crk_turn_row_horizontal(crk_turn *t, int y, int x0, const uint8_t *coverage, int count, uint32_t *out) {
    const double *m = t->m;
    const double cy = (double)y + 0.5, Q = cy * m[5] + m[8];
    memset(out, 0, sizeof(uint32_t) * (size_t)count);
    if (!(Q > 0 && Q < HUGE_VAL)) return;
    const double v = (cy * m[4] + m[7]) / Q, vy = (m[4] - v * m[5]) / Q, ux = m[0] / Q;
    const double row0 = cy * m[3] + m[6];
    if (!(fabs(v) < 1e9 && fabs(vy) < 1e9 && fabs(ux) < 1e9)) return;
    // The texels the row's pixels reach along u.
    int first = 0, last = count - 1;
    while (first < count && !coverage[first]) first++;
    if (first == count) return;
    while (!coverage[last]) last--;
    const double wv = fmax(fabs(vy), 1.0), k3 = m[3] / Q, k5 = m[5] / Q;
    // u is affine along the row: u = (x + ½)·ux + u0.
    const double u0 = row0 / Q;
    const double ua = ((double)(x0 + first) + 0.5) * ux + u0, ub = ((double)(x0 + last) + 0.5) * ux + u0;
    if (!(fabs(ua) < 1e9 && fabs(ub) < 1e9)) return;
    // The longest box along u is at an end of the row (its skew is linear in u).
    const double wu = fmax(fmax(fabs(ux) + fabs(k3 - ua * k5), fabs(ux) + fabs(k3 - ub * k5)), 1.0);
    int t0 = (int)floor(fmin(ua, ub) - wu / 2) - 1, t1 = (int)ceil(fmax(ua, ub) + wu / 2) + 1, start;
    if (t0 < 0) t0 = 0;
    if (t1 > t->width) t1 = t->width;
    if (t0 >= t->width) t0 = t->width - 1;
    if (t1 <= t0) t1 = t0 + 1;
    const int rows = crk_turn_box(v - wv / 2, v + wv / 2, t->height, &start, t->row_weights);
    crk_turn_g(t, start, rows, t->row_weights, t0, t1);
    int i = first;
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    if (ccpu_features() & CCPU_AVX2) i = crk_turn_row_horizontal_avx2(t, x0, u0, ux, k3, k5, t0, t1, coverage, first, last + 1, out);
#endif
    for (; i <= last; i++)
        if (coverage[i]) out[i] = crk_turn_pixel_horizontal(t, ((double)(x0 + i) + 0.5) * ux + u0, ux, k3, k5, t0, t1);
}

void crk_turn_row(crk_turn *t, int y, int x0, const uint8_t *coverage, int count, uint32_t *out) {
    if (count <= 0) return;
    // Rows outside those the drawing was planned for are left transparent, as columns are.
    if (y < t->y0 || y >= t->y1) { memset(out, 0, sizeof(uint32_t) * (size_t)count); return; }
    // And so are pixels outside the columns it was planned for.
    while (count > 0 && x0 < t->x0) { *out++ = 0; coverage++; x0++; count--; }
    while (count > 0 && x0 + count > t->x1) out[--count] = 0;
    if (count == 0) return;
    if (t->axis == 1) {
        crk_turn_row_horizontal(t, y, x0, coverage, count, out);
        return;
    }
    const float cy = (float)((double)y + 0.5);
    const int c0 = x0 - t->x0;
    int i = 0;
    if (t->r1 <= t->r0) { memset(out, 0, sizeof(uint32_t) * (size_t)count); return; }
#ifdef CRK_TURN_HAS_AVX2
    if (ccpu_features() & CCPU_AVX2) i = crk_turn_row_vertical_avx2(t, cy, c0, coverage, count, out);
#endif
    for (; i < count; i++) if (coverage[i]) crk_turn_pixel_vertical(t, cy, c0 + i, out + i);
}
