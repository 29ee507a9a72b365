import RasterCore

/// Premultiplied → straight conversion, exactly as PNGIO's writer does it, so that every comparison sees the
/// bytes that are (or would be) in the PNG file.
enum StraightPixels {
    /// Calls `body` with the straight pixels of `bitmap`: the bitmap's own memory when it is opaque
    /// (straight and premultiplied are then the same), else a converted copy that lives for the call.
    static func with<R>(_ bitmap: Bitmap, _ body: (UnsafePointer<UInt32>) -> R) -> R {
        if bitmap.isOpaque {
            return bitmap.withUnsafePixels { body($0.baseAddress!) }
        }
        let count = bitmap.width * bitmap.height
        let copy = UnsafeMutablePointer<UInt32>.allocate(capacity: count)
        defer { copy.deallocate() }
        PremultipliedRGBA8.unpremultiplyTable.withUnsafeBufferPointer { t in
            let table = t.baseAddress!
            bitmap.withUnsafePixels { px in
                for i in 0..<count { copy[i] = PremultipliedRGBA8.unpremultiply(packed: px[i], table: table) }
            }
        }
        return body(copy)
    }
}
