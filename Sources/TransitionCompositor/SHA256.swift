/// SHA-256 (FIPS 180-4), for the manifest's per-file digests. Written out here rather than pulling in a
/// cryptography package for one hash of a few files per render.
///
/// Whole 64-byte blocks are compressed straight from the caller's contiguous memory; only a partial
/// block is copied, into a fixed 64-byte buffer.
public struct SHA256: Sendable {
    private var h0: UInt32 = 0x6a09e667, h1: UInt32 = 0xbb67ae85, h2: UInt32 = 0x3c6ef372, h3: UInt32 = 0xa54ff53a
    private var h4: UInt32 = 0x510e527f, h5: UInt32 = 0x9b05688c, h6: UInt32 = 0x1f83d9ab, h7: UInt32 = 0x5be0cd19
    /// The bytes of an unfinished block, `pendingCount` of them.
    private var pending: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
    private var pendingCount = 0
    private var length: UInt64 = 0

    private static let k: [UInt32] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    ]

    public init() {}

    /// The lowercase hex digest of `bytes`.
    public static func hex<C: Collection>(of bytes: C) -> String where C.Element == UInt8 {
        var h = SHA256()
        h.update(bytes)
        return h.finalizeHex()
    }

    public mutating func update<C: Collection>(_ bytes: C) where C.Element == UInt8 {
        let done: Void? = bytes.withContiguousStorageIfAvailable { update(UnsafeRawBufferPointer($0)) }
        if done == nil { Array(bytes).withUnsafeBytes { update($0) } }
    }

    /// Hashes the bytes in `buffer`.
    public mutating func update(_ buffer: UnsafeRawBufferPointer) {
        guard var p = buffer.baseAddress, !buffer.isEmpty else { return }
        var n = buffer.count
        length &+= UInt64(n)
        if pendingCount > 0 {
            let take = min(64 - pendingCount, n)
            let offset = pendingCount
            withUnsafeMutableBytes(of: &pending) { $0.baseAddress!.advanced(by: offset).copyMemory(from: p, byteCount: take) }
            pendingCount += take
            p += take
            n -= take
            guard pendingCount == 64 else { return }
            var block = pending
            withUnsafeBytes(of: &block) { compress($0.baseAddress!, blocks: 1) }
            pendingCount = 0
        }
        if n >= 64 {
            compress(p, blocks: n / 64)
            p += n / 64 * 64
            n %= 64
        }
        if n > 0 {
            withUnsafeMutableBytes(of: &pending) { $0.baseAddress!.copyMemory(from: p, byteCount: n) }
            pendingCount = n
        }
    }

    public mutating func finalizeHex() -> String {
        let bitLength = length &* 8
        // 0x80, zeros up to 56 mod 64, then the length in bits, big-endian.
        var tail = [UInt8](repeating: 0, count: pendingCount < 56 ? 64 : 128)
        withUnsafeBytes(of: &pending) { for i in 0..<pendingCount { tail[i] = $0[i] } }
        tail[pendingCount] = 0x80
        for i in 0..<8 { tail[tail.count - 1 - i] = UInt8(truncatingIfNeeded: bitLength >> UInt64(8 * i)) }
        pendingCount = 0
        tail.withUnsafeBytes { compress($0.baseAddress!, blocks: $0.count / 64) }
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(64)
        for w in [h0, h1, h2, h3, h4, h5, h6, h7] {
            for shift in stride(from: 28, through: 0, by: -4) { out.append(digits[Int((w >> UInt32(shift)) & 0xf)]) }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Compresses `blocks` whole 64-byte blocks starting at `data`. Eight rounds at a time with the
    /// working variables renamed instead of moved; the message schedule lives in a 16-word ring and is
    /// extended inside the rounds, so its work overlaps the rounds' dependency chain.
    private mutating func compress(_ data: UnsafeRawPointer, blocks: Int) {
        @inline(__always) func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 { (x >> n) | (x << (32 - n)) }
        @inline(__always) func round(_ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: inout UInt32,
                                     _ e: UInt32, _ f: UInt32, _ g: UInt32, _ h: inout UInt32, _ kw: UInt32) {
            let t1 = h &+ (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) &+ (g ^ (e & (f ^ g))) &+ kw
            d &+= t1
            h = t1 &+ (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) &+ ((a & b) | (c & (a | b)))
        }
        SHA256.k.withUnsafeBufferPointer { k in
            withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 16) { w in
                @inline(__always) func word(_ i: Int, _ block: UnsafeRawPointer) -> UInt32 {
                    if i < 16 {
                        let v = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: 4 * i, as: UInt32.self))
                        w[i] = v
                        return v &+ k[i]
                    }
                    let x = w[(i - 15) & 15], y = w[(i - 2) & 15]
                    let s0 = rotr(x, 7) ^ rotr(x, 18) ^ (x >> 3)
                    let s1 = rotr(y, 17) ^ rotr(y, 19) ^ (y >> 10)
                    let v = w[i & 15] &+ s0 &+ w[(i - 7) & 15] &+ s1
                    w[i & 15] = v
                    return v &+ k[i]
                }
                var block = data
                for _ in 0..<blocks {
                    var a = h0, b = h1, c = h2, d = h3, e = h4, f = h5, g = h6, h = h7
                    for i in stride(from: 0, to: 64, by: 8) {
                        round(a, b, c, &d, e, f, g, &h, word(i, block))
                        round(h, a, b, &c, d, e, f, &g, word(i + 1, block))
                        round(g, h, a, &b, c, d, e, &f, word(i + 2, block))
                        round(f, g, h, &a, b, c, d, &e, word(i + 3, block))
                        round(e, f, g, &h, a, b, c, &d, word(i + 4, block))
                        round(d, e, f, &g, h, a, b, &c, word(i + 5, block))
                        round(c, d, e, &f, g, h, a, &b, word(i + 6, block))
                        round(b, c, d, &e, f, g, h, &a, word(i + 7, block))
                    }
                    h0 &+= a; h1 &+= b; h2 &+= c; h3 &+= d; h4 &+= e; h5 &+= f; h6 &+= g; h7 &+= h
                    block += 64
                }
            }
        }
    }
}
