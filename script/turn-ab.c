// The turn kernel (a layer turned about one of its axes in perspective) of two builds in one process
// (script/turn-ab): each build's crk_turn_make, crk_turn_row and crk_turn_free loaded from its own shared
// library and called in turn on the same frames, so that both see the same machine (see script/curl-ab.c).
#include "craster_kernels.h"

#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef crk_turn *(*turn_make)(const uint32_t *, int, int, const double *, int, int, int, int);
typedef void (*turn_row)(crk_turn *, int, int, const uint8_t *, int, uint32_t *);
typedef void (*turn_free)(crk_turn *);

static double seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/// The inverse of a 3x3 mapping laid out as crk_turn_make's: X = x·a[0] + y·a[3] + a[6], Y = x·a[1] +
/// y·a[4] + a[7], W = x·a[2] + y·a[5] + a[8].
static void invert(const double *a, double *m) {
    const double det = a[0] * (a[4] * a[8] - a[5] * a[7]) - a[1] * (a[3] * a[8] - a[5] * a[6]) + a[2] * (a[3] * a[7] - a[4] * a[6]);
    m[0] = (a[4] * a[8] - a[5] * a[7]) / det; m[1] = -(a[1] * a[8] - a[2] * a[7]) / det; m[2] = (a[1] * a[5] - a[2] * a[4]) / det;
    m[3] = -(a[3] * a[8] - a[5] * a[6]) / det; m[4] = (a[0] * a[8] - a[2] * a[6]) / det; m[5] = -(a[0] * a[5] - a[2] * a[3]) / det;
    m[6] = (a[3] * a[7] - a[4] * a[6]) / det; m[7] = -(a[0] * a[7] - a[1] * a[6]) / det; m[8] = (a[0] * a[4] - a[1] * a[3]) / det;
}

