#include "craster_kernels.h"

#include <math.h>
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
