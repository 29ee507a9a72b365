#include "craster_kernels.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

// A Gaussian blur of an 8-bit mask approximated by three box blurs in each direction, the recipe of the
// W3C's Filter Effects (feGaussianBlur): box size d = ⌊σ·3·√(2π)/4 + 0.5⌋; for odd d three boxes of d
// centred on the pixel; for even d two boxes of d, the first centred half a pixel left and the second
// half a pixel right, then one of d + 1 centred. Each box rounds its mean to the nearest whole value.
// Three boxes approach the Gaussian within about 3 % of its peak (the central limit); what is outside
// the mask counts as 0.

/// One box of `size` over `count` values `stride` apart, its window starting `lead` values before the
/// output (lead = size/2 centres an odd box); reads from `in`, writes to `out` (not the same memory).
static void crk_box_line(const uint8_t *in, uint8_t *out, int count, int stride, int size, int lead) {
    uint32_t sum = 0;
    uint32_t half = (uint32_t)size / 2;
    // The window for output i covers inputs i − lead … i − lead + size − 1.
    for (int k = -lead; k < -lead + size; k++) if (k >= 0 && k < count) sum += in[(long)k * stride];
    for (int i = 0; i < count; i++) {
        out[(long)i * stride] = (uint8_t)((sum + half) / (uint32_t)size);
        int leaving = i - lead, entering = i - lead + size;
        if (leaving >= 0 && leaving < count) sum -= in[(long)leaving * stride];
        if (entering >= 0 && entering < count) sum += in[(long)entering * stride];
    }
}

/// Three boxes along one line, through `tmp` (count values).
static void crk_three_boxes(uint8_t *line, uint8_t *tmp, int count, int stride, int d) {
    // Copy the line to tmp contiguously, blur back and forth between tmp and a second half of tmp.
    uint8_t *a = tmp, *b = tmp + count;
    for (int i = 0; i < count; i++) a[i] = line[(long)i * stride];
    if (d % 2 == 1) {
        crk_box_line(a, b, count, 1, d, d / 2);
        crk_box_line(b, a, count, 1, d, d / 2);
        crk_box_line(a, b, count, 1, d, d / 2);
    } else {
        // Centred on the boundary to the left (lead d/2), then to the right (lead d/2 − 1), then d + 1 centred.
        crk_box_line(a, b, count, 1, d, d / 2);
        crk_box_line(b, a, count, 1, d, d / 2 - 1);
        crk_box_line(a, b, count, 1, d + 1, d / 2);
    }
    for (int i = 0; i < count; i++) line[(long)i * stride] = b[i];
}

int crk_blur_box_size(double sigma) {
    if (!(sigma > 0) || !isfinite(sigma)) return 0;
    double d = floor(sigma * 3.0 * sqrt(2.0 * M_PI) / 4.0 + 0.5);
    return d < 1 ? 0 : (d > 4096 ? 4096 : (int)d);
}

void crk_blur_mask(uint8_t *mask, int width, int height, double sigma, uint8_t *scratch) {
    int d = crk_blur_box_size(sigma);
    if (d < 2 || width <= 0 || height <= 0) return;
    for (int y = 0; y < height; y++) crk_three_boxes(mask + (long)y * width, scratch, width, 1, d);
    for (int x = 0; x < width; x++) crk_three_boxes(mask + x, scratch, height, width, d);
}

// The RGBA blur: the same boxes over four channels at once, with the image's edges extended.

/// A pixel's four channels spread into 16-bit lanes of a 64-bit word.
static inline uint64_t crk_spread(uint32_t p) {
    return (uint64_t)(p & 0xff) | ((uint64_t)(p & 0xff00) << 8) | ((uint64_t)(p & 0xff0000) << 16) | ((uint64_t)(p & 0xff000000) << 24);
}

/// Lanes (each at most 255) back into a pixel.
static inline uint32_t crk_pack(uint64_t v) {
    return (uint32_t)(v & 0xff) | (uint32_t)((v >> 8) & 0xff00) | (uint32_t)((v >> 16) & 0xff0000) | (uint32_t)((v >> 24) & 0xff000000);
}


