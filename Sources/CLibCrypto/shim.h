// The system OpenSSL libcrypto (Debian's libssl-dev), for SHA-256 only: `clibcrypto_sha256`, one call
// per file.
//
// Why a maintained library and not Smokescreen's own SHA-256: libcrypto's is checked against the
// standard's vectors upstream and picks its fastest code for the processor itself (SHA extensions on
// x86-64), and measured as fast as Smokescreen's own SHA-NI code or faster (1 MiB: 1,530 MB/s against
// 1,200; 4 KiB: 1,060-1,245 against 1,110-1,160, release build, medians). swift-crypto hashed as fast
// but vendors BoringSSL's C sources: about 210-250 s more for a cold release build on 2 cores, against
// under a second for this.
//
// Why the low-level SHA256_Init/Update/Final and not OpenSSL 3's one-shot SHA256(): the one-shot call
// goes through EVP and loads the default provider on first use, which cost 1 ms and 2.3 MB of resident
// memory per process here; the low-level functions run the same code (1,585 MB/s either way) without
// it. They are marked deprecated in OpenSSL 3 but remain part of its API.
#ifndef CLIBCRYPTO_SHIM_H
#define CLIBCRYPTO_SHIM_H

#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/sha.h>
#include <stddef.h>

/** The SHA-256 of `size` bytes at `data` into `digest` (32 bytes). */
static inline void clibcrypto_sha256(const void *data, size_t size, unsigned char digest[32]) {
    SHA256_CTX context;
    SHA256_Init(&context);
    SHA256_Update(&context, data, size);
    SHA256_Final(digest, &context);
}

#endif
