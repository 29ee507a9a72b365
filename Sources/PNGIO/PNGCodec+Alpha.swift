import RasterCore

extension PNGCodec {
    /// Writes the straight-alpha form of the premultiplied pixels `source` to `destination` (same count,
    /// packed little-endian like `Bitmap` pixels). Transparent pixels become 0,0,0,0.
    static func unpremultiply(_ source: UnsafeBufferPointer<UInt32>, into destination: UnsafeMutablePointer<UInt32>) {
        PremultipliedRGBA8.unpremultiplyTable.withUnsafeBufferPointer { table in
            for i in 0..<source.count {
                destination[i] = PremultipliedRGBA8.unpremultiply(packed: source[i], table: table.baseAddress!)
            }
        }
    }

    /// Premultiplies straight-alpha pixels in place: `c = round(c * a / 255)` (exact, via the div255 identity).
    static func premultiply(_ pixels: UnsafeMutableBufferPointer<UInt32>) {
        for i in 0..<pixels.count {
            let p = pixels[i], a = p >> 24
            if a == 255 { continue }
            if a == 0 {
                pixels[i] = 0
                continue
            }
            @inline(__always) func mul(_ c: UInt32) -> UInt32 {
                let t = c * a + 128
                return (t + (t >> 8)) >> 8
            }
            pixels[i] = mul(p & 0xFF) | mul(p >> 8 & 0xFF) << 8 | mul(p >> 16 & 0xFF) << 16 | a << 24
        }
    }
}
