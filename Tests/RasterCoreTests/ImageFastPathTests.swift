import CCPUFeatures
import CRasterKernels
import RasterCore
import XCTest

/// The fast paths of image drawing (row kernels in C, scalar and SIMD; resampling straight into the
/// target) against the general path and against the formulas they implement.
final class ImageFastPathTests: XCTestCase {
    override func tearDown() {
        ccpu_restrict(~0)
        Painter.usesImageFastPaths = true
    }

    /// A deterministic generator (xorshift), so that a failure can be replayed.
    struct Random {
        var state: UInt64
        mutating func next() -> UInt64 {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return state
        }
        mutating func byte() -> UInt32 { UInt32(next() & 0xFF) }
        /// A valid premultiplied pixel; a quarter opaque, a quarter fully transparent.
        mutating func pixel() -> UInt32 {
            let kind = next() % 4
            let a: UInt32 = kind == 0 ? 255 : kind == 1 ? 0 : byte()
            if a == 0 { return 0 }
            return (byte() * a / 255) | (byte() * a / 255) << 8 | (byte() * a / 255) << 16 | a << 24
        }
    }

    /// Every version the processor can run: all its features (AVX2 where it has it), SSE4.1 alone, then
    /// the portable code.
    private func forBothPaths(_ body: (String) throws -> Void) rethrows {
        // SMOKESCREEN_FORCE_SCALAR=1 (or a forced run) stays in force after this.
        let forced = ccpu_scalar_forced()
        defer { ccpu_force_scalar(forced) }
        ccpu_force_scalar(0)
        try body("vector (features \(ccpu_features()))")
        if ccpu_features() & UInt32(CCPU_AVX2) != 0 {
            ccpu_restrict(UInt32(CCPU_SSSE3 | CCPU_SSE41))
            defer { ccpu_restrict(~0) }
            try body("SSE4.1 (features \(ccpu_features()))")
        }
        ccpu_force_scalar(1)
        XCTAssertEqual(ccpu_features(), 0)
        try body("scalar")
    }

    func testBilinearKernelsMatchTheFourWeightFormula() {
        var random = Random(state: 0x9E37_79B9_7F4A_7C15)
        let width = 40
        let row0 = (0..<width).map { _ in random.pixel() }, row1 = (0..<width).map { _ in random.pixel() }
        forBothPaths { path in
            for count in [1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 38] {
                for fy: UInt32 in [0, 1, 77, 128, 255] {
                    let fx = (0..<count).map { i in UInt16(i % 5 == 0 ? 256 : Int(random.next() % 256)) }
                    let index = (0..<count).map { _ in Int32(random.next() % UInt64(width - 1)) }
                    var out = [UInt32](repeating: 0, count: count)
                    crk_bilinear_columns(row0, row1, fy, index, fx, Int32(count), &out)
                    for i in 0..<count {
                        let x = Int(index[i])
                        let expected = BilinearSampler.blend(row0[x], row0[x + 1], row1[x], row1[x + 1], fx: UInt64(fx[i]), fy: UInt64(fy))
                        XCTAssertEqual(out[i], expected, "\(path): columns, count \(count), fx \(fx[i]), fy \(fy), pixel \(i)")
                    }
                    for shiftFX: UInt32 in [0, 1, 100, 255, 256] {
                        for start in [0, 3] where start + count + 1 <= width {
                            var shifted = [UInt32](repeating: 0, count: count)
                            row0.withUnsafeBufferPointer { r0 in
                                row1.withUnsafeBufferPointer { r1 in
                                    crk_bilinear_shift(r0.baseAddress! + start, r1.baseAddress! + start, shiftFX, fy, Int32(count), &shifted)
                                }
                            }
                            for i in 0..<count {
                                let x = start + i
                                let expected = BilinearSampler.blend(row0[x], row0[x + 1], row1[x], row1[x + 1], fx: UInt64(shiftFX), fy: UInt64(fy))
                                XCTAssertEqual(shifted[i], expected, "\(path): shift, count \(count), fx \(shiftFX), fy \(fy), pixel \(i)")
                            }
                        }
                    }
                }
            }
        }
    }

