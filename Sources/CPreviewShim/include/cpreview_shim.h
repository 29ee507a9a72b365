/*
 * CPreviewShim: the only C that calls giflib, libimagequant and zlib's crc32 for previews.
 *
 * Why it exists: giflib reports errors through out-parameters and owns its file state; libimagequant
 * hands back objects that must be freed in order. One stateful encoder here wraps both, so Swift sees
 * plain calls that return an error code and a message, and never a half-written GIF: the GIF is built
 * in memory and Swift writes it atomically. Every symbol is prefixed `cprev_`.
 *
 * giflib and libimagequant are not linked: they are loaded with dlopen the first time a GIF is made
 * (cprev_load), so that runs which make none (every command but `preview` to a GIF) do not map them.
 * zlib is linked (libpng needs it anyway).
 */
#ifndef CPREVIEW_SHIM_H
#define CPREVIEW_SHIM_H

#include <stddef.h>
#include <stdint.h>

/** A GIF being built: frames quantized to one palette shared by all of them. */
typedef struct cprev_gif cprev_gif;

/**
 * Loads giflib and libimagequant (once; later calls return the first call's answer). Returns 0, or
 * non-zero with a message in `error` naming the library that cannot be loaded and the package to install.
 */
int cprev_load(char *error, size_t error_size);

/** Starts a GIF of `width` x `height` pixels (1...65535 each). NULL when out of memory or when
 *  cprev_load fails (call it first for the reason). */
cprev_gif *cprev_gif_create(int width, int height);

/**
 * First pass: adds the colours of the `width` x `height` rectangle at (`left`, `top`) of one frame
 * (`rgba`: the whole frame, straight RGBA8 rows of the GIF's width, no padding) to the histogram the
 * palette is chosen from. Returns 0, or non-zero with a message in `error` (a rectangle outside the
 * frame included).
 */
int cprev_gif_add_colors(cprev_gif *gif, const uint8_t *rgba, int left, int top, int width, int height,
                         char *error, size_t error_size);

/**
 * Chooses the palette (at most 256 colours, libimagequant at `speed` 1...10, dithering 0...1) from every
 * frame added. Returns 0, or non-zero with a message.
 */
int cprev_gif_choose_palette(cprev_gif *gif, int speed, float dithering, char *error, size_t error_size);

/**
 * Second pass: maps the rectangle of one frame (as in cprev_gif_add_colors) to the palette and appends
 * it at its place, over the frames before it (disposal: none), shown for `delay_cs` hundredths of a
 * second. Returns 0, or non-zero with a message.
 */
int cprev_gif_add_frame(cprev_gif *gif, const uint8_t *rgba, int left, int top, int width, int height, int delay_cs,
                        char *error, size_t error_size);

/**
 * Finishes the GIF (looping forever) into `*out` (`*out_size` bytes), which the caller frees with
 * cprev_free. Returns 0, or non-zero with a message.
 */
int cprev_gif_finish(cprev_gif *gif, uint8_t **out, size_t *out_size, char *error, size_t error_size);

/** Frees the encoder and everything it holds. NULL is allowed. */
void cprev_gif_destroy(cprev_gif *gif);

/** Frees memory the shim returned. */
void cprev_free(void *pointer);

/** zlib's CRC-32 of `size` bytes, continuing `crc` (0 to start): for the chunks of an animated PNG. */
uint32_t cprev_crc32(uint32_t crc, const uint8_t *data, size_t size);

#endif
