import PNGIO
import RasterCore
import XCTest
import FrameDiff

final class BitmapComparisonTests: XCTestCase {
    /// An 8x6 opaque bitmap with a different colour in every pixel.
    static func gradient(width: Int = 8, height: Int = 6, scale: Double = 1) throws -> Bitmap {
        var bitmap = try Bitmap(width: width, height: height, scale: scale)
        for y in 0..<height {
            for x in 0..<width {
                bitmap[x, y] = PremultipliedRGBA8(r: UInt8(truncatingIfNeeded: x * 30), g: UInt8(truncatingIfNeeded: y * 40), b: 200, a: 255)
            }
        }
        return bitmap
    }

    /// White with a black rectangle whose left edge is at `left` pixels (a fractional edge is anti-aliased).
    static func edge(left: Double) throws -> Bitmap {
        var bitmap = try Bitmap(width: 16, height: 10, fill: .white)
        bitmap.draw { $0.fill(Rect(x: left, y: 2, width: 7, height: 6), color: .black) }
        return bitmap
    }

    func testIdenticalFramesMatchInEveryMode() throws {
        let a = try Self.gradient()
        var b = try Bitmap(width: 8, height: 6)
        b.copy(from: a, to: (0, 0))  // equal pixels in separate storage
        for comparison in [FrameComparison.exact, .tolerance(3), .perceptual(), .perceptual(threshold: 0, includeAA: true)] {
            XCTAssertNil(comparison.compare(a, b), "\(comparison)")
            XCTAssertNil(comparison.compare(a, a), "\(comparison)")
        }
    }

    func testOnePixelOff() throws {
        let a = try Self.gradient()
        var b = a
        b[5, 3] = PremultipliedRGBA8(r: 10, g: 120, b: 60, a: 255)  // was (150, 120, 200)
        let d = try XCTUnwrap(FrameComparison.exact.compare(a, b))
        XCTAssertEqual(d.differentPixels, 1)
        XCTAssertEqual(d.maxChannelDelta, 140)
        XCTAssertEqual(d.boundingBox, PixelRect(x: 5, y: 3, width: 1, height: 1))
        XCTAssertEqual(d.pixelCount, 48)
        XCTAssertNil(d.reason)
        XCTAssertEqual(d.summary, "1 of 48 pixels differ (2.08%), max channel delta 140, in x 5 y 3 w 1 h 1")
        let image = try XCTUnwrap(d.diffImage)
        XCTAssertEqual(image[5, 3], PremultipliedRGBA8(r: 255, g: 0, b: 0, a: 255))
        // Elsewhere: the expected pixel's brightness faded to 10% on white, truncated.
        let y = 30.0 * 0.29889531 + 0 * 0.58662247 + 200 * 0.11448223
        let gray = UInt8(255 + (y - 255) * (0.1 * 255 / 255))
        XCTAssertEqual(image[1, 0], PremultipliedRGBA8(r: gray, g: gray, b: gray, a: 255))

        XCTAssertNotNil(FrameComparison.perceptual().compare(a, b), "a large change is seen by the perceptual test too")
        XCTAssertNil(FrameComparison.tolerance(140).compare(a, b), "within a tolerance of 140")
        XCTAssertEqual(FrameComparison.tolerance(139).compare(a, b)?.differentPixels, 1)
    }

