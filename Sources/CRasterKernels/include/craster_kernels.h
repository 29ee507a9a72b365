/*
 * CRasterKernels: RasterCore's innermost pixel loops in C, with SSE4.1 and AVX2 versions.
 *
 * Why it exists: Swift's generic SIMD types do not compile to the byte shuffles and 16/32-bit lane
 * multiplies these loops need, so the loops that dominate a frame (resampling a snapshot placed at a
 * fractional position or scale, and compositing it) are written here once in portable C and once with
 * intrinsics, chosen per call from CCPUFeatures' probe. Every version gives the same bytes as the
 * portable one, which gives the same bytes as RasterCore's general Swift path; tests check all three.
 * Every symbol is prefixed `crk_`.
 *
 * Pixels are premultiplied RGBA8 packed in a uint32_t (R in the low byte).
 */
#ifndef CRASTER_KERNELS_H
#define CRASTER_KERNELS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The one-pass bilinear kernels below (columns, shift) are what RasterCore used before it split the
 * blend into the horizontal and vertical halves further down; they stay as the reference the halves are
 * tested against, and for callers that sample a row once.
 */

/**
 * Bilinear samples of one output row, for a mapping that keeps axes aligned: output pixel i blends the
 * texels at columns `index[i]` and `index[i] + 1` of `row0` and `row1` with horizontal weight `fx[i]`
 * (0…256, in 1/256) and vertical weight `fy` (0…256):
 * `round(Σ w·texel / 65536)` per channel, with w = (256−fx)(256−fy), fx(256−fy), (256−fx)fy, fx·fy.
 * Both columns are read for every pixel, so `index[i] + 1` must lie inside the row.
 */
void crk_bilinear_columns(const uint32_t *row0, const uint32_t *row1, uint32_t fy,
                          const int32_t *index, const uint16_t *fx, int count, uint32_t *out);

/**
 * The same for consecutive columns with one horizontal weight: output pixel i blends columns i and
 * i + 1 of `row0` and `row1` (a fractional translation), so `count + 1` texels of each row are read.
 */
void crk_bilinear_shift(const uint32_t *row0, const uint32_t *row1, uint32_t fx, uint32_t fy, int count,
                        uint32_t *out);

/**
 * Source-over of `src[0..<count]` onto `dst` at full opacity without coverage:
 * `dst = src + dst·(255 − srcA)/255` per channel, rounded to nearest; an opaque source pixel is stored
 * as it is and a fully transparent one (all zero) leaves `dst` alone.
 */
void crk_source_over(uint32_t *dst, const uint32_t *src, int count);

/**
 * Source-over of `src[0..<count]` scaled per pixel by f = round(coverage[i]·opacity / 255) (or by
 * `opacity` alone when `coverage` is NULL): `s = round(src·f / 255)` per channel, then
 * `dst = s + dst·(255 − sA)/255`, each rounded to nearest. Pixels with f = 0 are left alone.
 */
void crk_source_over_scaled(uint32_t *dst, const uint32_t *src, const uint8_t *coverage, uint32_t opacity, int count);

/**
 * Source-over of one premultiplied `color` onto `dst[0..<count]` at full coverage:
 * `dst = color + dst·(255 − colorA)/255` per channel, rounded to nearest.
 */
void crk_solid_over(uint32_t *dst, uint32_t color, int count);

/**
 * Bilinear samples along one device row for any affine mapping: pixel i samples the image (`width` x
 * `height` pixels, rows `width` apart) at (u, v) in 1/256 pixel, where u and v start at `u0`, `v0` and
 * grow by `du`, `dv` per pixel, added one pixel after another in double precision exactly as RasterCore's
 * general path adds them; each is clamped to the image and rounded (NaN: 0). Pixels whose coverage is 0
 * are skipped (left as they are in `out`).
 */
void crk_bilinear_affine(const uint32_t *pixels, int width, int height, double u0, double v0, double du, double dv,
                         const uint8_t *coverage, int count, uint32_t *out);

