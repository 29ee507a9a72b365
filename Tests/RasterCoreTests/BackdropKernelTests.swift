import CCPUFeatures
import CRasterKernels
import Foundation
import XCTest

/// The backdrop blur's kernels (`crk_downsample_box`, `crk_blur_rgba`, `crk_upsample_bilinear`) give the
/// same bytes with their SSE4.1 passes as with the portable code, for images, factors, offsets and blur
/// sizes of every kind (odd sizes and the blocks cut by the edges, one-pixel images, boxes past 256).
final class BackdropKernelTests: XCTestCase {
    typealias Random = CurlKernelTests.Random

    /// `body` run with the processor's features, then with the portable code; both results.
    private func bothWays(_ body: () -> [UInt32]) -> (vector: [UInt32], portable: [UInt32]) {
        let forced = ccpu_scalar_forced()
        defer { ccpu_force_scalar(forced) }
        ccpu_force_scalar(0)
        let vector = body()
        ccpu_force_scalar(1)
        return (vector, body())
    }

    func testTheDownsamplingGivesThePortableBytes() {
        if ccpu_features() & UInt32(CCPU_SSE41) == 0 { print("no SSE4.1 here: both runs use the portable code") }
        var random = Random(state: 0xB10C_5EED_0000_0001)
        for n in 0..<120 {
            let factor = [2, 3, 4, 8][n % 4]
            let width = 1 + Int(random.next() % 70), height = 1 + Int(random.next() % 40), stride = width + Int(random.next() % 5)
            let source = (0..<stride * height).map { _ in random.pixel(premultiplied: true) }
            let dw = (width + factor - 1) / factor, dh = (height + factor - 1) / factor
            let (vector, portable) = bothWays {
                var out = [UInt32](repeating: 0, count: dw * dh)
                source.withUnsafeBufferPointer { crk_downsample_box($0.baseAddress!, Int32(width), Int32(height), stride, Int32(factor), &out) }
                return out
            }
            XCTAssertEqual(vector, portable, "case \(n): \(width)x\(height), factor \(factor)")
        }
    }

    func testTheBlurGivesThePortableBytes() {
        var random = Random(state: 0xB10C_5EED_0000_0002)
        for n in 0..<80 {
            let width = 1 + Int(random.next() % 60), height = 1 + Int(random.next() % 40)
            // Boxes from 2 to past 256 (the 16-bit sums' limit, where the wide path takes over).
            let sigma = n % 10 == 0 ? 120 + random.unit() * 40 : 0.5 + random.unit() * 30
            let image = (0..<width * height).map { _ in random.pixel(premultiplied: true) }
            let (vector, portable) = bothWays {
                var pixels = image
                var scratch = [UInt32](repeating: 0, count: 4 * max(width, height))
                crk_blur_rgba(&pixels, Int32(width), Int32(height), sigma, &scratch)
                return pixels
            }
            XCTAssertEqual(vector, portable, "case \(n): \(width)x\(height), σ \(sigma)")
        }
    }

    func testTheUpsamplingGivesThePortableBytes() {
        var random = Random(state: 0xB10C_5EED_0000_0003)
        for n in 0..<120 {
            let factor = [2, 4, 8, 3][n % 4]
            let sw = 1 + Int(random.next() % 30), sh = 1 + Int(random.next() % 20)
            let small = (0..<sw * sh).map { _ in random.pixel(premultiplied: true) }
            let ox = Int(random.next() % UInt64(factor * 2)), oy = Int(random.next() % UInt64(factor * 2))
            let dw = 1 + Int(random.next() % UInt64(sw * factor)), dh = 1 + Int(random.next() % UInt64(sh * factor))
            let (vector, portable) = bothWays {
                var out = [UInt32](repeating: 0, count: dw * dh)
                var scratch = [UInt32](repeating: 0, count: 3 * dw + 3 + 2 * sw)
                small.withUnsafeBufferPointer {
                    crk_upsample_bilinear($0.baseAddress!, Int32(sw), Int32(sh), Int32(factor), Int32(ox), Int32(oy), &out, Int32(dw), Int32(dh), &scratch)
                }
                return out
            }
            XCTAssertEqual(vector, portable, "case \(n): \(sw)x\(sh) by \(factor) into \(dw)x\(dh) from (\(ox), \(oy))")
        }
    }
}