    func testShiftedAntiAliasedEdge() throws {
        let a = try Self.edge(left: 4.25), b = try Self.edge(left: 4.75)
        // Column 4 is 3/4 covered in a and 1/4 in b; column 11 (the right edge) the other way round.
        XCTAssertEqual(a[4, 5].r, 64)
        XCTAssertEqual(b[4, 5].r, 191)
        let exact = try XCTUnwrap(FrameComparison.exact.compare(a, b))
        XCTAssertEqual(exact.differentPixels, 12, "two columns of six rows")
        XCTAssertEqual(exact.boundingBox, PixelRect(x: 4, y: 2, width: 8, height: 6))
        XCTAssertEqual(exact.maxChannelDelta, 127)

        XCTAssertNil(FrameComparison.perceptual().compare(a, b), "the moved edge is anti-aliasing to pixelmatch")
        let withAA = try XCTUnwrap(FrameComparison(mode: .perceptual(threshold: 0.1, includeAA: true)).compare(a, b))
        XCTAssertEqual(withAA.differentPixels, 12)
        XCTAssertEqual(withAA.antialiasedPixels, 0)

        // Not counted, but drawn in aaColor when the edge comes with a real difference.
        var c = b
        c[0, 0] = .black
        let mixed = try XCTUnwrap(FrameComparison.perceptual().compare(a, c))
        XCTAssertEqual(mixed.differentPixels, 1)
        XCTAssertEqual(mixed.antialiasedPixels, 12)
        XCTAssertEqual(mixed.boundingBox, PixelRect(x: 0, y: 0, width: 1, height: 1))
        let image = try XCTUnwrap(mixed.diffImage)
        XCTAssertEqual(image[4, 5], PremultipliedRGBA8(r: 255, g: 255, b: 0, a: 255))
        XCTAssertEqual(image[0, 0], PremultipliedRGBA8(r: 255, g: 0, b: 0, a: 255))
    }

    func testAlphaDifferences() throws {
        var a = try Bitmap(width: 4, height: 1)  // transparent
        var b = a
        // Alpha-only: (0,0,0,0) against 1/255 black. One byte apart, straight and premultiplied.
        b[0, 0] = PremultipliedRGBA8(r: 0, g: 0, b: 0, a: 1)
        // Premultiplied 1 of 2 is straight 128 (rounded): the PNG holds (128, 0, 0, 2) against (0, 0, 0, 2).
        a[1, 0] = PremultipliedRGBA8(r: 0, g: 0, b: 0, a: 2)
        b[1, 0] = PremultipliedRGBA8(r: 1, g: 0, b: 0, a: 2)
        // Half-transparent white against half-transparent black: far apart in every mode.
        a[2, 0] = PremultipliedRGBA8(r: 128, g: 128, b: 128, a: 128)
        b[2, 0] = PremultipliedRGBA8(r: 0, g: 0, b: 0, a: 128)

        let exact = try XCTUnwrap(FrameComparison.exact.compare(a, b))
        XCTAssertEqual(exact.differentPixels, 3)
        XCTAssertEqual(exact.maxChannelDelta, 255, "straight values: 255 against 0 at pixel 2")
        let tolerance = try XCTUnwrap(FrameComparison.tolerance(127).compare(a, b))
        XCTAssertEqual(tolerance.differentPixels, 2, "pixel 0 is 1 apart; pixel 1 is 128 apart in straight red")
        XCTAssertEqual(tolerance.boundingBox, PixelRect(x: 1, y: 0, width: 2, height: 1))

        // Perceptual blends onto white: at alpha 1/255 or 2/255 the colour barely shows.
        let perceptual = try XCTUnwrap(FrameComparison.perceptual(threshold: 0.05).compare(a, b))
        XCTAssertEqual(perceptual.differentPixels, 1)
        XCTAssertEqual(perceptual.boundingBox, PixelRect(x: 2, y: 0, width: 1, height: 1))
        XCTAssertEqual(FrameComparison.perceptual(threshold: 0).compare(a, b)?.differentPixels, 3)
    }