    func testCoverageTimesMaskRoundsAsPixelMath() {
        // Every pair of bytes.
        let a = (0..<65536).map { UInt8($0 & 255) }, b = (0..<65536).map { UInt8($0 >> 8) }
        var out = [UInt8](repeating: 0, count: 65536)
        crk_multiply_coverage(&out, a, b, 65536)
        for i in 0..<65536 { XCTAssertEqual(UInt32(out[i]), PixelMath.div255(UInt32(a[i]) * UInt32(b[i])), "\(a[i]) × \(b[i])") }
    }

    func testSeparableHalvesMatchTheBilinearKernels() {
        var random = Random(state: 0x1234_5678_9ABC_DEF0)
        let width = 40
        let row0 = (0..<width).map { _ in random.pixel() }, row1 = (0..<width).map { _ in random.pixel() }
        forBothPaths { path in
            for count in [1, 2, 3, 4, 5, 9, 16, 17, 38] {
                let fx = (0..<count).map { i in UInt16(i % 7 == 0 ? 256 : Int(random.next() % 256)) }
                let index = (0..<count).map { _ in Int32(random.next() % UInt64(width - 1)) }
                var h0 = [UInt16](repeating: 0, count: 4 * count), h1 = h0
                crk_horizontal_columns(row0, index, fx, Int32(count), &h0)
                crk_horizontal_columns(row1, index, fx, Int32(count), &h1)
                for fy: UInt32 in [0, 1, 99, 255] {
                    var separable = [UInt32](repeating: 0, count: count), direct = separable
                    crk_vertical(h0, h1, fy, Int32(count), &separable)
                    crk_bilinear_columns(row0, row1, fy, index, fx, Int32(count), &direct)
                    XCTAssertEqual(separable, direct, "\(path): columns, count \(count), fy \(fy)")
                }
                for shiftFX: UInt32 in [0, 77, 256] {
                    crk_horizontal_shift(row0, shiftFX, Int32(count), &h0)
                    crk_horizontal_shift(row1, shiftFX, Int32(count), &h1)
                    var separable = [UInt32](repeating: 0, count: count), direct = separable
                    crk_vertical(h0, h1, 200, Int32(count), &separable)
                    crk_bilinear_shift(row0, row1, shiftFX, 200, Int32(count), &direct)
                    XCTAssertEqual(separable, direct, "\(path): shift, count \(count), fx \(shiftFX)")
                }
            }
        }
    }

    /// A mirrored or flipped aligned placement walks source rows backwards; the cache of horizontal rows
    /// must never hand out a row it is about to overwrite.
    func testFlippedAndMirroredAlignedDrawsMatchTheGeneralPath() throws {
        let image = try randomBitmap(width: 10, height: 12, seed: 51)
        let background = try randomBitmap(width: 30, height: 34, seed: 52)
        let placements = [
            Transform2D(a: 1, b: 0, c: 0, d: -1, tx: 3.3, ty: 20.6), Transform2D(a: -1.4, b: 0, c: 0, d: 1, tx: 25.2, ty: 2.7),
            Transform2D(a: 0.6, b: 0, c: 0, d: -2.2, tx: 5.5, ty: 30.1), Transform2D(a: 2.5, b: 0, c: 0, d: 0.45, tx: 0.3, ty: 9.9),
        ]
        forBothPaths { path in
            compareDraws(image, on: background, placements: placements, opacity: 1, clip: nil, label: "\(path), flipped")
            compareDraws(image, on: background, placements: placements, opacity: 0.7, clip: Path(ellipseIn: Rect(x: 2, y: 3, width: 25, height: 27)), label: "\(path), flipped, clipped")
        }
    }

