#include "craster_kernels.h"

#include <math.h>

// Perspective resampling: each device pixel's centre mapped back through a homography, and the pixel's
// square, seen in the image, filtered by a grid of bilinear samples. Under perspective one side of a layer
// is magnified while the other is shrunk, so a single bilinear tap aliases on the far side (a slow rotation
// shimmers); the grid follows each pixel's own footprint, so the near side costs one tap. See the header.

// No a·b + c fused into one rounding, so that every compiler gives the same positions.
#pragma STDC FP_CONTRACT OFF

/// Two channels of a pixel in the 32-bit halves of a uint64_t: red and blue, or green and alpha.
static inline __attribute__((always_inline)) uint64_t crk_projective_lanes(uint32_t p, int shift) {
    uint64_t q = (p >> shift) & 0x00FF00FFu;
    return (q & 0xFF) | ((q >> 16) << 32);
}

/// One bilinear sample at (u, v) (1/256 texel, already less half a texel), clamped at the edges: each
/// channel round(Σ w·texel / 65536), as crk_bilinear_pixel; added channel by channel into `rb` and `ga`
/// (red and blue, green and alpha, in the 32-bit halves) unrounded-free: the rounded sample is added.
static inline __attribute__((always_inline)) void crk_projective_tap(const uint32_t *pixels, int width, double u, double v,
                                                                     double maxU, double maxV, uint64_t *rb, uint64_t *ga) {
    double cu = u != u ? 0 : (u < 0 ? 0 : (u > maxU ? maxU : u));
    double cv = v != v ? 0 : (v < 0 ? 0 : (v > maxV ? maxV : v));
    int32_t uf = (int32_t)(cu + 0.5), vf = (int32_t)(cv + 0.5);
    int32_t ix = uf >> 8, iy = vf >> 8;
    uint64_t fx = (uint64_t)(uf & 255), fy = (uint64_t)(vf & 255);
    if (ix == width - 1 && width >= 2) { ix = width - 2; fx = 256; }
    const uint32_t *p = pixels + (int64_t)iy * width + ix;
    uint32_t right = width >= 2 ? 1 : 0;
    int32_t below = fy == 0 ? 0 : width;
    uint32_t p00 = p[0], p10 = p[right], p01 = p[below], p11 = p[below + right];
    uint64_t w11 = fx * fy, w10 = fx * 256 - w11, w01 = fy * 256 - w11, w00 = 65536 - w10 - w01 - w11;
    const uint64_t half = 0x0000800000008000ull, low = 0x000000FF000000FFull;
    *rb += ((crk_projective_lanes(p00, 0) * w00 + crk_projective_lanes(p10, 0) * w10 + crk_projective_lanes(p01, 0) * w01
             + crk_projective_lanes(p11, 0) * w11 + half) >> 16) & low;
    *ga += ((crk_projective_lanes(p00, 8) * w00 + crk_projective_lanes(p10, 8) * w10 + crk_projective_lanes(p01, 8) * w01
             + crk_projective_lanes(p11, 8) * w11 + half) >> 16) & low;
}

/// How many samples along one side of the pixel's footprint: its length in image pixels less 0.1, rounded
/// up, 1…8: a box filter of the pixel's square, except that a pixel seeing at most 1.1 texels along a side
/// takes one bilinear sample there (half the work on the far half of a turned layer, with the same pixels
/// as the box within the reference test's tolerance; rounding to the nearest instead shows moiré on
/// one-pixel stripes seen at 1.2…1.5 texels a pixel).
static inline int crk_projective_count(double length2) {
    if (!(length2 > 1.21)) return 1;
    // The least n with n ≥ length − 0.1, without a square root: (n + 0.1)² ≥ length².
    int n = 2;
    while (n < 8 && ((double)n + 0.1) * ((double)n + 0.1) < length2) n++;
    return n;
}

