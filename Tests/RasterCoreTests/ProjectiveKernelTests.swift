import CCPUFeatures
import CRasterKernels
import Foundation
import RasterCore
import XCTest

/// The perspective sampler's pieces: the halvings (`crk_mip_halve`), the level a pixel's footprint picks
/// (`crk_projective_level`), a pixel's taps at points where the arithmetic is exact, and the AVX2 pass
/// against the portable one over images and turns of every kind. Turns about the vertical and the
/// horizontal axis are drawn by the general sampler here too (`crk_turn_sample_generally`), as they were
/// before they had a resampler of their own (`TurnKernelTests`).
final class ProjectiveKernelTests: XCTestCase {
    typealias Random = CurlKernelTests.Random

    override func setUp() { crk_turn_sample_generally(1) }
    override func tearDown() { crk_turn_sample_generally(0) }

    /// Each channel of a halved pixel is the rounded mean of its 2 x 2 block, (a + b + c + d + 2) / 4; an odd
    /// last column or row is counted twice (its block is that pixel and its neighbour in the other direction).
    func testAHalvingIsTheRoundedMeanOfEachBlock() {
        var random = Random(state: 0x1234_5678_9ABC_DEF1)
        for (width, height) in [(1, 1), (2, 2), (3, 1), (1, 5), (5, 3), (8, 7), (17, 4), (33, 9)] {
            let source = (0..<width * height).map { _ in random.pixel(premultiplied: true) }
            let dw = (width + 1) / 2, dh = (height + 1) / 2
            var halved = [UInt32](repeating: 0xDEAD_BEEF, count: dw * dh)
            source.withUnsafeBufferPointer { src in
                halved.withUnsafeMutableBufferPointer { crk_mip_halve(src.baseAddress!, Int32(width), Int32(height), $0.baseAddress!) }
            }
            for y in 0..<dh { for x in 0..<dw {
                let xs = [2 * x, min(2 * x + 1, width - 1)], ys = [2 * y, min(2 * y + 1, height - 1)]
                var expected: UInt32 = 0
                for shift in stride(from: 0, to: 32, by: 8) {
                    let sum = ys.flatMap { yy in xs.map { xx in (source[yy * width + xx] >> UInt32(shift)) & 0xFF } }.reduce(0, +)
                    expected |= ((sum + 2) / 4) << UInt32(shift)
                }
                XCTAssertEqual(halved[y * dw + x], expected, "\(width)x\(height) at (\(x), \(y))")
            } }
        }
    }

    /// The level is the first whose texels the footprint's shorter side spans at most 1.1 of and its longer
    /// at most 4.1 of: squares seen 1, 1.1, 1.2, 2.2, 3 and 5 texels a side, and pixels 1 x 4, 1 x 5 and 1 x 40 texels.
    func testTheLevelFollowsTheShorterSideAndTheTapLimit() {
        func level(_ sx: Double, _ sy: Double) -> Int32 {
            let m = [sx, 0, 0, 0, sy, 0, 0, 0, 1]
            return m.withUnsafeBufferPointer { crk_projective_level($0.baseAddress!, 10.5, 7.5) }
        }
        XCTAssertEqual(level(1, 1), 0)
        XCTAssertEqual(level(1.1, 1.1), 0)
        XCTAssertEqual(level(1.2, 1.2), 1)
        XCTAssertEqual(level(2.2, 2.2), 1)
        XCTAssertEqual(level(3, 3), 2, "1.5 texels of level 1 a side")
        XCTAssertEqual(level(5, 5), 3)
        XCTAssertEqual(level(5, 1), 1, "4.1 texels at most along the longer side at level 0")
        XCTAssertEqual(level(4, 1), 0)
        XCTAssertEqual(level(1, 40), 4)
        // Behind the eye: nothing is drawn, level 0.
        let behind = [1.0, 0, 0, 0, 1, 0, 0, 0, -1]
        XCTAssertEqual(behind.withUnsafeBufferPointer { crk_projective_level($0.baseAddress!, 3.5, 3.5) }, 0)
    }

