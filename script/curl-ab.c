// The page-curl kernel of two builds in one process (script/curl-ab): each build's crk_page_curl loaded
// from its own shared library and called in turn on the same frames, so that both see the same machine.
// On a shared virtual machine a process's speed moves by a third from one run to the next (where its
// buffers land), more than most changes to the kernel; within one process, alternating, it does not.
#include "craster_kernels.h"

#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef void (*curl_draw)(const crk_curl *, uint32_t *, int, int, int, int, int);

static double seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
    if (argc != 4) { fprintf(stderr, "usage: curl-ab BEFORE.so AFTER.so REPETITIONS\n"); return 2; }
    curl_draw draw[2];
    for (int b = 0; b < 2; b++) {
        void *library = dlopen(argv[1 + b], RTLD_NOW | RTLD_LOCAL);
        if (!library || !(draw[b] = (curl_draw)dlsym(library, "crk_page_curl"))) { fprintf(stderr, "curl-ab: %s\n", dlerror()); return 1; }
    }
    const int repetitions = atoi(argv[3]) > 0 ? atoi(argv[3]) : 20;
    // A page of 320x367 pt at @2x (iNippon's), opaque runs of colour as snapshots have, its back and the
    // page below told apart by their colours.
    const double scale = 2, pw = 320, ph = 367;
    const int iw = 640, ih = 734;
    const size_t bytes = sizeof(uint32_t) * (size_t)iw * (size_t)ih;
    uint32_t *front = malloc(bytes), *back = malloc(bytes), *below = malloc(bytes), *out = malloc(bytes);
    double *shadow = malloc(sizeof(double) * 4097);
    if (!front || !back || !below || !out || !shadow) return 1;
    uint32_t state = 12345, colour = 0xFF000000;
    for (int i = 0; i < iw * ih; i++) {
        state ^= state << 13; state ^= state >> 17; state ^= state << 5;
        if (state % 23 == 0) colour = 0xFF000000 | (state >> 8);
        front[i] = colour; back[i] = colour ^ 0x00303030; below[i] = colour ^ 0x00505050;
    }
    for (int k = 0; k <= 4096; k++) shadow[k] = 0.25 * pow(1 - k / 4096.0, 1.25);
    for (int tilted = 0; tilted < 2; tilted++) {
        const double angle = tilted ? 0.3 : 0;
        double total[2] = { 0, 0 };
        uint32_t digest[2] = { 0, 0 };
        // 24 frames of a curl from the right edge past the left, as the geometry in CurlKernelTests makes it.
        for (int f = 0; f < 24; f++) {
            const double progress = (f + 1) / 25.0, radius = pw * (0.15 + 0.15 * progress);
            const double nx = cos(angle), ny = -sin(angle), pivot = ph / 2;
            const double start = pw + ph * fabs(tan(angle));
            const double end = (fmin(pivot * sin(angle), -(ph - pivot) * sin(angle)) - 0.6 * pw) / cos(angle);
            const double ax = start - progress * (start - end), ay = pivot;
            const double corners[4][2] = { { 0, 0 }, { pw, 0 }, { 0, ph }, { pw, ph } };
            double far = -HUGE_VAL;
            for (int k = 0; k < 4; k++) far = fmax(far, (corners[k][0] - ax) * nx + (corners[k][1] - ay) * ny);
            const double outer = far >= M_PI * radius / 2 ? radius : (far <= 0 ? far : radius * sin(far / radius));
            const crk_curl curl = { 1 / scale, 0, 0, 1 / scale, 0, 0, scale, ax, ay, nx, ny, radius, pw, ph, far, outer, 0.35,
                                    front, back, iw, ih, scale, shadow, 4096 };
            double best[2] = { HUGE_VAL, HUGE_VAL };
            for (int r = 0; r < repetitions; r++) {
                for (int b = 0; b < 2; b++) {
                    memcpy(out, below, bytes);
                    const double t0 = seconds();
                    draw[b](&curl, out, iw, 0, 0, iw, ih);
                    best[b] = fmin(best[b], seconds() - t0);
                    if (r == 0) for (int i = 0; i < iw * ih; i++) digest[b] = digest[b] * 31 + out[i];
                }
            }
            total[0] += best[0]; total[1] += best[1];
        }
        printf("%s: before %.3f ms, after %.3f ms a frame (%.2fx); %s bytes\n", tilted ? "tilted 0.3 rad" : "straight",
               total[0] / 24 * 1e3, total[1] / 24 * 1e3, total[1] / total[0], digest[0] == digest[1] ? "the same" : "DIFFERENT");
    }
    return 0;
}
