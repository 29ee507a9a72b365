import Foundation
import RasterCore
import CRasterKernels
import XCTest

/// Backdrop materials (`Painter.drawBackdrop`): what is drawn under a shape, blurred (three box blurs each
/// way, every channel alike), saturated and tinted, through the shape.
final class BackdropTests: XCTestCase {
    /// A 120 × 40 target: black on the left half, white on the right.
    func halves() throws -> Bitmap {
        var target = try Bitmap(width: 120, height: 40)
        target.draw { p in
            p.fill(Rect(x: 0, y: 0, width: 60, height: 40), color: .black)
            p.fill(Rect(x: 60, y: 0, width: 60, height: 40), color: .white)
        }
        return target
    }

    func testEveryChannelBlursAsAShadowsAlphaDoes() throws {
        // A red square on clear, blurred as a backdrop: its alpha is the shadow blur's alpha exactly (the same
        // boxes; the clear margin is beyond 3σ, so extending the edges changes nothing), its red the same.
        var target = try Bitmap(width: 60, height: 60)
        target.draw { $0.fill(Rect(x: 20, y: 20, width: 20, height: 20), color: Color(red: 1, green: 0, blue: 0)) }
        target.draw { $0.drawBackdrop(under: Path(rect: Rect(x: 0, y: 0, width: 60, height: 60)), sigma: 3) }
        var shadow = try Bitmap(width: 60, height: 60)
        shadow.draw { $0.fillBlurred(Path(rect: Rect(x: 20, y: 20, width: 20, height: 20)), sigma: 3, color: .black) }
        // The backdrop is drawn source-over its own sharp original, so compare with that composite.
        for y in 0..<60 {
            for x in 0..<60 {
                let a = UInt32(shadow[x, y].a)
                let inside = x >= 20 && x < 40 && y >= 20 && y < 40
                let expected = inside ? UInt8(255) : UInt8(a)
                XCTAssertEqual(target[x, y].a, expected, "(\(x), \(y))")
                XCTAssertEqual(target[x, y].r, target[x, y].a, "red is its alpha, premultiplied")
            }
        }
    }

    func testAnEdgeBlursToAGreyRampAndFarPixelsKeepTheirColour() throws {
        var target = try halves()
        target.draw { $0.drawBackdrop(under: Path(rect: Rect(x: 0, y: 0, width: 120, height: 40)), sigma: 6) }
        XCTAssertEqual(target[2, 20].r, 0, "far left: black, and the screen's edge extends it (no darkening from outside)")
        XCTAssertEqual(target[117, 20].r, 255, "far right: white, not darkened at the screen's edge")
        XCTAssertEqual(target[117, 0].r, 255, "nor at the top")
        XCTAssertEqual(Double(target[59, 20].r) + Double(target[60, 20].r), 255, accuracy: 4, "the edge: symmetric about the middle")
        XCTAssertTrue((100...155).contains(target[60, 20].r))
        XCTAssertEqual(target[60, 20].a, 255)
    }

    func testOnlyTheShapeIsBlurredAndTinted() throws {
        var target = try halves()
        target.draw { $0.drawBackdrop(under: Path(rect: Rect(x: 40, y: 10, width: 40, height: 20)), sigma: 4, tint: Color(white: 1, alpha: 0.5)) }
        let before = try halves()
        XCTAssertEqual(target[59, 5], before[59, 5], "above the shape: untouched")
        XCTAssertEqual(target[30, 20], before[30, 20], "left of it: untouched")
        XCTAssertEqual(target[42, 20].r, 128, "inside, black under white at half: 128")
        XCTAssertEqual(target[78, 20].r, 255)
    }

    func testSaturationScalesAboutTheLuminance() throws {
        var target = try Bitmap(width: 10, height: 10)
        target.draw { $0.fill(Rect(x: 0, y: 0, width: 10, height: 10), color: Color(red: 1, green: 0, blue: 0)) }
        target.draw { $0.drawBackdrop(under: Path(rect: Rect(x: 0, y: 0, width: 10, height: 10)), sigma: 0, saturation: 0) }
        // Rec. 709: red's luminance is 0.2126.
        XCTAssertEqual(target[5, 5].r, 54)
        XCTAssertEqual(target[5, 5].g, 54)
        XCTAssertEqual(target[5, 5].b, 54)
        var grey = try Bitmap(width: 10, height: 10)
        grey.draw { $0.fill(Rect(x: 0, y: 0, width: 10, height: 10), color: Color(white: 0.5)) }
        let flat = grey
        grey.draw { $0.drawBackdrop(under: Path(rect: Rect(x: 0, y: 0, width: 10, height: 10)), sigma: 0, saturation: 1.8) }
        XCTAssertEqual(grey, flat, "a grey has no saturation to scale")
    }

    func testNothingToDoDrawsNothing() throws {
        var target = try halves()
        let before = target
        target.draw { p in
            p.drawBackdrop(under: Path(), sigma: 5)
            p.drawBackdrop(under: Path(rect: Rect(x: 0, y: 0, width: 120, height: 40)), sigma: 0)
            p.drawBackdrop(under: Path(rect: Rect(x: 0, y: 0, width: 120, height: 40)), sigma: .nan)
            p.drawBackdrop(under: Path(rect: Rect(x: 500, y: 500, width: 10, height: 10)), sigma: 5)
        }
        XCTAssertEqual(target, before)
        // An enormous σ is bounded: a uniform colour stays exactly that colour.
        var uniform = try Bitmap(width: 30, height: 30)
        uniform.draw { $0.fill(Rect(x: 0, y: 0, width: 30, height: 30), color: Color(red: 0.2, green: 0.4, blue: 0.6)) }
        let flat = uniform
        uniform.draw { $0.drawBackdrop(under: Path(rect: Rect(x: 0, y: 0, width: 30, height: 30)), sigma: 1e9) }
        XCTAssertEqual(uniform, flat)
    }