    func testSourceOverKernelsMatchPixelMath() {
        var random = Random(state: 0xDEAD_BEEF_CAFE_F00D)
        // Whole groups of opaque, empty and mixed pixels (the vector kernels' shortcuts), and a tail.
        forBothPaths { path in
            let opaque = (0..<8).map { _ in random.pixel() | 0xFF00_0000 }
            let mixed = (0..<8).map { i in i == 3 ? 0 : random.pixel() }
            let src = opaque + [UInt32](repeating: 0, count: 8) + mixed + opaque.prefix(5) + [0xFF00_0000 & random.pixel()]
            let dst = src.map { _ in random.pixel() }
            var out = dst
            crk_source_over(&out, src, Int32(src.count))
            for i in 0..<src.count {
                let s = src[i]
                let expected = s >> 24 == 255 ? s : s == 0 ? dst[i] : PixelMath.sourceOver(s, dst[i])
                XCTAssertEqual(out[i], expected, "\(path): source-over in groups, pixel \(i)")
            }
        }
        forBothPaths { path in
            for count in [1, 3, 4, 5, 8, 13, 64, 77] {
                let src = (0..<count).map { _ in random.pixel() }, dst = (0..<count).map { _ in random.pixel() }
                let coverage = (0..<count).map { i in UInt8(i % 3 == 0 ? 255 : i % 3 == 1 ? 0 : Int(random.byte())) }
                var plain = dst
                crk_source_over(&plain, src, Int32(count))
                for i in 0..<count {
                    let s = src[i]
                    let expected = s >> 24 == 255 ? s : s == 0 ? dst[i] : PixelMath.sourceOver(s, dst[i])
                    XCTAssertEqual(plain[i], expected, "\(path): source-over, pixel \(i)")
                }
                for _ in 0..<4 {
                    let color = random.pixel()
                    var solid = dst
                    crk_solid_over(&solid, color, Int32(count))
                    for i in 0..<count {
                        XCTAssertEqual(solid[i], PixelMath.sourceOver(color, dst[i]), "\(path): solid source-over of \(color), pixel \(i)")
                    }
                }
                // Also runs of eight and more uncovered and fully covered pixels (skipped and stored whole).
                let runs = (0..<count).map { i in UInt8(i / 8 % 3 == 0 ? 0 : i / 8 % 3 == 1 ? 255 : Int(random.byte())) }
                for (coverage, color) in [coverage, runs].flatMap({ c in [random.pixel(), random.pixel(), 0xFF10_2030, 0x8040_2010, 0x4D00_0000, 0xFF00_0000, 0x0100_0000].map { (c, $0) } }) {
                    var covered = dst
                    crk_solid_over_coverage(&covered, color, coverage, Int32(count))
                    for i in 0..<count {
                        let c = UInt32(coverage[i])
                        let expected = c == 0 ? dst[i] : PixelMath.sourceOver(c == 255 ? color : PixelMath.scale(color, by: c), dst[i])
                        XCTAssertEqual(covered[i], expected, "\(path): solid source-over of \(color) under coverage \(c), pixel \(i)")
                    }
                }
                for opacity: UInt32 in [0, 1, 128, 254, 255] {
                    for withCoverage in [false, true] {
                        var scaled = dst
                        if withCoverage { crk_source_over_scaled(&scaled, src, coverage, opacity, Int32(count)) }
                        else { crk_source_over_scaled(&scaled, src, nil, opacity, Int32(count)) }
                        for i in 0..<count {
                            let f = withCoverage ? PixelMath.div255(UInt32(coverage[i]) * opacity) : opacity
                            var expected = dst[i]
                            if f != 0 {
                                let s = f == 255 ? src[i] : PixelMath.scale(src[i], by: f)
                                if s >> 24 == 255 { expected = s } else if s != 0 { expected = PixelMath.sourceOver(s, dst[i]) }
                            }
                            XCTAssertEqual(scaled[i], expected, "\(path): scaled source-over, opacity \(opacity), coverage \(withCoverage), pixel \(i)")
                        }
                    }
                }
            }
        }
    }

