/*
 * cfastpng.h: Smokescreen's own PNG encoder for one filter, the fast path of every frame it writes.
 *
 * Why this target exists: a frame is mostly rows equal to the row above and segments repeated from
 * earlier frames, which libpng's row-by-row writer compresses again every time. This encoder filters
 * the whole image itself (the opaque RGBA-to-RGB case and the up filter in one pass, with SSSE3 where
 * the processor has it), compresses runs of zero rows once per encoder and equal segments once per
 * image, builds one zlib stream from the pieces, and writes the PNG's chunks itself. It needs zlib and
 * ISA-L (whose igzip compresses the segments when the options ask for it: CFPNG_COMPRESSOR_ISAL, and
 * whose CRC-32, the same function as zlib's, checksums every chunk) and
 * never calls libpng, so nothing here longjmps: every error is a plain return code. Vector code is
 * chosen with CCPUFeatures (`ccpu_features()`, `ccpu_force_scalar()`), and gives the same bytes as the
 * scalar code.
 *
 * What it does not do: several filters at once (libpng picks each row's filter: CPNGShim's
 * cpng_encode_rgb8), images whose filtered rows exceed CFPNG_MAX_FILTERED_BYTES, interlacing, other bit
 * depths or colour types than 8-bit RGB and RGBA. Every symbol is prefixed `cfpng_` / `CFPNG_`.
 */
#ifndef CFASTPNG_H
#define CFASTPNG_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Return codes ------------------------------------------------------------------------------ */

/** Success. */
#define CFPNG_OK 0
/** An argument is out of range or missing (size, channels, level, filter, strategy, NULL pointers). */
#define CFPNG_ERR_INVALID_ARGUMENT 1
/** The image is larger than this encoder takes (see cfpng_fits); nothing was done. */
#define CFPNG_ERR_TOO_LARGE 2
/** An allocation failed. */
#define CFPNG_ERR_NO_MEMORY 3
/** The row callback returned NULL. */
#define CFPNG_ERR_CALLBACK 4
/** zlib reported an error (the message says which call). */
#define CFPNG_ERR_ZLIB 5
/** ISA-L reported an error (the message says which). */
#define CFPNG_ERR_ISAL 6

/* ---- Limits ------------------------------------------------------------------------------------ */

/**
 * The largest width or height written: libpng's default limit, so that every file this writes is one
 * libpng-based readers open with their default settings.
 */
#define CFPNG_MAX_DIMENSION 1000000u
/** The most bytes of filtered rows (height x (1 + width x channels)) held in memory: 256 MiB. */
#define CFPNG_MAX_FILTERED_BYTES 268435456ull
/** The shortest run of all-zero filtered rows that is compressed as a piece of its own. */
#define CFPNG_MIN_ZERO_RUN 4
/** The most bytes of image data in one IDAT chunk. */
#define CFPNG_IDAT_MAX (1u << 20)

/* ---- Settings (PNG's filter types and zlib's strategies, by their own numbers) ------------------- */

/** PNG filter types (the byte before each filtered row). */
#define CFPNG_FILTER_NONE 0
#define CFPNG_FILTER_SUB 1
#define CFPNG_FILTER_UP 2
#define CFPNG_FILTER_AVERAGE 3
#define CFPNG_FILTER_PAETH 4

/** zlib strategies (the same values as zlib's Z_DEFAULT_STRATEGY ... Z_FIXED). */
#define CFPNG_STRATEGY_DEFAULT 0
#define CFPNG_STRATEGY_FILTERED 1
#define CFPNG_STRATEGY_HUFFMAN_ONLY 2
#define CFPNG_STRATEGY_RLE 3
#define CFPNG_STRATEGY_FIXED 4

/** What compresses the segments (cfpng_options.compressor). */
/** zlib (the system's): the same bytes on every processor. */
#define CFPNG_COMPRESSOR_ZLIB 0
/**
 * ISA-L's igzip (`isal_deflate_stateless`, SIMD code chosen at run time): several times faster than zlib
 * level 1 on frames, but its bytes may differ between processors (SSE, AVX2, AVX-512, NEON) and ISA-L
 * versions; they always inflate to the same data. On one machine they are the same in every thread and
 * run: ISA-L 2.30's level 1/2 code reads its stream record's address into one hash-table slot, so every
 * cache maps that record at an address giving the same slot (cfpng_isal_record_bucket). Levels 0...3
 * (ISA-L's own levels), default strategy.
 */