/**
 * Source-over of `color` scaled by `coverage[i]` onto `dst[0..<count]`: `s = round(color·c / 255)`, then
 * `dst = s + dst·(255 − sA)/255`; coverage 0 leaves `dst` alone.
 */
void crk_solid_over_coverage(uint32_t *dst, uint32_t color, const uint8_t *coverage, int count);

/** `out[i] = round(a[i]·b[i] / 255)`: coverage times a clip mask. */
void crk_multiply_coverage(uint8_t *out, const uint8_t *a, const uint8_t *b, int count);

/**
 * The horizontal half of the bilinear blend, for a row reused by several output rows (a separable
 * resampling): per channel `(256 − fx)·texel[x] + fx·texel[x + 1]` (0…65280), four uint16_t a pixel in
 * `out`. `crk_horizontal_columns` takes each pixel's column and weight from `index` and `fx`;
 * `crk_horizontal_shift` takes consecutive columns from `row` with one weight.
 */
void crk_horizontal_columns(const uint32_t *row, const int32_t *index, const uint16_t *fx, int count, uint16_t *out);
void crk_horizontal_shift(const uint32_t *row, uint32_t fx, int count, uint16_t *out);

/**
 * The vertical half: `round(((256 − fy)·h0 + fy·h1) / 65536)` per channel of two horizontal rows, packed
 * into pixels. Equal to the bilinear kernels above for the same texels and weights.
 */
void crk_vertical(const uint16_t *h0, const uint16_t *h1, uint32_t fy, int count, uint32_t *out);

/**
 * A page curling over what is below it, one device pixel at a time: the page lies flat up to an axis,
 * wraps around a cylinder of `radius` lying on the page there (its front turning away, then its back
 * coming over the top) and lies flat again, mirrored, once half way round; seen from above, a page point
 * at signed distance s from the axis lands at s (s ≤ 0), R·sin(s/R) (on the cylinder) or πR − s (turned
 * over). Each pixel inverts that: at distance u from the axis it sees the back at s = πR − R·asin(u/R)
 * (πR − u where u ≤ 0) if that page point exists, over the front at s = R·asin(u/R) (u where u ≤ 0).
 * Both are sampled bilinearly (front from `front`, back from `back`, the same size), anti-aliased at the
 * page's edges by their distance in screen pixels (through the mapping's slope, first order), darkened on
 * the cylinder by `edge_shade`·(1 − cos θ) with sin θ = u/R, cut once at the cylinder's top (u = R) when
 * the page reaches it, and drawn over a black shadow on the page below that starts at `outer` and fades
 * over one radius as `shadow` says (`shadow_count` + 1 samples of its alpha over 0…1, read linearly).
 *
 * Lengths are page points; the page spans 0…`page_width` × 0…`page_height`. Device pixel (x, y) has its
 * centre at page point M·(x + 0.5 − origin_x, y + 0.5 − origin_y) with M = (a c; b d) the `device_to_page`
 * entries. Writes premultiplied pixels (transparent where nothing is drawn) for device pixels
 * x0…x0+width−1, y0…y0+height−1 into `out` (rows `out_stride` pixels apart), to be composited source-over.
 * Where M is a uniform scale by 1/`image_scale` and the origin whole, the flat front is copied, not sampled
 * (on each row up to where that row's turned-over part, cylinder or shadow can begin, two pixels short),
 * with the same bytes for premultiplied images, which `front` and `back` must be (for others the copy's
 * blend, crk_source_over, and the samples' differ where a channel exceeds alpha).
 * Every pixel not worked out per column (a tilted axis, any other mapping) is done eight at a time with
 * AVX2 where CCPUFeatures finds it, with the same bytes as the portable code (forced by
 * `ccpu_force_scalar`).
 */
