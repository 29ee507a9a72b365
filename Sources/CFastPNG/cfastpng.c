// Smokescreen's single-filter PNG encoder. See include/cfastpng.h for why it exists and what each
// function promises.
//
// Nothing here calls libpng: the filtered rows, the zlib stream and every chunk (signature, IHDR, sRGB,
// IDAT, IEND, each CRC) are made here, with zlib (or ISA-L's igzip, for CFPNG_COMPRESSOR_ISAL) for
// deflate, and zlib for Adler-32 and CRC-32. The bytes are those
// libpng writes for the same chunks, so a file does not change with the encoder that wrote it.

#include "cfastpng.h"

#include "ccpu_features.h"

#include <zlib.h>
#include <isa-l.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

_Static_assert(CFPNG_STRATEGY_DEFAULT == Z_DEFAULT_STRATEGY, "strategy");
_Static_assert(CFPNG_STRATEGY_FILTERED == Z_FILTERED, "strategy");
_Static_assert(CFPNG_STRATEGY_HUFFMAN_ONLY == Z_HUFFMAN_ONLY, "strategy");
_Static_assert(CFPNG_STRATEGY_RLE == Z_RLE, "strategy");
_Static_assert(CFPNG_STRATEGY_FIXED == Z_FIXED, "strategy");

// ---- Errors and buffers ------------------------------------------------------------------------------

/// Records `code` and `msg` (unless a code was recorded already) and returns the code.
static int cfpng_set(cfpng_error *err, int code, const char *msg) {
    if (err->code == CFPNG_OK) {
        err->code = code;
        size_t n = strlen(msg);
        if (n >= sizeof err->message) n = sizeof err->message - 1;
        memcpy(err->message, msg, n);
        err->message[n] = '\0';
    }
    return err->code;
}

void cfpng_buffer_free(cfpng_buffer *buffer) {
    if (buffer == NULL) return;
    free(buffer->data);
    buffer->data = NULL;
    buffer->size = 0;
    buffer->capacity = 0;
}

// ---- The filtered image and its zlib stream -----------------------------------------------------------

/// One piece of the zlib stream being built: a run of zero rows or a segment of rows.
typedef struct cfpng_piece {
    uint32_t first_row;
    uint32_t rows;
    uint64_t hash;    // fingerprint of the filtered bytes
    size_t offset;    // where its compressed bytes start in the stream buffer
    size_t size;      // how many compressed bytes
    uint32_t adler;   // Adler-32 of its filtered bytes alone
} cfpng_piece;

/// The compressed form of `rows` all-zero filtered rows, kept across images.
typedef struct cfpng_zero_run {
    uint32_t rows;
    uint32_t adler;
    size_t size;
    uint8_t *data;
} cfpng_zero_run;

/// A 128-bit hash of a row (not cryptographic; see cfpng_hash128).
typedef struct cfpng_hash {
    uint64_t lo, hi;
} cfpng_hash;

/// A raw deflate stream and the settings it was made with.
typedef struct cfpng_zstream {
    z_stream z;
    int ready, level, strategy;
} cfpng_zstream;

struct cfpng_cache {
    cfpng_zstream image;  // segments: the options' level and strategy
    cfpng_zstream runs_z; // zero runs: CFPNG_ZERO_RUN_LEVEL (stored when the options say level 0)
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
    int ssse3;          // use the SSSE3 code (ccpu_features() when the cache was made)
    int avx;            // the processor has AVX (so vzeroupper may run after ISA-L)
    cfpng_piece *pieces;
    size_t piece_count, piece_cap;
    // Zero runs are valid for one (row_bytes, filter, level); cleared when those change.
    cfpng_zero_run *runs;
    size_t run_count, run_cap, run_bytes;
    size_t runs_row_bytes;
    int runs_filter, runs_level;
    uint8_t final_block[8];  // zlib's empty final block
    size_t final_block_size;
    int stream_compressor;   // the compressor of c->stream
    // Streamed encodes (sources with pixels in memory) never hold the filtered image: the rows are
    // scanned once for rows equal to the one above and a 128-bit hash of each row, then filtered part by
    // part (c->part) as they are compressed. What the repeat checks need of the previous image is its
    // zero-row flags and row hashes (c->prev_zero, c->prev_hashes).
    uint8_t *part;             // one part of filtered rows
    size_t part_cap;
    cfpng_hash *hashes, *prev_hashes;  // per row: 128-bit hash of the row as compared (see cfpng_scan_rows)
    size_t hashes_cap, prev_hashes_cap;
    uint8_t *prev_zero;
    size_t prev_zero_cap;
    int hashes_valid;          // prev_*: the last streamed image, whose stream c->stream is
    int prev_type, prev_channels, prev_bpp;
    uint32_t prev_width, prev_height;
    struct isal_zstream *isal;  // ISA-L's stream record, made the first time ISA-L is used
    uint8_t *isal_level_buf;    // its level buffer (hash table and tokens), sized for isal_level_buf_size
    size_t isal_level_buf_size;
};

#ifndef CFPNG_SEGMENT_PART
/// The most bytes of a segment compressed as one part: zlib's window buffer less its lookahead.
#define CFPNG_SEGMENT_PART (65536 - 262)
#endif
#ifndef CFPNG_ZERO_RUN_LEVEL
/// The zlib level of zero runs: made once per cache, so the slowest and smallest.
#define CFPNG_ZERO_RUN_LEVEL 9
#endif
#ifndef CFPNG_ZERO_RUN_PIECE
/// The most rows in one zero-run piece (a power of two); longer runs repeat it.
#define CFPNG_ZERO_RUN_PIECE 32
#endif
/// Most bytes of zero runs one cache keeps; past that it starts again (outputs do not change).
#define CFPNG_ZERO_RUN_CACHE_MAX (4u << 20)
/// Internal: an image given with `alpha_fallback` has a pixel that is not opaque.
#define CFPNG_TRANSLUCENT (-1)

// ---- ISA-L's stream record, at an address that cannot change its bytes ----------------------------------

// ISA-L 2.30's level 1 and 2 body (igzip_icf_body_h1_gr_bt.asm, `.write_first_byte`, the same in every
// SSE/AVX2/AVX-512 variant) computes the hash of the third byte of each new stream from rcx, which there
// still holds the stream record's address, instead of from the input: `shr rcx, 16` then crc32. So one
// hash-table slot, crc32c(address >> 16) & hash_mask, receives that byte's position, and later bytes
// that hash to that slot may match there. The output still inflates to the same bytes, but it depends on
// where malloc put the record: different per thread and per run. Every record is therefore mapped at an
// address whose slot is the same, CFPNG_ISAL_BUCKET, for every hash mask ISA-L uses (at most 15 bits):
// the bytes are then the same in any thread and any run on one machine.

/// The hash-table slot every ISA-L stream record's address gives (see above); any fixed value would do.
#define CFPNG_ISAL_BUCKET ((unsigned)CFPNG_ISAL_RECORD_BUCKET)
#define CFPNG_ISAL_BUCKET_MASK 0x7FFFu  // ISA-L's largest hash mask (level 2: IGZIP_HIST_SIZE - 1)

/// CRC-32C of the four bytes of `v` (little-endian) from zero, without inversion: the crc32 instruction's
/// result for a zero accumulator.
static uint32_t cfpng_crc32c_u32(uint32_t v) {
    uint32_t crc = v;
    for (int k = 0; k < 32; k++) crc = (crc >> 1) ^ (0x82F63B78u & (0u - (crc & 1u)));
    return crc;
}

