import RasterCore

/// Premultiplied → straight conversion, exactly as PNGIO's writer does it, so that every comparison sees the
/// bytes that are (or would be) in the PNG file.
enum StraightPixels {
    /// `table[a << 8 | c]` = `min(255, (c * 255 + a / 2) / a)`, 0 for `a == 0`: the same rounding as
    /// `PremultipliedRGBA8.unpremultiplied` and PNGIO's `unpremultiplyTable` (a test checks all 65,536
    /// entries against `unpremultiplied`), without a division per sample.
    static let table: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 256 * 256)
        for a in 1..<256 {
            for c in 0..<256 { table[a << 8 | c] = UInt8(min(255, (c * 255 + a / 2) / a)) }
        }
        return table
    }()

    /// The straight form of one packed premultiplied pixel (R in the low byte).
    @inline(__always)
    static func convert(_ p: UInt32, _ table: UnsafePointer<UInt8>) -> UInt32 {
        let a = p >> 24
        if a == 255 { return p }
        let base = Int(a) << 8
        let r = UInt32(table[base | Int(p & 0xFF)])
        let g = UInt32(table[base | Int(p >> 8 & 0xFF)])
        let b = UInt32(table[base | Int(p >> 16 & 0xFF)])
        return r | g << 8 | b << 16 | a << 24
    }

    /// Calls `body` with the straight pixels of `bitmap`: the bitmap's own memory when it is opaque
    /// (straight and premultiplied are then the same), else a converted copy that lives for the call.
    static func with<R>(_ bitmap: Bitmap, _ body: (UnsafePointer<UInt32>) -> R) -> R {
        if bitmap.isOpaque {
            return bitmap.withUnsafePixels { body($0.baseAddress!) }
        }
        let count = bitmap.width * bitmap.height
        let copy = UnsafeMutablePointer<UInt32>.allocate(capacity: count)
        defer { copy.deallocate() }
        table.withUnsafeBufferPointer { t in
            let table = t.baseAddress!
            bitmap.withUnsafePixels { px in
                for i in 0..<count { copy[i] = convert(px[i], table) }
            }
        }
        return body(copy)
    }
}