typedef struct crk_curl {
    double device_to_page_a, device_to_page_b, device_to_page_c, device_to_page_d;
    double origin_x, origin_y;
    /** Device pixels per page point, for anti-aliasing. */
    double pixels_per_point;
    double axis_x, axis_y;
    /** Unit normal to the axis, towards the page's free edge. */
    double normal_x, normal_y;
    double radius, page_width, page_height;
    /** The page's largest signed distance from the axis. */
    double farthest;
    /** Where the curl's outer line is, as a distance from the axis: R, or R·sin(farthest/R) before the page reaches the top. */
    double outer;
    double edge_shade;
    const uint32_t *front;
    const uint32_t *back;
    int image_width, image_height;
    /** Image pixels per page point. */
    double image_scale;
    const double *shadow;
    int shadow_count;
} crk_curl;

void crk_page_curl(const crk_curl *curl, uint32_t *out, int out_stride, int x0, int y0, int width, int height);

/**
 * For tests: with `on` nonzero, crk_page_curl copies no flat front (it samples every pixel it draws, as it
 * does where the page is not on whole device pixels), so that the copies can be checked against the
 * samples; 0 (the default) copies again. Process-wide.
 */
void crk_curl_sample_every_pixel(int on);

/** How many images a projected image keeps at most: itself and 16 halvings (a side of 65536 pixels down to 1). */
#define CRK_PROJECTIVE_LEVELS 17
/** The most bilinear samples a projected pixel takes, along its footprint's longer side. */
#define CRK_PROJECTIVE_TAPS 4

/**
 * A premultiplied image and its halvings (`crk_mip_halve`), for perspective resampling: level 0 is the
 * image (`width[0]` x `height[0]` pixels, rows that far apart), level k+1 level k halved; `levels` of them
 * (1…CRK_PROJECTIVE_LEVELS).
 */
typedef struct crk_projective_source {
    const uint32_t *pixels[CRK_PROJECTIVE_LEVELS];
    int width[CRK_PROJECTIVE_LEVELS], height[CRK_PROJECTIVE_LEVELS];
    int levels;
} crk_projective_source;

/**
 * Halves a premultiplied image of `width` x `height` pixels into `dst`, ⌈width/2⌉ x ⌈height/2⌉ pixels: each
 * the rounded mean of a 2 x 2 block (an odd last column or row counted twice).
 */
void crk_mip_halve(const uint32_t *src, int width, int height, uint32_t *dst);

/**
 * The level (0…CRK_PROJECTIVE_LEVELS − 1) that `crk_bilinear_projective` would sample for a pixel centred
 * at device point (x, y) if every level existed; 0 where nothing is drawn. Evaluated at the corners of what
 * is drawn, it says how many halvings to make.
 */
int crk_projective_level(const double *m, double x, double y);

/**
 * Perspective resampling of `count` device pixels from (x0, y) of a premultiplied image and its halvings:
 * each pixel whose `coverage` is not 0 is written to `out` (others may be written too). `m` is the
 * homography from device pixels to the image's pixels (level 0), nine entries row by row with points as
 * row vectors: (U, V, Q) = (x, y, 1)·M and the image point is (U/Q, V/Q); a pixel whose centre has Q ≤ 0
 * (behind the eye) is transparent.
 *
 * A pixel's square seen in the image (the mapping's derivatives at its centre) is a parallelogram with a
 * longer and a shorter side. The pixel samples the first level at which the shorter side spans at most
 * 1.1 of that level's texels and the longer at most CRK_PROJECTIVE_TAPS + 0.1 (or the last level there is),
 * and takes n bilinear samples spread evenly along the longer side there, n its length in those texels
 * less 0.1 rounded up (1…CRK_PROJECTIVE_TAPS), averaged and rounded: a magnified pixel (both sides at
 * most 1.1 texels) is one bilinear sample of the image, as the affine sampler takes. Positions are
 * worked out in double precision to the pixel's centre and derivatives, in single precision from there.
 * Eight pixels at a time with AVX2 where CCPUFeatures finds it, with the same bytes as the portable code
 * (forced by `ccpu_force_scalar`).
 */