#define CFPNG_COMPRESSOR_ISAL 1

/** Encoder settings. */
typedef struct cfpng_options {
    /** Compression level: zlib's 0 (store) ... 9 (smallest); with CFPNG_COMPRESSOR_ISAL, ISA-L's 0 ... 3. */
    int zlib_level;
    /** One of CFPNG_FILTER_*: every row is filtered with it. */
    int filter;
    /** One of CFPNG_STRATEGY_*. */
    int strategy;
    /** Non-zero: write an sRGB chunk with perceptual intent (no gAMA, no cHRM). */
    int write_srgb;
    /**
     * One of CFPNG_COMPRESSOR_*: what compresses the segments. Zero runs, zlib's empty final block, the
     * header and the checksums are zlib's (or computed here) whatever this says.
     */
    int compressor;
} cfpng_options;

/* ---- Results ----------------------------------------------------------------------------------- */

/** What went wrong. Zeroed by every encode before it starts. */
typedef struct cfpng_error {
    /** One of the CFPNG_* codes; CFPNG_OK when nothing failed. */
    int code;
    /** What failed, NUL-terminated, truncated to fit. */
    char message[256];
} cfpng_error;

/** A PNG file in memory, owned by the encoder's caller. Free with cfpng_buffer_free (safe on a zeroed one). */
typedef struct cfpng_buffer {
    uint8_t *data;
    size_t size;
    size_t capacity;
} cfpng_buffer;

/** Frees the buffer's memory and zeroes it. NULL is allowed. */
void cfpng_buffer_free(cfpng_buffer *buffer);

/* ---- Input ------------------------------------------------------------------------------------- */

/**
 * Returns a pointer to row `y` of the image (`width * bytes_per_pixel` bytes), valid until the next call,
 * or NULL to abort the encode with CFPNG_ERR_CALLBACK. Rows are asked for in order, each once per pass.
 */
typedef const uint8_t *(*cfpng_row_fn)(void *ctx, uint32_t y);

/** 8-bit straight RGB or RGBA input. */
typedef struct cfpng_rgb8_source {
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
    cfpng_row_fn row;
    void *ctx;
    /**
     * Non-zero with `channels` 3, `bytes_per_pixel` 4 and `pixels`: the 4th byte of each pixel is alpha.
     * The image is written as RGB when every alpha is 255 (checked as the rows are filtered, not in a
     * pass of its own); otherwise as RGBA (colour type 6) from `row`, which must then be set and give
     * rows of `width * 4` bytes.
     */
    int alpha_fallback;
} cfpng_rgb8_source;

/* ---- Encoding ---------------------------------------------------------------------------------- */

/**
 * What one encoder keeps between images so that encoding many frames allocates nothing per frame:
 * the zlib streams, the filtered image, the compressed stream being built, and the compressed form of
 * runs of all-zero filtered rows (a pure function of the run's length and the settings, so what is
 * cached never changes an output byte). Whether SSSE3 is used is decided when it is created (from
 * ccpu_features()). Use from one thread at a time; each thread its own.
 */
typedef struct cfpng_cache cfpng_cache;

/** A new, empty cache, or NULL when out of memory. */
cfpng_cache *cfpng_cache_create(void);
/** Frees the cache and everything it holds. NULL is allowed. */
void cfpng_cache_destroy(cfpng_cache *cache);

/**
 * Non-zero when the image fits this encoder: width and height 1 ... CFPNG_MAX_DIMENSION and at most
 * CFPNG_MAX_FILTERED_BYTES of filtered rows with `channels` bytes a pixel (4 for an `alpha_fallback`
 * source, which may turn out RGBA). cfpng_encode returns CFPNG_ERR_TOO_LARGE, before any work, for an
 * image that does not fit.
 */
int cfpng_fits(uint32_t width, uint32_t height, int channels);