    /// The conversion is PNGIO's: every premultiplied value (c <= a) gives `unpremultiplied`, and converts
    /// back to itself, so straight equality is premultiplied equality.
    func testStraightConversionMatchesThePNGWriter() throws {
        PremultipliedRGBA8.unpremultiplyTable.withUnsafeBufferPointer { t in
            for a in 0...255 {
                for c in 0...a {
                    let p = PremultipliedRGBA8(r: UInt8(c), g: 0, b: UInt8(a - c), a: UInt8(a))
                    let s = PremultipliedRGBA8.unpremultiply(packed: p.packed, table: t.baseAddress!)
                    let u = p.unpremultiplied
                    XCTAssertEqual(s, PremultipliedRGBA8(packed: 0).packed | UInt32(u.r) | UInt32(u.g) << 8 | UInt32(u.b) << 16 | UInt32(u.a) << 24)
                    let back = a == 0 ? 0 : (Int(s & 0xFF) * a + 127) / 255
                    XCTAssertEqual(back, c, "a \(a), c \(c) survives the round trip")
                }
            }
        }
        // And what a PNG file holds, read back, compares equal.
        var bitmap = try Bitmap(width: 3, height: 1)
        bitmap[0, 0] = PremultipliedRGBA8(r: 1, g: 2, b: 0, a: 3)
        bitmap[1, 0] = PremultipliedRGBA8(r: 100, g: 50, b: 7, a: 200)
        let read = try PNGCodec.decode(try PNGCodec.encode(bitmap))
        XCTAssertNil(FrameComparison.exact.compare(bitmap, read))
    }

    func testSizeAndScaleMismatchAreReportedNotTrapped() throws {
        let a = try Self.gradient(width: 8, height: 6), b = try Self.gradient(width: 5, height: 9)
        for comparison in [FrameComparison.exact, .tolerance(10), .perceptual()] {
            let d = try XCTUnwrap(comparison.compare(a, b))
            XCTAssertEqual(d.reason, "size differs: expected 8x6 px, actual 5x9 px")
            XCTAssertEqual(d.differentPixels, 72, "the larger extent, 8x9")
            XCTAssertEqual(d.pixelCount, 72)
            XCTAssertEqual(d.maxChannelDelta, 255)
            XCTAssertEqual(d.boundingBox, PixelRect(x: 0, y: 0, width: 8, height: 9))
            XCTAssertEqual(d.diffImage?.width, 8)
            XCTAssertEqual(d.diffImage?[7, 8], PremultipliedRGBA8(r: 255, g: 0, b: 0, a: 255))
        }
        XCTAssertNotNil(FrameComparison(maxDifferentFraction: 1).compare(a, b), "no fraction makes a size mismatch match")

        let twoX = try Self.gradient(scale: 2), threeX = try Self.gradient(scale: 3)
        let d = try XCTUnwrap(FrameComparison.exact.compare(twoX, threeX))
        XCTAssertEqual(d.reason, "scale differs: expected @2x, actual @3x")
        XCTAssertEqual(d.differentPixels, 0)
        XCTAssertNil(d.boundingBox)
        let size = try XCTUnwrap(FrameComparison.exact.compare(twoX, try Self.gradient(width: 2, height: 2, scale: 1.5)))
        XCTAssertEqual(size.reason, "size differs: expected 8x6 px, actual 2x2 px; scale differs: expected @2x, actual @1.5x")
    }

