#include "craster_kernels.h"
#include "ccpu_features.h"
#include "craster_lanes.h"

#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

// A page curl drawn per device pixel: where each pixel of the screen looks at the page (its front, the
// cylinder's front and back, the part turned over), found by inverting the cylinder's projection, instead
// of a mesh of strips each clipped through a mask. See crk_page_curl in the header for the model.
//
// Colours are carried in 16-bit lanes of a uint64_t (R, G, B, A from the low end), values 0…255.
//
// Three paths: a straight axis over a page on whole device pixels is worked out once per column and rows
// only blend (crk_curl_make_columns, crk_curl_column_pixel); anything else goes pixel by pixel
// (crk_curl_pixel). Both are portable C, the reference and the fallback; where the processor has AVX2
// they run eight pixels at a time (crk_curl_column_row_avx2, crk_curl_span_avx2) with the same bytes: the
// same float operations in the same order, the same integer rounding in 16-bit lanes. Tests draw many
// curls both ways and compare them.

// No a·b + c fused into one rounding anywhere, so that the scalar and vector paths round alike whatever
// the compiler targets.
#pragma STDC FP_CONTRACT OFF

#define CRK_CURL_INLINE static inline __attribute__((always_inline))

/// q·k / 255 in every lane (k 0…255), rounded to nearest.
CRK_CURL_INLINE uint64_t crk_curl_scale255(uint64_t q, uint64_t k) {
    uint64_t x = q * k + 0x0080008000800080ull;
    return ((x + ((x >> 8) & 0x00FF00FF00FF00FFull)) >> 8) & 0x00FF00FF00FF00FFull;
}

/// q·k / 256 in every lane (k 0…256), rounded to nearest.
CRK_CURL_INLINE uint64_t crk_curl_scale256(uint64_t q, uint64_t k) {
    return ((q * k + 0x0080008000800080ull) >> 8) & 0x00FF00FF00FF00FFull;
}

#define CRK_CURL_ALPHA(q) ((q) >> 48)
#define CRK_CURL_COLOUR_LANES 0x0000FFFFFFFFFFFFull

/// asin for 0 ≤ x ≤ 1, within 2e-7 (Cephes' single-precision polynomial; above 0.5 through
/// asin x = π/2 − 2 asin √((1 − x)/2)).
static float crk_curl_asin(float x) {
    float a = x, z;
    int upper = a > 0.5f;
    if (upper) { z = 0.5f * (1.0f - a); a = sqrtf(z); } else { z = a * a; }
    float y = ((((4.2163199048e-2f * z + 2.4181311049e-2f) * z + 4.5470025998e-2f) * z + 7.4953002686e-2f) * z
               + 1.6666752422e-1f) * z * a + a;
    return upper ? 1.5707963267948966f - (y + y) : y;
}

/// The share of a pixel covered by a straight edge `distance` device pixels inside it, in 1/256.
CRK_CURL_INLINE uint64_t crk_curl_cover(float distance) {
    return distance <= -0.5f ? 0 : (distance >= 0.5f ? 256 : (uint64_t)(int)((distance + 0.5f) * 256.0f + 0.5f));
}

typedef struct {
    float ax, ay, nx, ny, dx, dy, w, h, pixels;
} crk_curl_frame;

/// How much of a pixel the page covers at page point q = axis + n·s + d·v (1/256), where s changes `slope`
/// times as fast as the screen across the axis: each of the page's edges by its distance converted to
/// screen pixels through the gradient of that coordinate (first order). A point at least `margin` (half a
/// pixel through the steepest gradient) inside every edge is covered without more arithmetic.
CRK_CURL_INLINE uint64_t crk_curl_page_coverage(const crk_curl_frame *f, float s, float v, float slope, float margin, float *qx, float *qy) {
    float x = f->ax + f->nx * s + f->dx * v, y = f->ay + f->ny * s + f->dy * v;
    *qx = x; *qy = y;
    float ex = x < f->w - x ? x : f->w - x, ey = y < f->h - y ? y : f->h - y;
    if (ex >= margin && ey >= margin) return 256;
    if (ex < -margin || ey < -margin) return 0;
    float gx = sqrtf(f->nx * f->nx * slope * slope + f->dx * f->dx), gy = sqrtf(f->ny * f->ny * slope * slope + f->dy * f->dy);
    uint64_t cx = crk_curl_cover(ex * f->pixels / gx), cy = crk_curl_cover(ey * f->pixels / gy);
    return (cx * cy + 128) >> 8;
}

/// `colour` (16-bit lanes) source-over onto `*dst`.
CRK_CURL_INLINE void crk_curl_over(uint32_t *dst, uint64_t colour) {
    uint64_t a = CRK_CURL_ALPHA(colour);
    if (a == 0) return;
    if (a < 255) colour += crk_curl_scale255(crk_lanes_spread(*dst), 255 - a);
    *dst = crk_lanes_pack(colour);
}

/// Samples of the cylinder across u = 0…R, every `step` points: where the front is (s = R·asin(u/R)),
/// how fast it moves (1/cos θ) and its shade (1 − edge_shade·(1 − cos θ), in 1/256).
typedef struct {
    float slope;
    /// 1/256, as uint16_t rounds it (32 bits so that the vector path reads it with the slope in one load).
    uint32_t keep;
} crk_curl_turn;
_Static_assert(sizeof(crk_curl_turn) == 2 * sizeof(uint32_t), "a turn is two 32-bit elements: entry k is element 2k");

typedef struct {
    float *s;
    crk_curl_turn *turn;
    int count;
    float inverse_step;
} crk_curl_table;

static int crk_curl_make_table(crk_curl_table *t, float r, float pixels_per_point, float edge_shade) {
    // Eight samples a device pixel; s is interpolated between them.
    float step = 0.125f / pixels_per_point;
    double n = ceil((double)r / (double)step);
    if (!(n >= 1) || n > 1 << 22) return 0;
    int count = (int)n + 2;
    t->s = malloc((sizeof(float) + sizeof(crk_curl_turn)) * (size_t)count);
    if (!t->s) return 0;
    t->turn = (crk_curl_turn *)(t->s + count);
    t->count = count;
    t->inverse_step = 1.0f / step;
    for (int k = 0; k < count; k++) {
        float x = (float)k * step / r;
        if (x > 1) x = 1;
        float cos2 = 1.0f - x * x;
        float c = sqrtf(cos2);
        t->s[k] = r * crk_curl_asin(x);
        t->turn[k].slope = c > 1e-4f ? 1.0f / c : 1e4f;
        t->turn[k].keep = (uint16_t)(int)((1.0f - edge_shade * (1.0f - c)) * 256.0f + 0.5f);
    }
    return 1;
}

/// The cylinder at distance 0 < u from the axis (u past R read as R), from `table`: where the front is
/// (s, interpolated), how fast it moves and its shade.
CRK_CURL_INLINE void crk_curl_cylinder(const crk_curl_table *table, float u, float r, float *s, float *slope, uint64_t *keep) {
    float position = (u < r ? u : r) * table->inverse_step;
    int k = (int)position;
    if (k > table->count - 2) k = table->count - 2;
    float t = position - (float)k;
    *s = table->s[k] + (table->s[k + 1] - table->s[k]) * t;
    *slope = table->turn[k].slope;
    *keep = table->turn[k].keep;
}