void crk_bilinear_projective(const crk_projective_source *source, const double *m, int y, int x0,
                             const uint8_t *coverage, int count, uint32_t *out);

/**
 * A layer turned about an axis parallel to one of its sides (about the vertical axis: device column x sees
 * one column of the image; about the horizontal: device row y one row), resampled in two passes along the
 * image's axes (craster_turn.c): a pixel is the box its square spans along each axis (at least one texel,
 * so a magnified pixel is a bilinear sample), over texels clamped to the image. Made for one draw of
 * `image` (`width` x `height` premultiplied pixels, each side at most 16384, rows that far apart, read
 * until crk_turn_free) through `m` (device pixels to image pixels, as crk_bilinear_projective's) over the
 * device pixels [x0, x1) x [y0, y1). NULL where `m` is not such a turn, where a pixel's box would be longer
 * than 62 texels along either axis (a layer nearly edge-on), where memory runs out, or where the rows
 * filtered first would take more than the image's pixels (or a million, whichever is more).
 */
typedef struct crk_turn crk_turn;
crk_turn *crk_turn_make(const uint32_t *image, int width, int height, const double *m, int x0, int y0, int x1, int y1);
/** 0 for a turn about the vertical axis, 1 about the horizontal. */
int crk_turn_axis(const crk_turn *turn);
/**
 * `count` pixels of device row y from x0 into `out`, those where `coverage` is not 0 (the others may be
 * overwritten with anything); pixels whose centre is behind the eye, or outside the pixels `turn` was made
 * for, are transparent. Not thread-safe: a turn keeps the rows it has filtered.
 */
void crk_turn_row(crk_turn *turn, int y, int x0, const uint8_t *coverage, int count, uint32_t *out);
void crk_turn_free(crk_turn *turn);
/**
 * For tests and comparisons: with `on` nonzero, crk_turn_make makes nothing, so that every turn is drawn by
 * crk_bilinear_projective; 0 (the default) makes turns again. Process-wide.
 */
void crk_turn_sample_generally(int on);

/**
 * A Gaussian blur of standard deviation `sigma` pixels over an 8-bit mask of `width` × `height` values (rows
 * `width` apart), in place, approximated by three box blurs in each direction as the W3C's Filter Effects
 * specifies for feGaussianBlur (box size `crk_blur_box_size(sigma)`; nothing happens below 2). Values
 * outside the mask count as 0: leave a margin of 3·sigma around what is blurred. `scratch` holds at least
 * 2 · max(width, height) bytes.
 */
void crk_blur_mask(uint8_t *mask, int width, int height, double sigma, uint8_t *scratch);
/**
 * An 8-bit mask of `width` × `height` values (rows `width` apart) moved right by `wx` / 256 and down by `wy` /
 * 256 of a pixel (each 0…256) by bilinear interpolation, into `out`, (`width` + 1) × (`height` + 1) values
 * (rows `width` + 1 apart) with the same top-left: out[y][x] is the weighted sum of the four values at (x −
 * 1 … x, y − 1 … y), those outside the mask counting as 0, weights (256 − wx or wx)·(256 − wy or wy), rounded
 * once ((sum + 32768) >> 16). With wx = wy = 0 the mask is copied, a row and a column of 0 added. `scratch`
 * holds at least 2 · (`width` + 1) 16-bit values.
 */
void crk_shift_mask(const uint8_t *mask, int width, int height, int wx, int wy, uint8_t *out, uint16_t *scratch);
/**
 * Values `x0` … `x1` − 1 of row `y` of crk_shift_mask's `out` (0 ≤ y ≤ `height`, columns clamped to 0 …
 * `width`), the same bytes, into `out` (x1 − x0 values): the rows of a move that a fill needs, without the
 * whole moved mask.
 */