/// One box of `size` over `count` pixels `stride` apart, its window starting `lead` before the output;
/// positions outside 0…count−1 read the nearest end.
static void crk_box_line_rgba(const uint32_t *in, uint32_t *out, int count, int size, int lead) {
    uint32_t s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    uint32_t half = (uint32_t)size / 2;
    // (sum + half) / size by a multiply: sums stay below 2^21 and size below 2^13, so ⌊x·m / 2^40⌋ with
    // m = ⌊2^40 / size⌋ + 1 is exactly ⌊x / size⌋ (the excess x·(m − 2^40/size)/2^40 < 2^−19 < 1/size).
    const uint64_t m = ((uint64_t)1 << 40) / (uint64_t)size + 1;
#define CRK_DIV(x) ((uint32_t)(((uint64_t)((x) + half) * m) >> 40))
    int last = count - 1;
#define CRK_AT(k) in[(k) < 0 ? 0 : ((k) > last ? last : (k))]
    for (int k = -lead; k < -lead + size; k++) {
        uint32_t p = CRK_AT(k);
        s0 += p & 0xff; s1 += (p >> 8) & 0xff; s2 += (p >> 16) & 0xff; s3 += p >> 24;
    }
    for (int i = 0; i < count; i++) {
        out[i] = CRK_DIV(s0) | (CRK_DIV(s1) << 8) | (CRK_DIV(s2) << 16) | (CRK_DIV(s3) << 24);
        uint32_t a = CRK_AT(i - lead), b = CRK_AT(i - lead + size);
        s0 += (b & 0xff) - (a & 0xff);
        s1 += ((b >> 8) & 0xff) - ((a >> 8) & 0xff);
        s2 += ((b >> 16) & 0xff) - ((a >> 16) & 0xff);
        s3 += (b >> 24) - (a >> 24);
    }
#undef CRK_AT
#undef CRK_DIV
}

/// `crk_box_line_rgba` for boxes of at most 256 values: the four sums in the 16-bit lanes of one word, the
/// window's ends clamped only where it passes them.
static void crk_box_line_rgba_small(const uint32_t *in, uint32_t *out, int count, int size, int lead) {
    uint64_t sum = 0;
    const uint32_t half = (uint32_t)size / 2;
    const uint64_t m = ((uint64_t)1 << 40) / (uint64_t)size + 1;
    int last = count - 1;
#define CRK_AT(k) in[(k) < 0 ? 0 : ((k) > last ? last : (k))]
#define CRK_DIV(x) ((uint32_t)(((uint64_t)((x) + half) * m) >> 40))
    for (int k = -lead; k < -lead + size; k++) sum += crk_spread(CRK_AT(k));
    for (int i = 0; i < count; i++) {
        out[i] = CRK_DIV((uint32_t)(sum & 0xffff)) | (CRK_DIV((uint32_t)((sum >> 16) & 0xffff)) << 8)
               | (CRK_DIV((uint32_t)((sum >> 32) & 0xffff)) << 16) | (CRK_DIV((uint32_t)(sum >> 48)) << 24);
        int leaving = i - lead, entering = i - lead + size;
        uint32_t a = leaving >= 0 ? in[leaving] : in[0];
        uint32_t b = entering <= last ? in[entering] : in[last];
        // Adding before subtracting keeps every lane non-negative (the leaving value is in the sum).
        sum = sum + crk_spread(b) - crk_spread(a);
    }
#undef CRK_AT
#undef CRK_DIV
}