void crk_bilinear_projective(const uint32_t *pixels, int width, int height, const double *m, int y, int x0,
                             const uint8_t *coverage, int count, uint32_t *out) {
    double maxU = (double)(width - 1) * 256, maxV = (double)(height - 1) * 256;
    double cy = (double)y + 0.5;
    // The row's homogeneous coordinates are linear in x; only the division is per pixel.
    double rowU = cy * m[3] + m[6], rowV = cy * m[4] + m[7], rowQ = cy * m[5] + m[8];
    for (int i = 0; i < count; i++) {
        if (coverage[i] == 0) continue;
        double cx = (double)(x0 + i) + 0.5;
        double U = cx * m[0] + rowU, V = cx * m[1] + rowV, Q = cx * m[2] + rowQ;
        if (!(Q > 0 && Q < HUGE_VAL)) { out[i] = 0; continue; }
        double iq = 1 / Q, u = U * iq, v = V * iq;
        // The derivatives of (u, v) along device x and y: the pixel's square seen in the image.
        double ux = (m[0] - u * m[2]) * iq, vx = (m[1] - v * m[2]) * iq;
        double uy = (m[3] - u * m[5]) * iq, vy = (m[4] - v * m[5]) * iq;
        int nx = crk_projective_count(ux * ux + vx * vx), ny = crk_projective_count(uy * uy + vy * vy);
        if (nx * ny > 16) {
            // Both sides scaled down alike (8 × 8 becomes 4 × 4), so the longer side keeps the more samples.
            double f = sqrt(16.0 / (double)(nx * ny));
            nx = (int)((double)nx * f); ny = (int)((double)ny * f);
            if (nx < 1) nx = 1;
            if (ny < 1) ny = 1;
            while (nx * ny > 16) { if (nx >= ny) nx--; else ny--; }
        }
        uint64_t rb = 0, ga = 0;
        if (nx == 1 && ny == 1) {
            crk_projective_tap(pixels, width, (u - 0.5) * 256, (v - 0.5) * 256, maxU, maxV, &rb, &ga);
            out[i] = (uint32_t)(rb & 0xFF) | (uint32_t)(ga & 0xFF) << 8 | (uint32_t)((rb >> 32) & 0xFF) << 16 | (uint32_t)((ga >> 32) & 0xFF) << 24;
            continue;
        }
        // Sample (k, j) at the pixel's centre + ((k + 0.5)/nx − 0.5)·(ux, vx) + ((j + 0.5)/ny − 0.5)·(uy, vy),
        // in 1/256 texel less half a texel; the grid's steps added one after another.
        double sx = 1.0 / (double)nx, sy = 1.0 / (double)ny;
        double stepU = ux * sx * 256, stepV = vx * sx * 256, rowStepU = uy * sy * 256, rowStepV = vy * sy * 256;
        double rowU0 = (u - 0.5 + (0.5 * sx - 0.5) * ux + (0.5 * sy - 0.5) * uy) * 256;
        double rowV0 = (v - 0.5 + (0.5 * sx - 0.5) * vx + (0.5 * sy - 0.5) * vy) * 256;
        for (int j = 0; j < ny; j++, rowU0 += rowStepU, rowV0 += rowStepV) {
            double su = rowU0, sv = rowV0;
            for (int k = 0; k < nx; k++, su += stepU, sv += stepV) {
                crk_projective_tap(pixels, width, su, sv, maxU, maxV, &rb, &ga);
            }
        }
        // The mean of the samples, rounded: each channel's sum is at most 16 · 255.
        uint64_t n = (uint64_t)(nx * ny), half = n / 2;
        uint32_t r = (uint32_t)(((rb & 0xFFFFFFFFu) + half) / n), b = (uint32_t)(((rb >> 32) + half) / n);
        uint32_t g = (uint32_t)(((ga & 0xFFFFFFFFu) + half) / n), a = (uint32_t)(((ga >> 32) + half) / n);
        out[i] = r | g << 8 | b << 16 | a << 24;
    }
}