    func testInsideALayerOnlyTheLayersPixelsAreBehind() throws {
        var target = try halves()
        target.draw { p in
            p.beginLayer()
            p.fill(Rect(x: 0, y: 0, width: 20, height: 40), color: .white)
            p.drawBackdrop(under: Path(rect: Rect(x: 0, y: 0, width: 120, height: 40)), sigma: 3)
            p.endLayer()
        }
        XCTAssertEqual(target[100, 20].r, 255, "the white half is under the layer, untouched by its blur")
        XCTAssertEqual(target[40, 20].r, 0, "the black half shows through where the layer is clear")
    }
}

/// A wide backdrop blur taken at a fraction of the resolution against the same blur at full resolution.
final class BackdropScaleTests: XCTestCase {
    func testAWideBlurAtAQuarterOfTheResolutionStaysCloseToTheFullOne() throws {
        // Blocks and stripes of colour, 300 × 200; σ 20 px (taken at a quarter: 5 px over 4 × 4 blocks).
        // Compared more than 3σ from the edges, where the two extend the edge differently (the full blur
        // its last pixel, the scaled one its last block's average).
        var image = try Bitmap(width: 300, height: 200)
        image.draw { p in
            p.fill(Rect(x: 0, y: 0, width: 300, height: 200), color: .white)
            for k in 0..<15 {
                p.fill(Rect(x: Double(k * 20), y: Double((k * 37) % 140), width: 12, height: 50),
                       color: Color(red: Double(k % 3) / 2, green: Double(k % 5) / 4, blue: Double(k % 2)))
            }
            for x in stride(from: 0.0, to: 300, by: 6) { p.fill(Rect(x: x, y: 110, width: 3, height: 40), color: .black) }
        }
        var scaled = image
        scaled.draw { $0.drawBackdrop(under: Path(rect: Rect(x: 0, y: 0, width: 300, height: 200)), sigma: 20) }
        var full = image
        full.withUnsafeMutablePixels { pixels in
            var scratch = [UInt32](repeating: 0, count: 1200)
            scratch.withUnsafeMutableBufferPointer { crk_blur_rgba(pixels.baseAddress!, 300, 200, 20, $0.baseAddress!) }
        }
        var worst = 0
        for y in 60..<140 {
            for x in 60..<240 {
                let a = scaled[x, y], b = full[x, y]
                worst = max(worst, abs(Int(a.r) - Int(b.r)), abs(Int(a.g) - Int(b.g)), abs(Int(a.b) - Int(b.b)))
            }
        }
        XCTAssertLessThanOrEqual(worst, 8, "within 8 levels of the full-resolution blur (the box sizes round differently at the two scales)")
        print("backdrop at a quarter of the resolution: at most \(worst) levels from the full blur")
    }
}

/// Backdrops inside a layer that does not start at the frame's origin, and out-of-range values.
final class BackdropEdgeCaseTests: XCTestCase {
    func testInsideAnOffsetLayerTheBlurLandsUnderItsShape() throws {
        // A layer bounded to x 40…120 (as a translucent group's is), a backdrop under x 80…120: x 40…80
        // stays as it was, x 80…120 is blurred (stripes become an even grey).
        var target = try Bitmap(width: 120, height: 20)
        target.draw { p in
            p.fill(Rect(x: 0, y: 0, width: 120, height: 20), color: .white)
            for x in stride(from: 0.0, to: 120, by: 4) { p.fill(Rect(x: x, y: 0, width: 2, height: 20), color: .black) }
        }
        let before = target
        target.draw { p in
            p.clip(toPixels: PixelRect(x: 40, y: 0, width: 80, height: 20))
            p.beginLayer()
            // What is behind, inside the layer: the same stripes again.
            p.fill(Rect(x: 40, y: 0, width: 80, height: 20), color: .white)
            for x in stride(from: 40.0, to: 120, by: 4) { p.fill(Rect(x: x, y: 0, width: 2, height: 20), color: .black) }
            p.drawBackdrop(under: Path(rect: Rect(x: 80, y: 0, width: 40, height: 20)), sigma: 3)
            p.endLayer()
        }
        for x in 40..<80 { XCTAssertEqual(target[x, 10], before[x, 10], "x \(x): untouched") }
        let blurred = (90..<110).map { Int(target[$0, 10].r) }
        XCTAssertLessThan((blurred.max() ?? 0) - (blurred.min() ?? 0), 40, "under the shape: blurred, \(blurred)")
    }

    func testAnEnormousSaturationIsBounded() throws {
        var target = try Bitmap(width: 10, height: 10)
        target.draw { $0.fill(Rect(x: 0, y: 0, width: 10, height: 10), color: Color(red: 0.6, green: 0.5, blue: 0.4)) }
        target.draw { $0.drawBackdrop(under: Path(rect: Rect(x: 0, y: 0, width: 10, height: 10)), sigma: 0, saturation: 1e30) }
        let p = target[5, 5]
        XCTAssertEqual(p.a, 255)
        XCTAssertTrue(p.r >= p.g && p.g >= p.b, "the hue's order kept: \(p)")
    }
}
