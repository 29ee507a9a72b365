import RasterCore

extension PNGCodec {
    /// `table[a << 8 | c]` = `min(255, (c * 255 + a / 2) / a)`, and 0 for `a == 0`: un-premultiplying with
    /// rounding to nearest, exactly as `PremultipliedRGBA8.unpremultiplied`, without a division per sample.
    static let unpremultiplyTable: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 256 * 256)
        for a in 1..<256 {
            for c in 0..<256 { table[a << 8 | c] = UInt8(min(255, (c * 255 + a / 2) / a)) }
        }
        return table
    }()

    /// Writes the straight-alpha form of the premultiplied pixels `source` to `destination` (same count,
    /// packed little-endian like `Bitmap` pixels). Transparent pixels become 0,0,0,0.
    static func unpremultiply(_ source: UnsafeBufferPointer<UInt32>, into destination: UnsafeMutablePointer<UInt32>) {
        unpremultiplyTable.withUnsafeBufferPointer { table in
            for i in 0..<source.count {
                let p = source[i], a = p >> 24
                if a == 255 {
                    destination[i] = p
                    continue
                }
                let base = Int(a) << 8
                let r = UInt32(table[base | Int(p & 0xFF)])
                let g = UInt32(table[base | Int(p >> 8 & 0xFF)])
                let b = UInt32(table[base | Int(p >> 16 & 0xFF)])
                destination[i] = r | g << 8 | b << 16 | a << 24
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
