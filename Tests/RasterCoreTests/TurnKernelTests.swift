import CCPUFeatures
import CRasterKernels
import Foundation
import RasterCore
import XCTest

/// The two-pass resampler of a layer turned about an axis parallel to one of its sides (`crk_turn_*`,
/// craster_turn.c): the boxes it weighs, exactly; that it is chosen for turns about the vertical and the
/// horizontal axis and for nothing else; that its AVX2 passes give the portable bytes; and that a
/// magnified turn agrees with the general sampler.
final class TurnKernelTests: XCTestCase {
    typealias Random = CurlKernelTests.Random

    /// A grey image, one value a pixel, `values` row by row.
    private func grey(_ values: [[UInt8]]) throws -> Bitmap {
        var image = try Bitmap(width: values[0].count, height: values.count)
        for (y, row) in values.enumerated() { for (x, v) in row.enumerated() { image[x, y] = PremultipliedRGBA8(r: v, g: v, b: v, a: 255) } }
        return image
    }

    /// Every pixel of a `width` x `height` target from `m` (device pixels to image pixels, as the painter
    /// passes it), or nil where `m` is not a turn about a side; and the axis.
    private func resample(_ image: Bitmap, _ m: [Double], width: Int, height: Int, reach outline: [Point]? = nil) -> (axis: Int32, pixels: [[UInt32]])? {
        // The pixels the turn is made for: the whole target, or those an outline reaches.
        var box = (x0: 0, y0: 0, x1: width, y1: height)
        if let outline {
            box = (max(0, Int(outline.map(\.x).min()!.rounded(.down)) - 1), max(0, Int(outline.map(\.y).min()!.rounded(.down)) - 1),
                   min(width, Int(outline.map(\.x).max()!.rounded(.up)) + 1), min(height, Int(outline.map(\.y).max()!.rounded(.up)) + 1))
            guard box.x1 > box.x0, box.y1 > box.y0 else { return nil }
        }
        return image.withUnsafePixels { src -> (Int32, [[UInt32]])? in
            guard let turn = m.withUnsafeBufferPointer({ crk_turn_make(src.baseAddress!, Int32(image.width), Int32(image.height), $0.baseAddress!,
                                                                        Int32(box.x0), Int32(box.y0), Int32(box.x1), Int32(box.y1)) }) else { return nil }
            defer { crk_turn_free(turn) }
            let coverage = [UInt8](repeating: 255, count: width)
            var rows: [[UInt32]] = []
            for y in 0..<height {
                var out = [UInt32](repeating: 0, count: width)
                crk_turn_row(turn, Int32(y), 0, coverage, Int32(width), &out)
                rows.append(out)
            }
            return (crk_turn_axis(turn), rows)
        }
    }

    /// The inverse of a turn's homography (image pixels to device pixels), as the painter passes it.
    private func matrix(_ projection: Projective2D) throws -> [Double] {
        let i = try XCTUnwrap(projection.inverted())
        return [i.m11, i.m12, i.m13, i.m21, i.m22, i.m23, i.m31, i.m32, i.m33]
    }

    /// A device pixel whose box along u is one texel long, a quarter texel from a texel's centre, is the
    /// bilinear sample: ¾ of one texel and ¼ of the next, exactly; the row below is its own row whole.
    func testABoxOneTexelLongIsABilinearSample() throws {
        let values: [UInt8] = [200, 100, 40, 240, 0, 120]
        let image = try grey([values, values.map { 255 - $0 }])
        // u = x + ¼ (pixel centres at x + ½ + ¼), v = y: no turn, but a mapping of the same form.
        let m: [Double] = [1, 0, 0, 0, 1, 0, 0.25, 0, 1]
        let (axis, pixels) = try XCTUnwrap(resample(image, m, width: 5, height: 2))
        XCTAssertEqual(axis, 0)
        for y in 0..<2 {
            for x in 0..<5 {
                let a = Int(y == 0 ? values[x] : 255 - values[x]), b = Int(y == 0 ? values[x + 1] : 255 - values[x + 1])
                XCTAssertEqual(Int(pixels[y][x] & 0xFF), (3 * a + b) / 4, "pixel (\(x), \(y))")
                XCTAssertEqual(pixels[y][x] >> 24, 255, "opaque")
            }
        }
    }

