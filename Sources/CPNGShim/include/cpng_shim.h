/*
 * cpng_shim.h: the only C in Smokescreen that calls libpng.
 *
 * Why this shim exists: libpng reports every error by calling an error function that must not return,
 * i.e. by longjmp(). A longjmp across Swift frames is undefined behaviour (Swift does not unwind:
 * retains leak, `defer` blocks and deinitialisers are skipped, exclusivity state is corrupted). So Swift
 * never calls libpng directly. Each operation here is ONE C function that creates the png struct,
 * calls setjmp, makes all the libpng calls and destroys the struct again before returning a plain
 * error code. libpng's own message is copied into a caller-provided `cpng_error`.
 *
 * Callbacks into the caller (output allocation, row supply) are always called from shim frames and
 * return normally; a failure is signalled by their return value, after which the shim, not the
 * caller, longjmps. So no caller frame is ever jumped over.
 *
 * What it holds: decoding (every PNG the tool reads), libpng's own row-by-row encoder (used for several
 * filters, where libpng picks each row's filter, and for test images of any colour type and depth).
 * The encoder for a single filter, every frame's fast path, is Smokescreen's own and does not call
 * libpng: the CFastPNG target.
 *
 * This header deliberately does not include <png.h> or <zlib.h>: the constants below mirror the
 * libpng / zlib values (checked with static asserts in cpng_shim.c), so the Swift side only needs
 * this module. Every symbol is prefixed `cpng_` / `CPNG_`.
 */
#ifndef CPNG_SHIM_H
#define CPNG_SHIM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Return codes ------------------------------------------------------------------------------ */

/** Success. */
#define CPNG_OK 0
/** The data does not start with the PNG signature (checked with png_sig_cmp before libpng runs). */
#define CPNG_ERR_NOT_PNG 1
/** The image is over the size limits: 16384 pixels per side, 268,435,456 pixels in all. */
#define CPNG_ERR_TOO_LARGE 2
/** libpng reported an error; `message` holds libpng's own text (e.g. "IDAT: CRC error"). */
#define CPNG_ERR_LIBPNG 3
/** An allocation failed (in libpng, in the shim, or in the output buffer). */
#define CPNG_ERR_NO_MEMORY 4
/** A caller callback failed (the allocation callback returned NULL, or the row callback did). */
#define CPNG_ERR_CALLBACK 5
/** The data ended before the PNG did (including inside the signature and a missing IEND). */
#define CPNG_ERR_TRUNCATED 6
/** A parameter is out of range (size, bit depth, colour type, level, filters, strategy, ...). */
#define CPNG_ERR_INVALID_ARGUMENT 7

/** The largest width or height accepted by the decoder, in pixels. */
#define CPNG_MAX_DIMENSION 16384u
/** The largest number of pixels accepted by the decoder (2^28). */
#define CPNG_MAX_PIXELS 268435456ull
/** The largest single ancillary chunk (after decompression) libpng may allocate, in bytes (16 MiB). */
#define CPNG_CHUNK_MALLOC_MAX (16u * 1024u * 1024u)
/// Compressed image data allowed beyond deflate's worst case for the image (bytes): more is an error.
#define CPNG_IDAT_MARGIN (64u * 1024u)

/* ---- PNG / zlib constants (same values as libpng and zlib) ------------------------------------- */

#define CPNG_COLOR_GRAY 0
#define CPNG_COLOR_RGB 2
#define CPNG_COLOR_PALETTE 3
#define CPNG_COLOR_GRAY_ALPHA 4
#define CPNG_COLOR_RGBA 6

#define CPNG_FILTER_NONE 0x08
#define CPNG_FILTER_SUB 0x10
#define CPNG_FILTER_UP 0x20
#define CPNG_FILTER_AVG 0x40
#define CPNG_FILTER_PAETH 0x80
#define CPNG_FILTER_ALL 0xF8

