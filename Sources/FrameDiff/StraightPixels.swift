import RasterCore

/// Premultiplied → straight conversion, exactly as PNGIO's writer does it, so that every comparison sees the
/// bytes that are (or would be) in the PNG file.
enum StraightPixels {
    /// The shared un-premultiply table (`PremultipliedRGBA8.unpremultiplyTable`).
    static var table: [UInt8] { PremultipliedRGBA8.unpremultiplyTable }

    /// The straight form of one packed premultiplied pixel (R in the low byte).
    @inline(__always)
    static func convert(_ p: UInt32, _ table: UnsafePointer<UInt8>) -> UInt32 {
        PremultipliedRGBA8.unpremultiply(packed: p, table: table)
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