    /// A column that spans two texels (the image squeezed to half its width) is their mean, exactly; past
    /// the image's edge the box weighs the edge texel.
    func testAShrunkColumnIsTheMeanOfTheTexelsItSpansAndTheEdgeIsClamped() throws {
        let values: [UInt8] = [200, 100, 40, 240, 0, 120, 60, 80]
        let image = try grey([values])
        let (_, pixels) = try XCTUnwrap(resample(image, [2, 0, 0, 0, 1, 0, 0, 0, 1], width: 4, height: 1))
        for x in 0..<4 { XCTAssertEqual(Int(pixels[0][x] & 0xFF), (Int(values[2 * x]) + Int(values[2 * x + 1])) / 2, "pixel \(x)") }
        // u = x − ½: pixel 0's box is [−½, ½], the first texel's whole; pixel 8's is [7½, 8½], the last's.
        let (_, shifted) = try XCTUnwrap(resample(image, [1, 0, 0, 0, 1, 0, -0.5, 0, 1], width: 9, height: 1))
        XCTAssertEqual(shifted[0][0] & 0xFF, UInt32(values[0]))
        XCTAssertEqual(shifted[0][8] & 0xFF, UInt32(values[7]))
        XCTAssertEqual(Int(shifted[0][3] & 0xFF), (Int(values[2]) + Int(values[3])) / 2, "between texels 2 and 3")
    }

    /// A one-colour image keeps its colour exactly (an opaque one stays opaque) however far it is shrunk
    /// along either axis, up to the longest box made here (62 texels); a longer box is left to the general
    /// sampler, as is a mapping so extreme that its rows would not fit an integer.
    func testAOneColourImageKeepsItsColourAndLongBoxesAreNotMade() throws {
        for colour in [PremultipliedRGBA8(r: 255, g: 255, b: 255, a: 255), PremultipliedRGBA8(r: 91, g: 7, b: 130, a: 137)] {
            var image = try Bitmap(width: 600, height: 400)
            for y in 0..<400 { for x in 0..<600 { image[x, y] = colour } }
            let packed = UInt32(colour.r) | UInt32(colour.g) << 8 | UInt32(colour.b) << 16 | UInt32(colour.a) << 24
            for shrink in [1.0, 7.3, 23.9, 61.5] {
                // Shrunk along u (about y), with a little perspective; then along v (about x).
                for m in [[shrink, 0, 1e-5, 0, 1, 0, 0.5, 0, 1], [1, 0, 0, 0, shrink, 1e-5, 0, 0.5, 1]] {
                    let (_, pixels) = try XCTUnwrap(resample(image, m, width: 9, height: 9), "shrunk \(shrink)x")
                    for row in pixels { for p in row { XCTAssertEqual(p, packed, "shrunk \(shrink)x: \(String(p, radix: 16))") } }
                }
            }
            XCTAssertNil(resample(image, [70, 0, 1e-5, 0, 1, 0, 0, 0, 1], width: 8, height: 8), "a box 70 texels long")
            XCTAssertNil(resample(image, [1, 0, 0, 0, 70, 1e-5, 0, 0, 1], width: 8, height: 8), "a box 70 texels long, about x")
        }
        // v would pass 2³¹ within the rows drawn: its box is far longer than 62 texels, so nothing is made.
        let tall = try grey((0..<100).map { [UInt8]($0 < 99 ? [10, 20] : [250, 250]) })
        XCTAssertNil(resample(tall, [0.5, 0, 1e-9, 0, 1e7, 0, 0, -3e8, 1], width: 8, height: 300))
    }

    /// A row asked for outside the rows a turn was made for, or with no pixels, is left transparent (or
    /// untouched) rather than read from H's edge.
    func testRowsOutsideTheTurnAreTransparent() throws {
        let image = try grey([[200, 100, 40, 240], [10, 20, 30, 40]])
        try image.withUnsafePixels { src in
            let m: [Double] = [0.5, 0, 1e-4, 0, 0.5, 0, 0, 0, 1]
            let turn = try XCTUnwrap(m.withUnsafeBufferPointer { crk_turn_make(src.baseAddress!, 4, 2, $0.baseAddress!, 0, 2, 8, 6) })
            defer { crk_turn_free(turn) }
            let coverage = [UInt8](repeating: 255, count: 8)
            var out = [UInt32](repeating: 0xDEAD_BEEF, count: 8)
            crk_turn_row(turn, 1, 0, coverage, 8, &out)
            XCTAssertEqual(out, [UInt32](repeating: 0, count: 8), "above the rows it was made for")
            out = [UInt32](repeating: 0xDEAD_BEEF, count: 8)
            crk_turn_row(turn, 6, 0, coverage, 8, &out)
            XCTAssertEqual(out, [UInt32](repeating: 0, count: 8), "below")
            out = [UInt32](repeating: 0xDEAD_BEEF, count: 8)
            crk_turn_row(turn, 3, 0, coverage, -4, &out)
            XCTAssertEqual(out, [UInt32](repeating: 0xDEAD_BEEF, count: 8), "no pixels")
            crk_turn_row(turn, 3, 0, coverage, 8, &out)
            XCTAssertEqual(out[0] >> 24, 255, "inside")
        }
    }

