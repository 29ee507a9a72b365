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

int cpng_encode_rgb8(const cpng_rgb8_source *source, const cpng_encode_options *options, cpng_buffer *out,
                     cpng_error *err) {
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
    // Not opaque: the same image as RGBA from the row callback.
    cpng_rgb8_source rgba = *s;
    rgba.channels = 4;
    rgba.pixels = NULL;
    rgba.alpha_fallback = 0;
    if (s->alpha_fallback && !cpng_all_opaque(s)) s = &rgba;

    cpng_encoder e;
    memset(&e, 0, sizeof e);
    e.st.err = err;
    e.out = out;
    int code = cpng_encode_rgb8_run(&e, s, options);
    cpng_encode_finish(&e, code);
    if (code == CPNG_OK) err->message[0] = '\0';
    return code;
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