static void crk_three_boxes_rgba(uint32_t *line, uint32_t *tmp, int count, long stride, int d) {
    uint32_t *a = tmp, *b = tmp + count;
    for (int i = 0; i < count; i++) a[i] = line[(long)i * stride];
    void (*box)(const uint32_t *, uint32_t *, int, int, int) = d + 1 <= 256 ? crk_box_line_rgba_small : crk_box_line_rgba;
    if (d % 2 == 1) {
        box(a, b, count, d, d / 2);
        box(b, a, count, d, d / 2);
        box(a, b, count, d, d / 2);
    } else {
        box(a, b, count, d, d / 2);
        box(b, a, count, d, d / 2 - 1);
        box(a, b, count, d + 1, d / 2);
    }
    for (int i = 0; i < count; i++) line[(long)i * stride] = b[i];
}

void crk_blur_rgba(uint32_t *pixels, int width, int height, double sigma, uint32_t *scratch) {
    int d = crk_blur_box_size(sigma);
    if (d < 2 || width <= 0 || height <= 0) return;
    for (int y = 0; y < height; y++) crk_three_boxes_rgba(pixels + (long)y * width, scratch, width, 1, d);
    for (int x = 0; x < width; x++) crk_three_boxes_rgba(pixels + x, scratch, height, width, d);
}

void crk_saturate_tint(uint32_t *pixels, int count, float saturation, uint32_t tint) {
    // feColorMatrix type="saturate": rows of (0.2126 + 0.7874s, 0.7152 − 0.7152s, 0.0722 − 0.0722s), …,
    // in 1/4096ths.
    const float s = saturation;
    const int saturates = s != 1.0f;
#define CRK_Q(x) ((int32_t)lrintf((x) * 4096.0f))
    const int32_t m00 = CRK_Q(0.2126f + 0.7874f * s), m01 = CRK_Q(0.7152f - 0.7152f * s), m02 = CRK_Q(0.0722f - 0.0722f * s);
    const int32_t m10 = CRK_Q(0.2126f - 0.2126f * s), m11 = CRK_Q(0.7152f + 0.2848f * s), m12 = CRK_Q(0.0722f - 0.0722f * s);
    const int32_t m20 = CRK_Q(0.2126f - 0.2126f * s), m21 = CRK_Q(0.7152f - 0.7152f * s), m22 = CRK_Q(0.0722f + 0.9278f * s);
#undef CRK_Q
    const uint32_t tr = tint & 0xff, tg = (tint >> 8) & 0xff, tb = (tint >> 16) & 0xff, ta = tint >> 24;
    const uint32_t keep = 255 - ta;
    // Branch-free, so the loop vectorizes: at saturation 1 the matrix is the identity in 1/4096ths, and a
    // clear tint keeps each value (v·255 divided by 255 with rounding is v).
    (void)saturates;
    for (int i = 0; i < count; i++) {
        uint32_t p = pixels[i];
        int32_t r = (int32_t)(p & 0xff), g = (int32_t)((p >> 8) & 0xff), b = (int32_t)((p >> 16) & 0xff);
        int32_t ia = (int32_t)(p >> 24);
        int32_t nr = (m00 * r + m01 * g + m02 * b + 2048) >> 12;
        int32_t ng = (m10 * r + m11 * g + m12 * b + 2048) >> 12;
        int32_t nb = (m20 * r + m21 * g + m22 * b + 2048) >> 12;
        nr = nr < 0 ? 0 : nr; nr = nr > ia ? ia : nr;
        ng = ng < 0 ? 0 : ng; ng = ng > ia ? ia : ng;
        nb = nb < 0 ? 0 : nb; nb = nb > ia ? ia : nb;
        // Source-over of the tint, with the rounding divide by 255 the painter's blends use.
        uint32_t x, ir, ig, ib, a;
        x = (uint32_t)nr * keep + 128; ir = tr + ((x + (x >> 8)) >> 8);
        x = (uint32_t)ng * keep + 128; ig = tg + ((x + (x >> 8)) >> 8);
        x = (uint32_t)nb * keep + 128; ib = tb + ((x + (x >> 8)) >> 8);
        x = (uint32_t)ia * keep + 128; a = ta + ((x + (x >> 8)) >> 8);
        pixels[i] = ir | (ig << 8) | (ib << 16) | (a << 24);
    }
}