    /// A pixel seeing three texels of a row of stripes 0, 90, 180, 30, 120, 210, …: three taps at the texel
    /// centres (no bilinear weight), the rounded mean of the three; where it sees 1 texel, that texel.
    func testThreeTapsAlongTheLongerSideAverageTheTexelsTheyHit() throws {
        let values: [UInt32] = (0..<30).map { (i: Int) -> UInt32 in UInt32((i * 90 + i / 3 * 30) % 256) }
        var image = try Bitmap(width: 30, height: 1)
        for x in 0..<30 { let v = UInt8(values[x]); image[x, 0] = PremultipliedRGBA8(r: v, g: v, b: v, a: 255) }
        // Device pixel x sees image x·3 … x·3 + 3 (its centre at 3x + 1.5): taps at 3x + 0.5, 1.5, 2.5.
        let squeezed = Projective2D(m11: 1.0 / 3, m12: 0, m13: 0, m21: 0, m22: 1, m23: 0, m31: 0, m32: 0, m33: 1)
        var target = try Bitmap(width: 10, height: 1)
        target.draw { $0.drawProjected(image, projection: squeezed) }
        for x in 0..<10 {
            let expected = (values[3 * x] + values[3 * x + 1] + values[3 * x + 2] + 1) / 3
            XCTAssertEqual(UInt32(target[x, 0].r), expected, "pixel \(x)")
        }
    }

    /// The AVX2 pass gives the portable pass's bytes: random premultiplied images (1 pixel wide to 70, so
    /// every level and the single-column sampler are reached), turned about any axis from slight to nearly
    /// edge-on, at any scale, partly behind the eye, clipped anywhere.
    func testTheVectorPassGivesThePortableBytes() throws {
        if ccpu_features() & UInt32(CCPU_AVX2) == 0 { print("no AVX2 here: both runs use the portable code") }
        let forced = ccpu_scalar_forced()
        defer { ccpu_force_scalar(forced) }
        var random = Random(state: 0x0DDB_A11C_AFE5_F00D)
        var compared = 0
        for n in 0..<160 {
            let iw = n % 20 == 0 ? 1 : 2 + Int(random.next() % 69), ih = n % 25 == 0 ? 1 : 1 + Int(random.next() % 60)
            let image = try random.image(width: iw, height: ih)
            var perspective = Transform3D.identity
            perspective.m34 = -1 / (40 + random.unit() * 400)
            let axis = [(0.0, 1.0, 0.0), (1, 0, 0), (random.unit() - 0.5, random.unit() - 0.5, random.unit() - 0.5)][n % 3]
            let angle = (random.unit() - 0.5) * 3.2
            let size = 24 + Int(random.next() % 80)
            let shrink = 0.2 + random.unit() * 1.5
            let projection = Transform3D(translationX: -Double(iw) / 2, y: -Double(ih) / 2, z: 0)
                .concatenating(Transform3D(rotationAngle: angle, x: axis.0, y: axis.1, z: axis.2))
                .concatenating(Transform3D(scaleX: shrink, y: shrink, z: 1))
                .concatenating(perspective)
                .concatenating(Transform3D(translationX: Double(size) / 2 + random.unit(), y: Double(size) / 2, z: 0)).flattened
            let clip = Rect(x: random.unit() * 8, y: random.unit() * 8, width: Double(size), height: Double(size))
            func draw(scalar: Bool) throws -> Bitmap {
                ccpu_force_scalar(scalar ? 1 : 0)
                var target = try Bitmap(width: size, height: size)
                target.draw { p in
                    p.clip(to: clip)
                    p.drawProjected(image, projection: projection)
                }
                return target
            }
            let vector = try draw(scalar: false), portable = try draw(scalar: true)
            guard vector.withUnsafePixels({ v in portable.withUnsafePixels { p in v.elementsEqual(p) } }) else {
                XCTFail("case \(n) (\(iw)x\(ih), angle \(angle), shrink \(shrink)): the AVX2 pass differs from the portable one")
                continue
            }
            compared += 1
        }
        XCTAssertEqual(compared, 160)
    }
}

private extension Painter {
    /// `draw(_:projection:)`, through the projective sampler even where the mapping is affine.
    func drawProjected(_ image: Bitmap, projection: Projective2D) {
        // A perspective too small to move a sample by 1/256 texel keeps the mapping projective.
        var p = projection
        if p.affine != nil { p.m13 = 1e-12 }
        draw(image, projection: p)
    }
}