    private func randomBitmap(width: Int, height: Int, seed: UInt64) throws -> Bitmap {
        var random = Random(state: seed)
        var bitmap = try Bitmap(width: width, height: height)
        bitmap.withUnsafeMutablePixels { px in for i in px.indices { px[i] = random.pixel() } }
        return bitmap
    }

    /// Draws `image` through each placement onto a copy of `background`, fast and general, and compares.
    private func compareDraws(_ image: Bitmap, on background: Bitmap, placements: [Transform2D], opacity: Double,
                              clip: Path?, label: String, file: StaticString = #filePath, line: UInt = #line) {
        for placement in placements {
            func render(fast: Bool) -> Bitmap {
                Painter.usesImageFastPaths = fast
                var canvas = background
                canvas.draw { p in
                    if let clip { p.clip(to: clip) }
                    p.draw(image, transform: placement, opacity: opacity)
                }
                return canvas
            }
            let general = render(fast: false), fast = render(fast: true)
            Painter.usesImageFastPaths = true
            guard general != fast else { continue }
            let first = (0..<general.height).lazy.flatMap { y in (0..<general.width).lazy.map { (x: $0, y: y) } }
                .first { general[$0.x, $0.y] != fast[$0.x, $0.y] }!
            XCTFail("\(label): placement \(placement), opacity \(opacity): first difference at \(first): general \(general[first.x, first.y]), fast \(fast[first.x, first.y])",
                    file: file, line: line)
            return
        }
    }

    func testFractionalTranslationsDrawTheGeneralPathsPixels() throws {
        let image = try randomBitmap(width: 13, height: 7, seed: 11)
        let background = try randomBitmap(width: 24, height: 14, seed: 12)
        // Every 1/16 pixel over two pixels each way, and offsets that push the image partly outside.
        var placements: [Transform2D] = []
        for i in 0..<32 { for j in 0..<32 { placements.append(Transform2D(translationX: Double(i) / 16, y: Double(j) / 16)) } }
        for (x, y) in [(-5.3, 2.7), (15.6, -3.2), (20.02, 9.99), (-0.001, 0.999)] { placements.append(Transform2D(translationX: x, y: y)) }
        forBothPaths { path in
            for opacity in [1.0, 0.5] {
                compareDraws(image, on: background, placements: placements, opacity: opacity, clip: nil, label: "\(path), translation")
            }
            let clip = Path(roundedRect: Rect(x: 2.5, y: 1.25, width: 17, height: 10), cornerRadius: 3)
            compareDraws(image, on: background, placements: Array(placements.prefix(256)), opacity: 0.75, clip: clip, label: "\(path), translation in a rounded clip")
        }
    }

    func testAxisAlignedScalesDrawTheGeneralPathsPixels() throws {
        let image = try randomBitmap(width: 11, height: 9, seed: 21)
        let background = try randomBitmap(width: 30, height: 26, seed: 22)
        var placements: [Transform2D] = []
        for sx in [0.5, 0.73, 1.0, 1.25, 2.0, 2.6] {
            for sy in [0.6, 1.0, 1.5] {
                for k in 0..<6 {
                    placements.append(Transform2D(scaleX: sx, y: sy).concatenating(Transform2D(translationX: 1 + Double(k) * 0.37, y: 0.5 + Double(k) * 0.21)))
                }
            }
        }
        forBothPaths { path in
            compareDraws(image, on: background, placements: placements, opacity: 1, clip: nil, label: "\(path), scale")
            compareDraws(image, on: background, placements: placements, opacity: 0.4, clip: Path(rect: Rect(x: 3.5, y: 2.5, width: 20, height: 15)), label: "\(path), scale, clipped")
        }
    }

