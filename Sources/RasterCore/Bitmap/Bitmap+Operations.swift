extension Bitmap {
    /// Sets every pixel to `pixel`.
    public mutating func fill(_ pixel: PremultipliedRGBA8) {
        let value = pixel.packed
        withUnsafeMutablePixels { $0.update(repeating: value) }
    }

    /// Sets every pixel to `color`, premultiplied.
    public mutating func fill(_ color: Color) { fill(color.premultiplied) }

    /// Makes every pixel transparent.
    public mutating func clear() { fill(PremultipliedRGBA8.clear) }

    /// Sets the pixels of `rect` (clipped to the bitmap) to `pixel`; nothing happens outside.
    public mutating func fill(_ rect: PixelRect, with pixel: PremultipliedRGBA8) {
        let r = rect.intersection(bounds)
        guard !r.isEmpty else { return }
        let value = pixel.packed, w = width
        withUnsafeMutablePixels { px in
            for y in r.minY..<r.maxY { (px.baseAddress! + y * w + r.x).update(repeating: value, count: r.width) }
        }
    }

    /// A new bitmap holding the pixels of `rect` clipped to this bitmap, with the same scale.
    /// - Throws: ``BitmapError/emptyRegion(_:)`` when `rect` does not overlap the bitmap.
    public func cropped(to rect: PixelRect) throws(BitmapError) -> Bitmap {
        let r = rect.intersection(bounds)
        guard !r.isEmpty else { throw .emptyRegion(rect) }
        var out = try Bitmap(width: r.width, height: r.height, scale: scale)
        out.copy(from: self, sourceRect: r, to: (0, 0))
        return out
    }

    /// Replaces pixels with those of `source` (no blending): the `sourceRect` of `source` lands with its
    /// top-left corner at `origin` in this bitmap. Both rectangles are clipped; whatever falls outside is
    /// skipped. `source` may be this very bitmap: the write then copies the storage first (copy on write).
    public mutating func copy(from source: Bitmap, sourceRect: PixelRect? = nil, to origin: (x: Int, y: Int)) {
        var src = (sourceRect ?? source.bounds).intersection(source.bounds)
        // Anything placed further away than a bitmap can be wide lands nowhere (and must not overflow).
        let far = 2 * Bitmap.maxDimension
        guard !src.isEmpty, (-far...far).contains(origin.x), (-far...far).contains(origin.y) else { return }
        // Where the clipped source's corner lands: origin + how much of sourceRect was cut off.
        func landing(_ o: Int, _ clipped: Int, _ requested: Int) -> Int {
            let (cut, overflow) = clipped.subtractingReportingOverflow(requested)
            return overflow ? .max : PixelRect.saturatingAdd(o, cut)
        }
        var dx = landing(origin.x, src.x, sourceRect?.x ?? 0), dy = landing(origin.y, src.y, sourceRect?.y ?? 0)
        // Clip the destination side and shift the source to match.
        if dx < 0 { src.x -= dx; src.width += dx; dx = 0 }
        if dy < 0 { src.y -= dy; src.height += dy; dy = 0 }
        src.width = min(src.width, width - dx)
        src.height = min(src.height, height - dy)
        guard !src.isEmpty else { return }
        let sw = source.width, dw = width, rowCount = src.height
        source.withUnsafePixels { s in
            let sBase = s.baseAddress!
            withUnsafeMutablePixels { d in
                let dBase = d.baseAddress!
                for i in 0..<rowCount {
                    let from = sBase + (src.y + i) * sw + src.x
                    (dBase + (dy + i) * dw + dx).update(from: from, count: src.width)
                }
            }
        }
    }
}

extension Bitmap {
    /// The same pixels (shared, copy on write) at another scale (pixels per point): an image read at
    /// one scale and shown at another, as `UIImage(cgImage:scale:orientation:)` does.
    /// - Throws: ``BitmapError`` for a scale that is not finite and positive.
    public func withScale(_ newScale: Double) throws(BitmapError) -> Bitmap {
        try Bitmap.validate(width: width, height: height, scale: newScale)
        return Bitmap(width: width, height: height, scale: newScale, storage: storage)
    }
}