int main(int argc, char **argv) {
    if (argc != 4) { fprintf(stderr, "usage: turn-ab BEFORE.so AFTER.so REPETITIONS\n"); return 2; }
    turn_make make[2];
    turn_row row[2];
    turn_free release[2];
    for (int b = 0; b < 2; b++) {
        void *library = dlopen(argv[1 + b], RTLD_NOW | RTLD_LOCAL);
        if (!library || !(make[b] = (turn_make)dlsym(library, "crk_turn_make")) || !(row[b] = (turn_row)dlsym(library, "crk_turn_row")) ||
            !(release[b] = (turn_free)dlsym(library, "crk_turn_free"))) {
            fprintf(stderr, "turn-ab: %s\n", dlerror());
            return 1;
        }
    }
    const int repetitions = atoi(argv[3]) > 0 ? atoi(argv[3]) : 20;
    // A full-screen page at @2x (iNippon's, 640x734 px) of opaque runs of colour, as snapshots have, turned
    // about its centre with m34 = -1/500 pt (-1/1000 px) and drawn into a frame of its size.
    const int w = 640, h = 734;
    uint32_t *image = malloc(sizeof(uint32_t) * (size_t)w * (size_t)h), *out = malloc(sizeof(uint32_t) * (size_t)w);
    uint8_t *coverage = malloc((size_t)w * (size_t)h);
    if (!image || !out || !coverage) return 1;
    uint32_t state = 12345, colour = 0xFF000000;
    for (int i = 0; i < w * h; i++) {
        state ^= state << 13; state ^= state >> 17; state ^= state << 5;
        if (state % 23 == 0) colour = 0xFF000000 | (state >> 8);
        image[i] = colour;
    }
    for (int axis = 0; axis < 2; axis++) {
        double total[2] = { 0, 0 };
        uint32_t digest[2] = { 0, 0 };
        // 24 angles from slight to nearly edge-on, as `smokescreen bench --perspective` turns its page.
        for (int f = 0; f < 24; f++) {
            const double angle = (f + 1) / 25.0 * M_PI / 2 * 0.95, c = cos(angle), s = sin(angle), p = -1.0 / 1000;
            const double cx = w / 2.0, cy = h / 2.0, depth = 1 - p * (axis == 0 ? cx : cy) * s;
            double a[9];
            if (axis == 0) {
                // About y: X = (x − cx)·c / W + cx, Y = (y − cy) / W + cy, W = 1 + p·(x − cx)·s.
                const double pa[9] = { c + cx * p * s, cy * p * s, p * s, 0, 1, 0, -cx * c + cx * depth, -cy + cy * depth, depth };
                memcpy(a, pa, sizeof a);
            } else {
                const double pa[9] = { 1, 0, 0, cx * p * s, c + cy * p * s, p * s, -cx + cx * depth, -cy * c + cy * depth, depth };
                memcpy(a, pa, sizeof a);
            }
            double m[9];
            invert(a, m);
            // The turned page's corners, its bounding box (as the painter reaches its outline) and the pixels
            // whose centres it covers (a convex quad: the same side of its four edges).
            double qx[4], qy[4], x0 = HUGE_VAL, y0 = HUGE_VAL, x1 = -HUGE_VAL, y1 = -HUGE_VAL;
            const double corners[4][2] = { { 0, 0 }, { w, 0 }, { w, h }, { 0, h } };
            for (int k = 0; k < 4; k++) {
                const double x = corners[k][0], y = corners[k][1], W = x * a[2] + y * a[5] + a[8];
                qx[k] = (x * a[0] + y * a[3] + a[6]) / W;
                qy[k] = (x * a[1] + y * a[4] + a[7]) / W;
                x0 = fmin(x0, qx[k]); y0 = fmin(y0, qy[k]); x1 = fmax(x1, qx[k]); y1 = fmax(y1, qy[k]);
            }
            const int bx0 = (int)fmax(0, floor(x0) - 1), by0 = (int)fmax(0, floor(y0) - 1);
            const int bx1 = (int)fmin(w, ceil(x1) + 1), by1 = (int)fmin(h, ceil(y1) + 1);
            for (int y = by0; y < by1; y++) {
                for (int x = bx0; x < bx1; x++) {
                    int positive = 0, negative = 0;
                    for (int k = 0; k < 4; k++) {
                        const int n = (k + 1) % 4;
                        const double cross = (qx[n] - qx[k]) * (y + 0.5 - qy[k]) - (qy[n] - qy[k]) * (x + 0.5 - qx[k]);
                        positive += cross >= 0; negative += cross <= 0;
                    }
                    coverage[(size_t)y * (size_t)w + (size_t)x] = positive == 4 || negative == 4 ? 255 : 0;
                }
            }
            double best[2] = { HUGE_VAL, HUGE_VAL };
            for (int r = 0; r < repetitions; r++) {
                for (int b = 0; b < 2; b++) {
                    const double t0 = seconds();
                    crk_turn *turn = make[b](image, w, h, m, bx0, by0, bx1, by1);
                    if (!turn) { fprintf(stderr, "turn-ab: build %d made no turn at %.2f rad\n", b + 1, angle); return 1; }
                    for (int y = by0; y < by1; y++) {
                        const uint8_t *covered = coverage + (size_t)y * (size_t)w + (size_t)bx0;
                        row[b](turn, y, bx0, covered, bx1 - bx0, out);
                        // (Covered pixels only: the others may be anything.)
                        if (r == 0) for (int x = 0; x < bx1 - bx0; x++) if (covered[x]) digest[b] = digest[b] * 31 + out[x];
                    }
                    release[b](turn);
                    best[b] = fmin(best[b], seconds() - t0);
                }
            }
            total[0] += best[0]; total[1] += best[1];
        }
        printf("%s: before %.3f ms, after %.3f ms a frame (%.2fx); %s bytes\n", axis == 0 ? "about y" : "about x",
               total[0] / 24 * 1e3, total[1] / 24 * 1e3, total[1] / total[0], digest[0] == digest[1] ? "the same" : "DIFFERENT");
    }
    return 0;
}