    func testRotatedMirroredAndSkewedDrawsMatchTheSwiftGeneralPath() throws {
        let image = try randomBitmap(width: 12, height: 8, seed: 41)
        let thin = try randomBitmap(width: 1, height: 9, seed: 42)
        let background = try randomBitmap(width: 32, height: 28, seed: 43)
        var placements: [Transform2D] = []
        for angle in stride(from: 0.05, to: 6.3, by: 0.41) {
            for k in 0..<3 {
                placements.append(Transform2D(rotationAngle: angle).concatenating(Transform2D(translationX: 14 + Double(k) * 0.31, y: 11 + Double(k) * 0.17)))
            }
        }
        // Mirrored (a page curl's back), skewed, and a strip squeezed almost to nothing.
        placements.append(Transform2D(a: -1.3, b: 0.2, c: 0.1, d: 1.1, tx: 25.5, ty: 3.25))
        placements.append(Transform2D(a: 1, b: 0, c: 0.6, d: 1, tx: 2.5, ty: 4.75))
        placements.append(Transform2D(a: 0.02, b: 0.3, c: -0.01, d: 1.4, tx: 9.9, ty: 1.1))
        forBothPaths { path in
            compareDraws(image, on: background, placements: placements, opacity: 1, clip: nil, label: "\(path), affine")
            compareDraws(image, on: background, placements: placements, opacity: 0.6,
                         clip: Path(roundedRect: Rect(x: 4.5, y: 3.5, width: 22, height: 19), cornerRadius: 5), label: "\(path), affine, clipped")
            compareDraws(thin, on: background, placements: Array(placements.prefix(12)), opacity: 1, clip: nil, label: "\(path), affine, one pixel wide")
        }
    }

    /// The reference computes each column's position from the mapping as the code before the fast
    /// paths did; a placement where accumulating positions pixel by pixel would round one column
    /// differently (found by review) must still match.
    func testColumnPositionsAreComputedPerColumnNotAccumulated() throws {
        let image = try randomBitmap(width: 579, height: 3, seed: 61)
        let background = try randomBitmap(width: 960, height: 6, seed: 62)
        let rect = Rect(x: 252.63, y: 1, width: 701.44, height: 3)
        let scale = Transform2D(scaleX: rect.width / 579, y: 1).concatenating(Transform2D(translationX: rect.minX, y: rect.minY))
        forBothPaths { path in
            compareDraws(image, on: background, placements: [scale], opacity: 1, clip: nil, label: "\(path), per-column positions")
        }
    }

    /// A placement whose tile would be wider than any bitmap keeps the fallback it had before the fast
    /// paths: direct resampling, edge coverage and opacity rounded once, not twice (found by review).
    func testAPlacementWiderThanATileKeepsTheFallback() throws {
        var image = try Bitmap(width: 100, height: 10, fill: PremultipliedRGBA8(r: 200, g: 100, b: 50, a: 255))
        image[0, 0] = PremultipliedRGBA8(r: 2, g: 2, b: 2, a: 255)
        let background = try Bitmap(width: 400, height: 20, fill: PremultipliedRGBA8(r: 0, g: 0, b: 0, a: 255))
        let placement = Transform2D(scaleX: 170, y: 1).concatenating(Transform2D(translationX: 0.3, y: 0.5))
        compareDraws(image, on: background, placements: [placement], opacity: 0.5, clip: nil, label: "wider than a tile")
    }

    /// A second draw of the same image at the same sub-pixel placement goes through a tile; it must
    /// match the first draw's direct resampling.
    func testRepeatedDrawsThroughATileMatchTheFirstDraw() throws {
        let image = try randomBitmap(width: 9, height: 6, seed: 31)
        let background = try Bitmap(width: 40, height: 10, fill: PremultipliedRGBA8(r: 10, g: 20, b: 30, a: 255))
        var canvas = background
        canvas.draw { p in
            for k in 0..<3 { p.draw(image, transform: Transform2D(translationX: 0.375 + Double(k) * 12, y: 1.625), opacity: 0.8) }
        }
        for y in 0..<10 {
            for x in 0..<12 {
                XCTAssertEqual(canvas[x, y], canvas[x + 12, y], "tile copy at (\(x + 12), \(y))")
                XCTAssertEqual(canvas[x, y], canvas[x + 24, y], "tile copy at (\(x + 24), \(y))")
            }
        }
    }
}
