import Foundation
import RasterCore

/// The per-pixel test behind swift-snapshot-testing's `perceptualPrecision`
/// (``FrameComparison/snapshotTesting(precision:perceptualPrecision:)``; its `precision` alone counts bytes
/// in ``PixelKernel/compareChannels(_:_:width:height:tolerance:marks:markDarker:differentBytes:)``).
extension PixelKernel {
    /// Pixels whose colours are more than `maximum` apart by CIE ΔE 1994 (graphic arts weights), the
    /// expected pixel as the reference; each colour composited onto white first (Lab has no alpha).
    static func compareDeltaE(_ e: UnsafePointer<UInt32>, _ a: UnsafePointer<UInt32>, width w: Int, height h: Int, maximum: Double,
                              marks: UnsafeMutablePointer<UInt8>?) -> PixelStats {
        var stats = PixelStats()
        for y in 0..<h {
            let row = y * w
            if equal(e + row, a + row, count: w) { continue }
            for x in 0..<w {
                let p = e[row + x], q = a[row + x]
                if p == q { continue }
                guard deltaE1994(reference: lab(onWhite: p), lab(onWhite: q)) > maximum else { continue }
                stats.count(x: x, y: y, channelDelta: channelDelta(p, q))
                marks?[row + x] = PixelMark.different
            }
        }
        return stats
    }

    /// CIELAB (D65 white) of a premultiplied sRGB pixel composited onto white.
    package static func lab(onWhite packed: UInt32) -> (l: Double, a: Double, b: Double) {
        let p = PremultipliedRGBA8(packed: packed)
        let cover = 255 - Double(p.a)
        func linear(_ c: UInt8) -> Double {
            let v = (Double(c) + cover) / 255
            return v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)
        }
        let r = linear(p.r), g = linear(p.g), b = linear(p.b)
        // sRGB primaries to XYZ, relative to D65's white (0.95047, 1, 1.08883).
        let x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047
        let yy = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
        let z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883
        func f(_ t: Double) -> Double {
            let d = 6.0 / 29
            return t > d * d * d ? cbrt(t) : t / (3 * d * d) + 4.0 / 29
        }
        let fx = f(x), fy = f(yy), fz = f(z)
        return (116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz))
    }

    /// CIE ΔE 1994 with the graphic-arts weights (kL = kC = kH = 1, K1 = 0.045, K2 = 0.015); the chroma
    /// weights use the reference's chroma, so it is not symmetric.
    package static func deltaE1994(reference r: (l: Double, a: Double, b: Double), _ o: (l: Double, a: Double, b: Double)) -> Double {
        let c1 = (r.a * r.a + r.b * r.b).squareRoot(), c2 = (o.a * o.a + o.b * o.b).squareRoot()
        let dl = r.l - o.l, dc = c1 - c2, da = r.a - o.a, db = r.b - o.b
        let dh2 = max(0, da * da + db * db - dc * dc)
        let sc = 1 + 0.045 * c1, sh = 1 + 0.015 * c1
        return (dl * dl + (dc / sc) * (dc / sc) + dh2 / (sh * sh)).squareRoot()
    }
}