void crk_downsample_box(const uint32_t *src, int width, int height, long stride, int factor, uint32_t *dst) {
    // Sums in 16-bit lanes (at most 64 pixels of 255 each: 16,320), divided lane by lane.
    int dw = (width + factor - 1) / factor, dh = (height + factor - 1) / factor;
    for (int j = 0; j < dh; j++) {
        int y0 = j * factor, y1 = y0 + factor < height ? y0 + factor : height;
        for (int i = 0; i < dw; i++) {
            int x0 = i * factor, x1 = x0 + factor < width ? x0 + factor : width;
            uint64_t sum = 0;
            for (int y = y0; y < y1; y++) {
                const uint32_t *row = src + (long)y * stride;
                for (int x = x0; x < x1; x++) sum += crk_spread(row[x]);
            }
            uint32_t n = (uint32_t)((y1 - y0) * (x1 - x0)), h = n / 2;
            uint32_t s0 = (uint32_t)(sum & 0xffff), s1 = (uint32_t)((sum >> 16) & 0xffff);
            uint32_t s2 = (uint32_t)((sum >> 32) & 0xffff), s3 = (uint32_t)(sum >> 48);
            dst[(long)j * dw + i] = ((s0 + h) / n) | (((s1 + h) / n) << 8) | (((s2 + h) / n) << 16) | (((s3 + h) / n) << 24);
        }
    }
}

/// The position of full-size pixel `k`'s centre on the small grid, in 1/256ths, clamped to 0…(n − 1).
static inline long crk_grid256(int k, int factor, int n) {
    long f = ((long)(2 * k + 1) * 256) / (2 * factor) - 128;
    if (f < 0) f = 0;
    if (f > (long)(n - 1) * 256) f = (long)(n - 1) * 256;
    return f;
}

void crk_upsample_bilinear(const uint32_t *src, int sw, int sh, int factor, int ox, int oy, uint32_t *dst, int dw, int dh,
                           uint32_t *scratch) {
    // Each output row: the two source rows mixed once (16-bit lanes, rounded), then each output pixel
    // mixes two neighbours of that row from a column table.
    const uint64_t half = 0x0080008000800080ull;
    int *x0 = (int *)scratch;                         // 2·dw indices
    uint32_t *wx = scratch + 2 * (size_t)dw;          // dw weights
    uint64_t *mixed = (uint64_t *)(scratch + ((3 * (size_t)dw + 1) & ~(size_t)1));  // sw words, 8-byte aligned
    for (int x = 0; x < dw; x++) {
        long f = crk_grid256(ox + x, factor, sw);
        x0[2 * x] = (int)(f >> 8);
        x0[2 * x + 1] = x0[2 * x] + 1 < sw ? x0[2 * x] + 1 : sw - 1;
        wx[x] = (uint32_t)(f & 255);
    }
    int lastRow = -1;
    uint32_t lastWeight = 0;
    for (int y = 0; y < dh; y++) {
        long f = crk_grid256(oy + y, factor, sh);
        int y0 = (int)(f >> 8), y1 = y0 + 1 < sh ? y0 + 1 : sh - 1;
        uint32_t wy = (uint32_t)(f & 255);
        if (y0 != lastRow || wy != lastWeight) {
            const uint32_t *r0 = src + (long)y0 * sw, *r1 = src + (long)y1 * sw;
            for (int i = 0; i < sw; i++) {
                mixed[i] = ((crk_spread(r0[i]) * (256 - wy) + crk_spread(r1[i]) * wy + half) >> 8) & 0x00ff00ff00ff00ffull;
            }
            lastRow = y0; lastWeight = wy;
        }
        uint32_t *out = dst + (long)y * dw;
        for (int x = 0; x < dw; x++) {
            uint32_t w = wx[x];
            uint64_t v = ((mixed[x0[2 * x]] * (256 - w) + mixed[x0[2 * x + 1]] * w + half) >> 8) & 0x00ff00ff00ff00ffull;
            out[x] = crk_pack(v);
        }
    }
}
