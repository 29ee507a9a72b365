import FrameDiff
import RasterCore
import XCTest

/// swift-snapshot-testing's `precision` and `perceptualPrecision` as FrameComparison modes: bytes counted
/// apart when only `precision` is lowered, CIE ΔE 1994 per pixel with `perceptualPrecision`.
final class SnapshotTestingPrecisionTests: XCTestCase {
    func frame(_ fill: PremultipliedRGBA8) throws -> Bitmap { try Bitmap(width: 10, height: 10, fill: fill) }
    let grey = PremultipliedRGBA8(r: 128, g: 128, b: 128, a: 255)

    func testBothOneIsExact() {
        XCTAssertEqual(FrameComparison.snapshotTesting(), .exact)
        XCTAssertEqual(FrameComparison.snapshotTesting(precision: .nan, perceptualPrecision: 2), .exact, "clamped")
    }

    func testPrecisionAloneCountsBytes() throws {
        let a = try frame(grey)
        var b = a
        b[3, 4] = PremultipliedRGBA8(r: 129, g: 128, b: 128, a: 255)
        // One byte of 400: 0.25 %.
        XCTAssertNil(FrameComparison.snapshotTesting(precision: 0.99).compare(a, b), "1 % of the bytes may differ")
        XCTAssertNil(FrameComparison.snapshotTesting(precision: 0.9975).compare(a, b), "exactly one byte allowed")
        let difference = try XCTUnwrap(FrameComparison.snapshotTesting(precision: 0.998).compare(a, b))
        XCTAssertEqual(difference.differentPixels, 1)
        // Counted by pixels, one pixel of 100 (1 %) would need precision 0.99; counted by bytes, one pixel
        // with all three colour bytes changed is 0.75 %.
        b[3, 4] = PremultipliedRGBA8(r: 0, g: 0, b: 0, a: 255)
        XCTAssertNil(FrameComparison.snapshotTesting(precision: 0.9925).compare(a, b))
        XCTAssertNotNil(FrameComparison.snapshotTesting(precision: 0.993).compare(a, b))
    }

    func testLabOfKnownColours() {
        // sRGB white and red under D65, as published (Lindbloom's calculator): (100, 0, 0), (53.24, 80.09, 67.20).
        let white = PixelKernel.lab(onWhite: PremultipliedRGBA8(r: 255, g: 255, b: 255, a: 255).packed)
        XCTAssertEqual(white.l, 100, accuracy: 1e-4)
        XCTAssertEqual(white.a, 0, accuracy: 1e-3)
        XCTAssertEqual(white.b, 0, accuracy: 1e-3)
        let red = PixelKernel.lab(onWhite: PremultipliedRGBA8(r: 255, g: 0, b: 0, a: 255).packed)
        XCTAssertEqual(red.l, 53.24, accuracy: 0.01)
        XCTAssertEqual(red.a, 80.09, accuracy: 0.01)
        XCTAssertEqual(red.b, 67.20, accuracy: 0.01)
        // Transparent reads as white: Lab has no alpha.
        let clear = PixelKernel.lab(onWhite: PremultipliedRGBA8.clear.packed)
        XCTAssertEqual(clear.l, 100, accuracy: 1e-4)
    }

    func testDeltaE1994() {
        // Lightness alone: ΔE is ΔL.
        XCTAssertEqual(PixelKernel.deltaE1994(reference: (100, 0, 0), (0, 0, 0)), 100, accuracy: 1e-12)
        // Chroma alone, weighted by the reference's chroma: ΔC / (1 + 0.045 · C1).
        XCTAssertEqual(PixelKernel.deltaE1994(reference: (50, 30, 40), (50, 15, 20)), 25 / (1 + 0.045 * 50), accuracy: 1e-12)
        // Hue alone (same chroma 50, a and b swapped): ΔH / (1 + 0.015 · C1), ΔH² = Δa² + Δb².
        XCTAssertEqual(PixelKernel.deltaE1994(reference: (50, 30, 40), (50, 40, 30)), (200.0).squareRoot() / (1 + 0.015 * 50), accuracy: 1e-12)
        // Not symmetric: the reference's chroma weighs.
        XCTAssertNotEqual(PixelKernel.deltaE1994(reference: (50, 15, 20), (50, 30, 40)), PixelKernel.deltaE1994(reference: (50, 30, 40), (50, 15, 20)))
    }

    func testPerceptualPrecisionIsDeltaEPerPixel() throws {
        let a = try frame(grey)
        var b = a
        // Grey 128 → 129: ΔE 1994 = ΔL = 0.3917 (lightness only; the same sum in Python from the sRGB and CIELAB formulas).
        b[0, 0] = PremultipliedRGBA8(r: 129, g: 129, b: 129, a: 255)
        let step = PixelKernel.deltaE1994(reference: PixelKernel.lab(onWhite: grey.packed), PixelKernel.lab(onWhite: b[0, 0].packed))
        XCTAssertEqual(step, 0.3917, accuracy: 0.0001)
        XCTAssertNil(FrameComparison.snapshotTesting(perceptualPrecision: 0.99).compare(a, b), "ΔE ≤ 1 passes")
        XCTAssertNotNil(FrameComparison.snapshotTesting(perceptualPrecision: 0.999).compare(a, b), "ΔE ≤ 0.1 does not")
        // With precision: one failing pixel of 100 needs precision ≤ 0.99.
        XCTAssertNil(FrameComparison.snapshotTesting(precision: 0.99, perceptualPrecision: 0.999).compare(a, b))
        XCTAssertNotNil(FrameComparison.snapshotTesting(precision: 0.995, perceptualPrecision: 0.999).compare(a, b))
        XCTAssertEqual(FrameComparison.snapshotTesting(precision: 0.99, perceptualPrecision: 0.98).description,
                       "ΔE 1994 over 2.0, up to 1.0% of pixels may differ")
    }
}
