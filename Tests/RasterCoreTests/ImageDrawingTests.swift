import RasterCore
import XCTest

final class ImageDrawingTests: XCTestCase {
    private func gradient(_ w: Int, _ h: Int) -> Bitmap {
        var b = try! Bitmap(width: w, height: h)
        for y in 0..<h { for x in 0..<w { b[x, y] = PremultipliedRGBA8(r: UInt8(x * 255 / max(1, w - 1)), g: UInt8(y * 255 / max(1, h - 1)), b: 40, a: 255) } }
        return b
    }

    func testRepeatedScaledDrawsGiveTheSamePixelsAsSingleDraws() throws {
        // The second and third draws reuse the resampled tile of the first (same sub-pixel placement);
        // each must match what a fresh painter draws for that placement alone.
        let image = gradient(20, 20)
        let rects = [Rect(x: 0.25, y: 0.5, width: 8.8, height: 8.8), Rect(x: 10.25, y: 0.5, width: 8.8, height: 8.8),
                     Rect(x: 0.25, y: 11.5, width: 8.8, height: 8.8)]
        var together = try Bitmap(width: 24, height: 24, fill: .white)
        together.draw { p in for r in rects { p.draw(image, in: r) } }
        for r in rects {
            var alone = try Bitmap(width: 24, height: 24, fill: .white)
            alone.draw { $0.draw(image, in: r) }
            let box = PixelRect(x: Int(r.minX), y: Int(r.minY), width: 10, height: 10)
            XCTAssertEqual(try together.cropped(to: box), try alone.cropped(to: box), "\(r)")
        }
    }

    func testDrawingOnceGivesTheSamePixelsAsTheTiledDrawInsideAnyClip() throws {
        let image = gradient(20, 16)
        let placements = [
            Transform2D(translationX: 2.25, y: 3.5),
            Transform2D(scaleX: 0.7, y: 1.3).concatenating(Transform2D(translationX: 1.5, y: 0.25)),
            Transform2D(rotationAngle: 0.4).concatenating(Transform2D(translationX: 9, y: 1)),
            Transform2D(scaleX: -0.8, y: 1).concatenating(Transform2D(translationX: 20.3, y: 2)),  // mirrored
            Transform2D(translationX: 3, y: 4),  // whole pixels: copied
        ]
        var clip = Path()
        clip.move(to: Point(x: 4.3, y: 0)); clip.addLine(to: Point(x: 14.6, y: 0)); clip.addLine(to: Point(x: 18.2, y: 24)); clip.addLine(to: Point(x: 7.1, y: 24))
        clip.closeSubpath()
        for placement in placements {
            for clipped in [false, true] {
                var tiled = try Bitmap(width: 24, height: 24, fill: .white), once = tiled
                tiled.draw { p in if clipped { p.clip(to: clip) }; p.draw(image, transform: placement) }
                once.draw { p in if clipped { p.clip(to: clip) }; p.drawOnce(image, transform: placement) }
                // The tiled draw rounds twice through a clip (the outline's coverage into the tile, then the
                // clip's), this one once: equal, or one level apart where a clip's edge crosses the image.
                var worst = 0
                for y in 0..<24 { for x in 0..<24 {
                    let a = tiled[x, y], b = once[x, y]
                    worst = max(worst, abs(Int(a.r) - Int(b.r)), abs(Int(a.g) - Int(b.g)), abs(Int(a.b) - Int(b.b)), abs(Int(a.a) - Int(b.a)))
                } }
                XCTAssertLessThanOrEqual(worst, clipped ? 1 : 0, "\(placement), clipped: \(clipped)")
            }
        }
    }

    func testEdgesOfAFractionalImageAreCoverageWeighted() throws {
        let solid = try Bitmap(width: 4, height: 4, fill: .black)
        var b = try Bitmap(width: 6, height: 6)
        b.draw { $0.draw(solid, in: Rect(x: 0.5, y: 1, width: 4, height: 4)) }
        XCTAssertEqual(b[0, 2].a, 128)
        XCTAssertEqual(b[2, 2].a, 255)
        XCTAssertEqual(b[4, 2].a, 128)
        XCTAssertEqual(b[5, 2].a, 0)
    }

    func testRotatedImageCoversItsArea() throws {
        let solid = try Bitmap(width: 10, height: 10, fill: .black)
        var b = try Bitmap(width: 24, height: 24)
        let placement = Transform2D(translationX: -5, y: -5).rotated(by: 0).concatenating(Transform2D(rotationAngle: .pi / 5))
            .concatenating(Transform2D(translationX: 12, y: 12))
        b.draw { $0.draw(solid, transform: placement) }
        let sum = b.withUnsafePixels { $0.reduce(0.0) { $0 + Double($1 >> 24) / 255 } }
        XCTAssertEqual(sum, 100, accuracy: 0.2, "an opaque 10x10 image rotated keeps its area (rounding per edge pixel)")
        XCTAssertEqual(b[12, 12].a, 255)
    }

    func testHugeMagnificationFallsBackWithoutAHugeTile() throws {
        // 4x4 pixels magnified 4000x would be a 256-megapixel tile; it is sampled straight into the target.
        let image = gradient(4, 4)
        var b = try Bitmap(width: 8, height: 8)
        let (_, usage) = MemoryLedger.measure {
            b.draw { $0.draw(image, in: Rect(x: -8000.5, y: -8000.5, width: 16000, height: 16000)) }
        }
        XCTAssertLessThan(usage.peakBytes, 1 << 20)
        XCTAssertEqual(b[4, 4].a, 255)
    }

    func testGroupLayerAtScaleTwoLandsWhereDrawn() throws {
        var b = try Bitmap(width: 8, height: 8, scale: 2)
        b.draw { p in
            p.clip(to: Rect(x: 1, y: 1, width: 2, height: 2))
            p.withLayer(opacity: 1) { p.fill(Rect(x: 0, y: 0, width: 4, height: 4), color: .black) }
        }
        XCTAssertEqual(b[1, 1].a, 0)
        XCTAssertEqual(b[2, 2].a, 255)
        XCTAssertEqual(b[5, 5].a, 255)
        XCTAssertEqual(b[6, 6].a, 0)
    }
}
