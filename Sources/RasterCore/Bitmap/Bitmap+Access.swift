#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
extension Bitmap {
    /// The pixel at column `x`, row `y` (pixels, from the top left). Out-of-bounds access is a
    /// programming error and traps.
    @inlinable
    public subscript(x: Int, y: Int) -> PremultipliedRGBA8 {
        get {
            precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) outside \(width)x\(height)")
            return PremultipliedRGBA8(packed: storage.pixels[y * width + x])
        }
        set {
            precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) outside \(width)x\(height)")
            makeUnique()
            storage.pixels[y * width + x] = newValue.packed
        }
    }

    /// Reads all pixels, packed as little-endian `UInt32` (R in the low byte), row after row.
    @inlinable
    public func withUnsafePixels<R>(_ body: (UnsafeBufferPointer<UInt32>) throws -> R) rethrows -> R {
        try body(UnsafeBufferPointer(start: storage.pixels, count: width * height))
    }

    /// Writes all pixels in place. The caller keeps them premultiplied (`r, g, b <= a`).
    @inlinable
    public mutating func withUnsafeMutablePixels<R>(_ body: (UnsafeMutableBufferPointer<UInt32>) throws -> R) rethrows -> R {
        makeUnique()
        return try body(UnsafeMutableBufferPointer(start: storage.pixels, count: width * height))
    }

    /// Reads the raw bytes: R, G, B, A per pixel, `rowBytes` per row.
    @inlinable
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(start: storage.pixels, count: byteCount))
    }

    /// Writes the raw bytes in place. The caller keeps them premultiplied (`r, g, b <= a`).
    @inlinable
    public mutating func withUnsafeMutableBytes<R>(_ body: (UnsafeMutableRawBufferPointer) throws -> R) rethrows -> R {
        makeUnique()
        return try body(UnsafeMutableRawBufferPointer(start: storage.pixels, count: byteCount))
    }

    /// Reads one row of `width` packed pixels.
    @inlinable
    public func withUnsafeRow<R>(_ y: Int, _ body: (UnsafeBufferPointer<UInt32>) throws -> R) rethrows -> R {
        precondition(y >= 0 && y < height, "row \(y) outside 0..<\(height)")
        return try body(UnsafeBufferPointer(start: storage.pixels + y * width, count: width))
    }

    /// Writes one row of `width` packed pixels in place.
    @inlinable
    public mutating func withUnsafeMutableRow<R>(_ y: Int, _ body: (UnsafeMutableBufferPointer<UInt32>) throws -> R) rethrows -> R {
        precondition(y >= 0 && y < height, "row \(y) outside 0..<\(height)")
        makeUnique()
        return try body(UnsafeMutableBufferPointer(start: storage.pixels + y * width, count: width))
    }

    /// True when every pixel has alpha 255.
    public var isOpaque: Bool {
        withUnsafePixels { px in
            var all: UInt32 = 0xFF00_0000
            for p in px { all &= p }  // no early exit: a branch-free AND vectorizes
            return all & 0xFF00_0000 == 0xFF00_0000
        }
    }

    /// The one value of every pixel, or nil when two pixels differ.
    public var uniformPixel: PremultipliedRGBA8? {
        withUnsafeBytes { bytes in
            // Every pixel equals the next one exactly when the bytes equal themselves moved by a pixel:
            // one pass of the C library's vectorised comparison.
            let base = bytes.baseAddress!
            guard memcmp(base, base + 4, bytes.count - 4) == 0 else { return nil }
            return PremultipliedRGBA8(packed: base.loadUnaligned(as: UInt32.self))
        }
    }
}

extension Bitmap: Equatable {
    /// Equal when the sizes, scales and every pixel byte match.
    public static func == (lhs: Bitmap, rhs: Bitmap) -> Bool {
        guard lhs.width == rhs.width, lhs.height == rhs.height, lhs.scale == rhs.scale else { return false }
        if lhs.storage === rhs.storage { return true }
        // The C library's comparison: vectorised, several times the speed of a loop over words on two
        // full-screen snapshots.
        return lhs.withUnsafeBytes { l in rhs.withUnsafeBytes { r in memcmp(l.baseAddress!, r.baseAddress!, l.count) == 0 } }
    }
}