    func testToleranceAndFraction() throws {
        let a = try Self.gradient()  // 48 pixels
        var b = a
        for x in 0..<5 { b[x, 0] = PremultipliedRGBA8(r: UInt8(x * 30 + 2), g: 0, b: 200, a: 255) }  // 5 pixels, +2 red
        b[7, 5] = PremultipliedRGBA8(r: 210, g: 200, b: 190, a: 255)  // 1 pixel, 10 apart in blue

        XCTAssertEqual(FrameComparison.exact.compare(a, b)?.differentPixels, 6)
        XCTAssertEqual(FrameComparison.tolerance(1).compare(a, b)?.differentPixels, 6)
        XCTAssertEqual(FrameComparison.tolerance(2).compare(a, b)?.differentPixels, 1)
        XCTAssertEqual(FrameComparison.tolerance(2).compare(a, b)?.boundingBox, PixelRect(x: 7, y: 5, width: 1, height: 1))
        XCTAssertNil(FrameComparison.tolerance(10).compare(a, b))
        XCTAssertEqual(FrameComparison.tolerance(-5).compare(a, b)?.differentPixels, 6, "clamped to 0: exact")
        XCTAssertNil(FrameComparison.tolerance(999).compare(a, b), "clamped to 255")

        // 6 of 48 pixels = 0.125.
        XCTAssertNil(FrameComparison(maxDifferentFraction: 0.125).compare(a, b))
        XCTAssertEqual(FrameComparison(maxDifferentFraction: 0.12).compare(a, b)?.differentPixels, 6)
        XCTAssertNil(FrameComparison.tolerance(2, maxDifferentFraction: 1.0 / 48).compare(a, b))
        XCTAssertNil(FrameComparison(maxDifferentFraction: 7).compare(a, b), "clamped to 1: everything may differ")
        XCTAssertNotNil(FrameComparison(maxDifferentFraction: .nan).compare(a, b), "NaN is 0")
        var c = b
        c[3, 3] = .black
        XCTAssertEqual(FrameComparison.perceptual(threshold: 0).compare(a, c)?.differentPixels, 7)
        XCTAssertEqual(FrameComparison.perceptual(threshold: .nan).compare(a, c)?.differentPixels, 1, "NaN threshold is 0.1")
        XCTAssertEqual(FrameComparison.perceptual(threshold: 0.1).compare(a, c)?.differentPixels, 1)
        XCTAssertNil(FrameComparison(diffImage: nil).compare(a, b)?.diffImage, "no diff image asked for")
    }

    func testDiffImageColours() throws {
        let a = try Bitmap(width: 3, height: 3, fill: PremultipliedRGBA8(r: 128, g: 128, b: 128, a: 255))
        var b = a
        b[0, 0] = .white  // brighter in the actual frame
        b[2, 2] = .black  // darker in the actual frame
        let alt = DiffColor(red: 0, green: 200, blue: 0), red = PremultipliedRGBA8(r: 255, g: 0, b: 0, a: 255)
        let green = PremultipliedRGBA8(r: 0, g: 200, b: 0, a: 255)
        for mode in [FrameComparison.Mode.exact, .tolerance(perChannel: 5), .perceptual(threshold: 0.1, includeAA: false)] {
            let style = DiffImageStyle(alpha: 1, diffColorAlt: alt)
            let image = try XCTUnwrap(FrameComparison(mode: mode, diffImage: style).compare(a, b)?.diffImage, "\(mode)")
            XCTAssertEqual(image[0, 0], red, "\(mode)")
            XCTAssertEqual(image[2, 2], green, "\(mode): darker in the actual frame takes diffColorAlt")
            // alpha 1: the grey is the brightness itself, 128 · (sum of the Y weights), truncated.
            XCTAssertEqual(image[1, 1], PremultipliedRGBA8(r: 128, g: 128, b: 128, a: 255), "\(mode)")
        }
        let plain = try XCTUnwrap(FrameComparison.exact.compare(a, b)?.diffImage)
        XCTAssertEqual(plain[2, 2], red, "without diffColorAlt both directions are diffColor")
        XCTAssertEqual(plain[1, 1], PremultipliedRGBA8(r: 242, g: 242, b: 242, a: 255), "255 + (128 - 255) * 0.1, truncated")

        let mask = try XCTUnwrap(FrameComparison(diffImage: DiffImageStyle(diffMask: true)).compare(a, b)?.diffImage)
        XCTAssertEqual(mask[0, 0], red)
        XCTAssertEqual(mask[1, 1], .clear, "a mask has a transparent background")

        let faded = try XCTUnwrap(FrameComparison(diffImage: DiffImageStyle(alpha: 0)).compare(a, b)?.diffImage)
        XCTAssertEqual(faded[1, 1], .white, "alpha 0 fades the original to white")
    }
}
