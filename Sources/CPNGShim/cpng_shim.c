// The only code that calls libpng. See include/cpng_shim.h for why, and for the contract of each function.
//
// Structure of every operation: the public function validates its arguments, zeroes a context struct in
// its own frame and calls a `*_run` function that does `setjmp` and all the libpng calls. The libpng
// pointers live in the context struct (not in locals of the function that called setjmp), so their values
// are well defined after a longjmp; the public function destroys whatever was created and returns the code.

#include "cpng_shim.h"

#include <png.h>
#include <zlib.h>

#include <setjmp.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Static_assert(CPNG_COLOR_GRAY == PNG_COLOR_TYPE_GRAY, "colour type");
_Static_assert(CPNG_COLOR_RGB == PNG_COLOR_TYPE_RGB, "colour type");
_Static_assert(CPNG_COLOR_PALETTE == PNG_COLOR_TYPE_PALETTE, "colour type");
_Static_assert(CPNG_COLOR_GRAY_ALPHA == PNG_COLOR_TYPE_GRAY_ALPHA, "colour type");
_Static_assert(CPNG_COLOR_RGBA == PNG_COLOR_TYPE_RGB_ALPHA, "colour type");
_Static_assert(CPNG_FILTER_NONE == PNG_FILTER_NONE, "filter");
_Static_assert(CPNG_FILTER_SUB == PNG_FILTER_SUB, "filter");
_Static_assert(CPNG_FILTER_UP == PNG_FILTER_UP, "filter");
_Static_assert(CPNG_FILTER_AVG == PNG_FILTER_AVG, "filter");
_Static_assert(CPNG_FILTER_PAETH == PNG_FILTER_PAETH, "filter");
_Static_assert(CPNG_FILTER_ALL == PNG_ALL_FILTERS, "filter");
_Static_assert(CPNG_STRATEGY_DEFAULT == Z_DEFAULT_STRATEGY, "strategy");
_Static_assert(CPNG_STRATEGY_FILTERED == Z_FILTERED, "strategy");
_Static_assert(CPNG_STRATEGY_HUFFMAN_ONLY == Z_HUFFMAN_ONLY, "strategy");
_Static_assert(CPNG_STRATEGY_RLE == Z_RLE, "strategy");
_Static_assert(CPNG_STRATEGY_FIXED == Z_FIXED, "strategy");
_Static_assert(sizeof(png_color) == 3, "png_color is three bytes");

// ---- Errors ------------------------------------------------------------------------------------------

typedef struct cpng_state {
    jmp_buf jmp;
    cpng_error *err;
    /// Set when an allocation returned NULL, so that libpng's following error is reported as NO_MEMORY.
    int out_of_memory;
} cpng_state;

static void cpng_copy_message(char *dst, size_t capacity, const char *msg) {
    if (msg == NULL) msg = "(no message)";
    size_t n = strlen(msg);
    if (n >= capacity) n = capacity - 1;
    memcpy(dst, msg, n);
    dst[n] = '\0';
}

/// Records `code` and `msg` (unless a code / message was recorded already) and returns.
static int cpng_set(cpng_error *err, int code, const char *msg) {
    if (err->code == CPNG_OK) err->code = code;
    if (err->message[0] == '\0') cpng_copy_message(err->message, sizeof err->message, msg);
    return err->code;
}

/// Records the error and jumps back to the `*_run` function's setjmp. Only called from shim or libpng frames.
static void cpng_fail(cpng_state *st, int code, const char *msg) __attribute__((noreturn));
static void cpng_fail(cpng_state *st, int code, const char *msg) {
    cpng_set(st->err, code, msg);
    longjmp(st->jmp, 1);
}

static void cpng_on_error(png_structp png, png_const_charp msg) __attribute__((noreturn));
static void cpng_on_error(png_structp png, png_const_charp msg) {
    cpng_state *st = (cpng_state *)png_get_error_ptr(png);
    int code = CPNG_ERR_LIBPNG;
    if (st->out_of_memory) {
        code = CPNG_ERR_NO_MEMORY;
    } else if (msg != NULL && strstr(msg, "exceeds user limit") != NULL) {
        code = CPNG_ERR_TOO_LARGE;  // png_set_user_limits; normally caught earlier by cpng_precheck_ihdr
    }
    cpng_fail(st, code, msg);
}

static void cpng_on_warning(png_structp png, png_const_charp msg) {
    cpng_state *st = (cpng_state *)png_get_error_ptr(png);
    // A failed allocation that libpng reports as a warning was handled (e.g. an ancillary chunk skipped).
    st->out_of_memory = 0;
    if (st->err->warning_count++ == 0) cpng_copy_message(st->err->warning, sizeof st->err->warning, msg);
}

static png_voidp cpng_malloc(png_structp png, png_alloc_size_t size) {
    void *p = malloc(size);
    if (p == NULL) {
        cpng_state *st = (cpng_state *)png_get_mem_ptr(png);
        if (st != NULL) st->out_of_memory = 1;
    }
    return p;
}

static void cpng_free(png_structp png, png_voidp p) {
    (void)png;
    free(p);
}

static void cpng_reset(cpng_error *err) { memset(err, 0, sizeof *err); }

