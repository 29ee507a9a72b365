import CFastPNG
import CLibCrypto
import RasterCore

/// Encodes many bitmaps with one setting, keeping its buffers and zlib stream from one image to the
/// next, so that encoding a sequence of frames allocates almost nothing per frame.
///
/// The bytes are exactly those of ``PNGCodec/encode(_:compression:)``: what the encoder keeps never
/// changes an output. Not thread-safe: use one encoder per thread (it is deliberately not `Sendable`).
public final class PNGEncoder {
    /// The setting every ``encode(_:)`` uses.
    public let compression: PNGCompression
    /// True when the last ``encode(_:)`` found the image equal to the one encoded before it (every byte
    /// of its filtered rows, compared while filtering) and reused its compressed data instead of
    /// compressing again: the returned PNG is then byte-identical to the previous one.
    public private(set) var lastImageRepeated = false
    private let cache: OpaquePointer?
    /// The digest of the last PNG ``encodeWithDigest(_:)`` returned, for a repeat of it.
    private var lastDigest: String?

    /// An encoder for `compression` (default ``PNGCompression/fast``).
    public init(compression: PNGCompression = .fast) {
        self.compression = compression
        cache = cfpng_cache_create()  // nil when out of memory: each encode then uses a temporary one
    }

    deinit { cfpng_cache_destroy(cache) }

    /// Bytes this encoder keeps between images now: the filtered image, the compressed stream and row
    /// buffers, cached zero-row runs, zlib's deflate state (as zlib documents its size) and ISA-L's
    /// (its stream record and level buffer, once an ISA-L preset has been used). What one
    /// thread of a render holds besides its frame; it grows to its size with the first image.
    public var workingBytes: Int { Int(cfpng_cache_bytes(cache)) }

    /// Encodes `bitmap` as ``PNGCodec/encode(_:compression:)`` does with this encoder's compression.
    /// - Throws: ``PNGError`` with `path` `<memory>`, as ``PNGCodec/encode(_:compression:)``.
    public func encode(_ bitmap: Bitmap) throws(PNGError) -> [UInt8] {
        lastImageRepeated = false
        lastDigest = nil  // no digest made: a repeat of this image must be hashed
        let (png, repeated) = try PNGCodec.withEncoded(bitmap, compression: compression, path: PNGCodec.memoryName, cache: cache) {
            bytes, repeated throws(PNGError) in (Array(bytes), repeated)
        }
        lastImageRepeated = repeated
        return png
    }

    /// Encodes `bitmap` as ``encode(_:)`` does and also returns the lowercase hex SHA-256 of the PNG's
    /// bytes (OpenSSL's libcrypto, with the processor's SHA extensions where it has them); for a repeat
    /// of the previous image (``lastImageRepeated``) the previous digest, without hashing again.
    public func encodeWithDigest(_ bitmap: Bitmap) throws(PNGError) -> (png: [UInt8], sha256: String) {
        try withEncodedFile(bitmap) { png, digest in (Array(png), digest) }
    }

    /// Encodes `bitmap` as ``encodeWithDigest(_:)`` does, but lends `body` the PNG's bytes where the
    /// encoder made them instead of returning a copy: for a writer that only stores the file, one
    /// buffer of the PNG's size less per frame and per thread. `png` is valid only during the call.
    public func withEncodedFile<Result>(_ bitmap: Bitmap,
                                        _ body: (_ png: UnsafeRawBufferPointer, _ sha256: String) -> Result) throws(PNGError) -> Result {
        lastImageRepeated = false
        let previousDigest = lastDigest
        lastDigest = nil
        return try PNGCodec.withEncoded(bitmap, compression: compression, path: PNGCodec.memoryName, cache: cache) {
            png, repeated throws(PNGError) in
            lastImageRepeated = repeated
            let digest = repeated ? previousDigest ?? PNGEncoder.hexDigest(png) : PNGEncoder.hexDigest(png)
            lastDigest = digest
            return body(png, digest)
        }
    }

    /// The lowercase hex SHA-256 of an encoded file, by libcrypto (`clibcrypto_sha256`) as FrameStore's `Digest`
    /// (the general one, which PNGIO cannot import) computes it: a maintained implementation, as fast as
    /// the hand-written one it replaced or faster (see Sources/CLibCrypto/shim.h).
    package static func hexDigest(_ bytes: [UInt8]) -> String { bytes.withUnsafeBytes { hexDigest($0) } }

    package static func hexDigest(_ bytes: UnsafeRawBufferPointer) -> String {
        var digest = [UInt8](repeating: 0, count: 32)
        digest.withUnsafeMutableBufferPointer { clibcrypto_sha256(bytes.baseAddress, bytes.count, $0.baseAddress) }
        let hex = Array("0123456789abcdef".utf8)
        return String(decoding: digest.flatMap { [hex[Int($0 >> 4)], hex[Int($0 & 15)]] }, as: UTF8.self)
    }
}