    /// Turns about y and about x (any angle, under perspective, placed anywhere) are made, with their axis;
    /// a turn about a tilted axis, or a mapping that shears both ways, is left to the general sampler.
    func testOnlyTurnsAboutASideAreMade() throws {
        let image = try grey([[10, 20, 30, 40], [50, 60, 70, 80], [90, 100, 110, 120]])
        var perspective = Transform3D.identity
        perspective.m34 = -1.0 / 300
        func turn(_ angle: Double, _ axis: (Double, Double, Double)) -> Projective2D {
            Transform3D(translationX: -2, y: -1.5, z: 0).concatenating(Transform3D(rotationAngle: angle, x: axis.0, y: axis.1, z: axis.2))
                .concatenating(Transform3D(scaleX: 4, y: 4, z: 1)).concatenating(perspective)
                .concatenating(Transform3D(translationX: 12.3, y: 9.7, z: 0)).flattened
        }
        for angle in [0.2, -0.9, 1.4, 2.6] {
            XCTAssertEqual(try resample(image, matrix(turn(angle, (0, 1, 0))), width: 24, height: 20)?.axis, 0, "about y, \(angle)")
            XCTAssertEqual(try resample(image, matrix(turn(angle, (1, 0, 0))), width: 24, height: 20)?.axis, 1, "about x, \(angle)")
            XCTAssertNil(try resample(image, matrix(turn(angle, (1, 1, 0))), width: 24, height: 20), "about a tilted axis, \(angle)")
        }
        // A shear along x keeps v a function of y alone (u affine along each row): the horizontal axis's.
        XCTAssertEqual(resample(image, [1, 0, 0, 0.3, 1, 0, 0, 0, 1], width: 8, height: 8)?.axis, 1, "a shear along x")
        XCTAssertNil(resample(image, [1, 0.2, 0, 0.3, 1, 0, 0, 0, 1], width: 8, height: 8), "a shear along both")
        crk_turn_sample_generally(1)
        XCTAssertNil(try resample(image, matrix(turn(0.5, (0, 1, 0))), width: 24, height: 20), "switched off")
        crk_turn_sample_generally(0)
    }