/// The shadow's alpha (0…1) at distance u from the axis, before any coverage: the profile read linearly
/// at f = (u − outer)/R, 0 from f = 1 on. A profile of one sample is that sample throughout.
CRK_CURL_INLINE float crk_curl_shadow(const crk_curl *c, float u, float outer, float r) {
    float f = (u - outer) / r;
    if (f >= 1.0f) return 0.0f;
    if (c->shadow_count < 1) return (float)c->shadow[0];
    float position = (f > 0 ? f : 0.0f) * (float)c->shadow_count;
    int k = (int)position;
    if (k >= c->shadow_count) k = c->shadow_count - 1;
    float t = position - (float)k;
    return (float)c->shadow[k] + ((float)c->shadow[k + 1] - (float)c->shadow[k]) * t;
}

/// Device row `y`'s flat front, columns x0 + first … x0 + last − 1 of `row`, blended as it is (a page on
/// whole device pixels one to one: device pixel x shows the front's pixel x − origin).
static void crk_curl_flat_row(const crk_curl *c, uint32_t *row, int x0, int y, int first, int last) {
    int ox = (int)c->origin_x, iy = y - (int)c->origin_y;
    if (iy < 0 || iy >= c->image_height) return;
    if (first < ox - x0) first = ox - x0;
    if (last > ox + c->image_width - x0) last = ox + c->image_width - x0;
    if (last > first) crk_source_over(row + first, c->front + (size_t)iy * (size_t)c->image_width + (size_t)(x0 + first - ox), last - first);
}

/// One device column of a straight curl (axis along the page's columns) whose page lies on whole device
/// pixels one to one: where the back and the front are sampled in a row (texel and weight), how much of
/// the column each covers across the axis, the cylinder's shade and outer line, and the shadow's alpha.
typedef struct {
    int32_t back_index, front_index;
    uint16_t back_weight, front_weight, back_cover, front_cover, keep, edge, shadow;
} crk_curl_column;

/// A texel column and weight (1/256) for page x `q`, clamped to the row, and the coverage of the page's
/// left and right edges at q for a slope `slope` across the axis.
CRK_CURL_INLINE void crk_curl_locate(float q, float slope, float w, float iscale, int iw, float pixels,
                                     int32_t *index, uint16_t *weight, uint16_t *cover) {
    float x = q * iscale - 0.5f, mx = (float)(iw - 1);
    x = x < 0 ? 0 : (x > mx ? mx : x);
    int ix = (int)x;
    int wx = (int)((x - (float)ix) * 256.0f + 0.5f);
    // (Both texels inside the row: a last-column sample is the texel before it at full weight.)
    if (ix >= iw - 1 && iw > 1) { ix = iw - 2; wx = 256; }
    if (iw == 1) wx = 0;
    *index = ix; *weight = (uint16_t)wx;
    float e = q < w - q ? q : w - q;
    *cover = (uint16_t)crk_curl_cover(e * pixels / slope);
}

/// The straight, pixel-aligned case of crk_page_curl: everything along a row depends on the column alone,
/// so it is worked out once per column (here, columns `first`…`last − 1`; `columns` has room for them) and
/// rows only blend (the page's top and bottom lie on whole pixels).
static void crk_curl_make_columns(const crk_curl *c, const crk_curl_table *table, crk_curl_column *columns, int x0, int first, int last) {
    const float r = (float)c->radius, pi_r = (float)(M_PI * c->radius), ppp = (float)c->pixels_per_point;
    const float outer = (float)c->outer, half = 0.5f / ppp, w = (float)c->page_width, ax = (float)c->axis_x;
    const float iscale = (float)c->image_scale;
    const int iw = c->image_width;
    const int has_top = c->farthest >= M_PI * c->radius / 2;
    const double ox = c->origin_x;
    for (int i = first; i < last; i++) {
        crk_curl_column *col = &columns[i];
        float px = (float)((x0 + i + 0.5 - ox) * c->device_to_page_a);
        float u = px - ax;
        float s_front = u, slope = 1.0f;
        uint64_t keep = 256, edge = 256;
        if (u > 0) {
            crk_curl_cylinder(table, u, r, &s_front, &slope, &keep);
            if (has_top) edge = crk_curl_cover((r - u) * ppp);
        }
        if (u < outer + half) {
            crk_curl_locate(ax + pi_r - s_front, slope, w, iscale, iw, ppp, &col->back_index, &col->back_weight, &col->back_cover);
            crk_curl_locate(ax + s_front, slope, w, iscale, iw, ppp, &col->front_index, &col->front_weight, &col->front_cover);
        } else {
            col->back_index = col->front_index = 0;
            col->back_weight = col->front_weight = col->back_cover = col->front_cover = 0;
        }
        col->keep = (uint16_t)keep; col->edge = (uint16_t)edge;
        col->shadow = 0;
        if (u > outer - half && u < outer + r + half) {
            float e = px < w - px ? px : w - px;
            uint64_t near = crk_curl_cover((u - outer) * ppp), inside = crk_curl_cover(e * ppp);
            col->shadow = (uint16_t)(int)(crk_curl_shadow(c, u, outer, r) * (float)(near * inside) * (255.0f / 65536.0f) + 0.5f);
        }
    }
}

/// One pixel of a column (`front` and `back` are the image rows of its device row), blended onto `*dst`.
/// The reference: the AVX2 rows below match it byte for byte.
CRK_CURL_INLINE void crk_curl_column_pixel(const crk_curl_column *col, const uint32_t *front, const uint32_t *back, int iw, uint32_t *dst) {
    uint64_t colour = 0, back_alpha = 0;
    if (col->back_cover) {
        colour = crk_lanes_lerp(crk_lanes_spread(back[col->back_index]), crk_lanes_spread(back[col->back_index + (iw > 1)]), col->back_weight);
        if (col->back_cover < 256) colour = crk_curl_scale256(colour, col->back_cover);
        back_alpha = CRK_CURL_ALPHA(colour);
    }
    if (back_alpha < 255 && col->front_cover) {
        uint64_t p = crk_lanes_lerp(crk_lanes_spread(front[col->front_index]), crk_lanes_spread(front[col->front_index + (iw > 1)]), col->front_weight);
        if (col->front_cover < 256) p = crk_curl_scale256(p, col->front_cover);
        colour += crk_curl_scale255(p, 255 - back_alpha);
    }
    if (col->keep < 256) colour = (crk_curl_scale256(colour, col->keep) & CRK_CURL_COLOUR_LANES) | (colour & ~CRK_CURL_COLOUR_LANES);
    if (col->edge < 256) colour = crk_curl_scale256(colour, col->edge);
    if (col->shadow) colour += crk_curl_scale255(col->shadow, 255 - CRK_CURL_ALPHA(colour)) << 48;
    crk_curl_over(dst, colour);
}

/// Device row `j` (image row `iy`) of the straight case: columns `first`…`last − 1`, one at a time.
static void crk_curl_column_row(const crk_curl *c, const crk_curl_column *columns, uint32_t *row, int iy, int first, int last) {
    const int iw = c->image_width;
    const uint32_t *front = c->front + (size_t)iy * (size_t)iw, *back = c->back + (size_t)iy * (size_t)iw;
    for (int i = first; i < last; i++) crk_curl_column_pixel(&columns[i], front, back, iw, row + i);
}

/// What every pixel of the per-pixel path reads: the curl, its page frame and cylinder table, and the
/// constants worked out once per call.
typedef struct {
    const crk_curl *c;
    crk_curl_frame f;
    crk_curl_table table;
    float r, pi_r, outer, ppp, half, flat_margin, iscale;
    /// Past this distance from the axis nothing is drawn.
    float end;
    int curled, has_top, iw, ih;
} crk_curl_pass;

