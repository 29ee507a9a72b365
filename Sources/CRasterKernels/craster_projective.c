#include "craster_kernels.h"

#include <math.h>

// Perspective resampling: each device pixel's centre mapped back through a homography, and the pixel's
// square, seen in the image, filtered by a grid of bilinear samples. Under perspective one side of a layer
// is magnified while the other is shrunk, so a single bilinear tap aliases on the far side (a slow rotation
// shimmers); the grid follows each pixel's own footprint, so the near side costs one tap. See the header.

// No a·b + c fused into one rounding, so that every compiler gives the same positions.
#pragma STDC FP_CONTRACT OFF

/// One channel-wise bilinear sample, as crk_bilinear_pixel: round(Σ w·texel / 65536).
static inline void crk_projective_tap(const uint32_t *pixels, int width, double u, double v, double maxU, double maxV,
                                      uint32_t sum[4]) {
    double cu = u != u ? 0 : (u < 0 ? 0 : (u > maxU ? maxU : u));
    double cv = v != v ? 0 : (v < 0 ? 0 : (v > maxV ? maxV : v));
    int32_t uf = (int32_t)(cu + 0.5), vf = (int32_t)(cv + 0.5);
    int32_t ix = uf >> 8, iy = vf >> 8;
    uint32_t fx = (uint32_t)(uf & 255), fy = (uint32_t)(vf & 255);
    if (ix == width - 1 && width >= 2) { ix = width - 2; fx = 256; }
    const uint32_t *p = pixels + (int64_t)iy * width + ix;
    uint32_t right = width >= 2 ? 1 : 0;
    int32_t below = fy == 0 ? 0 : width;
    uint32_t p00 = p[0], p10 = p[right], p01 = p[below], p11 = p[below + right];
    for (int c = 0; c < 4; c++) {
        int shift = 8 * c;
        uint32_t a = (p00 >> shift) & 0xFF, b = (p10 >> shift) & 0xFF, d0 = (p01 >> shift) & 0xFF, d1 = (p11 >> shift) & 0xFF;
        uint32_t top = (256 - fx) * a + fx * b, bottom = (256 - fx) * d0 + fx * d1;
        sum[c] += ((256 - fy) * top + fy * bottom + 32768) >> 16;
    }
}

/// How many samples along one side of the pixel's footprint: its length in image pixels rounded up, 1…8.
static inline int crk_projective_count(double length2) {
    if (!(length2 > 1.0000001)) return 1;
    double n = ceil(sqrt(length2) - 1e-6);
    return n > 8 ? 8 : (int)n;
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
        if (!(Q > 0) || !isfinite(Q)) { out[i] = 0; continue; }
        double iq = 1 / Q, u = U * iq, v = V * iq;
        // The derivatives of (u, v) along device x and y: the pixel's square seen in the image.
        double ux = (m[0] - u * m[2]) * iq, vx = (m[1] - v * m[2]) * iq;
        double uy = (m[3] - u * m[5]) * iq, vy = (m[4] - v * m[5]) * iq;
        int nx = crk_projective_count(ux * ux + vx * vx), ny = crk_projective_count(uy * uy + vy * vy);
        if (nx * ny > 16) {
            if (nx >= ny) nx = 16 / ny; else ny = 16 / nx;
        }
        uint32_t sum[4] = {0, 0, 0, 0};
        if (nx == 1 && ny == 1) {
            crk_projective_tap(pixels, width, (u - 0.5) * 256, (v - 0.5) * 256, maxU, maxV, sum);
            out[i] = sum[0] | sum[1] << 8 | sum[2] << 16 | sum[3] << 24;
            continue;
        }
        for (int j = 0; j < ny; j++) {
            double ty = ((double)j + 0.5) / (double)ny - 0.5;
            for (int k = 0; k < nx; k++) {
                double tx = ((double)k + 0.5) / (double)nx - 0.5;
                double su = u + tx * ux + ty * uy, sv = v + tx * vx + ty * vy;
                crk_projective_tap(pixels, width, (su - 0.5) * 256, (sv - 0.5) * 256, maxU, maxV, sum);
            }
        }
        uint32_t n = (uint32_t)(nx * ny), half = n / 2, result = 0;
        for (int c = 0; c < 4; c++) result |= ((sum[c] + half) / n) << (8 * c);
        out[i] = result;
    }
}
