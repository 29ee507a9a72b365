#include "craster_kernels.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

// A page curl drawn per device pixel: where each pixel of the screen looks at the page (its front, the
// cylinder's front and back, the part turned over), found by inverting the cylinder's projection, instead
// of a mesh of strips each clipped through a mask. See crk_page_curl in the header for the model.
//
// Colours are carried in 16-bit lanes of a uint64_t (R, G, B, A from the low end), values 0…255.

#define CRK_CURL_INLINE static inline __attribute__((always_inline))

CRK_CURL_INLINE uint64_t crk_curl_spread(uint32_t p) {
    uint64_t q = p;
    return (q & 0xFF) | ((q & 0xFF00) << 8) | ((q & 0xFF0000) << 16) | ((q & 0xFF000000) << 24);
}

CRK_CURL_INLINE uint32_t crk_curl_pack(uint64_t q) {
    return (uint32_t)((q & 0xFF) | ((q >> 8) & 0xFF00) | ((q >> 16) & 0xFF0000) | ((q >> 24) & 0xFF000000));
}

/// a + (b − a)·w / 256 in every lane (w 0…256), rounded to nearest.
CRK_CURL_INLINE uint64_t crk_curl_lerp(uint64_t a, uint64_t b, uint64_t w) {
    return (((256 - w) * a + w * b + 0x0080008000800080ull) >> 8) & 0x00FF00FF00FF00FFull;
}

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

/// A bilinear sample of `image` at (x, y) in its pixels (pixel centres at whole numbers), clamped to the
/// image: horizontal then vertical, each rounded once.
CRK_CURL_INLINE uint64_t crk_curl_sample(const uint32_t *image, int width, int height, float x, float y) {
    float mx = (float)(width - 1), my = (float)(height - 1);
    x = x < 0 ? 0 : (x > mx ? mx : x);
    y = y < 0 ? 0 : (y > my ? my : y);
    int ix = (int)x, iy = (int)y;
    uint64_t wx = (uint64_t)(int)((x - (float)ix) * 256.0f + 0.5f), wy = (uint64_t)(int)((y - (float)iy) * 256.0f + 0.5f);
    int ix1 = ix + 1 < width ? ix + 1 : ix;
    const uint32_t *r0 = image + (size_t)iy * (size_t)width;
    const uint32_t *r1 = iy + 1 < height ? r0 + width : r0;
    uint64_t top = crk_curl_lerp(crk_curl_spread(r0[ix]), crk_curl_spread(r0[ix1]), wx);
    if (wy == 0) return top;
    uint64_t bottom = crk_curl_lerp(crk_curl_spread(r1[ix]), crk_curl_spread(r1[ix1]), wx);
    return crk_curl_lerp(top, bottom, wy);
}

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
    if (a < 255) colour += crk_curl_scale255(crk_curl_spread(*dst), 255 - a);
    *dst = crk_curl_pack(colour);
}

/// Samples of the cylinder across u = 0…R, every `step` points: where the front is (s = R·asin(u/R)),
/// how fast it moves (1/cos θ) and its shade (1 − edge_shade·(1 − cos θ), in 1/256).
typedef struct {
    float *s, *slope;
    uint16_t *keep;
    int count;
    float inverse_step;
} crk_curl_table;

