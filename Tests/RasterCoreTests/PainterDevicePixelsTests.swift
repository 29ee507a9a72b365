import XCTest
import RasterCore

/// Pixels computed elsewhere at device resolution: blended one for one through the painter's state
/// (`draw(_:atDevicePixel:)`), or handed a pointer to blend into when the state asks for nothing more
/// (`withSourceOverPixels(in:_:)`).
final class PainterDevicePixelsTests: XCTestCase {
    let grey = PremultipliedRGBA8(r: 100, g: 100, b: 100, a: 255)
    let half = PremultipliedRGBA8(r: 0, g: 0, b: 128, a: 128)

    func testDrawAtDevicePixelBlendsThroughClipAlphaAndLayers() throws {
        let image = try Bitmap(width: 2, height: 2, scale: 1, fill: half)
        var bitmap = try Bitmap(width: 4, height: 4, scale: 2, fill: grey)
        bitmap.draw { painter in
            painter.clip(toPixels: PixelRect(x: 0, y: 0, width: 3, height: 4))
            // Device pixels (2, 1) and (3, 1), (2, 2), (3, 2): column 3 is outside the clip. The transform
            // (scale 2) does not apply.
            painter.draw(image, atDevicePixel: (2, 1))
        }
        // 128 over 100: 0 + 100·127/255 = 50 (rounded), blue 128 + 50 = 178.
        XCTAssertEqual(bitmap[2, 1], PremultipliedRGBA8(r: 50, g: 50, b: 178, a: 255))
        XCTAssertEqual(bitmap[3, 1], grey, "outside the clip")
        XCTAssertEqual(bitmap[1, 1], grey)
        // Inside a layer whose origin is not the bitmap's, at half alpha.
        var layered = try Bitmap(width: 4, height: 4, scale: 1, fill: grey)
        layered.draw { painter in
            painter.clip(toPixels: PixelRect(x: 1, y: 1, width: 3, height: 3))
            painter.beginLayer()
            painter.alpha = 0.5
            painter.draw(try! Bitmap(width: 1, height: 1, scale: 1, fill: PremultipliedRGBA8(r: 0, g: 0, b: 255, a: 255)), atDevicePixel: (2, 2))
            painter.endLayer()
        }
        XCTAssertEqual(layered[2, 2], PremultipliedRGBA8(r: 50, g: 50, b: 178, a: 255))
        XCTAssertEqual(layered[1, 1], grey)
    }

    func testSourceOverPixelsOnlyWhenNothingMoreIsAsked() throws {
        var bitmap = try Bitmap(width: 6, height: 4, scale: 1, fill: grey)
        bitmap.draw { painter in
            painter.clip(toPixels: PixelRect(x: 1, y: 0, width: 4, height: 4))
            var seen: (stride: Int, area: PixelRect)?
            XCTAssertTrue(painter.withSourceOverPixels(in: PixelRect(x: 0, y: 1, width: 3, height: 2)) { pixels, stride, area in
                seen = (stride, area)
                pixels[0] = 0xFF00_00FF  // the area's top-left: device pixel (1, 1)
            })
            XCTAssertEqual(seen?.stride, 6)
            XCTAssertEqual(seen?.area, PixelRect(x: 1, y: 1, width: 2, height: 2), "cut to the clip")
            painter.alpha = 0.5
            XCTAssertFalse(painter.withSourceOverPixels(in: PixelRect(x: 0, y: 0, width: 2, height: 2)) { _, _, _ in XCTFail("alpha") })
            painter.alpha = 1
            painter.clip(to: Path(rect: Rect(x: 1.5, y: 0, width: 2, height: 4)))
            XCTAssertFalse(painter.withSourceOverPixels(in: PixelRect(x: 0, y: 0, width: 2, height: 2)) { _, _, _ in XCTFail("mask") })
        }
        XCTAssertEqual(bitmap[1, 1], PremultipliedRGBA8(r: 255, g: 0, b: 0, a: 255))
        XCTAssertEqual(bitmap[0, 1], grey)
    }
}