/// One device pixel of the per-pixel path, at distance u from the axis and v along it, blended onto `*dst`.
/// The reference: the AVX2 version below matches it byte for byte.
CRK_CURL_INLINE void crk_curl_pixel(const crk_curl_pass *p, float u, float v, uint32_t *dst) {
    const crk_curl *c = p->c;
    const float r = p->r, outer = p->outer, ppp = p->ppp, half = p->half;
    uint64_t colour = 0;
    float qx, qy;
    if (u < outer + half) {
        // Where along the page this pixel looks: s_front on the page going away from the viewer, s_back
        // on the part coming back over the top. Both run along the axis's normal; v along the axis.
        float s_front, slope = 1.0f, margin = p->flat_margin;
        uint64_t keep = 256, edge = 256;
        if (u <= 0 || !p->curled) {
            s_front = u;
        } else {
            crk_curl_cylinder(&p->table, u, r, &s_front, &slope, &keep);
            margin = half * slope;
            // The cylinder's top, seen edge-on, is the curl's outer line: cut once, front and back together.
            if (p->has_top) edge = crk_curl_cover((r - u) * ppp);
        }
        uint64_t back_cover = p->curled ? crk_curl_page_coverage(&p->f, p->pi_r - s_front, v, slope, margin, &qx, &qy) : 0;
        uint64_t back_alpha = 0;
        if (back_cover > 0) {
            colour = crk_lanes_sample(c->back, p->iw, p->ih, qx * p->iscale - 0.5f, qy * p->iscale - 0.5f);
            if (back_cover < 256) colour = crk_curl_scale256(colour, back_cover);
            back_alpha = CRK_CURL_ALPHA(colour);
        }
        if (back_alpha < 255) {
            uint64_t front_cover = crk_curl_page_coverage(&p->f, s_front, v, slope, margin, &qx, &qy);
            if (front_cover > 0) {
                uint64_t q = crk_lanes_sample(c->front, p->iw, p->ih, qx * p->iscale - 0.5f, qy * p->iscale - 0.5f);
                if (front_cover < 256) q = crk_curl_scale256(q, front_cover);
                colour += crk_curl_scale255(q, 255 - back_alpha);
            }
        }
        if (keep < 256) colour = (crk_curl_scale256(colour, keep) & CRK_CURL_COLOUR_LANES) | (colour & ~CRK_CURL_COLOUR_LANES);
        if (edge < 256) colour = crk_curl_scale256(colour, edge);
    }
    if (p->curled && u > outer - half && u < outer + r + half) {
        // The shadow on the page below, beyond the outer line, under the curl: black at its alpha.
        float value = crk_curl_shadow(c, u, outer, r);
        if (value > 0) {
            uint64_t near = crk_curl_cover((u - outer) * ppp);
            uint64_t inside = crk_curl_page_coverage(&p->f, u, v, 1.0f, p->flat_margin, &qx, &qy);
            uint64_t alpha = (uint64_t)(int)(value * (float)(near * inside) * (255.0f / 65536.0f) + 0.5f);
            colour += crk_curl_scale255(alpha, 255 - CRK_CURL_ALPHA(colour)) << 48;
        }
    }
    crk_curl_over(dst, colour);
}

