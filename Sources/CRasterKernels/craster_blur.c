#include "craster_kernels.h"
#include "ccpu_features.h"

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

// A blurred mask moved by a fraction of a pixel: each row's horizontal mix first (16 bits: at most 255 · 256),
// then two such rows mixed vertically (32 bits), rounded once. Plain loops over whole rows, which the
// compiler vectorizes.

/// Row `y` of the mask mixed horizontally into `h` (width + 1 values), or zeros outside the mask.
static inline __attribute__((always_inline)) void crk_shift_row(const uint8_t *mask, int width, int height, int y, int wx, uint16_t *h) {
    if (y < 0 || y >= height) { memset(h, 0, sizeof(uint16_t) * (size_t)(width + 1)); return; }
    const uint8_t *row = mask + (long)y * width;
    const uint16_t keep = (uint16_t)(256 - wx), take = (uint16_t)wx;
    h[0] = (uint16_t)(row[0] * keep);
    for (int x = 1; x < width; x++) h[x] = (uint16_t)(row[x] * keep + row[x - 1] * take);
    h[width] = (uint16_t)(row[width - 1] * take);
}

/// The whole move (weights already clamped), inlined into each build below.
static inline __attribute__((always_inline)) void crk_shift_rows(const uint8_t *mask, int width, int height, int wx, int wy, uint8_t *out, uint16_t *scratch) {
    uint16_t *above = scratch, *here = scratch + width + 1;
    const uint32_t keep = (uint32_t)(256 - wy), take = (uint32_t)wy;
    crk_shift_row(mask, width, height, -1, wx, above);
    for (int y = 0; y <= height; y++) {
        crk_shift_row(mask, width, height, y, wx, here);
        uint8_t *o = out + (long)y * (width + 1);
        for (int x = 0; x <= width; x++) o[x] = (uint8_t)((here[x] * keep + above[x] * take + 32768u) >> 16);
        uint16_t *t = above; above = here; here = t;
    }
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
/// The same loops vectorized for AVX2 (the same integer arithmetic, so the same bytes): twice the lanes.
__attribute__((target("avx2")))
static void crk_shift_rows_avx2(const uint8_t *mask, int width, int height, int wx, int wy, uint8_t *out, uint16_t *scratch) {
    crk_shift_rows(mask, width, height, wx, wy, out, scratch);
}
#endif

void crk_shift_mask(const uint8_t *mask, int width, int height, int wx, int wy, uint8_t *out, uint16_t *scratch) {
    if (width <= 0 || height <= 0) return;
    if (wx < 0) wx = 0;
    if (wx > 256) wx = 256;
    if (wy < 0) wy = 0;
    if (wy > 256) wy = 256;
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    if (ccpu_features() & CCPU_AVX2) { crk_shift_rows_avx2(mask, width, height, wx, wy, out, scratch); return; }
#endif
    crk_shift_rows(mask, width, height, wx, wy, out, scratch);
}

/// Output row y's values [x0, x1) of the move, one row at a time: the same arithmetic as crk_shift_rows, for
/// a fill that needs only some of a row (what an opaque card leaves of its shadow). A row outside the mask
/// weighs 0, so it is read as the other row with a weight of 0 (the mask has at least one row).
static inline __attribute__((always_inline)) void crk_shift_span_of(const uint8_t *mask, int width, int height, int y, int x0, int x1,
                                                                     int wx, int wy, uint8_t *out) {
    uint32_t keep_y = (uint32_t)(256 - wy), take_y = (uint32_t)wy;
    const uint8_t *here = mask + (long)y * width, *above = here - width;
    if (y >= height) { here = above; keep_y = 0; }
    if (y < 1) { above = here; take_y = 0; }
    const uint16_t keep_x = (uint16_t)(256 - wx), take_x = (uint16_t)wx;
    int x = x0;
    if (x == 0) {
        out[0] = (uint8_t)(((uint32_t)(uint16_t)(here[0] * keep_x) * keep_y + (uint32_t)(uint16_t)(above[0] * keep_x) * take_y + 32768u) >> 16);
        x = 1;
    }
    const int end = x1 < width ? x1 : width;
    for (; x < end; x++) {
        const uint32_t h = (uint16_t)(here[x] * keep_x + here[x - 1] * take_x), a = (uint16_t)(above[x] * keep_x + above[x - 1] * take_x);
        out[x - x0] = (uint8_t)((h * keep_y + a * take_y + 32768u) >> 16);
    }
    if (x1 > width && x <= width) {
        out[width - x0] = (uint8_t)(((uint32_t)(uint16_t)(here[width - 1] * take_x) * keep_y + (uint32_t)(uint16_t)(above[width - 1] * take_x) * take_y + 32768u) >> 16);
    }
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
__attribute__((target("avx2")))
static void crk_shift_span_avx2(const uint8_t *mask, int width, int height, int y, int x0, int x1, int wx, int wy, uint8_t *out) {
    crk_shift_span_of(mask, width, height, y, x0, x1, wx, wy, out);
}
#endif

void crk_shift_span(const uint8_t *mask, int width, int height, int y, int x0, int x1, int wx, int wy, uint8_t *out) {
    if (width <= 0 || height <= 0 || y < 0 || y > height) return;
    if (x0 < 0) x0 = 0;
    if (x1 > width + 1) x1 = width + 1;
    if (x0 >= x1) return;
    if (wx < 0) wx = 0;
    if (wx > 256) wx = 256;
    if (wy < 0) wy = 0;
    if (wy > 256) wy = 256;
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    if (ccpu_features() & CCPU_AVX2) { crk_shift_span_avx2(mask, width, height, y, x0, x1, wx, wy, out); return; }
#endif
    crk_shift_span_of(mask, width, height, y, x0, x1, wx, wy, out);
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

/// The three box passes that approximate a Gaussian with boxes `d` wide (SVG's rule): three of width
/// `d` centred when `d` is odd; when even, two of width `d` offset half a pixel each way and one of
/// `d + 1` centred. Pass `k` is `widths[k]` wide, `lefts[k]` pixels of it before the output pixel; the
/// passes go a → b, b → a, a → b.
static void crk_three_box_passes(int d, int widths[3], int lefts[3]) {
    int odd = d % 2 == 1;
    widths[0] = d; lefts[0] = d / 2;
    widths[1] = d; lefts[1] = odd ? d / 2 : d / 2 - 1;
    widths[2] = odd ? d : d + 1; lefts[2] = d / 2;
}

static void crk_three_boxes_rgba(uint32_t *line, uint32_t *tmp, int count, long stride, int d) {
    uint32_t *a = tmp, *b = tmp + count;
    for (int i = 0; i < count; i++) a[i] = line[(long)i * stride];
    void (*box)(const uint32_t *, uint32_t *, int, int, int) = d + 1 <= 256 ? crk_box_line_rgba_small : crk_box_line_rgba;
    int widths[3], lefts[3];
    crk_three_box_passes(d, widths, lefts);
    box(a, b, count, widths[0], lefts[0]);
    box(b, a, count, widths[1], lefts[1]);
    box(a, b, count, widths[2], lefts[2]);
    for (int i = 0; i < count; i++) line[(long)i * stride] = b[i];
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define CRK_BLUR_HAS_SSE41 1

/// crk_box_line_rgba_small over two lines at once with SSE4.1: `in` and `out` hold the lines' pixels in
/// pairs (line 0's pixel i, then line 1's), the eight sums in 16-bit lanes. The rounded division is
/// ⌊(sum + half)/size⌋ exactly: a single-precision product by 1/size is at most 3·10⁻⁵ below the quotient
/// (sums below 2^17, quotients at most 256), so it is the quotient or one less, and one compare fixes it.
__attribute__((target("sse4.1")))
static void crk_box_pair_sse41(const uint64_t *in, uint64_t *out, int count, int size, int lead) {
    const __m128i zero = _mm_setzero_si128(), half = _mm_set1_epi32(size / 2), n = _mm_set1_epi32(size);
    const __m128 inverse = _mm_set1_ps(1.0f / (float)size);
    const int last = count - 1;
    __m128i sum = zero;
    for (int k = -lead; k < -lead + size; k++) {
        int at = k < 0 ? 0 : (k > last ? last : k);
        sum = _mm_add_epi16(sum, _mm_unpacklo_epi8(_mm_loadl_epi64((const __m128i *)(in + at)), zero));
    }
    for (int i = 0; i < count; i++) {
        __m128i q[2];
        for (int h = 0; h < 2; h++) {
            __m128i x = _mm_add_epi32(_mm_cvtepu16_epi32(h ? _mm_srli_si128(sum, 8) : sum), half);
            __m128i t = _mm_cvttps_epi32(_mm_mul_ps(_mm_cvtepi32_ps(x), inverse));
            // One more where (t + 1)·size ≤ x.
            __m128i short_by = _mm_cmpgt_epi32(_mm_sub_epi32(x, _mm_mullo_epi32(_mm_add_epi32(t, _mm_set1_epi32(1)), n)), _mm_set1_epi32(-1));
            q[h] = _mm_sub_epi32(t, short_by);
        }
        _mm_storel_epi64((__m128i *)(out + i), _mm_packus_epi16(_mm_packus_epi32(q[0], q[1]), zero));
        int leaving = i - lead, entering = i - lead + size;
        __m128i a = _mm_unpacklo_epi8(_mm_loadl_epi64((const __m128i *)(in + (leaving >= 0 ? leaving : 0))), zero);
        __m128i b = _mm_unpacklo_epi8(_mm_loadl_epi64((const __m128i *)(in + (entering <= last ? entering : last))), zero);
        sum = _mm_sub_epi16(_mm_add_epi16(sum, b), a);
    }
}

/// crk_three_boxes_rgba for two lines at once (`line0`, `line1`, each `count` pixels `stride` apart), with
/// SSE4.1; `tmp` holds 4·count pixels.
__attribute__((target("sse4.1")))
static void crk_three_boxes_pair_sse41(uint32_t *line0, uint32_t *line1, uint64_t *tmp, int count, long stride, int d) {
    uint64_t *a = tmp, *b = tmp + count;
    for (int i = 0; i < count; i++) a[i] = (uint64_t)line0[(long)i * stride] | (uint64_t)line1[(long)i * stride] << 32;
    int widths[3], lefts[3];
    crk_three_box_passes(d, widths, lefts);
    crk_box_pair_sse41(a, b, count, widths[0], lefts[0]);
    crk_box_pair_sse41(b, a, count, widths[1], lefts[1]);
    crk_box_pair_sse41(a, b, count, widths[2], lefts[2]);
    for (int i = 0; i < count; i++) {
        line0[(long)i * stride] = (uint32_t)b[i];
        line1[(long)i * stride] = (uint32_t)(b[i] >> 32);
    }
}
#endif

void crk_blur_rgba(uint32_t *pixels, int width, int height, double sigma, uint32_t *scratch) {
    int d = crk_blur_box_size(sigma);
    if (d < 2 || width <= 0 || height <= 0) return;
    int y = 0, x = 0;
#ifdef CRK_BLUR_HAS_SSE41
    // Two rows (then two columns) at a time where the boxes' sums fit 16-bit lanes (the same bytes).
    if ((ccpu_features() & CCPU_SSE41) && d + 1 <= 256) {
        uint64_t *pairs = (uint64_t *)(void *)scratch;
        for (; y + 2 <= height; y += 2) crk_three_boxes_pair_sse41(pixels + (long)y * width, pixels + (long)(y + 1) * width, pairs, width, 1, d);
    }
#endif
    for (; y < height; y++) crk_three_boxes_rgba(pixels + (long)y * width, scratch, width, 1, d);
#ifdef CRK_BLUR_HAS_SSE41
    if ((ccpu_features() & CCPU_SSE41) && d + 1 <= 256) {
        uint64_t *pairs = (uint64_t *)(void *)scratch;
        for (; x + 2 <= width; x += 2) crk_three_boxes_pair_sse41(pixels + x, pixels + x + 1, pairs, height, width, d);
    }
#endif
    for (; x < width; x++) crk_three_boxes_rgba(pixels + x, scratch, height, width, d);
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

#ifdef CRK_BLUR_HAS_SSE41

/// The blocks of one row of small pixels that lie whole inside the image (factor 2, 4 or 8), with SSE4.1:
/// the same sums as the portable code, divided by the block's power-of-two size with a shift (which is the
/// rounded division for it). Returns how many it did.
__attribute__((target("sse4.1")))
static int crk_downsample_row_sse41(const uint32_t *src, long stride, int factor, int count, uint32_t *dst) {
    const int shift = factor == 2 ? 2 : (factor == 4 ? 4 : 6);
    const __m128i half = _mm_set1_epi16((short)(1 << (shift - 1))), zero = _mm_setzero_si128();
    for (int i = 0; i < count; i++) {
        // Sixteen-bit lanes, two pixels at a time: at most 64 pixels of 255 (16,320) in a lane.
        __m128i acc = zero;
        for (int y = 0; y < factor; y++) {
            const uint32_t *row = src + (long)y * stride + (long)i * factor;
            if (factor == 2) {
                acc = _mm_add_epi16(acc, _mm_unpacklo_epi8(_mm_loadl_epi64((const __m128i *)row), zero));
            } else {
                for (int x = 0; x < factor; x += 4) {
                    __m128i p = _mm_loadu_si128((const __m128i *)(row + x));
                    acc = _mm_add_epi16(acc, _mm_add_epi16(_mm_unpacklo_epi8(p, zero), _mm_unpackhi_epi8(p, zero)));
                }
            }
        }
        __m128i sum = _mm_add_epi16(acc, _mm_srli_si128(acc, 8));
        sum = _mm_srli_epi16(_mm_add_epi16(sum, half), shift);
        dst[i] = (uint32_t)_mm_cvtsi128_si32(_mm_packus_epi16(sum, zero));
    }
    return count;
}

/// One output row of crk_upsample_bilinear's horizontal mix, two pixels at a time with SSE4.1: each pixel's
/// two neighbours are adjacent words of `mixed` (one more word past the last repeats it, and the last
/// column's weight is 0), mixed in 16-bit lanes with the same rounding.
__attribute__((target("sse4.1")))
static int crk_upsample_row_sse41(const uint64_t *mixed, const int *x0, const uint32_t *wx, int count, uint32_t *out) {
    const __m128i round = _mm_set1_epi16(128), k256 = _mm_set1_epi16(256), zero = _mm_setzero_si128();
    int x = 0;
    for (; x + 2 <= count; x += 2) {
        __m128i a = _mm_loadu_si128((const __m128i *)(mixed + x0[2 * x]));
        __m128i b = _mm_loadu_si128((const __m128i *)(mixed + x0[2 * x + 2]));
        // Weights (256 − w) for the left neighbour's four lanes, w for the right one's.
        __m128i wa = _mm_set1_epi16((short)wx[x]), wb = _mm_set1_epi16((short)wx[x + 1]);
        wa = _mm_unpacklo_epi64(_mm_sub_epi16(k256, wa), wa);
        wb = _mm_unpacklo_epi64(_mm_sub_epi16(k256, wb), wb);
        __m128i pa = _mm_mullo_epi16(a, wa), pb = _mm_mullo_epi16(b, wb);
        // Left and right products summed: pixel A's lanes, then pixel B's.
        __m128i sum = _mm_add_epi16(_mm_unpacklo_epi64(pa, pb), _mm_unpackhi_epi64(pa, pb));
        sum = _mm_srli_epi16(_mm_add_epi16(sum, round), 8);
        _mm_storel_epi64((__m128i *)(out + x), _mm_packus_epi16(sum, zero));
    }
    return x;
}
#endif

void crk_downsample_box(const uint32_t *src, int width, int height, long stride, int factor, uint32_t *dst) {
    // Sums in 16-bit lanes (at most 64 pixels of 255 each: 16,320), divided lane by lane.
    int dw = (width + factor - 1) / factor, dh = (height + factor - 1) / factor;
#ifdef CRK_BLUR_HAS_SSE41
    const int vector = (ccpu_features() & CCPU_SSE41) && (factor == 2 || factor == 4 || factor == 8);
#endif
    for (int j = 0; j < dh; j++) {
        int y0 = j * factor, y1 = y0 + factor < height ? y0 + factor : height;
        int i = 0;
#ifdef CRK_BLUR_HAS_SSE41
        // Whole blocks: rows and columns the image has all of.
        if (vector && y1 - y0 == factor) i = crk_downsample_row_sse41(src + (long)y0 * stride, stride, factor, width / factor, dst + (long)j * dw);
#endif
        for (; i < dw; i++) {
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
    // sw + 1 words, 8-byte aligned: the one past the last repeats it, so that a pixel's two neighbours are
    // one 16-byte load.
    uint64_t *mixed = (uint64_t *)(scratch + ((3 * (size_t)dw + 1) & ~(size_t)1));
    for (int x = 0; x < dw; x++) {
        long f = crk_grid256(ox + x, factor, sw);
        x0[2 * x] = (int)(f >> 8);
        x0[2 * x + 1] = x0[2 * x] + 1 < sw ? x0[2 * x] + 1 : sw - 1;
        wx[x] = (uint32_t)(f & 255);
    }
#ifdef CRK_BLUR_HAS_SSE41
    const int vector = (ccpu_features() & CCPU_SSE41) != 0;
#endif
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
            mixed[sw] = mixed[sw - 1];
            lastRow = y0; lastWeight = wy;
        }
        uint32_t *out = dst + (long)y * dw;
        int x = 0;
#ifdef CRK_BLUR_HAS_SSE41
        if (vector) x = crk_upsample_row_sse41(mixed, x0, wx, dw, out);
#endif
        for (; x < dw; x++) {
            uint32_t w = wx[x];
            uint64_t v = ((mixed[x0[2 * x]] * (256 - w) + mixed[x0[2 * x + 1]] * w + half) >> 8) & 0x00ff00ff00ff00ffull;
            out[x] = crk_pack(v);
        }
    }
}
