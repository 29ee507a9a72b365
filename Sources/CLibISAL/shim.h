/*
 * The system ISA-L (Intel's Intelligent Storage Acceleration Library, Debian's `libisal-dev`, BSD-3), found
 * with pkg-config (`libisal`), for CFastPNG:
 * - Its deflate (`igzip`): `isal_deflate_stateless` with a full flush and no end of stream makes
 *   byte-aligned raw deflate pieces that splice into the one zlib stream CFastPNG builds. ISA-L picks
 *   SSE/AVX2/AVX-512/NEON code when the process starts and does not promise the same bytes on every
 *   processor or version (the pixels decoded are always the same), so only the `fast` preset compresses
 *   with it; `portable` keeps zlib's bytes.
 * - Its CRC-32 for the PNG chunks, with every preset (`crc32_gzip_refl`: zlib's function, computed with
 *   carry-less multiplies): a checksum has one value on every processor.
 */
#include <isa-l.h>