static int crk_curl_make_table(crk_curl_table *t, float r, float pixels_per_point, float edge_shade) {
    // Eight samples a device pixel; s is interpolated between them.
    float step = 0.125f / pixels_per_point;
    double n = ceil((double)r / (double)step);
    if (!(n >= 1) || n > 1 << 22) return 0;
    int count = (int)n + 2;
    t->s = malloc(sizeof(float) * (size_t)count * 2 + sizeof(uint16_t) * (size_t)count);
    if (!t->s) return 0;
    t->slope = t->s + count;
    t->keep = (uint16_t *)(t->slope + count);
    t->count = count;
    t->inverse_step = 1.0f / step;
    for (int k = 0; k < count; k++) {
        float x = (float)k * step / r;
        if (x > 1) x = 1;
        float cos2 = 1.0f - x * x;
        float c = sqrtf(cos2);
        t->s[k] = r * crk_curl_asin(x);
        t->slope[k] = c > 1e-4f ? 1.0f / c : 1e4f;
        t->keep[k] = (uint16_t)(int)((1.0f - edge_shade * (1.0f - c)) * 256.0f + 0.5f);
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
    *slope = table->slope[k];
    *keep = table->keep[k];
}

/// The shadow's alpha (0…1) at distance u from the axis, before any coverage: the profile read linearly
/// at f = (u − outer)/R, 0 from f = 1 on.
CRK_CURL_INLINE float crk_curl_shadow(const crk_curl *c, float u, float outer, float r) {
    float f = (u - outer) / r;
    if (f >= 1.0f) return 0.0f;
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
/// so it is worked out once per column and rows only blend (the page's top and bottom lie on whole pixels).
/// Columns `first`…`last − 1`; `columns` has room for them.
static void crk_page_curl_columns(const crk_curl *c, const crk_curl_table *table, crk_curl_column *columns, uint32_t *out,
                                  int out_stride, int x0, int y0, int height, int first, int last) {
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
    const int ih = c->image_height;
    const double oy = c->origin_y;
    for (int j = 0; j < height; j++) {
        int iy = y0 + j - (int)oy;
        if (iy < 0 || iy >= ih) continue;
        const uint32_t *front = c->front + (size_t)iy * (size_t)iw, *back = c->back + (size_t)iy * (size_t)iw;
        uint32_t *row = out + (size_t)j * (size_t)out_stride;
        for (int i = first; i < last; i++) {
            const crk_curl_column *col = &columns[i];
            uint64_t colour = 0, back_alpha = 0;
            if (col->back_cover) {
                colour = crk_curl_lerp(crk_curl_spread(back[col->back_index]), crk_curl_spread(back[col->back_index + (iw > 1)]), col->back_weight);
                if (col->back_cover < 256) colour = crk_curl_scale256(colour, col->back_cover);
                back_alpha = CRK_CURL_ALPHA(colour);
            }
            if (back_alpha < 255 && col->front_cover) {
                uint64_t p = crk_curl_lerp(crk_curl_spread(front[col->front_index]), crk_curl_spread(front[col->front_index + (iw > 1)]), col->front_weight);
                if (col->front_cover < 256) p = crk_curl_scale256(p, col->front_cover);
                colour += crk_curl_scale255(p, 255 - back_alpha);
            }
            if (col->keep < 256) colour = (crk_curl_scale256(colour, col->keep) & CRK_CURL_COLOUR_LANES) | (colour & ~CRK_CURL_COLOUR_LANES);
            if (col->edge < 256) colour = crk_curl_scale256(colour, col->edge);
            if (col->shadow) colour += crk_curl_scale255(col->shadow, 255 - CRK_CURL_ALPHA(colour)) << 48;
            crk_curl_over(row + i, colour);
        }
    }
}

void crk_page_curl(const crk_curl *c, uint32_t *out, int out_stride, int x0, int y0, int width, int height) {
    if (width <= 0 || height <= 0 || !(c->pixels_per_point > 0)) return;
    const float r = (float)c->radius, pi_r = (float)(M_PI * c->radius), far = (float)c->farthest;
    const float outer = (float)c->outer, ppp = (float)c->pixels_per_point, half = 0.5f / ppp;
    const int curled = c->farthest > 0 && c->radius > 0;
    const int has_top = curled && c->farthest >= M_PI * c->radius / 2;
    crk_curl_frame f = { (float)c->axis_x, (float)c->axis_y, (float)c->normal_x, (float)c->normal_y,
                         (float)c->normal_y, (float)-c->normal_x, (float)c->page_width, (float)c->page_height, ppp };
    const float iscale = (float)c->image_scale;
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
    const float flat_margin = half;

    // A straight axis over a page on whole device pixels: per column, then rows.
    if (aligned && curled && c->normal_x == 1 && c->normal_y == 0) {
        crk_curl_column *columns = malloc(sizeof(crk_curl_column) * (size_t)width);
        if (!columns) { free(table.s); return; }
        float u_first = (float)((x0 + 0.5 - ox) * c->device_to_page_a - c->axis_x), du = (float)c->device_to_page_a;
        double limit_d = ceil((flat_end - u_first) / du), stop_d = ceil((end - u_first) / du);
        int limit = limit_d < 0 ? 0 : (limit_d > width ? width : (int)limit_d);
        int stop = stop_d < limit ? limit : (stop_d > width ? width : (int)stop_d);
        for (int j = 0; j < height; j++) crk_curl_flat_row(c, out + (size_t)j * (size_t)out_stride, x0, y0 + j, 0, limit);
        if (stop > limit) crk_page_curl_columns(c, &table, columns, out, out_stride, x0, y0, height, limit, stop);
        free(columns);
        free(table.s);
        return;
    }

    for (int j = 0; j < height; j++) {
        uint32_t *row = out + (size_t)j * (size_t)out_stride;
        // The page point at the centre of this row's device pixel 0 (not the first one drawn, so that a
        // pixel's value does not depend on where the clip starts), and its steps per pixel along the row.
        double X = 0.5, Y = y0 + j + 0.5;
        double px0 = c->device_to_page_a * (X - ox) + c->device_to_page_c * (Y - oy);
        double py0 = c->device_to_page_b * (X - ox) + c->device_to_page_d * (Y - oy);
        float stepx = (float)c->device_to_page_a, stepy = (float)c->device_to_page_b;
        float u0 = (float)((px0 - c->axis_x) * c->normal_x + (py0 - c->axis_y) * c->normal_y);
        float v0 = (float)((px0 - c->axis_x) * f.dx + (py0 - c->axis_y) * f.dy);
        float du = stepx * f.nx + stepy * f.ny, dv = stepx * f.dx + stepy * f.dy;
        const float u_origin = u0, v_origin = v0;
        // (u and v at the row's first drawn pixel, x0.)
        u0 += du * (float)x0;
        v0 += dv * (float)x0;
        int i = 0;
        if (aligned && du > 0) {
            // The flat front, up to where anything else can be seen.
            float reach = (flat_end - u0) / du;
            int limit = reach <= 0 ? 0 : (reach >= (float)width ? width : (int)reach);
            crk_curl_flat_row(c, row, x0, y0 + j, 0, limit);
            i = limit;
        }
        for (; i < width; i++) {
            float u = u_origin + du * (float)(x0 + i), v = v_origin + dv * (float)(x0 + i);
            if (u >= end && du > 0) break;
            uint64_t colour = 0;
            float qx, qy;
            if (u < outer + half) {
                // Where along the page this pixel looks: s_front on the page going away from the viewer, s_back
                // on the part coming back over the top. Both run along the axis's normal; v along the axis.
                float s_front, slope = 1.0f, margin = flat_margin;
                uint64_t keep = 256, edge = 256;
                if (u <= 0 || !curled) {
                    s_front = u;
                } else {
                    crk_curl_cylinder(&table, u, r, &s_front, &slope, &keep);
                    margin = half * slope;
                    // The cylinder's top, seen edge-on, is the curl's outer line: cut once, front and back together.
                    if (has_top) edge = crk_curl_cover((r - u) * ppp);
                }
                uint64_t back_cover = curled ? crk_curl_page_coverage(&f, pi_r - s_front, v, slope, margin, &qx, &qy) : 0;
                uint64_t back_alpha = 0;
                if (back_cover > 0) {
                    colour = crk_curl_sample(c->back, iw, ih, qx * iscale - 0.5f, qy * iscale - 0.5f);
                    if (back_cover < 256) colour = crk_curl_scale256(colour, back_cover);
                    back_alpha = CRK_CURL_ALPHA(colour);
                }
                if (back_alpha < 255) {
                    uint64_t front_cover = crk_curl_page_coverage(&f, s_front, v, slope, margin, &qx, &qy);
                    if (front_cover > 0) {
                        uint64_t p = crk_curl_sample(c->front, iw, ih, qx * iscale - 0.5f, qy * iscale - 0.5f);
                        if (front_cover < 256) p = crk_curl_scale256(p, front_cover);
                        colour += crk_curl_scale255(p, 255 - back_alpha);
                    }
                }
                if (keep < 256) colour = (crk_curl_scale256(colour, keep) & CRK_CURL_COLOUR_LANES) | (colour & ~CRK_CURL_COLOUR_LANES);
                if (edge < 256) colour = crk_curl_scale256(colour, edge);
            }
            if (curled && u > outer - half && u < outer + r + half) {
                // The shadow on the page below, beyond the outer line, under the curl: black at its alpha.
                float value = crk_curl_shadow(c, u, outer, r);
                if (value > 0) {
                    uint64_t near = crk_curl_cover((u - outer) * ppp);
                    uint64_t inside = crk_curl_page_coverage(&f, u, v, 1.0f, flat_margin, &qx, &qy);
                    uint64_t alpha = (uint64_t)(int)(value * (float)(near * inside) * (255.0f / 65536.0f) + 0.5f);
                    colour += crk_curl_scale255(alpha, 255 - CRK_CURL_ALPHA(colour)) << 48;
                }
            }
            crk_curl_over(row + i, colour);
        }
    }
    free(table.s);
}
