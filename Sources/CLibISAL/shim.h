/*
 * The system ISA-L (Intel's Intelligent Storage Acceleration Library, Debian's `libisal-dev`, BSD-3), found
 * with pkg-config (`libisal`). Only its deflate (`igzip`) is used, by CFastPNG: `isal_deflate_stateless`
 * with a full flush and no end of stream makes byte-aligned raw deflate pieces that splice into the one
 * zlib stream CFastPNG builds. ISA-L picks SSE/AVX2/AVX-512/NEON code when the process starts and does
 * not promise the same bytes on every processor or version (the pixels decoded are always the same), so
 * only the `fast` preset uses it; `portable` keeps zlib's bytes.
 */
#include <isa-l.h>