/// The slot `record`'s address gives in ISA-L's level 1/2 body: crc32c of bits 16 to 47 of the address,
/// as the body's `compute_hash` (the SSE4.2 crc32 instruction, from zero) computes it.
static unsigned cfpng_isal_bucket(uintptr_t record) {
    return cfpng_crc32c_u32((uint32_t)(record >> 16)) & CFPNG_ISAL_BUCKET_MASK;
}

static size_t cfpng_isal_record_size(void) { return (sizeof(struct isal_zstream) + 4095) & ~(size_t)4095; }

/// A zeroed ISA-L stream record at an address whose bucket is CFPNG_ISAL_BUCKET: 64 KiB-aligned
/// candidates near an address the kernel offers are tried in turn (about one in 32,768 has the bucket),
/// each mapped only if free. NULL when none could be mapped.
static struct isal_zstream *cfpng_isal_record_alloc(void) {
    const size_t size = cfpng_isal_record_size();
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && defined(MAP_FIXED_NOREPLACE)
    void *probe = mmap(NULL, size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (probe == MAP_FAILED) return NULL;
    munmap(probe, size);
    // Downwards from the offered address (where the kernel places new mappings), then upwards.
    const uintptr_t start = (uintptr_t)probe & ~(uintptr_t)0xFFFF;
    for (int direction = 0; direction < 2; direction++) {
        uintptr_t a = start;
        for (int tries = 0; tries < (1 << 21); tries++) {
            a = direction == 0 ? a - 0x10000 : a + 0x10000;
            if (a < ((uintptr_t)1 << 32) || a > ((uintptr_t)1 << 47) - ((uintptr_t)1 << 24)) break;
            if (cfpng_isal_bucket(a) != CFPNG_ISAL_BUCKET) continue;
            void *p = mmap((void *)a, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
            if (p == (void *)a) return (struct isal_zstream *)p;  // fresh anonymous pages: zeroed
            if (p != MAP_FAILED) munmap(p, size);  // a kernel that ignores the flag put it elsewhere
        }
    }
    return NULL;
#else
    return (struct isal_zstream *)calloc(1, size);
#endif
}

static void cfpng_isal_record_free(struct isal_zstream *record) {
    if (record == NULL) return;
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && defined(MAP_FIXED_NOREPLACE)
    munmap(record, cfpng_isal_record_size());
#else
    free(record);
#endif
}

int cfpng_isal_record_bucket(const cfpng_cache *c) {
    return c != NULL && c->isal != NULL ? (int)cfpng_isal_bucket((uintptr_t)c->isal) : -1;
}

cfpng_cache *cfpng_cache_create(void) {
    cfpng_cache *c = (cfpng_cache *)calloc(1, sizeof(cfpng_cache));
    if (c != NULL) c->ssse3 = (ccpu_features() & CCPU_SSSE3) != 0;  // 0 while the scalar code is forced
    if (c != NULL) c->avx = (ccpu_features() & CCPU_AVX2) != 0;
    return c;
}

static void cfpng_clear_runs(cfpng_cache *c) {
    for (size_t i = 0; i < c->run_count; i++) free(c->runs[i].data);
    c->run_count = 0;
    c->run_bytes = 0;
}

void cfpng_cache_destroy(cfpng_cache *c) {
    if (c == NULL) return;
    if (c->image.ready) deflateEnd(&c->image.z);
    if (c->runs_z.ready) deflateEnd(&c->runs_z.z);
    cfpng_isal_record_free(c->isal);
    free(c->isal_level_buf);
    free(c->part);
    free(c->hashes);
    free(c->prev_hashes);
    free(c->prev_zero);
    cfpng_clear_runs(c);
    free(c->runs);
    free(c->filtered);
    free(c->zero);
    free(c->raw);
    free(c->stream);
    free(c->pieces);
    free(c);
}

/// Makes `*p` hold at least `need` bytes (contents kept). 0 when out of memory.
static int cfpng_reserve(uint8_t **p, size_t *cap, size_t need) {
    if (need <= *cap) return 1;
    size_t n = *cap != 0 ? *cap : 4096;
    while (n < need) n = n > SIZE_MAX / 2 ? need : n * 2;
    uint8_t *q = (uint8_t *)realloc(*p, n);
    if (q == NULL) return 0;
    *p = q;
    *cap = n;
    return 1;
}

static inline uint64_t cfpng_load64(const uint8_t *p) {
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

/// What cfpng_up_rgba_to_rgb found: a byte of the row changed; a pixel's 4th byte is not 255.
#define CFPNG_ROW_CHANGED 1
#define CFPNG_ROW_TRANSLUCENT 2

/// Up filter from RGBA rows to RGB: out[i] = cur[i] - up[i] for the first three bytes of each pixel
/// (`up` NULL: the row above is zeros). Returns CFPNG_ROW_CHANGED when `compare` is zero or a byte of
/// `out` changed (its old contents are compared as they are replaced), and CFPNG_ROW_TRANSLUCENT when a
/// 4th byte of `cur` is not 255.
static int cfpng_up_rgba_to_rgb_scalar(uint8_t *out, const uint8_t *cur, const uint8_t *up, uint32_t width, int compare) {
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
    return (changed != 0 ? CFPNG_ROW_CHANGED : 0) | (alpha != 0xFF ? CFPNG_ROW_TRANSLUCENT : 0);
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>

/// cfpng_up_rgba_to_rgb_scalar, 16 pixels at a time: subtract, drop every 4th byte with a shuffle, and
/// join four 12-byte results into three 16-byte stores.
__attribute__((target("ssse3")))
static int cfpng_up_rgba_to_rgb_ssse3(uint8_t *out, const uint8_t *cur, const uint8_t *up, uint32_t width, int compare) {
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
    int result = !compare || _mm_movemask_epi8(_mm_cmpeq_epi8(diff, _mm_setzero_si128())) != 0xFFFF ? CFPNG_ROW_CHANGED : 0;
    // Bytes 3, 7, 11, 15 are the alphas.
    if ((_mm_movemask_epi8(_mm_cmpeq_epi8(alpha, _mm_set1_epi8(-1))) & 0x8888) != 0x8888) result |= CFPNG_ROW_TRANSLUCENT;
    if (x < width) {
        const uint8_t *u = up != NULL ? up + 4 * x : NULL;
        result |= cfpng_up_rgba_to_rgb_scalar(out, cur + 4 * x, u, width - x, compare);
    }
    return result;
}
#endif

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
/// Adler-32 (as zlib's adler32) 32 bytes at a time: per 32-byte block, s2 gains 32 times the s1 before
/// it plus the bytes weighted 32...1, and s1 gains their sum; reduced modulo 65521 at least every 5536
/// bytes, before the 32-bit lanes can overflow.
__attribute__((target("ssse3")))
static uint32_t cfpng_adler32_ssse3(uint32_t adler, const uint8_t *p, size_t n) {
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
static uint32_t cfpng_adler32(uint32_t adler, const uint8_t *p, size_t n, int ssse3) {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    if (ssse3) return cfpng_adler32_ssse3(adler, p, n);
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

static int cfpng_up_rgba_to_rgb(uint8_t *out, const uint8_t *cur, const uint8_t *up, uint32_t width, int compare, int ssse3) {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    if (ssse3) return cfpng_up_rgba_to_rgb_ssse3(out, cur, up, width, compare);
#endif
    (void)ssse3;
    return cfpng_up_rgba_to_rgb_scalar(out, cur, up, width, compare);
}

static inline uint8_t cfpng_paeth(uint8_t a, uint8_t b, uint8_t c) {
    int p = (int)a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c);
    return pa <= pb && pa <= pc ? a : (pb <= pc ? b : c);
}

/// Filters one raw row (`bpp` bytes a pixel, `n` bytes) with PNG filter type `type` (1...4, or 0 for
/// none) against `prev` (NULL for the first row: zeros).
static void cfpng_filter_row(uint8_t *out, const uint8_t *cur, const uint8_t *prev, size_t n, size_t bpp, int type) {
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
        else for (; i < n; i++) out[i] = (uint8_t)(cur[i] - cfpng_paeth(cur[i - bpp], prev[i], prev[i - bpp]));
        break;
    }
}

/// Filters the whole image into c->filtered and marks the all-zero rows. Sets c->same when the filtered
/// image equals the one already there (same size, channels and filter, every byte): rows are compared
/// as they are made, and an all-zero row that was all zero before is not even written.
static int cfpng_filter_image(cfpng_cache *c, const cfpng_rgb8_source *s, int type, cfpng_error *err) {
    const size_t w = s->width, h = s->height, bpp = (size_t)s->channels, row_bytes = w * bpp, stride = row_bytes + 1;
    // Detect rows equal to the row above only where that makes the filtered row zero.
    const int zero_rows = type == 2 || type == 4;
    if (!cfpng_reserve(&c->filtered, &c->filtered_cap, stride * h) || !cfpng_reserve(&c->zero, &c->zero_cap, h) ||
        !cfpng_reserve(&c->raw, &c->raw_cap, 2 * row_bytes + stride + 16)) {
        return cfpng_set(err, CFPNG_ERR_NO_MEMORY, "out of memory for the filtered image");
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
            if (src == NULL) return cfpng_set(err, CFPNG_ERR_CALLBACK, "the row callback failed");
            uint8_t *dst = c->raw + (y & 1) * row_bytes;
            if (s->bytes_per_pixel == s->channels) {
                memcpy(dst, src, row_bytes);
            } else {
                unsigned alpha = 0xFF;
                for (size_t x = 0; x < w; x++) {
                    memcpy(dst + 3 * x, src + 4 * x, 3);
                    alpha &= src[4 * x + 3];
                }
                if (s->alpha_fallback && alpha != 0xFF) return CFPNG_TRANSLUCENT;
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
            int found = cfpng_up_rgba_to_rgb(out + 1, cur, prev, s->width, comparable, c->ssse3);
            if (s->alpha_fallback && (found & CFPNG_ROW_TRANSLUCENT)) return CFPNG_TRANSLUCENT;
            if (!comparable || out[0] != (uint8_t)type || (found & CFPNG_ROW_CHANGED)) same = 0;
            out[0] = (uint8_t)type;
            c->zero[y] = 0;
        } else {
            uint8_t *dst = comparable ? fresh : out;
            dst[0] = (uint8_t)type;
            cfpng_filter_row(dst + 1, cur, prev, row_bytes, bpp, type);
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
    return CFPNG_OK;
}

/// A quick fingerprint of a segment for finding equal segments: its length and 64 words spread over it.
/// Equality is always confirmed with memcmp.
static uint64_t cfpng_fingerprint(const uint8_t *p, size_t n) {
    uint64_t h = 0x9E3779B97F4A7C15ull ^ n;
    if (n < 8) {
        for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 0x100000001B3ull;
        return h;
    }
    for (size_t k = 0; k < 64; k++) {
        h = (h ^ cfpng_load64(p + (n - 8) * k / 63)) * 0xFF51AFD7ED558CCDull;
        h ^= h >> 29;
    }
    return h;
}

/// (Re)makes `zs` for raw deflate at `level` / `strategy` if it was made for other settings, and resets
/// it: what it compresses next refers to nothing before.
static int cfpng_zstream_reset(cfpng_zstream *zs, int level, int strategy, cfpng_error *err) {
    if (zs->ready && zs->level == level && zs->strategy == strategy) {
        return deflateReset(&zs->z) == Z_OK ? CFPNG_OK : cfpng_set(err, CFPNG_ERR_ZLIB, "zlib: deflateReset failed");
    }
    if (zs->ready) deflateEnd(&zs->z);
    zs->ready = 0;
    memset(&zs->z, 0, sizeof zs->z);
    int r = deflateInit2(&zs->z, level, Z_DEFLATED, -15, 8, strategy);
    if (r != Z_OK) return cfpng_set(err, r == Z_MEM_ERROR ? CFPNG_ERR_NO_MEMORY : CFPNG_ERR_ZLIB, "zlib: deflateInit2 failed");
    zs->ready = 1;
    zs->level = level;
    zs->strategy = strategy;
    return CFPNG_OK;
}

/// Frees `zs`'s deflate state (about 256 KiB at memLevel 8, most of it written by one use); the next
/// cfpng_zstream_reset makes it again. For the zero-run stream, used a few times per cache: kept, it
/// would stay resident in every render thread for nothing. A fresh stream and a reset one give the
/// same bytes.
static void cfpng_zstream_release(cfpng_zstream *zs) {
    if (zs->ready) deflateEnd(&zs->z);
    zs->ready = 0;
}

/// Feeds `n` bytes to `zs` with flush mode `mode` for the last of them, appending the output to c->stream.
static int cfpng_deflate_append(cfpng_cache *c, cfpng_zstream *zs, const uint8_t *in, size_t n, int mode,
                               cfpng_error *err) {
    z_stream *z = &zs->z;
    for (;;) {
        uInt chunk = n > (1u << 30) ? (1u << 30) : (uInt)n;
        int m = chunk == n ? mode : Z_NO_FLUSH;
        z->next_in = (Bytef *)(uintptr_t)in;
        z->avail_in = chunk;
        for (;;) {
            size_t room = (size_t)deflateBound(z, z->avail_in) + 64;
            if (room > (1u << 30)) room = 1u << 30;
            if (!cfpng_reserve(&c->stream, &c->stream_cap, c->stream_size + room)) {
                return cfpng_set(err, CFPNG_ERR_NO_MEMORY, "out of memory for the compressed image");
            }
            z->next_out = c->stream + c->stream_size;
            z->avail_out = (uInt)room;
            int r = deflate(z, m);
            c->stream_size = (size_t)(z->next_out - c->stream);
            if (r == Z_STREAM_ERROR) return cfpng_set(err, CFPNG_ERR_ZLIB, "zlib: deflate failed");
            if (z->avail_out != 0) {
                if (m == Z_FINISH && r != Z_STREAM_END) return cfpng_set(err, CFPNG_ERR_ZLIB, "zlib: deflate did not finish");
                break;
            }
        }
        in += chunk;
        n -= chunk;
        if (n == 0) return CFPNG_OK;
    }
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
/// vzeroupper: ISA-L's AVX2/AVX-512 code returns with the upper halves of vector registers dirty (it has
/// no vzeroupper), which slows the SSE code that runs next on this thread (the next frame's drawing).
__attribute__((target("avx"))) static void cfpng_clear_upper_vector_state(void) { _mm256_zeroupper(); }
#endif

/// The level buffer ISA-L's stateless deflate wants at `level` (0 needs none).
static size_t cfpng_isal_level_buf_size(int level) {
    switch (level) {
    case 1: return ISAL_DEF_LVL1_DEFAULT;
    case 2: return ISAL_DEF_LVL2_DEFAULT;
    case 3: return ISAL_DEF_LVL3_DEFAULT;
    default: return 0;
    }
}

/// Compresses `n` bytes with ISA-L at `level` as one raw deflate piece that ends byte-aligned with no final
/// block (a full flush, no end of stream), appended to c->stream. The piece refers to nothing before it.
static int cfpng_isal_append(cfpng_cache *c, const uint8_t *in, size_t n, int level, cfpng_error *err) {
    if (n > UINT32_MAX / 2) return cfpng_set(err, CFPNG_ERR_TOO_LARGE, "isa-l: segment too large");
    const size_t want = cfpng_isal_level_buf_size(level);
    if (c->isal == NULL) {
        c->isal = cfpng_isal_record_alloc();
        if (c->isal == NULL) return cfpng_set(err, CFPNG_ERR_NO_MEMORY, "out of memory for isa-l's stream (no address in its bucket)");
    }
    if (c->isal_level_buf_size < want) {
        uint8_t *b = (uint8_t *)realloc(c->isal_level_buf, want);
        if (b == NULL) return cfpng_set(err, CFPNG_ERR_NO_MEMORY, "out of memory for isa-l's level buffer");
        c->isal_level_buf = b;
        c->isal_level_buf_size = want;
    }
    // At most the input and a stored block's header per 64 KiB, plus a Huffman header and the flush.
    size_t room = n + (n >> 10) + 5 * (n / 65535 + 1) + ISAL_DEF_MAX_HDR_SIZE + 64;
    for (;;) {
        if (room > UINT32_MAX) room = UINT32_MAX;
        if (!cfpng_reserve(&c->stream, &c->stream_cap, c->stream_size + room)) {
            return cfpng_set(err, CFPNG_ERR_NO_MEMORY, "out of memory for the compressed image");
        }
        struct isal_zstream *z = c->isal;
        // isal_deflate_stateless_init leaves some fields as they were (hist_bits, the window size, among
        // them): garbage there would make the bytes depend on what the memory held before.
        memset(z, 0, sizeof *z);
        isal_deflate_stateless_init(z);
        z->hist_bits = 0;  // ISA-L's default window (32 KiB)
        z->level = (uint32_t)level;
        z->level_buf = want != 0 ? c->isal_level_buf : NULL;
        z->level_buf_size = (uint32_t)want;
        z->gzip_flag = IGZIP_DEFLATE;
        z->end_of_stream = 0;
        z->flush = FULL_FLUSH;
        z->next_in = (uint8_t *)(uintptr_t)in;
        z->avail_in = (uint32_t)n;
        z->next_out = c->stream + c->stream_size;
        z->avail_out = (uint32_t)room;
        int r = isal_deflate_stateless(z);
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
        if (c->avx) cfpng_clear_upper_vector_state();
#endif
        if (r == COMP_OK) {
            c->stream_size = (size_t)(z->next_out - c->stream);
            return CFPNG_OK;
        }
        if (r != STATELESS_OVERFLOW || room == UINT32_MAX) {
            char msg[80];
            snprintf(msg, sizeof msg, "isa-l: isal_deflate_stateless failed (%d)", r);
            return cfpng_set(err, CFPNG_ERR_ISAL, msg);
        }
        room *= 2;
    }
}

/// Appends the compressed run of `rows` zero rows like `row` (from the cache, or made and cached) and
/// returns its Adler-32 in `*adler`.
static int cfpng_append_zero_run(cfpng_cache *c, const uint8_t *row, size_t stride, uint32_t rows,
                                uint32_t *adler, cfpng_error *err) {
    for (size_t i = 0; i < c->run_count; i++) {
        const cfpng_zero_run *run = &c->runs[i];
        if (run->rows != rows) continue;
        if (!cfpng_reserve(&c->stream, &c->stream_cap, c->stream_size + run->size)) {
            return cfpng_set(err, CFPNG_ERR_NO_MEMORY, "out of memory for the compressed image");
        }
        memcpy(c->stream + c->stream_size, run->data, run->size);
        c->stream_size += run->size;
        *adler = run->adler;
        return CFPNG_OK;
    }
    size_t start = c->stream_size;
    int code = cfpng_zstream_reset(&c->runs_z, c->runs_level, Z_DEFAULT_STRATEGY, err);
    uLong a = adler32(0L, Z_NULL, 0);
    for (uint32_t k = 0; k < rows && code == CFPNG_OK; k++) {
        code = cfpng_deflate_append(c, &c->runs_z, row, stride, k + 1 == rows ? Z_SYNC_FLUSH : Z_NO_FLUSH, err);
        a = cfpng_adler32((uint32_t)a, row, stride, c->ssse3);
    }
    cfpng_zstream_release(&c->runs_z);
    if (code != CFPNG_OK) return code;
    *adler = (uint32_t)a;
    size_t size = c->stream_size - start;
    if (c->run_bytes + size > CFPNG_ZERO_RUN_CACHE_MAX) cfpng_clear_runs(c);
    if (c->run_count == c->run_cap) {
        size_t cap = c->run_cap != 0 ? c->run_cap * 2 : 16;
        cfpng_zero_run *p = (cfpng_zero_run *)realloc(c->runs, cap * sizeof *p);
        if (p == NULL) return CFPNG_OK;  // not cached: the output is the same
        c->runs = p;
        c->run_cap = cap;
    }
    uint8_t *data = (uint8_t *)malloc(size != 0 ? size : 1);
    if (data == NULL) return CFPNG_OK;
    memcpy(data, c->stream + start, size);
    c->runs[c->run_count++] = (cfpng_zero_run){.rows = rows, .adler = (uint32_t)a, .size = size, .data = data};
    c->run_bytes += size;
    return CFPNG_OK;
}

#ifndef CFPNG_ISAL_PART
/// The most bytes of a segment ISA-L compresses in one call: what the streamed encoder holds filtered.
#define CFPNG_ISAL_PART (256u * 1024u)
#endif

/// Rows of a segment compressed as one part: whole rows, at most CFPNG_SEGMENT_PART bytes for zlib (its
/// window buffer less its lookahead: a stream that never fills it never slides its hash tables, which
/// costs more than starting afresh) or CFPNG_ISAL_PART for ISA-L, and at least one row.
static size_t cfpng_part_rows(size_t stride, int compressor) {
    size_t rows = (compressor == CFPNG_COMPRESSOR_ISAL ? CFPNG_ISAL_PART : CFPNG_SEGMENT_PART) / stride;
    return rows != 0 ? rows : 1;
}

/// Compresses `n` filtered bytes as one piece that refers to nothing before it, appended to c->stream.
static int cfpng_compress_part(cfpng_cache *c, const uint8_t *bytes, size_t n, int level, int strategy, int compressor,
                               cfpng_error *err) {
    if (compressor == CFPNG_COMPRESSOR_ISAL) return cfpng_isal_append(c, bytes, n, level, err);
    int code = cfpng_zstream_reset(&c->image, level, strategy, err);
    if (code == CFPNG_OK) code = cfpng_deflate_append(c, &c->image, bytes, n, Z_SYNC_FLUSH, err);
    return code;
}

/// Appends the copy of an earlier piece of this image's stream.
static int cfpng_reuse_piece(cfpng_cache *c, const cfpng_piece *p, uint32_t *adler, cfpng_error *err) {
    if (!cfpng_reserve(&c->stream, &c->stream_cap, c->stream_size + p->size)) {
        return cfpng_set(err, CFPNG_ERR_NO_MEMORY, "out of memory for the compressed image");
    }
    memcpy(c->stream + c->stream_size, c->stream + p->offset, p->size);
    c->stream_size += p->size;
    *adler = p->adler;
    return CFPNG_OK;
}

/// Remembers the piece just appended from `start` (if memory allows: otherwise later equal segments are
/// compressed again, to the same bytes).
static void cfpng_remember_piece(cfpng_cache *c, size_t first, size_t rows, uint64_t hash, size_t start, uint32_t adler) {
    if (c->piece_count == c->piece_cap) {
        size_t cap = c->piece_cap != 0 ? c->piece_cap * 2 : 64;
        cfpng_piece *p = (cfpng_piece *)realloc(c->pieces, cap * sizeof *p);
        if (p == NULL) return;
        c->pieces = p;
        c->piece_cap = cap;
    }
    c->pieces[c->piece_count++] = (cfpng_piece){.first_row = (uint32_t)first, .rows = (uint32_t)rows, .hash = hash,
                                               .offset = start, .size = c->stream_size - start, .adler = adler};
}

/// Appends the compressed segment of `rows` rows from `first` of the held filtered image (reusing an
/// equal earlier segment of this image) and returns its Adler-32 in `*adler`.
static int cfpng_append_segment(cfpng_cache *c, size_t first, size_t rows, size_t stride, int level,
                               int strategy, int compressor, uint32_t *adler, cfpng_error *err) {
    const uint8_t *bytes = c->filtered + first * stride;
    size_t n = rows * stride;
    uint64_t hash = cfpng_fingerprint(bytes, n);
    int comparisons = 0;
    for (size_t i = 0; i < c->piece_count && comparisons < 16; i++) {
        const cfpng_piece p = c->pieces[i];
        if (p.rows != rows || p.hash != hash) continue;
        comparisons++;
        if (memcmp(c->filtered + (size_t)p.first_row * stride, bytes, n) != 0) continue;
        return cfpng_reuse_piece(c, &c->pieces[i], adler, err);
    }
    size_t start = c->stream_size;
    size_t part_rows = cfpng_part_rows(stride, compressor);
    for (size_t done = 0; done < rows;) {
        size_t k = rows - done < part_rows ? rows - done : part_rows;
        int code = cfpng_compress_part(c, bytes + done * stride, k * stride, level, strategy, compressor, err);
        if (code != CFPNG_OK) return code;
        done += k;
    }
    *adler = cfpng_adler32(1, bytes, n, c->ssse3);
    cfpng_remember_piece(c, first, rows, hash, start, *adler);
    return CFPNG_OK;
}

// ---- Streamed encodes: the source's rows, never the whole filtered image -------------------------------

/// A 128-bit hash of `n` bytes: four 64-bit lanes, each word xored in, multiplied by an odd constant and
/// rotated (a bijection of the lane for a given word, so a difference in one word always changes the
/// hash), then mixed down to 128 bits. Not cryptographic: a match is taken as equality only for whole
/// repeated images, where a false match needs two different images' rows to collide in 128 bits.
static cfpng_hash cfpng_hash128(const uint8_t *p, size_t n) {
    const uint64_t k0 = 0x9E3779B97F4A7C15ull, k1 = 0xC2B2AE3D27D4EB4Full, k2 = 0x165667B19E3779F9ull, k3 = 0xD6E8FEB86659FD93ull;
    uint64_t a = k0 ^ n, b = k1 + n, c = k2 ^ (n << 1), d = k3 - n;
#define CFPNG_LANE(x, w, k, r) x = (x ^ (w)) * (k), x = (x << (r)) | (x >> (64 - (r)))
    size_t i = 0;
    for (; i + 32 <= n; i += 32) {
        CFPNG_LANE(a, cfpng_load64(p + i), k1, 31);
        CFPNG_LANE(b, cfpng_load64(p + i + 8), k2, 29);
        CFPNG_LANE(c, cfpng_load64(p + i + 16), k3, 27);
        CFPNG_LANE(d, cfpng_load64(p + i + 24), k0, 33);
    }
    for (; i + 8 <= n; i += 8) CFPNG_LANE(a, cfpng_load64(p + i), k1, 31);
    if (i < n) {
        uint64_t w = 0;
        memcpy(&w, p + i, n - i);
        CFPNG_LANE(b, w ^ ((uint64_t)(n - i) << 56), k2, 29);
    }
#undef CFPNG_LANE
    // Mix: every lane into both halves.
    uint64_t lo = a ^ (c * k0), hi = b ^ (d * k1);
    lo ^= lo >> 29; lo *= k2; lo ^= hi >> 32;
    hi ^= hi >> 31; hi *= k3; hi ^= lo >> 27;
    lo += hi * k1;
    return (cfpng_hash){lo, hi};
}

/// What a streamed encode reads: the source's rows in memory and how they become filtered rows.
typedef struct cfpng_rows {
    const cfpng_rgb8_source *s;
    int type;         // the PNG filter
    int fused;        // RGBA in, RGB out, up filter: cfpng_up_rgba_to_rgb
    int direct;       // the source's pixels are the PNG's (bytes a pixel == channels)
    size_t row_bytes; // filtered row without its filter byte
    size_t stride;    // 1 + row_bytes
    size_t src_bytes; // bytes of a source row
} cfpng_rows;

static inline const uint8_t *cfpng_src_row(const cfpng_rows *r, size_t y) { return r->s->pixels + y * r->s->row_stride; }

/// RGBA to RGB; returns the AND of the alphas.
static unsigned cfpng_drop_alpha(uint8_t *dst, const uint8_t *src, size_t w) {
    unsigned alpha = 0xFF;
    for (size_t x = 0; x < w; x++) {
        memcpy(dst + 3 * x, src + 4 * x, 3);
        alpha &= src[4 * x + 3];
    }
    return alpha;
}

/// One pass over the rows: c->zero (rows equal to the one above, where the filter makes them zero) and
/// c->hashes (of each row as compared: the source row, or the RGB row when alpha is dropped without the
/// fused filter; a zero row takes the hash of the row above). CFPNG_TRANSLUCENT when alpha is dropped
/// with `alpha_fallback` and a pixel is not opaque (the fused filter finds that while filtering).
static int cfpng_scan_rows(cfpng_cache *c, const cfpng_rows *r) {
    const cfpng_rgb8_source *s = r->s;
    const int zero_rows = r->type == 2 || r->type == 4;
    const size_t compared = r->fused || r->direct ? r->src_bytes : r->row_bytes;
    const uint8_t *prev = NULL;
    for (size_t y = 0; y < s->height; y++) {
        const uint8_t *cur = cfpng_src_row(r, y);
        if (!r->fused && !r->direct) {
            uint8_t *dst = c->raw + (y & 1) * r->row_bytes;
            if (cfpng_drop_alpha(dst, cur, s->width) != 0xFF && s->alpha_fallback) return CFPNG_TRANSLUCENT;
            cur = dst;
        }
        if (zero_rows && prev != NULL && memcmp(cur, prev, compared) == 0) {
            c->zero[y] = 1;
            c->hashes[y] = c->hashes[y - 1];
        } else {
            c->zero[y] = 0;
            c->hashes[y] = cfpng_hash128(cur, compared);
        }
        prev = cur;
    }
    return CFPNG_OK;
}

/// Filters rows [y0, y0 + k) into `out` (k strides). CFPNG_TRANSLUCENT as cfpng_scan_rows.
static int cfpng_filter_rows(cfpng_cache *c, const cfpng_rows *r, size_t y0, size_t k, uint8_t *out) {
    const cfpng_rgb8_source *s = r->s;
    if (!r->fused && !r->direct && y0 > 0) cfpng_drop_alpha(c->raw + ((y0 - 1) & 1) * r->row_bytes, cfpng_src_row(r, y0 - 1), s->width);
    for (size_t y = y0; y < y0 + k; y++, out += r->stride) {
        out[0] = (uint8_t)r->type;
        const uint8_t *cur = cfpng_src_row(r, y), *prev = y > 0 ? cfpng_src_row(r, y - 1) : NULL;
        if (r->fused) {
            int found = cfpng_up_rgba_to_rgb(out + 1, cur, prev, s->width, 0, c->ssse3);
            if (s->alpha_fallback && (found & CFPNG_ROW_TRANSLUCENT)) return CFPNG_TRANSLUCENT;
        } else if (r->direct) {
            cfpng_filter_row(out + 1, cur, prev, r->row_bytes, (size_t)s->channels, r->type);
        } else {
            uint8_t *cu = c->raw + (y & 1) * r->row_bytes;
            cfpng_drop_alpha(cu, cur, s->width);
            cfpng_filter_row(out + 1, cu, prev != NULL ? c->raw + ((y - 1) & 1) * r->row_bytes : NULL, r->row_bytes, 3, r->type);
        }
    }
    return CFPNG_OK;
}

/// The key of a segment for finding equal ones: its rows' hashes, with the row above (which the filter
/// may read) when there is one.
static uint64_t cfpng_segment_key(const cfpng_cache *c, size_t first, size_t rows) {
    uint64_t h = 0x9E3779B97F4A7C15ull ^ rows ^ ((uint64_t)(first == 0) << 63);
    for (size_t y = first > 0 ? first - 1 : 0; y < first + rows; y++) {
        h = (h ^ c->hashes[y].lo) * 0xFF51AFD7ED558CCDull;
        h ^= (h >> 29) ^ c->hashes[y].hi;
    }
    return h;
}

/// Whether source rows [a - 1, a + rows) equal rows [b - 1, b + rows) byte for byte (the row above only
/// where both have one): then the segments' filtered bytes are equal.
static int cfpng_same_source(const cfpng_rows *r, size_t a, size_t b, size_t rows) {
    if ((a == 0) != (b == 0)) return 0;
    size_t from = a > 0 ? 1 : 0;
    for (size_t i = 0; i < rows + from; i++) {
        if (memcmp(cfpng_src_row(r, a - from + i), cfpng_src_row(r, b - from + i), r->src_bytes) != 0) return 0;
    }
    return 1;
}

/// cfpng_append_segment for a streamed encode: an equal earlier segment (same key, then the source rows
/// compared byte for byte) is reused; otherwise the rows are filtered part by part into c->part and
/// compressed, in the same parts as the held path, so the bytes are the same.
static int cfpng_append_streamed_segment(cfpng_cache *c, const cfpng_rows *r, size_t first, size_t rows, int level,
                                         int strategy, int compressor, uint32_t *adler, cfpng_error *err) {
    uint64_t key = cfpng_segment_key(c, first, rows);
    int comparisons = 0;
    for (size_t i = 0; i < c->piece_count && comparisons < 16; i++) {
        const cfpng_piece p = c->pieces[i];
        if (p.rows != rows || p.hash != key) continue;
        comparisons++;
        if (!cfpng_same_source(r, p.first_row, first, rows)) continue;
        return cfpng_reuse_piece(c, &c->pieces[i], adler, err);
    }
    size_t start = c->stream_size;
    size_t part_rows = cfpng_part_rows(r->stride, compressor);
    size_t most = (rows < part_rows ? rows : part_rows) * r->stride;
    if (!cfpng_reserve(&c->part, &c->part_cap, most + 16)) return cfpng_set(err, CFPNG_ERR_NO_MEMORY, "out of memory for a part of the image");
    uint32_t a = 1;
    for (size_t done = 0; done < rows;) {
        size_t k = rows - done < part_rows ? rows - done : part_rows;
        int code = cfpng_filter_rows(c, r, first + done, k, c->part);
        if (code == CFPNG_OK) code = cfpng_compress_part(c, c->part, k * r->stride, level, strategy, compressor, err);
        if (code != CFPNG_OK) return code;
        a = cfpng_adler32(a, c->part, k * r->stride, c->ssse3);
        done += k;
    }
    *adler = a;
    cfpng_remember_piece(c, first, rows, key, start, a);
    return CFPNG_OK;
}

/// Filters and compresses the image into c->stream: one zlib stream (header, pieces, empty final block,
/// Adler-32).
static int cfpng_build_stream(cfpng_cache *c, const cfpng_rgb8_source *s, const cfpng_options *o, int type,
                             cfpng_error *err) {
    const size_t h = s->height, row_bytes = (size_t)s->width * (size_t)s->channels, stride = row_bytes + 1;
    c->last_repeated = 0;
    // Pixels in memory: streamed (the filtered image is never held); rows from a callback: held.
    const int streamed = s->row == NULL || s->alpha_fallback;
    cfpng_rows r = {.s = s, .type = type, .fused = s->bytes_per_pixel == 4 && s->channels == 3 && type == 2,
                    .direct = s->bytes_per_pixel == s->channels, .row_bytes = row_bytes, .stride = stride,
                    .src_bytes = (size_t)s->width * (size_t)s->bytes_per_pixel};
    int code;
    int same;
    if (streamed) {
        c->filtered_valid = 0;  // what the held path compares with is gone
        if (!cfpng_reserve(&c->zero, &c->zero_cap, h) || !cfpng_reserve(&c->raw, &c->raw_cap, 2 * row_bytes + 16)) {
            return cfpng_set(err, CFPNG_ERR_NO_MEMORY, "out of memory for the row records");
        }
        if (c->hashes_cap < h) {
            cfpng_hash *p = (cfpng_hash *)realloc(c->hashes, h * sizeof *p);
            if (p == NULL) return cfpng_set(err, CFPNG_ERR_NO_MEMORY, "out of memory for the row hashes");
            c->hashes = p;
            c->hashes_cap = h;
        }
        code = cfpng_scan_rows(c, &r);
        if (code != CFPNG_OK) {
            c->hashes_valid = 0;
            return code;
        }
        // The same rows as the last streamed image, with the same settings: the same filtered bytes.
        same = c->hashes_valid && c->prev_type == type && c->prev_channels == s->channels && c->prev_bpp == s->bytes_per_pixel &&
               c->prev_width == s->width && c->prev_height == s->height && memcmp(c->prev_zero, c->zero, h) == 0 &&
               memcmp(c->prev_hashes, c->hashes, h * sizeof *c->hashes) == 0;
    } else {
        c->hashes_valid = 0;
        code = cfpng_filter_image(c, s, type, err);
        if (code != CFPNG_OK) return code;
        same = c->same;
    }
    if (same && c->stream_valid && c->stream_level == o->zlib_level && c->stream_strategy == o->strategy &&
        c->stream_compressor == o->compressor) {
        c->last_repeated = 1;  // the same filtered bytes with the same settings: the same stream
        return CFPNG_OK;
    }
    c->stream_valid = 0;
    if (streamed) c->hashes_valid = 0;  // until this image's stream is complete
    const int runs_level = o->zlib_level == 0 ? 0 : CFPNG_ZERO_RUN_LEVEL;
    if (c->final_block_size == 0 || c->runs_row_bytes != row_bytes || c->runs_filter != type || c->runs_level != runs_level) {
        cfpng_clear_runs(c);
        c->runs_row_bytes = row_bytes;
        c->runs_filter = type;
        c->runs_level = runs_level;
        // zlib's own empty final block.
        c->stream_size = 0;
        code = cfpng_zstream_reset(&c->runs_z, runs_level, Z_DEFAULT_STRATEGY, err);
        if (code == CFPNG_OK) code = cfpng_deflate_append(c, &c->runs_z, NULL, 0, Z_FINISH, err);
        cfpng_zstream_release(&c->runs_z);
        if (code != CFPNG_OK) return code;
        if (c->stream_size == 0 || c->stream_size > sizeof c->final_block) {
            return cfpng_set(err, CFPNG_ERR_ZLIB, "zlib: unexpected empty final block");
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
    if (!cfpng_reserve(&c->stream, &c->stream_cap, 2)) return cfpng_set(err, CFPNG_ERR_NO_MEMORY, "out of memory for the compressed image");
    c->stream[0] = (uint8_t)(header >> 8);
    c->stream[1] = (uint8_t)header;
    c->stream_size = 2;

    uLong adler = adler32(0L, Z_NULL, 0);
    size_t y = 0;
    while (y < h) {
        size_t z = y;
        while (z < h && c->zero[z]) z++;
        uint32_t piece_adler = 0;
        if (z - y >= CFPNG_MIN_ZERO_RUN) {
            // A zero run: copies of the largest piece, then pieces of 2^j rows for the rest, largest
            // first: few sizes to make, each once per cache.
            for (size_t left = z - y; left > 0;) {
                size_t rows = CFPNG_ZERO_RUN_PIECE;
                while (rows > left) rows >>= 1;
                const uint8_t *zero_row = streamed ? NULL : c->filtered + y * stride;
                if (streamed) {
                    // A filtered zero row, made where the next segment's part will go.
                    if (!cfpng_reserve(&c->part, &c->part_cap, stride)) {
                        return cfpng_set(err, CFPNG_ERR_NO_MEMORY, "out of memory for a part of the image");
                    }
                    c->part[0] = (uint8_t)type;
                    memset(c->part + 1, 0, row_bytes);
                    zero_row = c->part;
                }
                code = cfpng_append_zero_run(c, zero_row, stride, (uint32_t)rows, &piece_adler, err);
                if (code != CFPNG_OK) return code;
                adler = adler32_combine(adler, piece_adler, (z_off_t)(rows * stride));
                left -= rows;
            }
            y = z;
            continue;
        }
        // A segment: up to the next run of at least CFPNG_MIN_ZERO_RUN zero rows.
        size_t e = z;
        while (e < h) {
            if (!c->zero[e]) {
                e++;
                continue;
            }
            size_t f = e;
            while (f < h && c->zero[f]) f++;
            if (f - e >= CFPNG_MIN_ZERO_RUN) break;
            e = f;
        }
        code = streamed ? cfpng_append_streamed_segment(c, &r, y, e - y, o->zlib_level, o->strategy, o->compressor, &piece_adler, err)
                        : cfpng_append_segment(c, y, e - y, stride, o->zlib_level, o->strategy, o->compressor, &piece_adler, err);
        if (code != CFPNG_OK) return code;
        adler = adler32_combine(adler, piece_adler, (z_off_t)((e - y) * stride));
        y = e;
    }
    if (!cfpng_reserve(&c->stream, &c->stream_cap, c->stream_size + c->final_block_size + 4)) {
        return cfpng_set(err, CFPNG_ERR_NO_MEMORY, "out of memory for the compressed image");
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
    c->stream_compressor = o->compressor;
    if (streamed) {
        // Keep this image's rows for the next one to compare with (the arrays trade places).
        if (!cfpng_reserve(&c->prev_zero, &c->prev_zero_cap, h)) return CFPNG_OK;  // no repeat check next time
        memcpy(c->prev_zero, c->zero, h);
        cfpng_hash *t = c->prev_hashes;
        size_t tcap = c->prev_hashes_cap;
        c->prev_hashes = c->hashes;
        c->prev_hashes_cap = c->hashes_cap;
        c->hashes = t;
        c->hashes_cap = tcap;
        c->hashes_valid = 1;
        c->prev_type = type;
        c->prev_channels = s->channels;
        c->prev_bpp = s->bytes_per_pixel;
        c->prev_width = s->width;
        c->prev_height = s->height;
    }
    return CFPNG_OK;
}

int cfpng_compressor_name(int compressor, char *buf, size_t size) {
    if (buf == NULL || size == 0) return compressor == CFPNG_COMPRESSOR_ZLIB || compressor == CFPNG_COMPRESSOR_ISAL ? 0 : -1;
    switch (compressor) {
    case CFPNG_COMPRESSOR_ZLIB: snprintf(buf, size, "zlib %s", zlibVersion()); return 0;
    case CFPNG_COMPRESSOR_ISAL:
        snprintf(buf, size, "isa-l %d.%d.%d", ISAL_MAJOR_VERSION, ISAL_MINOR_VERSION, ISAL_PATCH_VERSION);
        return 0;
    default: snprintf(buf, size, "unknown"); return -1;
    }
}

int cfpng_cache_last_repeated(const cfpng_cache *cache) { return cache != NULL && cache->last_repeated; }

void cfpng_cache_forget(cfpng_cache *c) {
    if (c == NULL) return;
    c->last_repeated = 0;
    c->stream_valid = 0;   // no stream to reuse
    c->hashes_valid = 0;   // no rows to compare with (streamed encodes)
    c->filtered_valid = 0; // nor a held filtered image (callback sources)
}

size_t cfpng_cache_bytes(const cfpng_cache *c) {
    if (c == NULL) return 0;
    // deflate's memory for windowBits 15, memLevel 8 (zlib.h: (1 << (windowBits + 2)) + (1 << (memLevel + 9)))
    // and its internal_state record (under 6 KB in zlib 1.2/1.3).
    const size_t deflate_state = ((size_t)1 << 17) + ((size_t)1 << 17) + 6 * 1024;
    size_t bytes = sizeof *c + c->filtered_cap + c->zero_cap + c->raw_cap + c->stream_cap
        + c->piece_cap * sizeof(cfpng_piece) + c->run_cap * sizeof(cfpng_zero_run) + c->run_bytes;
    if (c->image.ready) bytes += deflate_state;
    if (c->runs_z.ready) bytes += deflate_state;
    bytes += c->part_cap + (c->hashes_cap + c->prev_hashes_cap) * sizeof(cfpng_hash) + c->prev_zero_cap;
    if (c->isal != NULL) bytes += cfpng_isal_record_size();  // ISA-L's stream record (its history buffer and hash heads), in whole pages
    bytes += c->isal_level_buf_size;
    return bytes;
}


// ---- The PNG file around the stream ----------------------------------------------------------------

static uint8_t *cfpng_put32(uint8_t *p, uint32_t v) {
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
    return p + 4;
}

/// Writes one chunk at `p` (length, type, data, CRC-32 of type and data) and returns the end.
static uint8_t *cfpng_put_chunk(uint8_t *p, const char type[4], const uint8_t *data, size_t n) {
    p = cfpng_put32(p, (uint32_t)n);
    uint8_t *typed = p;
    memcpy(p, type, 4);
    p += 4;
    if (n > 0) memcpy(p, data, n);
    p += n;
    // ISA-L's CRC-32 is zlib's (the reflected IEEE polynomial, the same start and final inversion), with
    // carry-less multiplies where the processor has them: 7x zlib 1.2.13's here, on a frame's IDAT bytes.
    uint32_t crc = crc32_gzip_refl(0, typed, 4 + n);  // n <= CFPNG_IDAT_MAX
    return cfpng_put32(p, crc);
}

/// The whole file: signature, IHDR, sRGB (if asked for), the stream as IDAT chunks, IEND.
static int cfpng_write_file(cfpng_buffer *out, const cfpng_rgb8_source *s, const cfpng_options *o,
                            const uint8_t *stream, size_t size, cfpng_error *err) {
    size_t idat_chunks = (size + CFPNG_IDAT_MAX - 1) / CFPNG_IDAT_MAX;
    size_t total = 8 + (12 + 13) + (o->write_srgb ? 12 + 1 : 0) + 12 * idat_chunks + size + 12;
    uint8_t *p = (uint8_t *)malloc(total);
    if (p == NULL) return cfpng_set(err, CFPNG_ERR_NO_MEMORY, "out of memory for the PNG file");
    out->data = p;
    out->capacity = total;
    static const uint8_t signature[8] = {137, 80, 78, 71, 13, 10, 26, 10};
    memcpy(p, signature, 8);
    p += 8;
    // Width, height, bit depth 8, colour type 2 (RGB) or 6 (RGBA), deflate, adaptive filtering, no interlace.
    uint8_t ihdr[13];
    cfpng_put32(ihdr, s->width);
    cfpng_put32(ihdr + 4, s->height);
    ihdr[8] = 8;
    ihdr[9] = s->channels == 4 ? 6 : 2;
    ihdr[10] = ihdr[11] = ihdr[12] = 0;
    p = cfpng_put_chunk(p, "IHDR", ihdr, sizeof ihdr);
    if (o->write_srgb) {
        const uint8_t perceptual = 0;
        p = cfpng_put_chunk(p, "sRGB", &perceptual, 1);
    }
    for (size_t offset = 0; offset < size;) {
        size_t n = size - offset < CFPNG_IDAT_MAX ? size - offset : CFPNG_IDAT_MAX;
        p = cfpng_put_chunk(p, "IDAT", stream + offset, n);
        offset += n;
    }
    p = cfpng_put_chunk(p, "IEND", NULL, 0);
    out->size = (size_t)(p - out->data);
    return CFPNG_OK;
}

// ---- Encoding ----------------------------------------------------------------------------------------

int cfpng_fits(uint32_t width, uint32_t height, int channels) {
    if (width == 0 || height == 0 || width > CFPNG_MAX_DIMENSION || height > CFPNG_MAX_DIMENSION) return 0;
    if (channels < 1 || channels > 4) return 0;
    return ((uint64_t)width * (uint64_t)channels + 1) * (uint64_t)height <= CFPNG_MAX_FILTERED_BYTES;
}

static int cfpng_check(const cfpng_rgb8_source *s, const cfpng_options *o, cfpng_buffer *out, cfpng_error *err) {
    if (out == NULL) return cfpng_set(err, CFPNG_ERR_INVALID_ARGUMENT, "no output buffer");
    memset(out, 0, sizeof *out);
    if (s == NULL || o == NULL) return cfpng_set(err, CFPNG_ERR_INVALID_ARGUMENT, "no source or no options");
    if (o->compressor != CFPNG_COMPRESSOR_ZLIB && o->compressor != CFPNG_COMPRESSOR_ISAL) {
        return cfpng_set(err, CFPNG_ERR_INVALID_ARGUMENT, "unknown compressor");
    }
    if (o->compressor == CFPNG_COMPRESSOR_ISAL && (o->zlib_level < 0 || o->zlib_level > 3)) {
        return cfpng_set(err, CFPNG_ERR_INVALID_ARGUMENT, "isa-l level must be 0...3");
    }
    if (o->compressor == CFPNG_COMPRESSOR_ISAL && o->strategy != CFPNG_STRATEGY_DEFAULT) {
        return cfpng_set(err, CFPNG_ERR_INVALID_ARGUMENT, "isa-l takes only the default strategy");
    }
    if (o->zlib_level < 0 || o->zlib_level > 9) return cfpng_set(err, CFPNG_ERR_INVALID_ARGUMENT, "zlib level must be 0...9");
    if (o->filter < CFPNG_FILTER_NONE || o->filter > CFPNG_FILTER_PAETH) {
        return cfpng_set(err, CFPNG_ERR_INVALID_ARGUMENT, "filter must be a PNG filter type, 0...4");
    }
    if (o->strategy < CFPNG_STRATEGY_DEFAULT || o->strategy > CFPNG_STRATEGY_FIXED) {
        return cfpng_set(err, CFPNG_ERR_INVALID_ARGUMENT, "unknown zlib strategy");
    }
    if (s->width == 0 || s->height == 0) return cfpng_set(err, CFPNG_ERR_INVALID_ARGUMENT, "image size must be at least 1x1");
    if ((s->channels != 3 && s->channels != 4) || (s->bytes_per_pixel != s->channels && !(s->channels == 3 && s->bytes_per_pixel == 4))) {
        return cfpng_set(err, CFPNG_ERR_INVALID_ARGUMENT, "channels must be 3 or 4, bytes per pixel the same or 4");
    }
    if ((s->row == NULL || s->alpha_fallback) && (s->pixels == NULL || s->row_stride < (size_t)s->width * (size_t)s->bytes_per_pixel)) {
        return cfpng_set(err, CFPNG_ERR_INVALID_ARGUMENT, "no pixels, or a row stride shorter than a row");
    }
    if (s->alpha_fallback && (s->channels != 3 || s->bytes_per_pixel != 4 || s->row == NULL)) {
        return cfpng_set(err, CFPNG_ERR_INVALID_ARGUMENT, "alpha fallback needs 3 channels of 4 bytes and a row callback");
    }
    if (!cfpng_fits(s->width, s->height, s->alpha_fallback ? 4 : s->channels)) {
        char msg[200];
        snprintf(msg, sizeof msg, "image size %ux%u is over the encoder's limits (%u pixels per side, %llu bytes of filtered rows)",
                 s->width, s->height, CFPNG_MAX_DIMENSION, (unsigned long long)CFPNG_MAX_FILTERED_BYTES);
        return cfpng_set(err, CFPNG_ERR_TOO_LARGE, msg);
    }
    return CFPNG_OK;
}

/// True when every 4th byte of every row of `s` (4 bytes a pixel, from `pixels`) is 255.
static int cfpng_all_opaque(const cfpng_rgb8_source *s) {
    for (uint32_t y = 0; y < s->height; y++) {
        const uint8_t *row = s->pixels + (size_t)y * s->row_stride;
        unsigned alpha = 0xFF;
        for (uint32_t x = 0; x < s->width; x++) alpha &= row[4 * x + 3];
        if (alpha != 0xFF) return 0;
    }
    return 1;
}

int cfpng_encode(cfpng_cache *cache, const cfpng_rgb8_source *source, const cfpng_options *options,
                 cfpng_buffer *out, cfpng_error *err) {
    cfpng_error scratch;
    if (err == NULL) err = &scratch;
    memset(err, 0, sizeof *err);
    if (cache != NULL) cache->last_repeated = 0;
    const cfpng_rgb8_source *s = source;
    int code = cfpng_check(s, options, out, err);
    if (code != CFPNG_OK) return code;
    // The same image as RGBA from the row callback, for when it turns out not to be opaque.
    cfpng_rgb8_source rgba = *s;
    rgba.channels = 4;
    rgba.pixels = NULL;
    rgba.alpha_fallback = 0;

    cfpng_cache *c = cache != NULL ? cache : cfpng_cache_create();
    if (c == NULL) return cfpng_set(err, CFPNG_ERR_NO_MEMORY, "out of memory for the encoder");
    // After a translucent image, check first, so that a translucent sequence keeps what the cache
    // compares with; else find out while filtering.
    if (s->alpha_fallback && c->filtered_valid && c->filtered_channels == 4 && !cfpng_all_opaque(s)) s = &rgba;
    code = cfpng_build_stream(c, s, options, options->filter, err);
    if (code == CFPNG_TRANSLUCENT) {
        s = &rgba;
        code = cfpng_build_stream(c, s, options, options->filter, err);
    }
    if (code == CFPNG_OK) code = cfpng_write_file(out, s, options, c->stream, c->stream_size, err);
    if (c != cache) cfpng_cache_destroy(c);
    if (code != CFPNG_OK) cfpng_buffer_free(out);
    return code;
}