void crk_shift_span(const uint8_t *mask, int width, int height, int y, int x0, int x1, int wx, int wy, uint8_t *out);
/**
 * The same Gaussian blur (three box blurs each way, box size `crk_blur_box_size(sigma)`) over `width` ×
 * `height` premultiplied RGBA pixels (rows `width` apart), every channel alike, in place. Values outside
 * the image are its nearest edge's (an edge extends; a backdrop blurred at the screen's edge does not
 * darken). `scratch` (8-byte aligned) holds at least 4 · max(width, height) pixels.
 */
void crk_blur_rgba(uint32_t *pixels, int width, int height, double sigma, uint32_t *scratch);

/**
 * `width` × `height` premultiplied pixels (rows `stride` apart) averaged over `factor` × `factor` blocks
 * into `dst` (⌈width/factor⌉ × ⌈height/factor⌉, rows packed); a block cut by the right or bottom edge
 * averages what it holds.
 */
void crk_downsample_box(const uint32_t *src, int width, int height, long stride, int factor, uint32_t *dst);

/**
 * The inverse of `crk_downsample_box`'s scale: `dw` × `dh` pixels of `dst` (rows packed) sampled bilinearly
 * (weights in 1/256ths, each channel rounded) from the `sw` × `sh` image `src`, whose pixel (i, j) covers
 * full-size pixels i·factor … (i+1)·factor; output pixel (0, 0) is full-size pixel (ox, oy). Beyond the
 * image its edge pixels extend. `scratch` (8-byte aligned) holds at least 3·dw + 3 + 2·sw values.
 */
void crk_upsample_bilinear(const uint32_t *src, int sw, int sh, int factor, int ox, int oy, uint32_t *dst, int dw, int dh,
                           uint32_t *scratch);

/**
 * A material over `count` premultiplied pixels, in place: each colour's saturation scaled by
 * `saturation` about its luminance (the feColorMatrix saturate matrix, Rec. 709 weights; 1 leaves it),
 * clamped to its alpha, then the premultiplied `tint` drawn over it source-over.
 */
void crk_saturate_tint(uint32_t *pixels, int count, float saturation, uint32_t tint);

/** The box size d = ⌊σ·3·√(2π)/4 + 0.5⌋ of crk_blur_mask, 0 for σ ≤ 0 or not finite, at most 4096. */
int crk_blur_box_size(double sigma);

/** The portable versions of the kernels above, whatever the processor has (for tests). */
void crk_bilinear_columns_scalar(const uint32_t *row0, const uint32_t *row1, uint32_t fy,
                                 const int32_t *index, const uint16_t *fx, int count, uint32_t *out);
void crk_bilinear_shift_scalar(const uint32_t *row0, const uint32_t *row1, uint32_t fx, uint32_t fy, int count,
                               uint32_t *out);
void crk_source_over_scalar(uint32_t *dst, const uint32_t *src, int count);
void crk_bilinear_affine_scalar(const uint32_t *pixels, int width, int height, double u0, double v0, double du, double dv,
                                const uint8_t *coverage, int count, uint32_t *out);
void crk_solid_over_scalar(uint32_t *dst, uint32_t color, int count);
void crk_horizontal_columns_scalar(const uint32_t *row, const int32_t *index, const uint16_t *fx, int count, uint16_t *out);
void crk_horizontal_shift_scalar(const uint32_t *row, uint32_t fx, int count, uint16_t *out);
void crk_vertical_scalar(const uint16_t *h0, const uint16_t *h1, uint32_t fy, int count, uint32_t *out);
void crk_solid_over_coverage_scalar(uint32_t *dst, uint32_t color, const uint8_t *coverage, int count);
void crk_source_over_scaled_scalar(uint32_t *dst, const uint32_t *src, const uint8_t *coverage, uint32_t opacity, int count);

#ifdef __cplusplus
}
#endif

#endif /* CRASTER_KERNELS_H */