#define CPNG_STRATEGY_DEFAULT 0
#define CPNG_STRATEGY_FILTERED 1
#define CPNG_STRATEGY_HUFFMAN_ONLY 2
#define CPNG_STRATEGY_RLE 3
#define CPNG_STRATEGY_FIXED 4

/* ---- Shared structs ---------------------------------------------------------------------------- */

/** What went wrong. Zeroed by every operation before it starts. */
typedef struct cpng_error {
    /** One of the CPNG_* codes; CPNG_OK when nothing failed. */
    int code;
    /** libpng's message (or the shim's), NUL-terminated, truncated to fit. */
    char message[256];
    /** The first warning libpng gave (empty if none); warnings never fail an operation. */
    char warning[256];
    /** How many warnings libpng gave. */
    int warning_count;
} cpng_error;

/** A growable byte buffer owned by the shim. Free with cpng_buffer_free (safe on a zeroed buffer). */
typedef struct cpng_buffer {
    uint8_t *data;
    size_t size;
    size_t capacity;
} cpng_buffer;

/** Frees the buffer's memory and zeroes it. */
void cpng_buffer_free(cpng_buffer *buffer);

/** The header of a decoded PNG, as stored in the file (before any transformation). */
typedef struct cpng_header {
    uint32_t width;
    uint32_t height;
    /** 1, 2, 4, 8 or 16. */
    int bit_depth;
    /** One of the CPNG_COLOR_* values. */
    int color_type;
    /** 1 for Adam7, 0 for none. */
    int interlaced;
} cpng_header;

/** Encoder parameters. */
typedef struct cpng_encode_options {
    /** zlib level, 0 (store) ... 9 (smallest). */
    int zlib_level;
    /** A non-empty set of CPNG_FILTER_* bits. */
    int filters;
    /** One of CPNG_STRATEGY_*. */
    int strategy;
    /** Non-zero: write an sRGB chunk with perceptual intent (no gAMA, no cHRM). */
    int write_srgb;
} cpng_encode_options;

/* ---- Decoding ---------------------------------------------------------------------------------- */

/**
 * Returns memory for `width * height * 4` bytes of output (rows of straight RGBA8, no padding), or
 * NULL to abort the decode with CPNG_ERR_CALLBACK. Called at most once, after the header has been
 * checked against the limits. The memory stays the caller's.
 */
typedef void *(*cpng_alloc_fn)(void *ctx, uint32_t width, uint32_t height);

/**
 * Decodes a whole PNG from memory to straight (not premultiplied) RGBA8, 8 bits per sample, rows top
 * to bottom: palettes and low-bit grey are expanded, grey becomes RGB, tRNS becomes alpha, 16-bit
 * samples become round(v * 255 / 65535), alpha 255 is added where there is none, Adam7 is
 * de-interlaced. No gamma or colour-space conversion is ever applied.
 *
 * Strictness: bad CRCs are errors for critical AND ancillary chunks; the zlib Adler-32 is checked;
 * a missing IEND is an error (CPNG_ERR_TRUNCATED): a PNG cut off right after its last IDAT is still
 * an incomplete file. A file too short to hold its image's pixel bits even at deflate's maximum ratio
 * (1032:1) is reported as CPNG_ERR_TRUNCATED before `alloc` is called, so a tiny file claiming
 * 16384x16384 pixels never makes the caller allocate 1 GiB. Warnings (and libpng's "benign" errors, e.g. an invalid ancillary chunk, which
 * libpng skips) do not fail the decode; the first one is copied to `err->warning`.
 *
 * `header` (may be NULL) receives the source header as soon as IHDR has been read, even if the decode
 * fails later. Returns CPNG_OK or an error code with `err` filled in.
 */
int cpng_decode(const uint8_t *data, size_t size, cpng_alloc_fn alloc, void *ctx, cpng_header *header,
                cpng_error *err);

/* ---- Encoding ---------------------------------------------------------------------------------- */

