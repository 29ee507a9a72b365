#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import RasterCore

/// What the first pass over two equally sized frames found.
struct PixelStats {
    var different = 0
    var antialiased = 0
    var maxChannelDelta = 0
    var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1

    @inline(__always)
    mutating func count(x: Int, y: Int, channelDelta: Int) {
        different += 1
        if channelDelta > maxChannelDelta { maxChannelDelta = channelDelta }
        if x < minX { minX = x }
        if x > maxX { maxX = x }
        if y < minY { minY = y }
        if y > maxY { maxY = y }
    }

    var boundingBox: PixelRect? {
        maxX < 0 ? nil : PixelRect(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1)
    }
}

/// Per-pixel marks for the diff image.
enum PixelMark {
    static let same: UInt8 = 0
    static let different: UInt8 = 1
    /// Different, and darker in the actual frame (for `diffColorAlt`).
    static let darker: UInt8 = 2
    static let antialiased: UInt8 = 3
}

/// The pixel loops. Every function works on packed little-endian pixels (R in the low byte) and skips
/// rows that are byte-for-byte equal with one `memcmp` each, which keeps small changes to large frames cheap.
package enum PixelKernel {
    /// True when `count` pixels at `a` and `b` are byte-for-byte equal.
    @inline(__always)
    static func equal(_ a: UnsafePointer<UInt32>, _ b: UnsafePointer<UInt32>, count: Int) -> Bool {
        memcmp(a, b, count * 4) == 0
    }

    /// The largest difference of the four channels of two packed pixels.
    @inline(__always)
    static func channelDelta(_ p: UInt32, _ q: UInt32) -> Int {
        var d = 0
        var shift: UInt32 = 0
        while shift < 32 {
            let x = Int(p >> shift & 0xFF), y = Int(q >> shift & 0xFF)
            d = max(d, x > y ? x - y : y - x)
            shift += 8
        }
        return d
    }

    // MARK: exact and tolerance

    /// Counts pixels whose straight channels differ by more than `tolerance` (0 for exact: any different byte).
    /// Straight conversion is injective on valid premultiplied pixels, so premultiplied inequality is the
    /// same test as straight inequality and equal pixels need no conversion.
    /// With `differentBytes`, also counts the straight bytes that differ (R, G, B and A apart), for
    /// ``FrameComparison/Mode/bytes``.
    static func compareChannels(
        _ e: UnsafePointer<UInt32>, _ a: UnsafePointer<UInt32>, width w: Int, height h: Int, tolerance: Int,
        marks: UnsafeMutablePointer<UInt8>?, markDarker: Bool, differentBytes: UnsafeMutablePointer<Int>? = nil
    ) -> PixelStats {
        var stats = PixelStats()
        PremultipliedRGBA8.unpremultiplyTable.withUnsafeBufferPointer { t in
            let table = t.baseAddress!
            for y in 0..<h {
                let row = y * w
                if equal(e + row, a + row, count: w) { continue }
                for x in 0..<w {
                    let p = e[row + x], q = a[row + x]
                    if p == q { continue }
                    let sp = PremultipliedRGBA8.unpremultiply(packed: p, table: table), sq = PremultipliedRGBA8.unpremultiply(packed: q, table: table)
                    let d = channelDelta(sp, sq)
                    if d <= tolerance { continue }
                    if let differentBytes {
                        var shift: UInt32 = 0
                        while shift < 32 {
                            if sp >> shift & 0xFF != sq >> shift & 0xFF { differentBytes.pointee += 1 }
                            shift += 8
                        }
                    }
                    stats.count(x: x, y: y, channelDelta: d)
                    if let marks {
                        marks[row + x] = markDarker && colorDelta(sp, sq) < 0 ? PixelMark.darker : PixelMark.different
                    }
                }
            }
        }
        return stats
    }

    // MARK: perceptual (pixelmatch 5.x/6.x)

    /// pixelmatch's main loop. `e`/`a` are the premultiplied pixels (for the fast equality tests), `se`/`sa`
    /// the straight ones that the colour metric and the anti-aliasing test read.
    static func comparePerceptual(
        _ e: UnsafePointer<UInt32>, _ a: UnsafePointer<UInt32>, straight se: UnsafePointer<UInt32>, _ sa: UnsafePointer<UInt32>,
        width w: Int, height h: Int, threshold: Double, includeAA: Bool, marks: UnsafeMutablePointer<UInt8>?
    ) -> PixelStats {
        var stats = PixelStats()
        // Same expression and evaluation order as pixelmatch: 35215 * threshold * threshold.
        let maxDelta = 35215 * threshold * threshold
        for y in 0..<h {
            let row = y * w
            if equal(e + row, a + row, count: w) { continue }
            for x in 0..<w {
                let i = row + x
                if e[i] == a[i] { continue }
                let delta = colorDelta(se[i], sa[i])
                guard abs(delta) > maxDelta else { continue }
                if !includeAA && (antialiased(se, x, y, w, h, sa) || antialiased(sa, x, y, w, h, se)) {
                    stats.antialiased += 1
                    marks?[i] = PixelMark.antialiased
                } else {
                    stats.count(x: x, y: y, channelDelta: channelDelta(se[i], sa[i]))
                    marks?[i] = delta < 0 ? PixelMark.darker : PixelMark.different
                }
            }
        }
        return stats
    }

    /// A straight pixel blended onto white as pixelmatch 5.x/6.x does: `255 + (c − 255) · a/255` when a < 255.
    @inline(__always)
    static func blended(_ p: UInt32) -> (r: Double, g: Double, b: Double) {
        var r = Double(p & 0xFF), g = Double(p >> 8 & 0xFF), b = Double(p >> 16 & 0xFF)
        let a8 = p >> 24
        if a8 < 255 {
            let a = Double(a8) / 255
            r = 255 + (r - 255) * a
            g = 255 + (g - 255) * a
            b = 255 + (b - 255) * a
        }
        return (r, g, b)
    }

    @inline(__always) static func rgb2y(_ c: (r: Double, g: Double, b: Double)) -> Double {
        c.r * 0.29889531 + c.g * 0.58662247 + c.b * 0.11448223
    }
    @inline(__always) static func rgb2i(_ c: (r: Double, g: Double, b: Double)) -> Double {
        c.r * 0.59597799 - c.g * 0.27417610 - c.b * 0.32180189
    }
    @inline(__always) static func rgb2q(_ c: (r: Double, g: Double, b: Double)) -> Double {
        c.r * 0.21147017 - c.g * 0.52261711 + c.b * 0.31114694
    }

    /// pixelmatch's `colorDelta`: the squared YIQ distance, negative when `p` is brighter than `q` (the
    /// actual pixel is darker). Same operations in the same order, so the same doubles.
    @inline(__always)
    static func colorDelta(_ p: UInt32, _ q: UInt32) -> Double {
        if p == q { return 0 }
        let c1 = blended(p), c2 = blended(q)
        let y1 = rgb2y(c1), y2 = rgb2y(c2)
        let y = y1 - y2
        let i = rgb2i(c1) - rgb2i(c2)
        let qd = rgb2q(c1) - rgb2q(c2)
        let delta = 0.5053 * y * y + 0.299 * i * i + 0.1957 * qd * qd
        return y1 > y2 ? -delta : delta
    }

    /// pixelmatch's `colorDelta(…, yOnly: true)`: the brightness difference.
    @inline(__always)
    static func brightnessDelta(_ p: UInt32, _ q: UInt32) -> Double {
        if p == q { return 0 }
        return rgb2y(blended(p)) - rgb2y(blended(q))
    }

    /// pixelmatch's `antialiased` (after V. Vysniauskas, 2009): is pixel (x1, y1) of `img` likely part of
    /// anti-aliasing? The neighbours are visited column by column (x outer, y inner) as in pixelmatch,
    /// which decides the darkest and brightest neighbour on ties.
    static func antialiased(_ img: UnsafePointer<UInt32>, _ x1: Int, _ y1: Int, _ w: Int, _ h: Int,
                            _ img2: UnsafePointer<UInt32>) -> Bool {
        let x0 = max(x1 - 1, 0), y0 = max(y1 - 1, 0)
        let x2 = min(x1 + 1, w - 1), y2 = min(y1 + 1, h - 1)
        let center = img[y1 * w + x1]
        var zeroes = x1 == x0 || x1 == x2 || y1 == y0 || y1 == y2 ? 1 : 0
        var minDelta = 0.0, maxDelta = 0.0
        var minX = 0, minY = 0, maxX = 0, maxY = 0
        for x in x0...x2 {
            for y in y0...y2 {
                if x == x1 && y == y1 { continue }
                let delta = brightnessDelta(center, img[y * w + x])
                if delta == 0 {
                    zeroes += 1
                    // More than two equal neighbours: certainly not anti-aliasing.
                    if zeroes > 2 { return false }
                } else if delta < minDelta {
                    minDelta = delta; minX = x; minY = y
                } else if delta > maxDelta {
                    maxDelta = delta; maxX = x; maxY = y
                }
            }
        }
        // Anti-aliasing sits between a darker and a brighter neighbour.
        if minDelta == 0 || maxDelta == 0 { return false }
        // ... one of which is part of a flat area (3+ equal neighbours) in both frames.
        return (hasManySiblings(img, minX, minY, w, h) && hasManySiblings(img2, minX, minY, w, h))
            || (hasManySiblings(img, maxX, maxY, w, h) && hasManySiblings(img2, maxX, maxY, w, h))
    }

    /// pixelmatch's `hasManySiblings`: does pixel (x1, y1) have 3+ neighbours of exactly its colour (a pixel
    /// on the image's edge starts with one)?
    static func hasManySiblings(_ img: UnsafePointer<UInt32>, _ x1: Int, _ y1: Int, _ w: Int, _ h: Int) -> Bool {
        let x0 = max(x1 - 1, 0), y0 = max(y1 - 1, 0)
        let x2 = min(x1 + 1, w - 1), y2 = min(y1 + 1, h - 1)
        let value = img[y1 * w + x1]
        var zeroes = x1 == x0 || x1 == x2 || y1 == y0 || y1 == y2 ? 1 : 0
        for x in x0...x2 {
            for y in y0...y2 {
                if x == x1 && y == y1 { continue }
                if img[y * w + x] == value { zeroes += 1 }
                if zeroes > 2 { return true }
            }
        }
        return false
    }

    // MARK: diff image

    /// Draws the diff image from the marks and the expected frame's premultiplied pixels.
    static func renderDiff(expected e: UnsafePointer<UInt32>, marks: UnsafePointer<UInt8>, into out: UnsafeMutablePointer<UInt32>,
                           count: Int, style: DiffImageStyle) {
        let diff = style.diffColor.packed
        let darker = (style.diffColorAlt ?? style.diffColor).packed
        let aa = style.diffMask ? 0 : style.aaColor.packed
        // pixelmatch's blend(y, alpha * a / 255); the factor per alpha byte is computed exactly as there.
        let alpha = style.clampedAlpha
        var factor = [Double](repeating: 0, count: 256)
        for a in 0..<256 { factor[a] = alpha * Double(a) / 255 }
        PremultipliedRGBA8.unpremultiplyTable.withUnsafeBufferPointer { t in
            factor.withUnsafeBufferPointer { f in
                let table = t.baseAddress!, factor = f.baseAddress!
                // Flat UI has long runs of one colour: remember the last grey computed.
                var lastInput: UInt32 = 0, lastGray: UInt32 = 0xFFFF_FFFF
                var haveLast = false
                for i in 0..<count {
                    switch marks[i] {
                    case PixelMark.different: out[i] = diff
                    case PixelMark.darker: out[i] = darker
                    case PixelMark.antialiased: out[i] = aa
                    default:
                        if style.diffMask { out[i] = 0; continue }
                        let p = e[i]
                        if haveLast && p == lastInput { out[i] = lastGray; continue }
                        let s = PremultipliedRGBA8.unpremultiply(packed: p, table: table)
                        let y = rgb2y((Double(s & 0xFF), Double(s >> 8 & 0xFF), Double(s >> 16 & 0xFF)))
                        let value = 255 + (y - 255) * factor[Int(s >> 24)]
                        let v = UInt32(min(255, max(0, value)))  // truncates, as storing into a Uint8Array does
                        lastInput = p; lastGray = v | v << 8 | v << 16 | 0xFF00_0000; haveLast = true
                        out[i] = lastGray
                    }
                }
            }
        }
    }
}
