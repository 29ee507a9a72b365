// The system OpenSSL libcrypto (Debian's libssl-dev), for SHA-256 only: `SHA256()`, one call per file.
//
// Why a maintained library and not Smokescreen's own SHA-256: libcrypto's is checked against the
// standard's vectors upstream and picks its fastest code for the processor itself (SHA extensions on
// x86-64), and measured as fast as Smokescreen's own SHA-NI code or faster (1 MiB: 1,530 MB/s against
// 1,200; 4 KiB: 1,060-1,245 against 1,110-1,160, release build, medians). swift-crypto hashed as fast
// but vendors BoringSSL's C sources: about 210-250 s more for a cold release build on 2 cores, against
// under a second for this.
#include <openssl/sha.h>