/// Device pixels `first`…`last − 1` of a row, one at a time: pixel i at u = u_origin + du·(x0 + i) (and v
/// likewise), up to the first one past `end` when u grows along the row.
static void crk_curl_span(const crk_curl_pass *p, uint32_t *row, float u_origin, float v_origin, float du, float dv,
                          int x0, int first, int last) {
    // (A copy the stores to `row` cannot alias, so that its fields stay in registers.)
    const crk_curl_pass pass = *p;
    for (int i = first; i < last; i++) {
        float u = u_origin + du * (float)(x0 + i), v = v_origin + dv * (float)(x0 + i);
        if (u >= pass.end && du > 0) break;
        crk_curl_pixel(&pass, u, v, row + i);
    }
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>

// MARK: The AVX2 per-pixel path: eight pixels at a time, byte for byte crk_curl_pixel.
//
// Floats: the same operations on the same values in the same order (IEEE single precision either way,
// nothing fused: the file turns contraction off and "avx2" does not enable FMA; min/max and
// compare-and-blend stand for the scalar's ternaries). Colours: four 16-bit lanes a pixel as in the
// scalar's uint64_t, pixels 0, 1, 4, 5 in one register and 2, 3, 6, 7 in another (craster_lanes.h);
// every lane stays below 65536 while
// the colour lanes stay ≤ 255, which holds for premultiplied images (a block where a channel exceeds 255
// after the front is added, possible only with channels above alpha, is redone by the scalar code,
// whose uint64_t lanes then carry into each other). Per-pixel integers (weights, coverage, alpha) are
// 32-bit lanes, pixels in order. Every texel index is clamped into the image, so the gathers stay
// inside it even for lanes whose result is thrown away.

#define CRK_CURL_AVX2 static inline __attribute__((always_inline, target("avx2")))

/// crk_curl_scale255 (q·k + 128 ≤ 65153, plus its high byte ≤ 65407: no lane overflows).
CRK_CURL_AVX2 __m256i crk_curl_scale255_avx2(__m256i q, __m256i k) {
    __m256i x = _mm256_add_epi16(_mm256_mullo_epi16(q, k), _mm256_set1_epi16(128));
    return _mm256_srli_epi16(_mm256_add_epi16(x, _mm256_srli_epi16(x, 8)), 8);
}

/// crk_curl_scale256 (q·k + 128 ≤ 65408).
CRK_CURL_AVX2 __m256i crk_curl_scale256_avx2(__m256i q, __m256i k) {
    return _mm256_srli_epi16(_mm256_add_epi16(_mm256_mullo_epi16(q, k), _mm256_set1_epi16(128)), 8);
}

/// Each pixel's alpha lane as a 32-bit lane, pixels in order.
CRK_CURL_AVX2 __m256i crk_curl_alpha_avx2(__m256i lo, __m256i hi) {
    // 32-bit lanes: a0 a2 a1 a3 a4 a6 a5 a7 (craster_lanes.h's order).
    __m256i pairs = _mm256_or_si256(_mm256_srli_epi64(lo, 48), _mm256_slli_epi64(_mm256_srli_epi64(hi, 48), 32));
    return _mm256_shuffle_epi32(pairs, _MM_SHUFFLE(3, 1, 2, 0));
}

/// Each pixel's alpha lane copied into its four lanes.
CRK_CURL_AVX2 __m256i crk_curl_alpha16_avx2(__m256i q) {
    const __m256i pattern = _mm256_setr_epi8(6, 7, 6, 7, 6, 7, 6, 7, 14, 15, 14, 15, 14, 15, 14, 15,
                                             6, 7, 6, 7, 6, 7, 6, 7, 14, 15, 14, 15, 14, 15, 14, 15);
    return _mm256_shuffle_epi8(q, pattern);
}

CRK_CURL_AVX2 int crk_curl_any_avx2(__m256 mask) { return _mm256_movemask_ps(mask) != 0; }

/// crk_curl_cover.
CRK_CURL_AVX2 __m256i crk_curl_cover_avx2(__m256 d) {
    __m256 scaled = _mm256_add_ps(_mm256_mul_ps(_mm256_add_ps(d, _mm256_set1_ps(0.5f)), _mm256_set1_ps(256.0f)), _mm256_set1_ps(0.5f));
    __m256 none = _mm256_cmp_ps(d, _mm256_set1_ps(-0.5f), _CMP_LE_OQ), full = _mm256_cmp_ps(d, _mm256_set1_ps(0.5f), _CMP_GE_OQ);
    __m256i t = _mm256_blendv_epi8(_mm256_cvttps_epi32(scaled), _mm256_set1_epi32(256), _mm256_castps_si256(full));
    return _mm256_andnot_si256(_mm256_castps_si256(none), t);
}

/// crk_curl_page_coverage for eight page points: the edges' arithmetic only when some lane needs it.
CRK_CURL_AVX2 __m256i crk_curl_page_coverage_avx2(const crk_curl_frame *f, __m256 s, __m256 v, __m256 slope, __m256 margin,
                                                 __m256 *qx, __m256 *qy) {
    __m256 x = _mm256_add_ps(_mm256_add_ps(_mm256_set1_ps(f->ax), _mm256_mul_ps(_mm256_set1_ps(f->nx), s)), _mm256_mul_ps(_mm256_set1_ps(f->dx), v));
    __m256 y = _mm256_add_ps(_mm256_add_ps(_mm256_set1_ps(f->ay), _mm256_mul_ps(_mm256_set1_ps(f->ny), s)), _mm256_mul_ps(_mm256_set1_ps(f->dy), v));
    *qx = x; *qy = y;
    __m256 ex = _mm256_min_ps(x, _mm256_sub_ps(_mm256_set1_ps(f->w), x)), ey = _mm256_min_ps(y, _mm256_sub_ps(_mm256_set1_ps(f->h), y));
    __m256 full = _mm256_and_ps(_mm256_cmp_ps(ex, margin, _CMP_GE_OQ), _mm256_cmp_ps(ey, margin, _CMP_GE_OQ));
    __m256 negative = _mm256_xor_ps(margin, _mm256_set1_ps(-0.0f));
    __m256 none = _mm256_or_ps(_mm256_cmp_ps(ex, negative, _CMP_LT_OQ), _mm256_cmp_ps(ey, negative, _CMP_LT_OQ));
    __m256i result = _mm256_and_si256(_mm256_castps_si256(full), _mm256_set1_epi32(256));
    __m256 decided = _mm256_or_ps(full, none);
    if (_mm256_movemask_ps(decided) == 0xFF) return result;
    __m256 gx = _mm256_sqrt_ps(_mm256_add_ps(_mm256_mul_ps(_mm256_mul_ps(_mm256_set1_ps(f->nx * f->nx), slope), slope), _mm256_set1_ps(f->dx * f->dx)));
    __m256 gy = _mm256_sqrt_ps(_mm256_add_ps(_mm256_mul_ps(_mm256_mul_ps(_mm256_set1_ps(f->ny * f->ny), slope), slope), _mm256_set1_ps(f->dy * f->dy)));
    __m256 pixels = _mm256_set1_ps(f->pixels);
    __m256i cx = crk_curl_cover_avx2(_mm256_div_ps(_mm256_mul_ps(ex, pixels), gx));
    __m256i cy = crk_curl_cover_avx2(_mm256_div_ps(_mm256_mul_ps(ey, pixels), gy));
    __m256i partial = _mm256_srli_epi32(_mm256_add_epi32(_mm256_mullo_epi32(cx, cy), _mm256_set1_epi32(128)), 8);
    return _mm256_blendv_epi8(partial, result, _mm256_castps_si256(decided));
}

/// crk_curl_over for the pixels of `dst` in `live`: those whose alpha lane is 0 are left alone. `whole`: all
/// eight pixels are in the row.
CRK_CURL_AVX2 void crk_curl_over_avx2(uint32_t *dst, __m256i live, int whole, __m256i colour_lo, __m256i colour_hi) {
    __m256i write = _mm256_andnot_si256(_mm256_cmpeq_epi32(crk_curl_alpha_avx2(colour_lo, colour_hi), _mm256_setzero_si256()), live);
    if (_mm256_testz_si256(write, write)) return;
    const __m256i w255 = _mm256_set1_epi16(255), low = _mm256_set1_epi16(0xFF);
    __m256i d_lo, d_hi;
    // A whole group is loaded and stored without masks (masked moves are slow on some processors), the
    // pixels left alone put back as they were.
    const __m256i below = whole ? _mm256_loadu_si256((const __m256i *)dst) : _mm256_maskload_epi32((const int *)dst, live);
    crk_lanes_spread_avx2(below, &d_lo, &d_hi);
    // (255 − a saturates at 0 where a ≥ 255: nothing of the pixel below is kept.)
    __m256i out_lo = _mm256_add_epi16(colour_lo, crk_curl_scale255_avx2(d_lo, _mm256_subs_epu16(w255, crk_curl_alpha16_avx2(colour_lo))));
    __m256i out_hi = _mm256_add_epi16(colour_hi, crk_curl_scale255_avx2(d_hi, _mm256_subs_epu16(w255, crk_curl_alpha16_avx2(colour_hi))));
    // The low byte of every lane, as crk_lanes_pack.
    __m256i packed = crk_lanes_pack_avx2(_mm256_and_si256(out_lo, low), _mm256_and_si256(out_hi, low));
    if (whole) _mm256_storeu_si256((__m256i *)dst, _mm256_blendv_epi8(below, packed, write));
    else _mm256_maskstore_epi32((int *)dst, write, packed);
}

/// crk_curl_span eight pixels at a time (the last group masked to the row). `shadow` is the shadow
/// profile as floats (the scalar converts each sample as it reads it: the same values).
__attribute__((target("avx2")))
static void crk_curl_span_avx2(const crk_curl_pass *p, const float *shadow, uint32_t *row, float u_origin, float v_origin,
                               float du, float dv, int x0, int first, int last) {
    const crk_curl *c = p->c;
    const crk_curl_table *table = &p->table;
    const __m256i lanes = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    const __m256 zero = _mm256_setzero_ps(), one = _mm256_set1_ps(1.0f);
    const __m256 flat_margin = _mm256_set1_ps(p->flat_margin), r = _mm256_set1_ps(p->r), ppp = _mm256_set1_ps(p->ppp);
    const __m256 outer = _mm256_set1_ps(p->outer), half = _mm256_set1_ps(p->half), iscale = _mm256_set1_ps(p->iscale), k05 = _mm256_set1_ps(0.5f);
    const __m256 front_limit = _mm256_set1_ps(p->outer + p->half);
    const __m256 shadow_from = _mm256_set1_ps(p->outer - p->half), shadow_to = _mm256_set1_ps(p->outer + p->r + p->half);
    const __m256i i256 = _mm256_set1_epi32(256), i255 = _mm256_set1_epi32(255), w255 = _mm256_set1_epi16(255);
    for (int i = first; i < last; i += 8) {
        const int n = last - i < 8 ? last - i : 8;
        const __m256i inside = _mm256_cmpgt_epi32(_mm256_set1_epi32(n), lanes);
        __m256 x = _mm256_cvtepi32_ps(_mm256_add_epi32(_mm256_set1_epi32(x0 + i), lanes));
        __m256 u = _mm256_add_ps(_mm256_set1_ps(u_origin), _mm256_mul_ps(_mm256_set1_ps(du), x));
        __m256 v = _mm256_add_ps(_mm256_set1_ps(v_origin), _mm256_mul_ps(_mm256_set1_ps(dv), x));
        __m256 live = _mm256_castsi256_ps(inside);
        // Past `end` (u only grows along the row): this group's last pixels, and the rest of the row.
        int stop = 0;
        if (du > 0) {
            __m256 past = _mm256_and_ps(live, _mm256_cmp_ps(u, _mm256_set1_ps(p->end), _CMP_GE_OQ));
            if (crk_curl_any_avx2(past)) { live = _mm256_andnot_ps(past, live); stop = 1; }
        }
        __m256i colour_lo = _mm256_setzero_si256(), colour_hi = _mm256_setzero_si256();
        __m256 seen = _mm256_and_ps(live, _mm256_cmp_ps(u, front_limit, _CMP_LT_OQ));
        if (crk_curl_any_avx2(seen)) {
            __m256 s_front = u, slope = one, margin = flat_margin, qx, qy;
            __m256 cylinder = _mm256_setzero_ps();
            __m256i keep = i256, edge = i256;
            if (p->curled) {
                cylinder = _mm256_and_ps(seen, _mm256_cmp_ps(u, zero, _CMP_NLE_UQ));
                if (crk_curl_any_avx2(cylinder)) {
                    // crk_curl_cylinder (the index clamped at 0 too, for the lanes that do not use it).
                    __m256 position = _mm256_mul_ps(_mm256_min_ps(u, r), _mm256_set1_ps(table->inverse_step));
                    __m256i k = _mm256_max_epi32(_mm256_min_epi32(_mm256_cvttps_epi32(position), _mm256_set1_epi32(table->count - 2)), _mm256_setzero_si256());
                    __m256 t = _mm256_sub_ps(position, _mm256_cvtepi32_ps(k));
                    // (k ≤ count − 2 keeps s[k + 1] inside the table.)
                    __m256i s0_bits, s1_bits, slope_bits, keep_k;
                    crk_lanes_gather_pairs_avx2(table->s, k, &s0_bits, &s1_bits);
                    crk_lanes_gather_pairs_avx2(table->turn, _mm256_slli_epi32(k, 1), &slope_bits, &keep_k);
                    __m256 s0 = _mm256_castsi256_ps(s0_bits), s1 = _mm256_castsi256_ps(s1_bits), slope_k = _mm256_castsi256_ps(slope_bits);
                    s_front = _mm256_blendv_ps(u, _mm256_add_ps(s0, _mm256_mul_ps(_mm256_sub_ps(s1, s0), t)), cylinder);
                    slope = _mm256_blendv_ps(one, slope_k, cylinder);
                    margin = _mm256_blendv_ps(flat_margin, _mm256_mul_ps(half, slope_k), cylinder);
                    // (A keep of 256 or more leaves the colour as it is, as 256 does.)
                    keep = _mm256_blendv_epi8(i256, _mm256_min_epi32(keep_k, i256), _mm256_castps_si256(cylinder));
                    if (p->has_top) edge = _mm256_blendv_epi8(i256, crk_curl_cover_avx2(_mm256_mul_ps(_mm256_sub_ps(r, u), ppp)), _mm256_castps_si256(cylinder));
                }
                __m256i back_cover = crk_curl_page_coverage_avx2(&p->f, _mm256_sub_ps(_mm256_set1_ps(p->pi_r), s_front), v, slope, margin, &qx, &qy);
                back_cover = _mm256_and_si256(back_cover, _mm256_castps_si256(seen));
                if (!_mm256_testz_si256(back_cover, back_cover)) {
                    // A coverage of 256 scales by 1 and one of 0 clears the lane: no test per pixel.
                    __m256i cover_lo, cover_hi;
                    crk_lanes_sample_paired_avx2(c->back, p->iw, p->ih, _mm256_sub_ps(_mm256_mul_ps(qx, iscale), k05), _mm256_sub_ps(_mm256_mul_ps(qy, iscale), k05), &colour_lo, &colour_hi);
                    crk_lanes_widen_avx2(back_cover, &cover_lo, &cover_hi);
                    colour_lo = crk_curl_scale256_avx2(colour_lo, cover_lo);
                    colour_hi = crk_curl_scale256_avx2(colour_hi, cover_hi);
                }
            }
            __m256i back_alpha = crk_curl_alpha_avx2(colour_lo, colour_hi);
            __m256 front = _mm256_and_ps(seen, _mm256_castsi256_ps(_mm256_cmpgt_epi32(i255, back_alpha)));
            if (crk_curl_any_avx2(front)) {
                __m256i front_cover = crk_curl_page_coverage_avx2(&p->f, s_front, v, slope, margin, &qx, &qy);
                front_cover = _mm256_and_si256(front_cover, _mm256_castps_si256(front));
                if (!_mm256_testz_si256(front_cover, front_cover)) {
                    __m256i p_lo, p_hi, cover_lo, cover_hi, k_lo, k_hi;
                    crk_lanes_sample_paired_avx2(c->front, p->iw, p->ih, _mm256_sub_ps(_mm256_mul_ps(qx, iscale), k05), _mm256_sub_ps(_mm256_mul_ps(qy, iscale), k05), &p_lo, &p_hi);
                    crk_lanes_widen_avx2(front_cover, &cover_lo, &cover_hi);
                    crk_lanes_widen_avx2(_mm256_sub_epi32(i255, back_alpha), &k_lo, &k_hi);
                    colour_lo = _mm256_add_epi16(colour_lo, crk_curl_scale255_avx2(crk_curl_scale256_avx2(p_lo, cover_lo), k_lo));
                    colour_hi = _mm256_add_epi16(colour_hi, crk_curl_scale255_avx2(crk_curl_scale256_avx2(p_hi, cover_hi), k_hi));
                    // A channel above 255 (above alpha, so not premultiplied): the scalar code's lanes carry.
                    __m256i over = _mm256_or_si256(_mm256_cmpgt_epi16(colour_lo, w255), _mm256_cmpgt_epi16(colour_hi, w255));
                    if (!_mm256_testz_si256(over, over)) {
                        crk_curl_span(p, row, u_origin, v_origin, du, dv, x0, i, i + n);
                        if (stop) return;
                        continue;
                    }
                }
            }
            if (crk_curl_any_avx2(cylinder)) {
                // The shade on the colour lanes only (256 in the alpha lane), then the outer line's cut.
                __m256i keep_lo, keep_hi, edge_lo, edge_hi;
                crk_lanes_widen_avx2(keep, &keep_lo, &keep_hi);
                crk_lanes_widen_avx2(edge, &edge_lo, &edge_hi);
                const __m256i alpha256 = _mm256_set1_epi16(256);
                colour_lo = crk_curl_scale256_avx2(colour_lo, _mm256_blend_epi16(keep_lo, alpha256, 0x88));
                colour_hi = crk_curl_scale256_avx2(colour_hi, _mm256_blend_epi16(keep_hi, alpha256, 0x88));
                colour_lo = crk_curl_scale256_avx2(colour_lo, edge_lo);
                colour_hi = crk_curl_scale256_avx2(colour_hi, edge_hi);
            }
        }
        if (p->curled) {
            __m256 shade = _mm256_and_ps(live, _mm256_and_ps(_mm256_cmp_ps(u, shadow_from, _CMP_GT_OQ), _mm256_cmp_ps(u, shadow_to, _CMP_LT_OQ)));
            if (crk_curl_any_avx2(shade)) {
                // crk_curl_shadow.
                __m256 f = _mm256_div_ps(_mm256_sub_ps(u, outer), r);
                __m256 position = _mm256_mul_ps(_mm256_max_ps(f, zero), _mm256_set1_ps((float)c->shadow_count));
                __m256i k = _mm256_max_epi32(_mm256_min_epi32(_mm256_cvttps_epi32(position), _mm256_set1_epi32(c->shadow_count - 1)), _mm256_setzero_si256());
                __m256 t = _mm256_sub_ps(position, _mm256_cvtepi32_ps(k));
                __m256i s0_bits, s1_bits;
                crk_lanes_gather_pairs_avx2(shadow, k, &s0_bits, &s1_bits);
                __m256 s0 = _mm256_castsi256_ps(s0_bits), s1 = _mm256_castsi256_ps(s1_bits);
                __m256 value = _mm256_andnot_ps(_mm256_cmp_ps(f, one, _CMP_GE_OQ), _mm256_add_ps(s0, _mm256_mul_ps(_mm256_sub_ps(s1, s0), t)));
                shade = _mm256_and_ps(shade, _mm256_cmp_ps(value, zero, _CMP_GT_OQ));
                if (crk_curl_any_avx2(shade)) {
                    __m256 qx, qy;
                    __m256i near = crk_curl_cover_avx2(_mm256_mul_ps(_mm256_sub_ps(u, outer), ppp));
                    __m256i within = crk_curl_page_coverage_avx2(&p->f, u, v, one, flat_margin, &qx, &qy);
                    __m256 amount = _mm256_mul_ps(_mm256_mul_ps(value, _mm256_cvtepi32_ps(_mm256_mullo_epi32(near, within))), _mm256_set1_ps(255.0f / 65536.0f));
                    __m256i alpha = _mm256_cvttps_epi32(_mm256_add_ps(amount, k05));
                    // crk_curl_scale255(alpha, 255 − A) as the scalar's lowest lane computes it, whatever alpha is:
                    // only the low 16 bits of alpha·k + 128 reach the byte kept.
                    __m256i y = _mm256_add_epi32(_mm256_mullo_epi32(alpha, _mm256_sub_epi32(i255, crk_curl_alpha_avx2(colour_lo, colour_hi))), _mm256_set1_epi32(128));
                    y = _mm256_add_epi32(_mm256_and_si256(y, _mm256_set1_epi32(0xFFFF)), _mm256_and_si256(_mm256_srli_epi32(y, 8), _mm256_set1_epi32(0xFF)));
                    __m256i added = _mm256_and_si256(_mm256_and_si256(_mm256_srli_epi32(y, 8), _mm256_set1_epi32(0xFF)), _mm256_castps_si256(shade));
                    __m256i added_lo, added_hi;
                    crk_lanes_widen_avx2(added, &added_lo, &added_hi);
                    const __m256i alpha_lane = _mm256_set1_epi64x((long long)0xFFFF000000000000ull);
                    colour_lo = _mm256_add_epi16(colour_lo, _mm256_and_si256(added_lo, alpha_lane));
                    colour_hi = _mm256_add_epi16(colour_hi, _mm256_and_si256(added_hi, alpha_lane));
                }
            }
        }
        crk_curl_over_avx2(row + i, _mm256_castps_si256(live), n == 8, colour_lo, colour_hi);
        if (stop) return;
    }
}

/// The straight case's columns laid out for crk_curl_column_row_avx2, a multiple of 8 long (zeros past the
/// last column): texel indices and shadows as 32-bit lanes, and the weights, coverages, shade and cut each
/// repeated in the four 16-bit lanes of its pixel (the shade no more than 256, which leaves a colour as it
/// is, as the scalar's test does, and 256 in the alpha lane), so that eight columns load as they are used:
/// the 16-bit lanes in craster_lanes.h's order, columns 0, 1, 4, 5 of each eight then 2, 3, 6, 7.
typedef struct {
    int32_t *back_index, *front_index, *shadow;
    uint64_t *back_weight, *front_weight, *back_cover, *front_cover, *keep, *edge;
} crk_curl_lanes;

/// Lays out columns `first`…`last − 1` in one allocation, returned (NULL if there is no memory).
static void *crk_curl_make_lanes(crk_curl_lanes *l, const crk_curl_column *columns, int first, int last) {
    size_t n = (size_t)(last - first), stride = (n + 7) & ~(size_t)7;
    uint64_t *q = calloc(stride, 6 * sizeof(uint64_t) + 3 * sizeof(int32_t));
    if (!q) return NULL;
    l->back_weight = q; l->front_weight = q + stride; l->back_cover = q + 2 * stride; l->front_cover = q + 3 * stride;
    l->keep = q + 4 * stride; l->edge = q + 5 * stride;
    int32_t *ints = (int32_t *)(q + 6 * stride);
    l->back_index = ints; l->front_index = ints + stride; l->shadow = ints + 2 * stride;
    const uint64_t every = 0x0001000100010001ull;
    for (size_t k = 0; k < n; k++) {
        const crk_curl_column *col = &columns[first + (int)k];
        l->back_index[k] = col->back_index; l->front_index[k] = col->front_index; l->shadow[k] = col->shadow;
        const size_t j = (k & ~(size_t)7) | (k & 1) | ((k & 4) >> 1) | ((k & 2) << 1);
        l->back_weight[j] = col->back_weight * every; l->front_weight[j] = col->front_weight * every;
        l->back_cover[j] = col->back_cover * every; l->front_cover[j] = col->front_cover * every;
        uint64_t keep = col->keep < 256 ? col->keep : 256;
        l->keep[j] = keep * 0x0000000100010001ull | (256ull << 48);
        l->edge[j] = col->edge * every;
    }
    return q;
}

/// Texels `index` and `index + 1` of a row at least 2 pixels wide (`index` alone, twice, in a row 1 pixel
/// wide), spread into 16-bit lanes.
CRK_CURL_AVX2 void crk_curl_texel_pairs_avx2(const uint32_t *row, __m256i index, int iw, __m256i *a_lo, __m256i *a_hi, __m256i *b_lo, __m256i *b_hi) {
    __m256i a, b;
    if (iw > 1) crk_lanes_gather_pairs_avx2(row, index, &a, &b);
    else a = b = _mm256_i32gather_epi32((const int *)row, index, 4);
    crk_lanes_spread_avx2(a, a_lo, a_hi);
    crk_lanes_spread_avx2(b, b_lo, b_hi);
}

/// crk_curl_column_row eight columns at a time (the last group masked to the row), from `l`.
__attribute__((target("avx2")))
static void crk_curl_column_row_avx2(const crk_curl *c, const crk_curl_column *columns, const crk_curl_lanes *l, uint32_t *row,
                                     int iy, int first, int last) {
    const int iw = c->image_width;
    const uint32_t *front = c->front + (size_t)iy * (size_t)iw, *back = c->back + (size_t)iy * (size_t)iw;
    const __m256i lanes = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    const __m256i i255 = _mm256_set1_epi32(255), w255 = _mm256_set1_epi16(255);
    const int n = last - first;
    for (int g = 0; g < n; g += 8) {
        const int count = n - g < 8 ? n - g : 8;
        const __m256i inside = _mm256_cmpgt_epi32(_mm256_set1_epi32(count), lanes);
        uint32_t *dst = row + first + g;
        __m256i colour_lo = _mm256_setzero_si256(), colour_hi = _mm256_setzero_si256();
        // A coverage of 0 clears a lane and one of 256 keeps it: no test per pixel.
        __m256i cover_lo = _mm256_loadu_si256((const __m256i *)(l->back_cover + g)), cover_hi = _mm256_loadu_si256((const __m256i *)(l->back_cover + g + 4));
        int front_hidden = 0;
        if (!_mm256_testz_si256(_mm256_or_si256(cover_lo, cover_hi), _mm256_set1_epi32(-1))) {
            __m256i index = _mm256_loadu_si256((const __m256i *)(l->back_index + g)), a_lo, a_hi, b_lo, b_hi;
            crk_curl_texel_pairs_avx2(back, index, iw, &a_lo, &a_hi, &b_lo, &b_hi);
            colour_lo = crk_curl_scale256_avx2(crk_lanes_lerp_avx2(a_lo, b_lo, _mm256_loadu_si256((const __m256i *)(l->back_weight + g))), cover_lo);
            colour_hi = crk_curl_scale256_avx2(crk_lanes_lerp_avx2(a_hi, b_hi, _mm256_loadu_si256((const __m256i *)(l->back_weight + g + 4))), cover_hi);
            // (Under an opaque back in every column, where a page is turned over, the front adds nothing.)
            const __m256i hidden = _mm256_or_si256(_mm256_cmpgt_epi32(crk_curl_alpha_avx2(colour_lo, colour_hi), _mm256_set1_epi32(254)),
                                                   _mm256_andnot_si256(inside, _mm256_set1_epi32(-1)));
            front_hidden = _mm256_testc_si256(hidden, _mm256_set1_epi32(-1));
        }
        cover_lo = _mm256_loadu_si256((const __m256i *)(l->front_cover + g)); cover_hi = _mm256_loadu_si256((const __m256i *)(l->front_cover + g + 4));
        if (!front_hidden && !_mm256_testz_si256(_mm256_or_si256(cover_lo, cover_hi), _mm256_set1_epi32(-1))) {
            __m256i index = _mm256_loadu_si256((const __m256i *)(l->front_index + g)), a_lo, a_hi, b_lo, b_hi;
            crk_curl_texel_pairs_avx2(front, index, iw, &a_lo, &a_hi, &b_lo, &b_hi);
            __m256i p_lo = crk_curl_scale256_avx2(crk_lanes_lerp_avx2(a_lo, b_lo, _mm256_loadu_si256((const __m256i *)(l->front_weight + g))), cover_lo);
            __m256i p_hi = crk_curl_scale256_avx2(crk_lanes_lerp_avx2(a_hi, b_hi, _mm256_loadu_si256((const __m256i *)(l->front_weight + g + 4))), cover_hi);
            // (Under an opaque back 255 − alpha is 0, which adds nothing, as the scalar's test does.)
            colour_lo = _mm256_add_epi16(colour_lo, crk_curl_scale255_avx2(p_lo, _mm256_sub_epi16(w255, crk_curl_alpha16_avx2(colour_lo))));
            colour_hi = _mm256_add_epi16(colour_hi, crk_curl_scale255_avx2(p_hi, _mm256_sub_epi16(w255, crk_curl_alpha16_avx2(colour_hi))));
            // A channel above 255 (above alpha, so not premultiplied): the scalar code's lanes carry.
            __m256i over = _mm256_or_si256(_mm256_cmpgt_epi16(colour_lo, w255), _mm256_cmpgt_epi16(colour_hi, w255));
            if (!_mm256_testz_si256(over, over)) {
                for (int k = 0; k < count; k++) crk_curl_column_pixel(&columns[first + g + k], front, back, iw, dst + k);
                continue;
            }
        }
        colour_lo = crk_curl_scale256_avx2(colour_lo, _mm256_loadu_si256((const __m256i *)(l->keep + g)));
        colour_hi = crk_curl_scale256_avx2(colour_hi, _mm256_loadu_si256((const __m256i *)(l->keep + g + 4)));
        colour_lo = crk_curl_scale256_avx2(colour_lo, _mm256_loadu_si256((const __m256i *)(l->edge + g)));
        colour_hi = crk_curl_scale256_avx2(colour_hi, _mm256_loadu_si256((const __m256i *)(l->edge + g + 4)));
        __m256i shadow = _mm256_loadu_si256((const __m256i *)(l->shadow + g));
        if (!_mm256_testz_si256(shadow, shadow)) {
            // crk_curl_scale255(shadow, 255 − A) as the scalar's lowest lane computes it (see crk_curl_span_avx2).
            __m256i y = _mm256_add_epi32(_mm256_mullo_epi32(shadow, _mm256_sub_epi32(i255, crk_curl_alpha_avx2(colour_lo, colour_hi))), _mm256_set1_epi32(128));
            y = _mm256_add_epi32(_mm256_and_si256(y, _mm256_set1_epi32(0xFFFF)), _mm256_and_si256(_mm256_srli_epi32(y, 8), _mm256_set1_epi32(0xFF)));
            __m256i added_lo, added_hi;
            crk_lanes_widen_avx2(_mm256_and_si256(_mm256_srli_epi32(y, 8), _mm256_set1_epi32(0xFF)), &added_lo, &added_hi);
            const __m256i alpha_lane = _mm256_set1_epi64x((long long)0xFFFF000000000000ull);
            colour_lo = _mm256_add_epi16(colour_lo, _mm256_and_si256(added_lo, alpha_lane));
            colour_hi = _mm256_add_epi16(colour_hi, _mm256_and_si256(added_hi, alpha_lane));
        }
        crk_curl_over_avx2(dst, inside, count == 8, colour_lo, colour_hi);
    }
}
#define CRK_CURL_HAS_AVX2 1
#endif

/// Set by tests (crk_curl_sample_every_pixel): no flat front copied. Read once a call.
static _Atomic int crk_curl_copies_off;

void crk_curl_sample_every_pixel(int on) { atomic_store_explicit(&crk_curl_copies_off, on != 0, memory_order_relaxed); }

/// How far along a row of the per-pixel path (pixel i at u = u_origin + du·(x0 + i), du > 0, and v
/// likewise) only the flat front is seen, from `limit` (where the whole page's flat part ends): up to where
/// this row's turned-over part (the back, at page point s = πR − u for u ≤ 0) can first cover a pixel, or
/// where the cylinder and the shadow can begin, with two pixels to spare. With a tilted axis the part turned
/// over is narrower on some rows than on others; on those rows the span would otherwise work out, pixel by
/// pixel, a front it can copy.
static int crk_curl_front_only(const crk_curl *c, const crk_curl_frame *f, float u_origin, float v_origin, float du, float dv,
                               int x0, int limit, int width) {
    const double ppp = c->pixels_per_point, spare = 2.0 / ppp, pi_r = M_PI * c->radius;
    // Up to where u stays ≤ min(0, outer − ½ pixel) − 2 pixels: no cylinder, no shadow.
    double z = (c->outer - 0.5 / ppp < 0 ? c->outer - 0.5 / ppp : 0.0) - spare;
    double end = floor((z - (double)u_origin) / (double)du) - (double)x0 - 1;
    // Where the back's page point q(k) = axis + n·(πR − u) + d·v, linear in k = x0 + i, lies within the page
    // grown by 2 pixels: the same interval of k for x and for y, intersected.
    double first = -HUGE_VAL, last = HUGE_VAL;
    int empty = 0;
    const double along[2][2] = {
        { f->ax + f->nx * (pi_r - u_origin) + f->dx * v_origin, -f->nx * du + f->dx * dv },
        { f->ay + f->ny * (pi_r - u_origin) + f->dy * v_origin, -f->ny * du + f->dy * dv },
    };
    const double size[2] = { c->page_width, c->page_height };
    for (int axis = 0; axis < 2; axis++) {
        double a = along[axis][0], b = along[axis][1], lo = -spare, hi = size[axis] + spare;
        if (fabs(b) < 1e-12) {
            if (a < lo || a > hi) { empty = 1; break; }
            continue;
        }
        double k0 = (lo - a) / b, k1 = (hi - a) / b;
        if (k0 > k1) { double t = k0; k0 = k1; k1 = t; }
        if (k0 > first) first = k0;
        if (k1 < last) last = k1;
    }
    // (An empty interval: no back on this row before the cylinder.)
    if (!empty && first <= last) {
        double back = floor(first) - (double)x0 - 1;
        if (back < end) end = back;
    }
    if (!(end > (double)limit)) return limit;
    return end >= (double)width ? width : (int)end;
}

void crk_page_curl(const crk_curl *c, uint32_t *out, int out_stride, int x0, int y0, int width, int height) {
    if (width <= 0 || height <= 0 || !(c->pixels_per_point > 0)) return;
    const float r = (float)c->radius, pi_r = (float)(M_PI * c->radius), far = (float)c->farthest;
    const float outer = (float)c->outer, ppp = (float)c->pixels_per_point, half = 0.5f / ppp;
    const int curled = c->farthest > 0 && c->radius > 0;
    const int copies_off = atomic_load_explicit(&crk_curl_copies_off, memory_order_relaxed);
    const int has_top = curled && c->farthest >= M_PI * c->radius / 2;
    crk_curl_frame f = { (float)c->axis_x, (float)c->axis_y, (float)c->normal_x, (float)c->normal_y,
                         (float)c->normal_y, (float)-c->normal_x, (float)c->page_width, (float)c->page_height, ppp };
    const int iw = c->image_width, ih = c->image_height;
    crk_curl_table table = { 0 };
    if (curled && !crk_curl_make_table(&table, r, ppp, (float)c->edge_shade)) return;
    // Before this distance only the page's front, flat, is seen: no back over it, no cylinder, no shadow.
    float flat_end = 0.0f;
    if (curled && pi_r - far < flat_end) flat_end = pi_r - far;
    flat_end -= 2.0f / ppp;
    // Past this one nothing is drawn.
    const float end = (curled ? outer + r : far) + 2.0f / ppp;
    // Whether the front maps one to one onto device pixels at whole-pixel offsets: the flat part is copied.
    const double ox = c->origin_x, oy = c->origin_y;
    // (The page must also end on whole pixels where the image does: a snapshot rounded up past a page
    // edge at a fraction of a pixel has its last row or column only partly on the page.)
    const int aligned = c->device_to_page_b == 0 && c->device_to_page_c == 0 && c->image_scale * c->device_to_page_a == 1.0
                        && c->device_to_page_a == c->device_to_page_d && ox == floor(ox) && oy == floor(oy) && fabs(ox) < 1e9 && fabs(oy) < 1e9
                        && c->page_width * c->pixels_per_point == (double)iw && c->page_height * c->pixels_per_point == (double)ih;

    // A straight axis over a page on whole device pixels: per column, then rows.
    if (aligned && curled && c->normal_x == 1 && c->normal_y == 0) {
        crk_curl_column *columns = malloc(sizeof(crk_curl_column) * (size_t)width);
        if (!columns) { free(table.s); return; }
        float u_first = (float)((x0 + 0.5 - ox) * c->device_to_page_a - c->axis_x), du = (float)c->device_to_page_a;
        double limit_d = ceil((flat_end - u_first) / du), stop_d = ceil((end - u_first) / du);
        int limit = limit_d < 0 || copies_off ? 0 : (limit_d > width ? width : (int)limit_d);
        int stop = stop_d < limit ? limit : (stop_d > width ? width : (int)stop_d);
        for (int j = 0; j < height; j++) crk_curl_flat_row(c, out + (size_t)j * (size_t)out_stride, x0, y0 + j, 0, limit);
        if (stop > limit) {
            crk_curl_make_columns(c, &table, columns, x0, limit, stop);
            // The rows with AVX2 where the processor has it and its 32-bit texel indices reach every texel.
            void *lanes_memory = NULL;
#ifdef CRK_CURL_HAS_AVX2
            crk_curl_lanes lanes;
            if ((ccpu_features() & CCPU_AVX2) && (size_t)iw * (size_t)ih <= (size_t)INT32_MAX)
                lanes_memory = crk_curl_make_lanes(&lanes, columns, limit, stop);
#endif
            for (int j = 0; j < height; j++) {
                int iy = y0 + j - (int)oy;
                if (iy < 0 || iy >= ih) continue;
                uint32_t *row = out + (size_t)j * (size_t)out_stride;
#ifdef CRK_CURL_HAS_AVX2
                if (lanes_memory) { crk_curl_column_row_avx2(c, columns, &lanes, row, iy, limit, stop); continue; }
#endif
                crk_curl_column_row(c, columns, row, iy, limit, stop);
            }
            free(lanes_memory);
        }
        free(columns);
        free(table.s);
        return;
    }

    const crk_curl_pass pass = { c, f, table, r, pi_r, outer, ppp, half, half, (float)c->image_scale, end, curled, has_top, iw, ih };
    // The AVX2 path where the processor has it and its 32-bit texel indices reach every texel; it reads
    // the shadow profile as floats.
    float *shadow = NULL;
    int vector = 0;
#ifdef CRK_CURL_HAS_AVX2
    if ((ccpu_features() & CCPU_AVX2) && (size_t)iw * (size_t)ih <= (size_t)INT32_MAX && (!curled || c->shadow_count >= 1)) {
        vector = 1;
        if (curled) {
            shadow = malloc(sizeof(float) * ((size_t)c->shadow_count + 1));
            if (shadow) for (int k = 0; k <= c->shadow_count; k++) shadow[k] = (float)c->shadow[k];
            else vector = 0;
        }
    }
#endif
    for (int j = 0; j < height; j++) {
        uint32_t *row = out + (size_t)j * (size_t)out_stride;
        // The page point at the centre of this row's device pixel 0 (not the first one drawn, so that a
        // pixel's value does not depend on where the clip starts), and its steps per pixel along the row.
        double X = 0.5, Y = y0 + j + 0.5;
        double px0 = c->device_to_page_a * (X - ox) + c->device_to_page_c * (Y - oy);
        double py0 = c->device_to_page_b * (X - ox) + c->device_to_page_d * (Y - oy);
        float stepx = (float)c->device_to_page_a, stepy = (float)c->device_to_page_b;
        float u_origin = (float)((px0 - c->axis_x) * c->normal_x + (py0 - c->axis_y) * c->normal_y);
        float v_origin = (float)((px0 - c->axis_x) * f.dx + (py0 - c->axis_y) * f.dy);
        float du = stepx * f.nx + stepy * f.ny, dv = stepx * f.dx + stepy * f.dy;
        int i = 0;
        if (aligned && du > 0 && !copies_off) {
            // The flat front, up to where anything else can be seen (from u at the row's first drawn pixel, x0).
            float reach = (flat_end - (u_origin + du * (float)x0)) / du;
            int limit = reach <= 0 ? 0 : (reach >= (float)width ? width : (int)reach);
            if (curled) limit = crk_curl_front_only(c, &f, u_origin, v_origin, du, dv, x0, limit, width);
            crk_curl_flat_row(c, row, x0, y0 + j, 0, limit);
            i = limit;
        }
#ifdef CRK_CURL_HAS_AVX2
        if (vector) { crk_curl_span_avx2(&pass, shadow, row, u_origin, v_origin, du, dv, x0, i, width); continue; }
#else
        (void)vector;
#endif
        crk_curl_span(&pass, row, u_origin, v_origin, du, dv, x0, i, width);
    }
    free(shadow);
    free(table.s);
}
