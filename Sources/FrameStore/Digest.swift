import CLibCrypto

/// SHA-256 digests of files, for manifests and render fingerprints.
public enum Digest {
    /// The lowercase hex SHA-256 of `bytes` (64 characters). Computed by the system's OpenSSL libcrypto
    /// (`SHA256_Init/Update/Final`, with the processor's SHA instructions where it has them): a maintained implementation
    /// that measured faster than the hand-written one it replaced (see Sources/CLibCrypto/shim.h).
    public static func sha256Hex(_ bytes: [UInt8]) -> String {
        var digest = [UInt8](repeating: 0, count: 32)
        bytes.withUnsafeBufferPointer { b in digest.withUnsafeMutableBufferPointer { clibcrypto_sha256(b.baseAddress, b.count, $0.baseAddress) } }
        let hex = Array("0123456789abcdef".utf8)
        return String(decoding: digest.flatMap { [hex[Int($0 >> 4)], hex[Int($0 & 15)]] }, as: UTF8.self)
    }
}