/**
 * Encodes 8-bit straight RGB/RGBA to a PNG in `out` (which must be zeroed or freed; on failure it is
 * left freed and zeroed), with `cache` (NULL: a temporary one). Not interlaced. Returns CFPNG_OK or an
 * error code with `err` (may be NULL) filled in.
 *
 * The image is split into pieces: runs of at least CFPNG_MIN_ZERO_RUN rows whose filtered bytes are all
 * zero (rows equal to the row above, with the up or Paeth filter) and the segments between them. Each
 * segment is compressed in parts of whole rows that refer to nothing before them: zlib, parts of at
 * most 64 KiB (its window) ended with a sync flush; ISA-L (CFPNG_COMPRESSOR_ISAL), parts of at most
 * 256 KiB by isal_deflate_stateless with a full flush and no end of stream; either way byte-aligned. A
 * segment equal to an earlier segment of the same image reuses that compressed piece, and zero runs come
 * from the cache (compressed once, at zlib level 9, or stored at level 0, as repeated pieces of up to 32
 * rows). An image equal to the previous one reuses the whole compressed stream.
 *
 * Images given by `pixels` (every frame Smokescreen writes) are streamed: the filtered image is never
 * held. One pass finds the rows equal to the row above and a 128-bit hash of each row; then each
 * segment is filtered one part at a time, just before that part is compressed. Segments are matched by
 * their rows' hashes and then compared byte for byte in the source (rows equal there filter to equal
 * bytes); a whole image is taken as a repeat of the previous one when its equal-row flags and every
 * row's 128-bit hash are the same (a false repeat needs a 128-bit collision between rows that differ in
 * more than one 8-byte word; a single differing word always changes the hash). Images given only by the
 * `row` callback are filtered whole into the cache, and compared with the previous one byte for byte. The pieces, zlib's empty final
 * block, the two-byte zlib header and the Adler-32 of the whole (combined with adler32_combine) make one
 * valid zlib stream, written as IDAT chunks of at most CFPNG_IDAT_MAX bytes after the signature, IHDR
 * and sRGB chunks and before IEND, each chunk with its CRC-32 (zlib's crc32). The output depends only on
 * the image and the options, never on what the cache held; with CFPNG_COMPRESSOR_ZLIB never on the
 * processor either (with ISA-L it may: see CFPNG_COMPRESSOR_ISAL).
 */
int cfpng_encode(cfpng_cache *cache, const cfpng_rgb8_source *source, const cfpng_options *options,
                 cfpng_buffer *out, cfpng_error *err);

/**
 * Writes the compressor's name and version into `buf` (NUL-terminated, truncated to `size`), e.g.
 * "zlib 1.2.13" or "isa-l 2.30.0" (ISA-L's version as compiled against: it has no run-time version call).
 * Returns 0, or -1 for an unknown compressor (`buf` then holds "unknown").
 */
int cfpng_compressor_name(int compressor, char *buf, size_t size);

/**
 * Non-zero when the last cfpng_encode with this cache found the image's filtered bytes equal to those of
 * the image before it (same size, channels, filter, level and strategy) and so reused its compressed
 * stream instead of compressing again: the PNG is then byte-identical to the previous one (given the
 * same sRGB option). 0 for NULL.
 */
int cfpng_cache_last_repeated(const cfpng_cache *cache);

/**
 * Forgets the image `cache` encoded last: the next cfpng_encode is not compared with it. For a caller
 * that encoded an image in between some other way (libpng, for an image over this encoder's limits),
 * so that "the image before" stays the one it encoded last. Buffers and cached zero runs are kept.
 * Nothing for NULL.
 */
void cfpng_cache_forget(cfpng_cache *cache);

/**
 * The bytes `cache` holds now: its buffers (the compressed stream, one part of filtered rows, the row
 * flags and hashes of this image and the previous one, row buffers, segment records, cached zero runs,
 * and the filtered image once a callback source has needed it) and, for each zlib stream it has
 * opened, deflate's own state as zlib documents it for window bits 15 and memory level 8 (2^17 + 2^17
 * bytes, plus the state record), and ISA-L's stream record and level buffer once the cache has used
 * ISA-L. 0 for NULL.
 */
size_t cfpng_cache_bytes(const cfpng_cache *cache);

/**
 * For tests: the hash-table slot ISA-L's level 1/2 code derives from the address of `cache`'s ISA-L
 * stream record (crc32c of address bits 16...47, low 15 bits). On x86-64 Linux every record is mapped
 * where this is CFPNG_ISAL_RECORD_BUCKET, so the slot, and with it the output, never depends on where
 * memory was (elsewhere the record is plainly allocated).
 * -1 for NULL or a cache that has not used ISA-L yet.
 */
int cfpng_isal_record_bucket(const cfpng_cache *cache);
/** The slot every ISA-L stream record's address gives (see cfpng_isal_record_bucket). */
#define CFPNG_ISAL_RECORD_BUCKET 0

#ifdef __cplusplus
}
#endif

#endif /* CFASTPNG_H */