static uint32_t cpng_be32(const uint8_t *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

const char *cpng_libpng_version(void) { return png_get_libpng_ver(NULL); }

// ---- Buffer ------------------------------------------------------------------------------------------

void cpng_buffer_free(cpng_buffer *buffer) {
    if (buffer == NULL) return;
    free(buffer->data);
    buffer->data = NULL;
    buffer->size = 0;
    buffer->capacity = 0;
}

// ---- Decoding ----------------------------------------------------------------------------------------

typedef struct cpng_decoder {
    cpng_state st;  // first member: libpng's error and mem pointers point here
    const uint8_t *data;
    size_t size;
    size_t offset;
    int reading_end;  // set once all image rows were read: truncation now means "no IEND"
    cpng_alloc_fn alloc;
    void *ctx;
    cpng_header *header;
    png_structp png;
    png_infop info;
    png_bytepp rows;
} cpng_decoder;

static void cpng_read_data(png_structp png, png_bytep out, size_t length) {
    cpng_decoder *d = (cpng_decoder *)png_get_io_ptr(png);
    if (length > d->size - d->offset) {
        // Never read past the end: the data is incomplete, report it through libpng's error path.
        char msg[200];
        png_uint_32 io = png_get_io_state(png) & PNG_IO_MASK_LOC;
        png_uint_32 chunk = png_get_io_chunk_type(png);
        char name[5] = {(char)(chunk >> 24), (char)(chunk >> 16), (char)(chunk >> 8), (char)chunk, 0};
        for (int i = 0; i < 4; i++) if (name[i] < 0x20 || name[i] > 0x7e) name[i] = '?';
        if (io == PNG_IO_CHUNK_HDR && d->reading_end) {
            snprintf(msg, sizeof msg, "truncated: no IEND chunk (the data ends after %zu bytes)", d->size);
        } else if (io == PNG_IO_CHUNK_HDR) {
            char after[32];
            if (chunk == 0) snprintf(after, sizeof after, "the signature");
            else snprintf(after, sizeof after, "the %s chunk", name);
            snprintf(msg, sizeof msg, "truncated: the data ends %s after %s (%zu bytes)",
                     d->offset == d->size ? "right" : "inside the chunk header", after, d->size);
        } else if (io == PNG_IO_CHUNK_DATA || io == PNG_IO_CHUNK_CRC) {
            snprintf(msg, sizeof msg, "truncated: the data ends inside the %s chunk (%zu bytes)", name, d->size);
        } else {
            snprintf(msg, sizeof msg, "truncated: the data ends after %zu bytes", d->size);
        }
        cpng_set(d->st.err, CPNG_ERR_TRUNCATED, msg);
        png_error(png, msg);
    }
    memcpy(out, d->data + d->offset, length);
    d->offset += length;
}

/// Rejects an over-size image from its IHDR before libpng allocates anything, but only when the IHDR
/// chunk is intact (CRC correct); a damaged IHDR is left to libpng, which reports the CRC error.
static int cpng_precheck_ihdr(const uint8_t *data, size_t size, cpng_header *header, cpng_error *err) {
    if (size < 33 || cpng_be32(data + 8) != 13 || memcmp(data + 12, "IHDR", 4) != 0) return CPNG_OK;
    uLong crc = crc32(0L, data + 12, 17);
    if ((uint32_t)crc != cpng_be32(data + 29)) return CPNG_OK;
    uint32_t w = cpng_be32(data + 16), h = cpng_be32(data + 20);
    if (w == 0 || h == 0) return CPNG_OK;  // invalid: libpng says so
    if (w > CPNG_MAX_DIMENSION || h > CPNG_MAX_DIMENSION || (uint64_t)w * h > CPNG_MAX_PIXELS) {
        if (header != NULL) {
            header->width = w;
            header->height = h;
            header->bit_depth = data[24];
            header->color_type = data[25];
            header->interlaced = data[28] == 1;
        }
        char msg[200];
        snprintf(msg, sizeof msg, "image size %ux%u is over the limit of %u pixels per side and %llu pixels in all",
                 w, h, CPNG_MAX_DIMENSION, CPNG_MAX_PIXELS);
        return cpng_set(err, CPNG_ERR_TOO_LARGE, msg);
    }
    return CPNG_OK;
}

static int cpng_decode_run(cpng_decoder *d) {
    if (setjmp(d->st.jmp)) return d->st.err->code != CPNG_OK ? d->st.err->code : CPNG_ERR_LIBPNG;

    d->png = png_create_read_struct_2(PNG_LIBPNG_VER_STRING, &d->st, cpng_on_error, cpng_on_warning, &d->st,
                                      cpng_malloc, cpng_free);
    if (d->png == NULL) cpng_fail(&d->st, CPNG_ERR_NO_MEMORY, "cannot create the libpng read struct");
    d->info = png_create_info_struct(d->png);
    if (d->info == NULL) cpng_fail(&d->st, CPNG_ERR_NO_MEMORY, "cannot create the libpng info struct");

    png_set_read_fn(d->png, d, cpng_read_data);
    // Bounds on everything libpng allocates: the image size, each ancillary chunk, the number of them.
    png_set_user_limits(d->png, CPNG_MAX_DIMENSION, CPNG_MAX_DIMENSION);
    png_set_chunk_malloc_max(d->png, CPNG_CHUNK_MALLOC_MAX);
    png_set_chunk_cache_max(d->png, 1000);
    // Critical chunks: a bad CRC is an error (the default). Ancillary chunks: also an error instead of
    // libpng's default "warn and discard"; a valid file has correct CRCs everywhere, so this rejects only
    // damaged files, whose image data we would not trust either.
    png_set_crc_action(d->png, PNG_CRC_DEFAULT, PNG_CRC_ERROR_QUIT);
#ifdef CPNG_FUZZING
    // Fuzzing builds only (Fuzz/run): use data with bad CRCs and Adler-32 checksums, so that mutations
    // reach the chunk and row code instead of stopping at a checksum.
    png_set_crc_action(d->png, PNG_CRC_QUIET_USE, PNG_CRC_QUIET_USE);
    png_set_option(d->png, PNG_IGNORE_ADLER32, PNG_OPTION_ON);
#endif
    // libpng reports some problems as "benign" and, by default, only warns and goes on: a chunk whose
    // declared length is over the limit is then allocated anyway (2 GB for a 44-byte file with a huge
    // tEXt length), and extra compressed data after the image is inflated to its end. Make them errors.
    png_set_benign_errors(d->png, 0);
    // Every ancillary chunk but tRNS is skipped unread: none changes the pixels we produce (no gamma, no
    // colour management), and text, ICC profiles and unknown chunks are where memory and time go.
    static const png_byte skipped[] = "bKGD\0cHRM\0eXIf\0gAMA\0hIST\0iCCP\0iTXt\0oFFs\0pCAL\0pHYs\0sBIT\0sCAL\0sPLT\0sRGB\0tEXt\0tIME\0zTXt";
    png_set_keep_unknown_chunks(d->png, PNG_HANDLE_CHUNK_NEVER, NULL, 0);
    png_set_keep_unknown_chunks(d->png, PNG_HANDLE_CHUNK_NEVER, skipped, (int)(sizeof skipped / 5));

    png_read_info(d->png, d->info);

    png_uint_32 w = 0, h = 0;
    int bit_depth = 0, color_type = 0, interlace = 0;
    png_get_IHDR(d->png, d->info, &w, &h, &bit_depth, &color_type, &interlace, NULL, NULL);
    if (d->header != NULL) {
        d->header->width = w;
        d->header->height = h;
        d->header->bit_depth = bit_depth;
        d->header->color_type = color_type;
        d->header->interlaced = interlace == PNG_INTERLACE_ADAM7;
    }
    if (w == 0 || h == 0 || w > CPNG_MAX_DIMENSION || h > CPNG_MAX_DIMENSION || (uint64_t)w * h > CPNG_MAX_PIXELS) {
        char msg[200];
        snprintf(msg, sizeof msg, "image size %ux%u is over the limit of %u pixels per side and %llu pixels in all",
                 (unsigned)w, (unsigned)h, CPNG_MAX_DIMENSION, CPNG_MAX_PIXELS);
        cpng_fail(&d->st, CPNG_ERR_TOO_LARGE, msg);
    }

    // Deflate cannot expand data more than 1032 times (a 258-byte match costs at least 2 bits), so a file
    // whose remaining bytes cannot hold the image's pixel bits is truncated: say so before the caller
    // allocates up to 1 GiB for a tiny file.
    uint64_t pixel_bytes = ((uint64_t)w * h * (uint64_t)png_get_channels(d->png, d->info) * (uint64_t)bit_depth + 7) / 8;
    if ((uint64_t)(d->size - d->offset) * 1032u < pixel_bytes) {
        char msg[200];
        snprintf(msg, sizeof msg, "truncated: %zu bytes of image data cannot hold a %ux%u image", d->size - d->offset,
                 (unsigned)w, (unsigned)h);
        cpng_fail(&d->st, CPNG_ERR_TRUNCATED, msg);
    }

    // The image's compressed data cannot be longer than deflate's worst case for its filtered rows (stored
    // blocks: 5 bytes per 65,535) plus the zlib wrapper; more is data after the image. Checked from the
    // chunk lengths before anything is inflated, so a small image with megabytes of extra IDAT (gigabytes
    // once inflated) fails at once. Margin: 64 KiB.
    {
        uint64_t channels = (uint64_t)png_get_channels(d->png, d->info);
        uint64_t row = ((uint64_t)w * channels * (uint64_t)bit_depth + 7) / 8 + 1;  // + the filter byte
        uint64_t raw = row * h;
        // Adam7: each of the 7 passes has at most h rows, each with a filter byte and at most one byte of rounding.
        if (interlace == PNG_INTERLACE_ADAM7) raw += 14ull * h + 64;
        uint64_t bound = raw + 5 * (raw / 65535 + 1) + 6 + CPNG_IDAT_MARGIN;
        uint64_t idat = 0;
        size_t at = 8;
        while (at + 12 <= d->size) {
            uint32_t length = cpng_be32(d->data + at);
            if (memcmp(d->data + at + 4, "IDAT", 4) == 0) idat += length;
            if (memcmp(d->data + at + 4, "IEND", 4) == 0) break;
            if ((uint64_t)length + 12 > (uint64_t)(d->size - at)) break;  // truncated: libpng will say where
            at += (size_t)length + 12;
        }
        if (idat > bound) {
            char msg[200];
            snprintf(msg, sizeof msg, "IDAT: %llu bytes of compressed data, more than a %ux%u image can need (%llu): extra data after the image",
                     (unsigned long long)idat, (unsigned)w, (unsigned)h, (unsigned long long)bound);
            cpng_fail(&d->st, CPNG_ERR_LIBPNG, msg);
        }
    }

    // Everything to straight RGBA8. No gamma: png_set_gamma / png_set_alpha_mode are never called.
    png_set_expand(d->png);  // palette -> RGB, grey < 8 bits -> 8 bits, tRNS -> alpha
    if (bit_depth == 16) png_set_scale_16(d->png);  // round(v * 255 / 65535), verified exhaustively by the tests
    if ((color_type & PNG_COLOR_MASK_COLOR) == 0) png_set_gray_to_rgb(d->png);
    if ((color_type & PNG_COLOR_MASK_ALPHA) == 0 && png_get_valid(d->png, d->info, PNG_INFO_tRNS) == 0) {
        png_set_filler(d->png, 0xFF, PNG_FILLER_AFTER);
    }
    (void)png_set_interlace_handling(d->png);
    png_read_update_info(d->png, d->info);

    size_t row_bytes = (size_t)w * 4;
    if (png_get_rowbytes(d->png, d->info) != row_bytes || png_get_channels(d->png, d->info) != 4 ||
        png_get_bit_depth(d->png, d->info) != 8) {
        cpng_fail(&d->st, CPNG_ERR_LIBPNG, "internal error: the transformations did not give RGBA8");
    }

    uint8_t *pixels = (uint8_t *)d->alloc(d->ctx, w, h);
    if (pixels == NULL) cpng_fail(&d->st, CPNG_ERR_CALLBACK, "the output allocation callback failed");
    d->rows = (png_bytepp)malloc((size_t)h * sizeof(png_bytep));
    if (d->rows == NULL) cpng_fail(&d->st, CPNG_ERR_NO_MEMORY, "out of memory for the row pointers");
    for (png_uint_32 y = 0; y < h; y++) d->rows[y] = pixels + (size_t)y * row_bytes;

    png_read_image(d->png, d->rows);
    // Reads the rest of the zlib stream (Adler-32), the chunks after IDAT (CRCs) and IEND.
    d->reading_end = 1;
    png_read_end(d->png, NULL);
    return CPNG_OK;
}

int cpng_decode(const uint8_t *data, size_t size, cpng_alloc_fn alloc, void *ctx, cpng_header *header,
                cpng_error *err) {
    cpng_error scratch;
    if (err == NULL) err = &scratch;
    cpng_reset(err);
    if (header != NULL) memset(header, 0, sizeof *header);
    if ((data == NULL && size != 0) || alloc == NULL) {
        return cpng_set(err, CPNG_ERR_INVALID_ARGUMENT, "cpng_decode: NULL data or allocation callback");
    }
    if (size == 0) return cpng_set(err, CPNG_ERR_NOT_PNG, "empty file");
    size_t sig = size < 8 ? size : 8;
    if (png_sig_cmp(data, 0, sig) != 0) return cpng_set(err, CPNG_ERR_NOT_PNG, "bad signature");
    if (size < 8) return cpng_set(err, CPNG_ERR_TRUNCATED, "truncated: the data ends inside the PNG signature");
    if (cpng_precheck_ihdr(data, size, header, err) != CPNG_OK) return err->code;

    cpng_decoder d;
    memset(&d, 0, sizeof d);
    d.st.err = err;
    d.data = data;
    d.size = size;
    d.alloc = alloc;
    d.ctx = ctx;
    d.header = header;
    int code = cpng_decode_run(&d);
    if (d.png != NULL) png_destroy_read_struct(&d.png, d.info != NULL ? &d.info : NULL, NULL);
    free(d.rows);
    if (code == CPNG_OK) {
        // Warnings are kept, everything else reset.
        err->code = CPNG_OK;
        err->message[0] = '\0';
    }
    return code;
}

// ---- Encoding ----------------------------------------------------------------------------------------

typedef struct cpng_encoder {
    cpng_state st;  // first member: libpng's error and mem pointers point here
    cpng_buffer *out;
    png_structp png;
    png_infop info;
} cpng_encoder;

static void cpng_write_data(png_structp png, png_bytep data, size_t length) {
    cpng_encoder *e = (cpng_encoder *)png_get_io_ptr(png);
    cpng_buffer *b = e->out;
    if (length > SIZE_MAX - b->size) cpng_fail(&e->st, CPNG_ERR_NO_MEMORY, "PNG output too large");
    size_t need = b->size + length;
    if (need > b->capacity) {
        size_t cap = b->capacity != 0 ? b->capacity : 64 * 1024;
        while (cap < need) cap = cap > SIZE_MAX / 2 ? need : cap * 2;
        uint8_t *p = (uint8_t *)realloc(b->data, cap);
        if (p == NULL) cpng_fail(&e->st, CPNG_ERR_NO_MEMORY, "out of memory growing the PNG output buffer");
        b->data = p;
        b->capacity = cap;
    }
    memcpy(b->data + b->size, data, length);
    b->size += length;
}

static void cpng_flush_data(png_structp png) { (void)png; }

static int cpng_check_options(const cpng_encode_options *o, cpng_error *err) {
    if (o == NULL) return cpng_set(err, CPNG_ERR_INVALID_ARGUMENT, "no encode options");
    if (o->zlib_level < 0 || o->zlib_level > 9) {
        return cpng_set(err, CPNG_ERR_INVALID_ARGUMENT, "zlib level must be 0...9");
    }
    if (o->filters == 0 || (o->filters & ~CPNG_FILTER_ALL) != 0) {
        return cpng_set(err, CPNG_ERR_INVALID_ARGUMENT, "filters must be a non-empty set of PNG filters");
    }
    if (o->strategy < CPNG_STRATEGY_DEFAULT || o->strategy > CPNG_STRATEGY_FIXED) {
        return cpng_set(err, CPNG_ERR_INVALID_ARGUMENT, "unknown zlib strategy");
    }
    return CPNG_OK;
}

/// Creates the write struct and applies the options. Must be called inside a `*_run` function after setjmp.
static void cpng_encode_begin(cpng_encoder *e, const cpng_encode_options *o) {
    e->png = png_create_write_struct_2(PNG_LIBPNG_VER_STRING, &e->st, cpng_on_error, cpng_on_warning, &e->st,
                                       cpng_malloc, cpng_free);
    if (e->png == NULL) cpng_fail(&e->st, CPNG_ERR_NO_MEMORY, "cannot create the libpng write struct");
    e->info = png_create_info_struct(e->png);
    if (e->info == NULL) cpng_fail(&e->st, CPNG_ERR_NO_MEMORY, "cannot create the libpng info struct");
    png_set_write_fn(e->png, e, cpng_write_data, cpng_flush_data);
    png_set_compression_level(e->png, o->zlib_level);
    png_set_compression_strategy(e->png, o->strategy);
    png_set_filter(e->png, PNG_FILTER_TYPE_BASE, o->filters);
}

/// The checks both encoders share: an output buffer (cleared), valid options, a size libpng takes.
static int cpng_encode_precheck(cpng_buffer *out, const cpng_encode_options *options, const void *image,
                                uint32_t width, uint32_t height, cpng_error *err) {
    if (out == NULL) return cpng_set(err, CPNG_ERR_INVALID_ARGUMENT, "no output buffer");
    memset(out, 0, sizeof *out);
    if (cpng_check_options(options, err) != CPNG_OK) return err->code;
    if (image == NULL || width == 0 || height == 0 || width > 0x7fffffffu || height > 0x7fffffffu) {
        return cpng_set(err, CPNG_ERR_INVALID_ARGUMENT, "image size must be 1...2^31-1 pixels per side");
    }
    return CPNG_OK;
}

static void cpng_encode_finish(cpng_encoder *e, int code) {
    if (e->png != NULL) png_destroy_write_struct(&e->png, e->info != NULL ? &e->info : NULL);
    if (code != CPNG_OK) cpng_buffer_free(e->out);
}

/// Starts an encode and writes the signature, IHDR and sRGB. Called after the caller's setjmp: a libpng
/// error in here longjmps back to it.
static void cpng_encode_header(cpng_encoder *e, const cpng_rgb8_source *s, const cpng_encode_options *o) {
    cpng_encode_begin(e, o);
    png_set_IHDR(e->png, e->info, s->width, s->height, 8, s->channels == 4 ? PNG_COLOR_TYPE_RGB_ALPHA : PNG_COLOR_TYPE_RGB,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_BASE, PNG_FILTER_TYPE_BASE);
    if (o->write_srgb) png_set_sRGB(e->png, e->info, PNG_sRGB_INTENT_PERCEPTUAL);
    png_write_info(e->png, e->info);
}

static int cpng_encode_rgb8_run(cpng_encoder *e, const cpng_rgb8_source *s, const cpng_encode_options *o) {
    if (setjmp(e->st.jmp)) return e->st.err->code != CPNG_OK ? e->st.err->code : CPNG_ERR_LIBPNG;
    cpng_encode_header(e, s, o);
    if (s->bytes_per_pixel == 4 && s->channels == 3) png_set_filler(e->png, 0, PNG_FILLER_AFTER);  // drop byte 4
    for (uint32_t y = 0; y < s->height; y++) {
        const uint8_t *row = s->row != NULL && !s->alpha_fallback ? s->row(s->ctx, y) : s->pixels + (size_t)y * s->row_stride;
        if (row == NULL) cpng_fail(&e->st, CPNG_ERR_CALLBACK, "the row callback failed");
        png_write_row(e->png, (png_const_bytep)row);
    }
    png_write_end(e->png, NULL);
    return CPNG_OK;
}

// ---- Encoding through the shim's own filter and zlib pieces (single filter) -------------------------

/// One piece of the zlib stream being built: a run of zero rows or a segment of rows.
typedef struct cpng_piece {
    uint32_t first_row;
    uint32_t rows;
    uint64_t hash;    // fingerprint of the filtered bytes
    size_t offset;    // where its compressed bytes start in the stream buffer
    size_t size;      // how many compressed bytes
    uint32_t adler;   // Adler-32 of its filtered bytes alone
} cpng_piece;

/// The compressed form of `rows` all-zero filtered rows, kept across images.
typedef struct cpng_zero_run {
    uint32_t rows;
    uint32_t adler;
    size_t size;
    uint8_t *data;
} cpng_zero_run;

/// A raw deflate stream and the settings it was made with.
typedef struct cpng_zstream {
    z_stream z;
    int ready, level, strategy;
} cpng_zstream;

struct cpng_encoder_cache {
    cpng_zstream image;  // segments: the options' level and strategy
    cpng_zstream runs_z; // zero runs: CPNG_ZERO_RUN_LEVEL (stored when the options say level 0)
    uint8_t *filtered;  // height rows of (1 + row_bytes), plus slack for 8-byte stores
    size_t filtered_cap;
    uint8_t *zero;      // per row: 1 if its filtered bytes after the filter byte are all zero
    size_t zero_cap;
    uint8_t *raw;       // two unfiltered rows (PNG layout) for sources that need a copy, and one filtered row
    size_t raw_cap;
    // What c->filtered holds: valid only after a whole image was filtered into it.
    int filtered_valid, filtered_type, filtered_channels;
    uint32_t filtered_width, filtered_height;
    int same;           // the last image filtered equals the one before it, byte for byte
    uint8_t *stream;    // the zlib stream being built
    size_t stream_size, stream_cap;
    int stream_valid, stream_level, stream_strategy;  // c->stream is the finished stream of c->filtered
    int last_repeated;  // the last encode reused the stream of the one before
    int ssse3;          // the processor has SSSE3 (x86-64)
    cpng_piece *pieces;
    size_t piece_count, piece_cap;
    // Zero runs are valid for one (row_bytes, filter, level); cleared when those change.
    cpng_zero_run *runs;
    size_t run_count, run_cap, run_bytes;
    size_t runs_row_bytes;
    int runs_filter, runs_level;
    uint8_t final_block[8];  // zlib's empty final block
    size_t final_block_size;
};

#ifndef CPNG_SEGMENT_PART
/// The most bytes of a segment compressed as one part: zlib's window buffer less its lookahead.
#define CPNG_SEGMENT_PART (65536 - 262)
#endif
#ifndef CPNG_ZERO_RUN_LEVEL
/// The zlib level of zero runs: made once per cache, so the slowest and smallest.
#define CPNG_ZERO_RUN_LEVEL 9
#endif
#ifndef CPNG_ZERO_RUN_PIECE
/// The most rows in one zero-run piece (a power of two); longer runs repeat it.
#define CPNG_ZERO_RUN_PIECE 32
#endif
/// Most bytes of zero runs one cache keeps; past that it starts again (outputs do not change).
#define CPNG_ZERO_RUN_CACHE_MAX (4u << 20)
/// The largest IDAT chunk written.
#define CPNG_IDAT_MAX (1u << 20)
/// Internal: an image given with `alpha_fallback` has a pixel that is not opaque.
#define CPNG_TRANSLUCENT (-1)

static int cpng_has_ssse3(void);

// 0: not decided yet, 1: use the processor's vector instructions where it has them, 2: scalar code only.
// Tests force the scalar paths on a machine that has SSSE3 to check they give the same bytes;
// `CPNG_FORCE_SCALAR=1` in the environment does the same for a whole run.
static _Atomic int cpng_vector_mode = 0;

void cpng_force_scalar(int on) { atomic_store_explicit(&cpng_vector_mode, on ? 2 : 1, memory_order_relaxed); }

int cpng_scalar_forced(void) {
    int mode = atomic_load_explicit(&cpng_vector_mode, memory_order_relaxed);
    if (mode == 0) {
        const char *env = getenv("CPNG_FORCE_SCALAR");
        mode = env != NULL && env[0] == '1' ? 2 : 1;
        atomic_store_explicit(&cpng_vector_mode, mode, memory_order_relaxed);
    }
    return mode == 2;
}

cpng_encoder_cache *cpng_encoder_cache_create(void) {
    cpng_encoder_cache *c = (cpng_encoder_cache *)calloc(1, sizeof(cpng_encoder_cache));
    if (c != NULL) c->ssse3 = !cpng_scalar_forced() && cpng_has_ssse3();
    return c;
}

static void cpng_clear_runs(cpng_encoder_cache *c) {
    for (size_t i = 0; i < c->run_count; i++) free(c->runs[i].data);
    c->run_count = 0;
    c->run_bytes = 0;
}

void cpng_encoder_cache_destroy(cpng_encoder_cache *c) {
    if (c == NULL) return;
    if (c->image.ready) deflateEnd(&c->image.z);
    if (c->runs_z.ready) deflateEnd(&c->runs_z.z);
    cpng_clear_runs(c);
    free(c->runs);
    free(c->filtered);
    free(c->zero);
    free(c->raw);
    free(c->stream);
    free(c->pieces);
    free(c);
}

/// Makes `*p` hold at least `need` bytes (contents kept). 0 when out of memory.
static int cpng_reserve(uint8_t **p, size_t *cap, size_t need) {
    if (need <= *cap) return 1;
    size_t n = *cap != 0 ? *cap : 4096;
    while (n < need) n = n > SIZE_MAX / 2 ? need : n * 2;
    uint8_t *q = (uint8_t *)realloc(*p, n);
    if (q == NULL) return 0;
    *p = q;
    *cap = n;
    return 1;
}

static inline uint64_t cpng_load64(const uint8_t *p) {
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

/// What cpng_up_rgba_to_rgb found: a byte of the row changed; a pixel's 4th byte is not 255.
#define CPNG_ROW_CHANGED 1
#define CPNG_ROW_TRANSLUCENT 2

/// Up filter from RGBA rows to RGB: out[i] = cur[i] - up[i] for the first three bytes of each pixel
/// (`up` NULL: the row above is zeros). Returns CPNG_ROW_CHANGED when `compare` is zero or a byte of
/// `out` changed (its old contents are compared as they are replaced), and CPNG_ROW_TRANSLUCENT when a
/// 4th byte of `cur` is not 255.
static int cpng_up_rgba_to_rgb_scalar(uint8_t *out, const uint8_t *cur, const uint8_t *up, uint32_t width, int compare) {
    unsigned changed = !compare, alpha = 0xFF;
    for (uint32_t x = 0; x < width; x++) {
        for (int k = 0; k < 3; k++) {
            uint8_t v = (uint8_t)(cur[4 * x + k] - (up != NULL ? up[4 * x + k] : 0));
            changed |= (unsigned)(out[k] ^ v);
            out[k] = v;
        }
        alpha &= cur[4 * x + 3];
        out += 3;
    }
    return (changed != 0 ? CPNG_ROW_CHANGED : 0) | (alpha != 0xFF ? CPNG_ROW_TRANSLUCENT : 0);
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
#include <immintrin.h>

static int cpng_has_ssse3(void) {
    unsigned a = 0, b = 0, c = 0, d = 0;
    return __get_cpuid(1, &a, &b, &c, &d) && (c & bit_SSSE3) != 0;
}

/// cpng_up_rgba_to_rgb_scalar, 16 pixels at a time: subtract, drop every 4th byte with a shuffle, and
/// join four 12-byte results into three 16-byte stores.
__attribute__((target("ssse3")))
static int cpng_up_rgba_to_rgb_ssse3(uint8_t *out, const uint8_t *cur, const uint8_t *up, uint32_t width, int compare) {
    const __m128i pack = _mm_setr_epi8(0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1);
    __m128i diff = _mm_setzero_si128(), alpha = _mm_set1_epi8(-1);
    uint32_t x = 0;
    for (; x + 16 <= width; x += 16) {
        __m128i v[4];
        for (int k = 0; k < 4; k++) {
            __m128i c = _mm_loadu_si128((const __m128i *)(cur + 4 * (x + 4 * k)));
            alpha = _mm_and_si128(alpha, c);
            if (up != NULL) c = _mm_sub_epi8(c, _mm_loadu_si128((const __m128i *)(up + 4 * (x + 4 * k))));
            v[k] = _mm_shuffle_epi8(c, pack);
        }
        __m128i o0 = _mm_or_si128(v[0], _mm_slli_si128(v[1], 12));
        __m128i o1 = _mm_or_si128(_mm_srli_si128(v[1], 4), _mm_slli_si128(v[2], 8));
        __m128i o2 = _mm_or_si128(_mm_srli_si128(v[2], 8), _mm_slli_si128(v[3], 4));
        if (compare) {
            diff = _mm_or_si128(diff, _mm_xor_si128(o0, _mm_loadu_si128((const __m128i *)out)));
            diff = _mm_or_si128(diff, _mm_xor_si128(o1, _mm_loadu_si128((const __m128i *)(out + 16))));
            diff = _mm_or_si128(diff, _mm_xor_si128(o2, _mm_loadu_si128((const __m128i *)(out + 32))));
        }
        _mm_storeu_si128((__m128i *)out, o0);
        _mm_storeu_si128((__m128i *)(out + 16), o1);
        _mm_storeu_si128((__m128i *)(out + 32), o2);
        out += 48;
    }
    int result = !compare || _mm_movemask_epi8(_mm_cmpeq_epi8(diff, _mm_setzero_si128())) != 0xFFFF ? CPNG_ROW_CHANGED : 0;
    // Bytes 3, 7, 11, 15 are the alphas.
    if ((_mm_movemask_epi8(_mm_cmpeq_epi8(alpha, _mm_set1_epi8(-1))) & 0x8888) != 0x8888) result |= CPNG_ROW_TRANSLUCENT;
    if (x < width) {
        const uint8_t *u = up != NULL ? up + 4 * x : NULL;
        result |= cpng_up_rgba_to_rgb_scalar(out, cur + 4 * x, u, width - x, compare);
    }
    return result;
}
#else
static int cpng_has_ssse3(void) { return 0; }
#endif

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
/// Adler-32 (as zlib's adler32) 32 bytes at a time: per 32-byte block, s2 gains 32 times the s1 before
/// it plus the bytes weighted 32...1, and s1 gains their sum; reduced modulo 65521 at least every 5536
/// bytes, before the 32-bit lanes can overflow.
__attribute__((target("ssse3")))
static uint32_t cpng_adler32_ssse3(uint32_t adler, const uint8_t *p, size_t n) {
    uint32_t s1 = adler & 0xFFFF, s2 = adler >> 16;
    const __m128i weights_hi = _mm_setr_epi8(32, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17);
    const __m128i weights_lo = _mm_setr_epi8(16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1);
    const __m128i ones = _mm_set1_epi16(1), zero = _mm_setzero_si128();
    while (n >= 32) {
        size_t blocks = n / 32 < 173 ? n / 32 : 173;  // 173 * 32 = 5536 <= 5552, zlib's NMAX
        n -= blocks * 32;
        __m128i before = _mm_cvtsi32_si128((int)(s1 * (uint32_t)blocks));  // s1 as it was, once per block
        __m128i sum = zero, weighted = _mm_cvtsi32_si128((int)s2);
        do {
            const __m128i a = _mm_loadu_si128((const __m128i *)p), b = _mm_loadu_si128((const __m128i *)(p + 16));
            before = _mm_add_epi32(before, sum);
            sum = _mm_add_epi32(sum, _mm_add_epi32(_mm_sad_epu8(a, zero), _mm_sad_epu8(b, zero)));
            weighted = _mm_add_epi32(weighted, _mm_madd_epi16(_mm_maddubs_epi16(a, weights_hi), ones));
            weighted = _mm_add_epi32(weighted, _mm_madd_epi16(_mm_maddubs_epi16(b, weights_lo), ones));
            p += 32;
        } while (--blocks);
        weighted = _mm_add_epi32(weighted, _mm_slli_epi32(before, 5));
        sum = _mm_add_epi32(sum, _mm_shuffle_epi32(sum, _MM_SHUFFLE(1, 0, 3, 2)));
        weighted = _mm_add_epi32(weighted, _mm_shuffle_epi32(weighted, _MM_SHUFFLE(2, 3, 0, 1)));
        weighted = _mm_add_epi32(weighted, _mm_shuffle_epi32(weighted, _MM_SHUFFLE(1, 0, 3, 2)));
        s1 = (s1 + (uint32_t)_mm_cvtsi128_si32(sum)) % 65521;
        s2 = (uint32_t)_mm_cvtsi128_si32(weighted) % 65521;
    }
    for (size_t i = 0; i < n; i++) {
        s1 += p[i];
        s2 += s1;
    }
    return (s2 % 65521) << 16 | (s1 % 65521);
}
#endif

/// Adler-32 of `n` bytes continuing from `adler`, exactly as zlib's adler32.
static uint32_t cpng_adler32(uint32_t adler, const uint8_t *p, size_t n, int ssse3) {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    if (ssse3) return cpng_adler32_ssse3(adler, p, n);
#endif
    (void)ssse3;
    while (n > 0) {
        uInt chunk = n > (1u << 30) ? (1u << 30) : (uInt)n;
        adler = (uint32_t)adler32(adler, p, chunk);
        p += chunk;
        n -= chunk;
    }
    return adler;
}

static int cpng_up_rgba_to_rgb(uint8_t *out, const uint8_t *cur, const uint8_t *up, uint32_t width, int compare, int ssse3) {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    if (ssse3) return cpng_up_rgba_to_rgb_ssse3(out, cur, up, width, compare);
#endif
    (void)ssse3;
    return cpng_up_rgba_to_rgb_scalar(out, cur, up, width, compare);
}

static inline uint8_t cpng_paeth(uint8_t a, uint8_t b, uint8_t c) {
    int p = (int)a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c);
    return pa <= pb && pa <= pc ? a : (pb <= pc ? b : c);
}

/// Filters one raw row (`bpp` bytes a pixel, `n` bytes) with PNG filter type `type` (1...4, or 0 for
/// none) against `prev` (NULL for the first row: zeros).
static void cpng_filter_row(uint8_t *out, const uint8_t *cur, const uint8_t *prev, size_t n, size_t bpp, int type) {
    size_t i = 0;
    switch (type) {
    case 0: memcpy(out, cur, n); break;
    case 1:
        for (; i < bpp && i < n; i++) out[i] = cur[i];
        for (; i < n; i++) out[i] = (uint8_t)(cur[i] - cur[i - bpp]);
        break;
    case 2:
        if (prev == NULL) memcpy(out, cur, n);
        else for (; i < n; i++) out[i] = (uint8_t)(cur[i] - prev[i]);
        break;
    case 3:
        for (; i < bpp && i < n; i++) out[i] = (uint8_t)(cur[i] - ((prev != NULL ? prev[i] : 0) >> 1));
        for (; i < n; i++) out[i] = (uint8_t)(cur[i] - ((cur[i - bpp] + (prev != NULL ? prev[i] : 0)) >> 1));
        break;
    default:
        for (; i < bpp && i < n; i++) out[i] = (uint8_t)(cur[i] - (prev != NULL ? prev[i] : 0));
        if (prev == NULL) for (; i < n; i++) out[i] = (uint8_t)(cur[i] - cur[i - bpp]);  // Paeth(a, 0, 0) = a
        else for (; i < n; i++) out[i] = (uint8_t)(cur[i] - cpng_paeth(cur[i - bpp], prev[i], prev[i - bpp]));
        break;
    }
}

static int cpng_single_filter_type(int filters) {
    switch (filters) {
    case CPNG_FILTER_NONE: return 0;
    case CPNG_FILTER_SUB: return 1;
    case CPNG_FILTER_UP: return 2;
    case CPNG_FILTER_AVG: return 3;
    case CPNG_FILTER_PAETH: return 4;
    default: return -1;
    }
}

/// Filters the whole image into c->filtered and marks the all-zero rows. Sets c->same when the filtered
/// image equals the one already there (same size, channels and filter, every byte): rows are compared
/// as they are made, and an all-zero row that was all zero before is not even written.
static int cpng_filter_image(cpng_encoder_cache *c, const cpng_rgb8_source *s, int type, cpng_error *err) {
    const size_t w = s->width, h = s->height, bpp = (size_t)s->channels, row_bytes = w * bpp, stride = row_bytes + 1;
    // Detect rows equal to the row above only where that makes the filtered row zero.
    const int zero_rows = type == 2 || type == 4;
    if (!cpng_reserve(&c->filtered, &c->filtered_cap, stride * h) || !cpng_reserve(&c->zero, &c->zero_cap, h) ||
        !cpng_reserve(&c->raw, &c->raw_cap, 2 * row_bytes + stride + 16)) {
        return cpng_set(err, CPNG_ERR_NO_MEMORY, "out of memory for the filtered image");
    }
    const int comparable = c->filtered_valid && c->filtered_type == type && c->filtered_channels == s->channels &&
                           c->filtered_width == s->width && c->filtered_height == s->height;
    int same = comparable;
    c->filtered_valid = 0;
    uint8_t *fresh = c->raw + 2 * row_bytes;  // one filtered row, to compare before it replaces the old one
    const int from_pixels = s->row == NULL || s->alpha_fallback;
    const int direct = from_pixels && s->bytes_per_pixel == s->channels;
    const int fused = from_pixels && s->bytes_per_pixel == 4 && s->channels == 3 && type == 2;
    const uint8_t *prev = NULL;
    for (size_t y = 0; y < h; y++) {
        uint8_t *out = c->filtered + y * stride;
        const uint8_t *cur;
        if (fused || direct) {
            cur = s->pixels + y * s->row_stride;
        } else {
            const uint8_t *src = !from_pixels ? s->row(s->ctx, (uint32_t)y) : s->pixels + y * s->row_stride;
            if (src == NULL) return cpng_set(err, CPNG_ERR_CALLBACK, "the row callback failed");
            uint8_t *dst = c->raw + (y & 1) * row_bytes;
            if (s->bytes_per_pixel == s->channels) {
                memcpy(dst, src, row_bytes);
            } else {
                unsigned alpha = 0xFF;
                for (size_t x = 0; x < w; x++) {
                    memcpy(dst + 3 * x, src + 4 * x, 3);
                    alpha &= src[4 * x + 3];
                }
                if (s->alpha_fallback && alpha != 0xFF) return CPNG_TRANSLUCENT;
            }
            cur = dst;
        }
        // A row equal to the one above (all four bytes of each pixel when fused) is as opaque as it.
        if (zero_rows && prev != NULL && memcmp(cur, prev, fused ? w * 4 : row_bytes) == 0) {
            if (!(comparable && c->zero[y])) {
                out[0] = (uint8_t)type;
                memset(out + 1, 0, row_bytes);
                same = 0;
            }
            c->zero[y] = 1;
        } else if (fused) {
            // Filtered straight into place, compared with what it replaces as it goes.
            int found = cpng_up_rgba_to_rgb(out + 1, cur, prev, s->width, comparable, c->ssse3);
            if (s->alpha_fallback && (found & CPNG_ROW_TRANSLUCENT)) return CPNG_TRANSLUCENT;
            if (!comparable || out[0] != (uint8_t)type || (found & CPNG_ROW_CHANGED)) same = 0;
            out[0] = (uint8_t)type;
            c->zero[y] = 0;
        } else {
            uint8_t *dst = comparable ? fresh : out;
            dst[0] = (uint8_t)type;
            cpng_filter_row(dst + 1, cur, prev, row_bytes, bpp, type);
            if (comparable && memcmp(fresh, out, stride) != 0) {
                memcpy(out, fresh, stride);
                same = 0;
            }
            c->zero[y] = 0;
        }
        prev = cur;
    }
    c->filtered_valid = 1;
    c->filtered_type = type;
    c->filtered_channels = s->channels;
    c->filtered_width = s->width;
    c->filtered_height = s->height;
    c->same = same;
    return CPNG_OK;
}

/// A quick fingerprint of a segment for finding equal segments: its length and 64 words spread over it.
/// Equality is always confirmed with memcmp.
static uint64_t cpng_fingerprint(const uint8_t *p, size_t n) {
    uint64_t h = 0x9E3779B97F4A7C15ull ^ n;
    if (n < 8) {
        for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 0x100000001B3ull;
        return h;
    }
    for (size_t k = 0; k < 64; k++) {
        h = (h ^ cpng_load64(p + (n - 8) * k / 63)) * 0xFF51AFD7ED558CCDull;
        h ^= h >> 29;
    }
    return h;
}

/// (Re)makes `zs` for raw deflate at `level` / `strategy` if it was made for other settings, and resets
/// it: what it compresses next refers to nothing before.
static int cpng_zstream_reset(cpng_zstream *zs, int level, int strategy, cpng_error *err) {
    if (zs->ready && zs->level == level && zs->strategy == strategy) {
        return deflateReset(&zs->z) == Z_OK ? CPNG_OK : cpng_set(err, CPNG_ERR_LIBPNG, "zlib: deflateReset failed");
    }
    if (zs->ready) deflateEnd(&zs->z);
    zs->ready = 0;
    memset(&zs->z, 0, sizeof zs->z);
    int r = deflateInit2(&zs->z, level, Z_DEFLATED, -15, 8, strategy);
    if (r != Z_OK) return cpng_set(err, r == Z_MEM_ERROR ? CPNG_ERR_NO_MEMORY : CPNG_ERR_LIBPNG, "zlib: deflateInit2 failed");
    zs->ready = 1;
    zs->level = level;
    zs->strategy = strategy;
    return CPNG_OK;
}

/// Feeds `n` bytes to `zs` with flush mode `mode` for the last of them, appending the output to c->stream.
static int cpng_deflate_append(cpng_encoder_cache *c, cpng_zstream *zs, const uint8_t *in, size_t n, int mode,
                               cpng_error *err) {
    z_stream *z = &zs->z;
    for (;;) {
        uInt chunk = n > (1u << 30) ? (1u << 30) : (uInt)n;
        int m = chunk == n ? mode : Z_NO_FLUSH;
        z->next_in = (Bytef *)(uintptr_t)in;
        z->avail_in = chunk;
        for (;;) {
            size_t room = (size_t)deflateBound(z, z->avail_in) + 64;
            if (room > (1u << 30)) room = 1u << 30;
            if (!cpng_reserve(&c->stream, &c->stream_cap, c->stream_size + room)) {
                return cpng_set(err, CPNG_ERR_NO_MEMORY, "out of memory for the compressed image");
            }
            z->next_out = c->stream + c->stream_size;
            z->avail_out = (uInt)room;
            int r = deflate(z, m);
            c->stream_size = (size_t)(z->next_out - c->stream);
            if (r == Z_STREAM_ERROR) return cpng_set(err, CPNG_ERR_LIBPNG, "zlib: deflate failed");
            if (z->avail_out != 0) {
                if (m == Z_FINISH && r != Z_STREAM_END) return cpng_set(err, CPNG_ERR_LIBPNG, "zlib: deflate did not finish");
                break;
            }
        }
        in += chunk;
        n -= chunk;
        if (n == 0) return CPNG_OK;
    }
}

/// Appends the compressed run of `rows` zero rows like `row` (from the cache, or made and cached) and
/// returns its Adler-32 in `*adler`.
static int cpng_append_zero_run(cpng_encoder_cache *c, const uint8_t *row, size_t stride, uint32_t rows,
                                uint32_t *adler, cpng_error *err) {
    for (size_t i = 0; i < c->run_count; i++) {
        const cpng_zero_run *run = &c->runs[i];
        if (run->rows != rows) continue;
        if (!cpng_reserve(&c->stream, &c->stream_cap, c->stream_size + run->size)) {
            return cpng_set(err, CPNG_ERR_NO_MEMORY, "out of memory for the compressed image");
        }
        memcpy(c->stream + c->stream_size, run->data, run->size);
        c->stream_size += run->size;
        *adler = run->adler;
        return CPNG_OK;
    }
    size_t start = c->stream_size;
    int code = cpng_zstream_reset(&c->runs_z, c->runs_level, Z_DEFAULT_STRATEGY, err);
    uLong a = adler32(0L, Z_NULL, 0);
    for (uint32_t k = 0; k < rows && code == CPNG_OK; k++) {
        code = cpng_deflate_append(c, &c->runs_z, row, stride, k + 1 == rows ? Z_SYNC_FLUSH : Z_NO_FLUSH, err);
        a = cpng_adler32((uint32_t)a, row, stride, c->ssse3);
    }
    if (code != CPNG_OK) return code;
    *adler = (uint32_t)a;
    size_t size = c->stream_size - start;
    if (c->run_bytes + size > CPNG_ZERO_RUN_CACHE_MAX) cpng_clear_runs(c);
    if (c->run_count == c->run_cap) {
        size_t cap = c->run_cap != 0 ? c->run_cap * 2 : 16;
        cpng_zero_run *p = (cpng_zero_run *)realloc(c->runs, cap * sizeof *p);
        if (p == NULL) return CPNG_OK;  // not cached: the output is the same
        c->runs = p;
        c->run_cap = cap;
    }
    uint8_t *data = (uint8_t *)malloc(size != 0 ? size : 1);
    if (data == NULL) return CPNG_OK;
    memcpy(data, c->stream + start, size);
    c->runs[c->run_count++] = (cpng_zero_run){.rows = rows, .adler = (uint32_t)a, .size = size, .data = data};
    c->run_bytes += size;
    return CPNG_OK;
}

/// Appends the compressed segment of `rows` rows from `first` (reusing an equal earlier segment of this
/// image) and returns its Adler-32 in `*adler`.
static int cpng_append_segment(cpng_encoder_cache *c, size_t first, size_t rows, size_t stride, int level,
                               int strategy, uint32_t *adler, cpng_error *err) {
    const uint8_t *bytes = c->filtered + first * stride;
    size_t n = rows * stride;
    uint64_t hash = cpng_fingerprint(bytes, n);
    int comparisons = 0;
    for (size_t i = 0; i < c->piece_count && comparisons < 16; i++) {
        const cpng_piece p = c->pieces[i];
        if (p.rows != rows || p.hash != hash) continue;
        comparisons++;
        if (memcmp(c->filtered + (size_t)p.first_row * stride, bytes, n) != 0) continue;
        if (!cpng_reserve(&c->stream, &c->stream_cap, c->stream_size + p.size)) {
            return cpng_set(err, CPNG_ERR_NO_MEMORY, "out of memory for the compressed image");
        }
        memcpy(c->stream + c->stream_size, c->stream + p.offset, p.size);
        c->stream_size += p.size;
        *adler = p.adler;
        return CPNG_OK;
    }
    size_t start = c->stream_size;
    // In parts of whole rows that fit zlib's window buffer (2 x 32 KiB, less its lookahead): a stream
    // that never fills it never slides its hash tables, which costs more than starting afresh.
    size_t part_rows = CPNG_SEGMENT_PART / stride;
    if (part_rows == 0) part_rows = 1;
    for (size_t done = 0; done < rows;) {
        size_t k = rows - done < part_rows ? rows - done : part_rows;
        int code = cpng_zstream_reset(&c->image, level, strategy, err);
        if (code == CPNG_OK) code = cpng_deflate_append(c, &c->image, bytes + done * stride, k * stride, Z_SYNC_FLUSH, err);
        if (code != CPNG_OK) return code;
        done += k;
    }
    uint32_t a = cpng_adler32(1, bytes, n, c->ssse3);
    *adler = (uint32_t)a;
    if (c->piece_count == c->piece_cap) {
        size_t cap = c->piece_cap != 0 ? c->piece_cap * 2 : 64;
        cpng_piece *p = (cpng_piece *)realloc(c->pieces, cap * sizeof *p);
        if (p == NULL) return CPNG_OK;  // not remembered: later equal segments are compressed again
        c->pieces = p;
        c->piece_cap = cap;
    }
    c->pieces[c->piece_count++] = (cpng_piece){.first_row = (uint32_t)first, .rows = (uint32_t)rows, .hash = hash,
                                               .offset = start, .size = c->stream_size - start, .adler = (uint32_t)a};
    return CPNG_OK;
}

/// Filters and compresses the image into c->stream: one zlib stream (header, pieces, empty final block,
/// Adler-32).
static int cpng_build_stream(cpng_encoder_cache *c, const cpng_rgb8_source *s, const cpng_encode_options *o, int type,
                             cpng_error *err) {
    const size_t h = s->height, row_bytes = (size_t)s->width * (size_t)s->channels, stride = row_bytes + 1;
    c->last_repeated = 0;
    int code = cpng_filter_image(c, s, type, err);
    if (code != CPNG_OK) return code;
    if (c->same && c->stream_valid && c->stream_level == o->zlib_level && c->stream_strategy == o->strategy) {
        c->last_repeated = 1;  // the same filtered bytes with the same settings: the same stream
        return CPNG_OK;
    }
    c->stream_valid = 0;
    const int runs_level = o->zlib_level == 0 ? 0 : CPNG_ZERO_RUN_LEVEL;
    if (c->final_block_size == 0 || c->runs_row_bytes != row_bytes || c->runs_filter != type || c->runs_level != runs_level) {
        cpng_clear_runs(c);
        c->runs_row_bytes = row_bytes;
        c->runs_filter = type;
        c->runs_level = runs_level;
        // zlib's own empty final block.
        c->stream_size = 0;
        code = cpng_zstream_reset(&c->runs_z, runs_level, Z_DEFAULT_STRATEGY, err);
        if (code == CPNG_OK) code = cpng_deflate_append(c, &c->runs_z, NULL, 0, Z_FINISH, err);
        if (code != CPNG_OK) return code;
        if (c->stream_size == 0 || c->stream_size > sizeof c->final_block) {
            return cpng_set(err, CPNG_ERR_LIBPNG, "zlib: unexpected empty final block");
        }
        memcpy(c->final_block, c->stream, c->stream_size);
        c->final_block_size = c->stream_size;
    }
    c->stream_size = 0;
    c->piece_count = 0;

    // The zlib header, as deflate writes it for a 32 KiB window at this level and strategy.
    unsigned level_flags = o->strategy >= Z_HUFFMAN_ONLY || o->zlib_level < 2 ? 0 : o->zlib_level < 6 ? 1 : o->zlib_level == 6 ? 2 : 3;
    unsigned header = (Z_DEFLATED + ((15 - 8) << 4)) << 8 | level_flags << 6;
    header += 31 - header % 31;
    if (!cpng_reserve(&c->stream, &c->stream_cap, 2)) return cpng_set(err, CPNG_ERR_NO_MEMORY, "out of memory for the compressed image");
    c->stream[0] = (uint8_t)(header >> 8);
    c->stream[1] = (uint8_t)header;
    c->stream_size = 2;

    uLong adler = adler32(0L, Z_NULL, 0);
    size_t y = 0;
    while (y < h) {
        size_t z = y;
        while (z < h && c->zero[z]) z++;
        uint32_t piece_adler = 0;
        if (z - y >= CPNG_MIN_ZERO_RUN) {
            // A zero run: copies of the largest piece, then pieces of 2^j rows for the rest, largest
            // first: few sizes to make, each once per cache.
            for (size_t left = z - y; left > 0;) {
                size_t rows = CPNG_ZERO_RUN_PIECE;
                while (rows > left) rows >>= 1;
                code = cpng_append_zero_run(c, c->filtered + y * stride, stride, (uint32_t)rows, &piece_adler, err);
                if (code != CPNG_OK) return code;
                adler = adler32_combine(adler, piece_adler, (z_off_t)(rows * stride));
                left -= rows;
            }
            y = z;
            continue;
        }
        // A segment: up to the next run of at least CPNG_MIN_ZERO_RUN zero rows.
        size_t e = z;
        while (e < h) {
            if (!c->zero[e]) {
                e++;
                continue;
            }
            size_t f = e;
            while (f < h && c->zero[f]) f++;
            if (f - e >= CPNG_MIN_ZERO_RUN) break;
            e = f;
        }
        code = cpng_append_segment(c, y, e - y, stride, o->zlib_level, o->strategy, &piece_adler, err);
        if (code != CPNG_OK) return code;
        adler = adler32_combine(adler, piece_adler, (z_off_t)((e - y) * stride));
        y = e;
    }
    if (!cpng_reserve(&c->stream, &c->stream_cap, c->stream_size + c->final_block_size + 4)) {
        return cpng_set(err, CPNG_ERR_NO_MEMORY, "out of memory for the compressed image");
    }
    memcpy(c->stream + c->stream_size, c->final_block, c->final_block_size);
    c->stream_size += c->final_block_size;
    uint8_t *t = c->stream + c->stream_size;
    t[0] = (uint8_t)(adler >> 24);
    t[1] = (uint8_t)(adler >> 16);
    t[2] = (uint8_t)(adler >> 8);
    t[3] = (uint8_t)adler;
    c->stream_size += 4;
    c->stream_valid = 1;
    c->stream_level = o->zlib_level;
    c->stream_strategy = o->strategy;
    return CPNG_OK;
}

int cpng_encoder_cache_last_repeated(const cpng_encoder_cache *cache) { return cache != NULL && cache->last_repeated; }

/// Writes the signature, IHDR and sRGB (libpng), the finished zlib stream as IDAT chunks and IEND.
static int cpng_encode_stream_run(cpng_encoder *e, const cpng_rgb8_source *s, const cpng_encode_options *o,
                                  const uint8_t *stream, size_t size) {
    if (setjmp(e->st.jmp)) return e->st.err->code != CPNG_OK ? e->st.err->code : CPNG_ERR_LIBPNG;
    cpng_encode_header(e, s, o);
    for (size_t offset = 0; offset < size;) {
        size_t n = size - offset < CPNG_IDAT_MAX ? size - offset : CPNG_IDAT_MAX;
        png_write_chunk(e->png, (png_const_bytep)"IDAT", stream + offset, n);
        offset += n;
    }
    // png_write_end only ends what png_write_row began; the chunk is the same.
    png_write_chunk(e->png, (png_const_bytep)"IEND", NULL, 0);
    return CPNG_OK;
}

/// True when every 4th byte of every row of `s` (4 bytes a pixel, from `pixels`) is 255.
static int cpng_all_opaque(const cpng_rgb8_source *s) {
    for (uint32_t y = 0; y < s->height; y++) {
        const uint8_t *row = s->pixels + (size_t)y * s->row_stride;
        unsigned alpha = 0xFF;
        for (uint32_t x = 0; x < s->width; x++) alpha &= row[4 * x + 3];
        if (alpha != 0xFF) return 0;
    }
    return 1;
}

/// The largest filtered image (bytes) the shim's own pipeline holds in memory; larger ones go row by row
/// through libpng.
#define CPNG_FILTERED_MAX ((size_t)256 << 20)

int cpng_encode_rgb8_cached(cpng_encoder_cache *cache, const cpng_rgb8_source *source,
                            const cpng_encode_options *options, cpng_buffer *out, cpng_error *err) {
    cpng_error scratch;
    if (err == NULL) err = &scratch;
    cpng_reset(err);
    const cpng_rgb8_source *s = source;
    int checked = cpng_encode_precheck(out, options, s, s ? s->width : 0, s ? s->height : 0, err);
    if (checked != CPNG_OK) return checked;
    if ((s->channels != 3 && s->channels != 4) || (s->bytes_per_pixel != s->channels && !(s->channels == 3 && s->bytes_per_pixel == 4))) {
        return cpng_set(err, CPNG_ERR_INVALID_ARGUMENT, "channels must be 3 or 4, bytes per pixel the same or 4");
    }
    if ((s->row == NULL || s->alpha_fallback) && (s->pixels == NULL || s->row_stride < (size_t)s->width * (size_t)s->bytes_per_pixel)) {
        return cpng_set(err, CPNG_ERR_INVALID_ARGUMENT, "no pixels, or a row stride shorter than a row");
    }
    if (s->alpha_fallback && (s->channels != 3 || s->bytes_per_pixel != 4 || s->row == NULL)) {
        return cpng_set(err, CPNG_ERR_INVALID_ARGUMENT, "alpha fallback needs 3 channels of 4 bytes and a row callback");
    }
    // The same image as RGBA from the row callback, for when it turns out not to be opaque.
    cpng_rgb8_source rgba = *s;
    rgba.channels = 4;
    rgba.pixels = NULL;
    rgba.alpha_fallback = 0;

    if (cache != NULL) cache->last_repeated = 0;
    cpng_encoder e;
    memset(&e, 0, sizeof e);
    e.st.err = err;
    e.out = out;
    int type = cpng_single_filter_type(options->filters);
    uint64_t filtered = ((uint64_t)s->width * (uint64_t)(s->alpha_fallback ? 4 : s->channels) + 1) * (uint64_t)s->height;
    int code;
    if (type < 0 || filtered > CPNG_FILTERED_MAX) {
        if (s->alpha_fallback && !cpng_all_opaque(s)) s = &rgba;
        code = cpng_encode_rgb8_run(&e, s, options);
    } else {
        cpng_encoder_cache *c = cache != NULL ? cache : cpng_encoder_cache_create();
        if (c == NULL) return cpng_set(err, CPNG_ERR_NO_MEMORY, "out of memory for the encoder");
        // After a translucent image, check first, so that a translucent sequence keeps what the cache
        // compares with; else find out while filtering.
        if (s->alpha_fallback && c->filtered_valid && c->filtered_channels == 4 && !cpng_all_opaque(s)) s = &rgba;
        code = cpng_build_stream(c, s, options, type, err);
        if (code == CPNG_TRANSLUCENT) {
            s = &rgba;
            code = cpng_build_stream(c, s, options, type, err);
        }
        if (code == CPNG_OK) {
            // The whole file in one allocation: the stream plus the chunks around it.
            out->data = (uint8_t *)malloc(c->stream_size + 256);
            if (out->data != NULL) out->capacity = c->stream_size + 256;
            code = cpng_encode_stream_run(&e, s, options, c->stream, c->stream_size);
        }
        if (c != cache) cpng_encoder_cache_destroy(c);
    }
    cpng_encode_finish(&e, code);
    if (code == CPNG_OK) err->message[0] = '\0';
    return code;
}

int cpng_encode_rgb8(const cpng_rgb8_source *source, const cpng_encode_options *options, cpng_buffer *out,
                     cpng_error *err) {
    return cpng_encode_rgb8_cached(NULL, source, options, out, err);
}

static int cpng_channels(int color_type) {
    switch (color_type) {
    case PNG_COLOR_TYPE_GRAY: return 1;
    case PNG_COLOR_TYPE_GRAY_ALPHA: return 2;
    case PNG_COLOR_TYPE_RGB: return 3;
    case PNG_COLOR_TYPE_RGB_ALPHA: return 4;
    case PNG_COLOR_TYPE_PALETTE: return 1;
    default: return 0;
    }
}

static int cpng_valid_depth(int color_type, int depth) {
    switch (color_type) {
    case PNG_COLOR_TYPE_GRAY: return depth == 1 || depth == 2 || depth == 4 || depth == 8 || depth == 16;
    case PNG_COLOR_TYPE_PALETTE: return depth == 1 || depth == 2 || depth == 4 || depth == 8;
    default: return depth == 8 || depth == 16;
    }
}

static int cpng_encode_raw_run(cpng_encoder *e, const cpng_raw_image *im, const cpng_encode_options *o) {
    if (setjmp(e->st.jmp)) return e->st.err->code != CPNG_OK ? e->st.err->code : CPNG_ERR_LIBPNG;
    cpng_encode_begin(e, o);
    png_set_IHDR(e->png, e->info, im->width, im->height, im->bit_depth, im->color_type,
                 im->interlaced ? PNG_INTERLACE_ADAM7 : PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_BASE,
                 PNG_FILTER_TYPE_BASE);
    if (im->palette != NULL && im->palette_count > 0) {
        png_set_PLTE(e->png, e->info, (png_const_colorp)(const void *)im->palette, im->palette_count);
    }
    if (im->color_type == PNG_COLOR_TYPE_PALETTE && im->palette_alpha != NULL && im->palette_alpha_count > 0) {
        png_set_tRNS(e->png, e->info, im->palette_alpha, im->palette_alpha_count, NULL);
    } else if (im->has_trns_color) {
        png_color_16 c;
        memset(&c, 0, sizeof c);
        c.gray = im->trns_gray;
        c.red = im->trns_red;
        c.green = im->trns_green;
        c.blue = im->trns_blue;
        png_set_tRNS(e->png, e->info, NULL, 0, &c);
    }
    if (o->write_srgb) png_set_sRGB(e->png, e->info, PNG_sRGB_INTENT_PERCEPTUAL);
    png_write_info(e->png, e->info);
    int passes = im->interlaced ? png_set_interlace_handling(e->png) : 1;
    for (int pass = 0; pass < passes; pass++) {
        for (uint32_t y = 0; y < im->height; y++) png_write_row(e->png, im->rows + (size_t)y * im->row_stride);
    }
    png_write_end(e->png, NULL);
    return CPNG_OK;
}

int cpng_encode_raw(const cpng_raw_image *image, const cpng_encode_options *options, cpng_buffer *out,
                    cpng_error *err) {
    cpng_error scratch;
    if (err == NULL) err = &scratch;
    cpng_reset(err);
    const cpng_raw_image *im = image;
    int checked = cpng_encode_precheck(out, options, im, im ? im->width : 0, im ? im->height : 0, err);
    if (checked != CPNG_OK) return checked;
    int channels = cpng_channels(im->color_type);
    if (channels == 0) return cpng_set(err, CPNG_ERR_INVALID_ARGUMENT, "unknown colour type");
    if (!cpng_valid_depth(im->color_type, im->bit_depth)) {
        return cpng_set(err, CPNG_ERR_INVALID_ARGUMENT, "bit depth not allowed for this colour type");
    }
    uint64_t row_bytes = ((uint64_t)im->width * (uint64_t)channels * (uint64_t)im->bit_depth + 7) / 8;
    if (im->rows == NULL || im->row_stride < row_bytes) {
        return cpng_set(err, CPNG_ERR_INVALID_ARGUMENT, "no rows, or a row stride shorter than a row");
    }
    if (im->color_type == PNG_COLOR_TYPE_PALETTE &&
        (im->palette == NULL || im->palette_count < 1 || im->palette_count > 256 ||
         im->palette_alpha_count < 0 || im->palette_alpha_count > im->palette_count)) {
        return cpng_set(err, CPNG_ERR_INVALID_ARGUMENT, "a palette image needs 1...256 entries and at most as many alphas");
    }
    if (im->has_trns_color && (im->color_type & PNG_COLOR_MASK_ALPHA) != 0) {
        return cpng_set(err, CPNG_ERR_INVALID_ARGUMENT, "a tRNS colour needs a grey or RGB image");
    }

    cpng_encoder e;
    memset(&e, 0, sizeof e);
    e.st.err = err;
    e.out = out;
    int code = cpng_encode_raw_run(&e, im, options);
    cpng_encode_finish(&e, code);
    if (code == CPNG_OK) err->message[0] = '\0';
    return code;
}