    /// The AVX2 passes (and the SSE2 pass of a machine without AVX2) give the portable passes' bytes:
    /// random premultiplied images, turned about y or x
    /// from slight to nearly edge-on and past 90°, at any scale (magnified, and shrunk to where each pixel
    /// spans several texels), partly behind the eye, clipped anywhere; drawn through the painter.
    func testTheVectorPassesGiveThePortableBytes() throws {
        if ccpu_features() & UInt32(CCPU_AVX2) == 0 { print("no AVX2 here: both runs use the portable code") }
        let forced = ccpu_scalar_forced()
        defer { ccpu_force_scalar(forced) }
        var random = Random(state: 0x7E57_AB1E_F11B_CA4D)
        var made = [0, 0]
        for n in 0..<160 {
            let iw = 1 + Int(random.next() % 90), ih = 1 + Int(random.next() % 70)
            let image = try random.image(width: iw, height: ih)
            var perspective = Transform3D.identity
            perspective.m34 = -1 / (40 + random.unit() * 400)
            let axis = n % 2 == 0 ? (0.0, 1.0) : (1.0, 0.0)
            let angle = (random.unit() - 0.5) * 3.6
            let size = 24 + Int(random.next() % 90)
            let scale = 0.15 + random.unit() * 2
            let projection = Transform3D(translationX: -Double(iw) / 2, y: -Double(ih) / 2, z: 0)
                .concatenating(Transform3D(rotationAngle: angle, x: axis.0, y: axis.1, z: 0))
                .concatenating(Transform3D(scaleX: scale, y: scale, z: 1))
                .concatenating(perspective)
                .concatenating(Transform3D(translationX: Double(size) / 2 + random.unit(), y: Double(size) / 2 + random.unit(), z: 0)).flattened
            guard projection.affine == nil, let m = try? matrix(projection) else { continue }
            // Made over the pixels the outline reaches, as the painter makes it (nearly edge-on, a box is
            // longer than 62 texels and the general sampler draws instead).
            let outline = projection.outline(of: Rect(x: 0, y: 0, width: Double(iw), height: Double(ih)), within: Rect(x: -2, y: -2, width: Double(size + 4), height: Double(size + 4)))
            if outline.count >= 3, let made1 = resample(image, m, width: size, height: size, reach: outline) { made[Int(made1.axis)] += 1 }
            let clip = Rect(x: random.unit() * 8, y: random.unit() * 8, width: Double(size), height: Double(size))
            func draw(scalar: Bool, sse: Bool = false) throws -> Bitmap {
                ccpu_force_scalar(scalar ? 1 : 0)
                ccpu_restrict(sse ? UInt32(CCPU_SSSE3 | CCPU_SSE41) : ~0)
                defer { ccpu_restrict(~0) }
                var target = try Bitmap(width: size, height: size)
                target.draw { p in
                    p.clip(to: clip)
                    p.draw(image, projection: projection)
                }
                return target
            }
            let vector = try draw(scalar: false), sse = try draw(scalar: false, sse: true), portable = try draw(scalar: true)
            XCTAssertTrue(vector.withUnsafePixels { v in portable.withUnsafePixels { p in v.elementsEqual(p) } },
                          "case \(n) (\(iw)x\(ih) about \(axis), angle \(angle), scale \(scale)): the AVX2 passes differ from the portable ones")
            XCTAssertTrue(sse.withUnsafePixels { v in portable.withUnsafePixels { p in v.elementsEqual(p) } },
                          "case \(n): the SSE2 pass differs from the portable one")
        }
        print("turns made: \(made[0]) about y, \(made[1]) about x, of 80 each (the others by the general sampler)")
        XCTAssertGreaterThan(made[0], 50, "turns about y made (of 80)")
        XCTAssertGreaterThan(made[1], 50, "turns about x made (of 80)")
    }

    /// Where every pixel is magnified, both samplers take one bilinear sample a pixel: a turn about either
    /// axis agrees with the general sampler within 2 levels a channel (their weights are rounded to 1/65536
    /// and to 1/256), over a random image.
    func testAMagnifiedTurnAgreesWithTheGeneralSampler() throws {
        var random = Random(state: 0xB111_14EA_5A3B_1E00)
        let image = try random.image(width: 40, height: 30)
        var perspective = Transform3D.identity
        perspective.m34 = -1.0 / 500
        for axis in [(0.0, 1.0), (1.0, 0.0)] {
            for angle in [0.25, -0.6] {
                let projection = Transform3D(translationX: -20, y: -15, z: 0)
                    .concatenating(Transform3D(rotationAngle: angle, x: axis.0, y: axis.1, z: 0))
                    .concatenating(Transform3D(scaleX: 2.5, y: 2.5, z: 1)).concatenating(perspective)
                    .concatenating(Transform3D(translationX: 60, y: 45, z: 0)).flattened
                func draw(generally: Bool) throws -> Bitmap {
                    crk_turn_sample_generally(generally ? 1 : 0)
                    defer { crk_turn_sample_generally(0) }
                    var target = try Bitmap(width: 120, height: 90)
                    target.draw { $0.draw(image, projection: projection) }
                    return target
                }
                let turn = try draw(generally: false), general = try draw(generally: true)
                var largest = 0
                for y in 0..<90 { for x in 0..<120 {
                    let a = turn[x, y], b = general[x, y]
                    largest = max(largest, abs(Int(a.r) - Int(b.r)), abs(Int(a.g) - Int(b.g)), abs(Int(a.b) - Int(b.b)), abs(Int(a.a) - Int(b.a)))
                } }
                XCTAssertLessThanOrEqual(largest, 2, "about \(axis), angle \(angle)")
            }
        }
    }
}

extension CurlKernelTests.Random {
    /// An image of random premultiplied pixels (``pixel(premultiplied:)``).
    mutating func image(width: Int, height: Int) throws -> Bitmap {
        var image = try Bitmap(width: width, height: height)
        for y in 0..<height { for x in 0..<width {
            let p = pixel(premultiplied: true)
            image[x, y] = PremultipliedRGBA8(r: UInt8(p & 0xFF), g: UInt8(p >> 8 & 0xFF), b: UInt8(p >> 16 & 0xFF), a: UInt8(p >> 24))
        } }
        return image
    }
}