/**
 * Returns a pointer to row `y` of the image (`width * bytes_per_pixel` bytes), valid until the next call,
 * or NULL to abort the encode with CPNG_ERR_CALLBACK. Rows are asked for in order, each once.
 */
typedef const uint8_t *(*cpng_row_fn)(void *ctx, uint32_t y);

/** 8-bit straight RGB or RGBA input for cpng_encode_rgb8. */
typedef struct cpng_rgb8_source {
    uint32_t width;
    uint32_t height;
    /** Channels written to the PNG: 3 (colour type 2, RGB) or 4 (colour type 6, RGBA). */
    int channels;
    /** Input bytes per pixel: `channels`, or 4 with `channels == 3` to drop every 4th byte (alpha). */
    int bytes_per_pixel;
    /** Rows of input, `row_stride` bytes apart. Used when `row` is NULL. */
    const uint8_t *pixels;
    size_t row_stride;
    /** If not NULL, supplies the rows instead of `pixels`. */
    cpng_row_fn row;
    void *ctx;
    /**
     * Non-zero with `channels` 3, `bytes_per_pixel` 4 and `pixels`: the 4th byte of each pixel is alpha.
     * The image is written as RGB when every alpha is 255 (checked as the rows are filtered, not in a
     * pass of its own); otherwise as RGBA (colour type 6) from `row`, which must then be set and give
     * rows of `width * 4` bytes.
     */
    int alpha_fallback;
} cpng_rgb8_source;

/**
 * Encodes 8-bit straight RGB/RGBA to a PNG in `out` (which must be zeroed or freed; on failure it is
 * left freed and zeroed) through libpng, row by row: with several filters in `options->filters` libpng
 * chooses each row's filter. Not interlaced. Returns CPNG_OK or an error code with `err` filled in.
 * (A single filter is CFastPNG's job: cfpng_encode, much faster on frames.)
 */
int cpng_encode_rgb8(const cpng_rgb8_source *source, const cpng_encode_options *options, cpng_buffer *out,
                     cpng_error *err);

/**
 * Raw samples in PNG's own layout, for any colour type and bit depth (mostly for tests): each row is
 * exactly as in the PNG data stream before filtering, i.e. 16-bit samples big-endian, sub-byte samples
 * packed most significant bits first, rows padded to whole bytes.
 */
typedef struct cpng_raw_image {
    uint32_t width;
    uint32_t height;
    /** 1, 2, 4, 8 or 16, as allowed for `color_type` by the PNG specification. */
    int bit_depth;
    /** One of CPNG_COLOR_*. */
    int color_type;
    /** Non-zero for Adam7 interlacing. */
    int interlaced;
    /** Rows, `row_stride` bytes apart, each at least ceil(width * channels * bit_depth / 8) bytes. */
    const uint8_t *rows;
    size_t row_stride;
    /** Palette (PLTE) as RGB triples; required for CPNG_COLOR_PALETTE, `palette_count` 1...256. */
    const uint8_t *palette;
    int palette_count;
    /** Palette alpha (tRNS) for CPNG_COLOR_PALETTE, `palette_alpha_count` entries (0 for none). */
    const uint8_t *palette_alpha;
    int palette_alpha_count;
    /** Non-zero: write a tRNS colour for CPNG_COLOR_GRAY (trns_gray) or CPNG_COLOR_RGB (trns_red/...). */
    int has_trns_color;
    uint16_t trns_gray;
    uint16_t trns_red;
    uint16_t trns_green;
    uint16_t trns_blue;
} cpng_raw_image;

/** Encodes raw samples to a PNG in `out` (see cpng_encode_rgb8 for `out`). */
int cpng_encode_raw(const cpng_raw_image *image, const cpng_encode_options *options, cpng_buffer *out,
                    cpng_error *err);

/** The libpng version the shim runs with, e.g. "1.6.39". */
const char *cpng_libpng_version(void);

#ifdef __cplusplus
}
#endif

#endif /* CPNG_SHIM_H */
