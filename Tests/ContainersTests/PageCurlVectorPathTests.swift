import CCPUFeatures
import RasterCore
import XCTest
import Containers

/// The curl's passes (per pixel, and per column for a straight axis) have portable versions and AVX2 ones
/// that must give the same bytes: many random curls drawn both ways (the portable code forced through
/// CCPUFeatures) and compared whole.
final class PageCurlVectorPathTests: XCTestCase {
    /// A deterministic generator (xorshift), so that a failure can be replayed.
    struct Random {
        var state: UInt64
        mutating func next() -> UInt64 {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return state
        }
        /// 0 ≤ x < 1.
        mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
        mutating func byte() -> UInt32 { UInt32(next() & 0xFF) }
        /// A premultiplied pixel; a quarter opaque, a quarter fully transparent (all opaque when `opaque`).
        mutating func pixel(opaque: Bool = false) -> PremultipliedRGBA8 {
            let kind = opaque ? 0 : next() % 4
            let a: UInt32 = kind == 0 ? 255 : kind == 1 ? 0 : byte()
            if a == 0 { return .clear }
            return PremultipliedRGBA8(packed: (byte() * a / 255) | (byte() * a / 255) << 8 | (byte() * a / 255) << 16 | a << 24)
        }
    }

    /// A bitmap of `size` at `scale`: noise, or runs of one colour (as snapshots have), or a mix; opaque
    /// throughout when `opaque` (as pages are).
    func bitmap(_ size: Size, scale: Double, opaque: Bool = false, _ random: inout Random) throws -> Bitmap {
        var b = try Bitmap(pointSize: size, scale: scale)
        let runs = random.next() % 3
        b.withUnsafeMutablePixels { pixels in
            var current = random.pixel(opaque: opaque).packed
            for i in pixels.indices {
                if runs == 0 || random.next() % (runs == 1 ? 40 : 3) == 0 { current = random.pixel(opaque: opaque).packed }
                pixels[i] = current
            }
        }
        return b
    }

    /// Draws with the processor's instructions and with the portable code forced; the two must be equal.
    private func drawnBothWays(_ draw: () throws -> Bitmap) throws -> (vector: Bitmap, scalar: Bitmap) {
        let forced = ccpu_scalar_forced()
        defer { ccpu_force_scalar(forced) }
        ccpu_force_scalar(0)
        let vector = try draw()
        ccpu_force_scalar(1)
        let scalar = try draw()
        return (vector, scalar)
    }

    func testTheVectorPassGivesTheScalarPassesBytesForRandomCurls() throws {
        if ccpu_features() & UInt32(CCPU_AVX2) == 0 { print("no AVX2 here: both draws run the portable code") }
        var random = Random(state: 0x2545_F491_4F6C_DD1D)
        var changed = 0
        for n in 0..<120 {
            let scale = Double(1 + random.next() % 3)
            let size = Size(width: (16 + random.unit() * 70).rounded(), height: (16 + random.unit() * 80).rounded())
            // Snapshots at the page's scale, or at another (the page then sampled, never copied).
            // A quarter straight over whole device pixels (the per-column path), the rest anything.
            let straight = random.next() % 4 == 0
            let imageScale = !straight && random.next() % 4 == 0 ? Double(1 + random.next() % 3) : scale
            let page = try bitmap(size, scale: imageScale, opaque: random.next() % 3 == 0, &random)
            let angle = straight || random.next() % 4 == 0 ? 0 : (random.unit() - 0.5) * 2.4
            let progress = random.next() % 8 == 0 ? [0, 1, 0.5][Int(random.next() % 3)] : random.unit()
            let geometry = PageCurlGeometry(progress: progress, pageSize: size, angle: angle,
                                            pivotY: random.next() % 2 == 0 ? nil : random.unit() * size.height)
            let background = try bitmap(Size(width: size.width + 20, height: size.height + 20), scale: scale, &random)
            // Where the page lies: whole or fractional device pixels, sometimes scaled or rotated.
            let fractional = !straight && random.next() % 2 == 0
            let dx = fractional ? random.unit() * 10 : Double(random.next() % 10) / scale
            let dy = fractional ? random.unit() * 10 : Double(random.next() % 10) / scale
            let transform = straight ? 5 : random.next() % 6
            // The frame itself, or a buffer of the curl's own composited through the painter (a clip
            // mask at a fraction of a pixel, or an alpha).
            let through = random.next() % 4
            let clipEdge = random.unit() * 20
            let rotation = (random.unit() - 0.5) * 0.6, zoom = 0.6 + random.unit() * 0.8
            let (vector, scalar) = try drawnBothWays {
                let painter = Painter(bitmap: background)
                painter.translate(x: dx, y: dy)
                if transform == 0 { painter.rotate(by: rotation) }
                if transform == 1 { painter.scale(x: zoom, y: zoom) }
                if through == 0 { painter.clip(to: Path(rect: Rect(x: clipEdge + 0.3, y: 0.6, width: size.width, height: size.height))) }
                if through == 1 { painter.alpha = 0.7 }
                PageCurlDrawing(page: page, geometry: geometry).draw(in: painter, bounds: Rect(origin: .zero, size: size))
                return painter.finish()
            }
            if vector != scalar {
                var first = ""
                for y in 0..<vector.height {
                    for x in 0..<vector.width where vector[x, y] != scalar[x, y] {
                        first = "first at \(x),\(y): vector \(vector[x, y]), scalar \(scalar[x, y])"
                        break
                    }
                    if !first.isEmpty { break }
                }
                XCTFail("curl \(n): @\(Int(scale))x, page \(size.width)x\(size.height) at @\(Int(imageScale))x, angle \(angle), progress \(progress), offset \(dx),\(dy), transform \(transform), through \(through): \(first)")
                return
            }
            if vector != background { changed += 1 }
        }
        XCTAssertGreaterThan(changed, 90, "most curls draw something")
    }
}
