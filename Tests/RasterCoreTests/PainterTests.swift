import RasterCore
import XCTest

/// Pixel-exact painter tests on tiny bitmaps. Where the result is an exact area, the expected byte is
/// `round(area · 255)`; where it is not (curves), the tolerance is stated.
final class PainterTests: XCTestCase {
    private func canvas(_ w: Int, _ h: Int, scale: Double = 1, fill: PremultipliedRGBA8 = .clear) -> Bitmap {
        try! Bitmap(width: w, height: h, scale: scale, fill: fill)
    }

    private func alphaSum(_ b: Bitmap) -> Double {
        b.withUnsafePixels { $0.reduce(0.0) { $0 + Double($1 >> 24) / 255 } }
    }

    func testHalfCoveredColumnGetsAlpha128() {
        var b = canvas(2, 2)
        b.draw { $0.fill(Rect(x: 0, y: 0, width: 1.5, height: 2), color: .black) }
        XCTAssertEqual(b[0, 0].a, 255)
        XCTAssertEqual(b[1, 0].a, 128)
        XCTAssertEqual(b[1, 1].a, 128)
    }

    func testFractionalEdgesMatchTheirArea() {
        var b = canvas(4, 3)
        let rect = Rect(x: 0.25, y: 0.5, width: 2.5, height: 1.25)  // x 0.25…2.75, y 0.5…1.75
        b.draw { $0.fill(rect, color: .black) }
        for y in 0..<3 {
            for x in 0..<4 {
                let ox = max(0, min(Double(x + 1), rect.maxX) - max(Double(x), rect.minX))
                let oy = max(0, min(Double(y + 1), rect.maxY) - max(Double(y), rect.minY))
                XCTAssertEqual(b[x, y].a, UInt8((ox * oy * 255).rounded(.toNearestOrAwayFromZero)), "pixel (\(x), \(y))")
            }
        }
    }

    func testPathRasterizerGivesTheSameExactAreaAsTheRectPath() {
        // The same rectangle as a path: the accumulation is exact for axis-aligned edges. Binary fractions
        // keep each area exact in Float and Double alike, so no byte sits on a rounding tie.
        var viaRect = canvas(5, 5), viaPath = canvas(5, 5)
        let rect = Rect(x: 0.3125, y: 1.125, width: 3.875, height: 2.4375)
        viaRect.draw { $0.fill(rect, color: .black) }
        viaPath.draw { $0.fill(Path(rect: rect), color: .black) }
        for y in 0..<5 { for x in 0..<5 { XCTAssertEqual(viaRect[x, y], viaPath[x, y], "(\(x), \(y))") } }
    }

    func testTranslucentGreyOverWhiteGivesExactBytes() {
        var b = canvas(1, 1, fill: .white)
        // 50% grey at 50% alpha: premultiplied (64, 64, 64, 128); over white: 64 + round(255·127/255) = 191.
        b.draw { $0.fill(Rect(x: 0, y: 0, width: 1, height: 1), color: Color(white: 0.5, alpha: 0.5)) }
        XCTAssertEqual(b[0, 0], PremultipliedRGBA8(r: 191, g: 191, b: 191, a: 255))
        var c = canvas(1, 1, fill: .white)
        // Opaque 50% grey is round(127.5) = 128.
        c.draw { $0.fill(Rect(x: 0, y: 0, width: 1, height: 1), color: Color(white: 0.5)) }
        XCTAssertEqual(c[0, 0], PremultipliedRGBA8(r: 128, g: 128, b: 128, a: 255))
        var d = canvas(1, 1, fill: .white)
        // Black at alpha 0.3 (77) over white: round(255·178/255) = 178.
        d.draw { $0.fill(Rect(x: 0, y: 0, width: 1, height: 1), color: Color(white: 0, alpha: 0.3)) }
        XCTAssertEqual(d[0, 0], PremultipliedRGBA8(r: 178, g: 178, b: 178, a: 255))
    }

    func testCircleCoverageIsWithinHalfAPercentOfPiRSquared() {
        var b = canvas(48, 48)
        let r = 19.5
        b.draw { $0.fill(ellipseIn: Rect(x: 24.3 - r, y: 23.8 - r, width: 2 * r, height: 2 * r), color: .black) }
        let expected = Double.pi * r * r
        XCTAssertEqual(alphaSum(b), expected, accuracy: expected * 0.005)
        XCTAssertEqual(b[24, 24].a, 255)
        XCTAssertEqual(b[0, 0].a, 0)
    }

    func testRotatedSquareKeepsItsArea() {
        var b = canvas(24, 24)
        b.draw { p in
            p.translate(x: 12, y: 12)
            p.rotate(by: .pi / 6)
            p.fill(Rect(x: -5, y: -5, width: 10, height: 10), color: .black)
        }
        // Each pixel's byte is rounded, so allow half a byte per touched edge pixel.
        XCTAssertEqual(alphaSum(b), 100, accuracy: 0.2)
    }

    func testNonZeroWindingFillsOverlapsOnceAndCutsReversedHoles() {
        var b = canvas(10, 10)
        var path = Path()
        path.addRect(Rect(x: 0, y: 0, width: 6, height: 6))
        path.addRect(Rect(x: 3, y: 3, width: 6, height: 6))          // same direction: overlap stays 1
        path.addRect(Rect(x: 0.5, y: 7, width: 2, height: 2))
        path.addRect(Rect(x: 1, y: 7, width: 1, height: 1), clockwise: false)  // reversed: a hole
        b.draw { $0.fill(path, color: Color(white: 0, alpha: 0.5)) }
        XCTAssertEqual(b[4, 4].a, 128, "overlap is not drawn twice")
        XCTAssertEqual(b[1, 7].a, 0, "the reversed square is a hole")
        XCTAssertEqual(b[1, 8].a, 128, "below the hole the outer square is whole")
        XCTAssertEqual(b[0, 8].a, 64, "half-covered edge of the outer square")
    }

    func testCurvesStayWithinTolerance() {
        // A quadratic arch: its area is 2/3 · base · height.
        var b = canvas(40, 30)
        var path = Path()
        path.move(to: Point(x: 2, y: 25))
        path.addQuadCurve(to: Point(x: 38, y: 25), control: Point(x: 20, y: -15))
        path.closeSubpath()
        b.draw { $0.fill(path, color: .black) }
        let expected = 2.0 / 3.0 * 36 * 20
        XCTAssertEqual(alphaSum(b), expected, accuracy: expected * 0.005)
    }

    func testDrawingAtScaleTwoMultipliesPoints() {
        var b = canvas(4, 4, scale: 2)
        b.draw { $0.fill(Rect(x: 0.5, y: 0.5, width: 1, height: 1), color: .black) }
        for y in 0..<4 { for x in 0..<4 { XCTAssertEqual(b[x, y].a, (1...2).contains(x) && (1...2).contains(y) ? 255 : 0) } }
    }

    func testBorderIsInsideTheBoundsAndRoundedCornersAreSoft() {
        var b = canvas(12, 12)
        b.draw { $0.strokeBorder(of: Rect(x: 1, y: 1, width: 10, height: 10), width: 1, color: .black) }
        XCTAssertEqual(b[1, 5].a, 255); XCTAssertEqual(b[10, 5].a, 255); XCTAssertEqual(b[5, 1].a, 255)
        XCTAssertEqual(b[0, 5].a, 0, "nothing outside the bounds")
        XCTAssertEqual(b[2, 5].a, 0, "nothing inside the inset rectangle")
        XCTAssertEqual(alphaSum(b), 100 - 64, accuracy: 0.05)

        var r = canvas(12, 12)
        r.draw { $0.fill(roundedRect: Rect(x: 0, y: 0, width: 12, height: 12), cornerRadii: CornerRadii(all: 6), color: .black) }
        XCTAssertEqual(r[0, 0].a, 0)
        XCTAssertEqual(r[6, 6].a, 255)
        // Radius 6 on a 12 square is a circle; 100 is far past half the side and is fitted down to 6.
        var fitted = canvas(12, 12)
        fitted.draw { $0.fill(roundedRect: Rect(x: 0, y: 0, width: 12, height: 12), cornerRadii: CornerRadii(all: 100), color: .black) }
        XCTAssertEqual(r, fitted)
    }

    func testClipToFractionalRectIsAntiAliased() {
        var b = canvas(4, 1)
        b.draw { p in
            p.clip(to: Rect(x: 0, y: 0, width: 1.5, height: 1))
            p.fill(Rect(x: 0, y: 0, width: 4, height: 1), color: .black)
        }
        XCTAssertEqual(b[0, 0].a, 255); XCTAssertEqual(b[1, 0].a, 128); XCTAssertEqual(b[2, 0].a, 0)
    }

    func testClipToPathThenFillEqualsFillingThePath() {
        let circle = Path(ellipseIn: Rect(x: 1.3, y: 0.7, width: 13, height: 13))
        var clipped = canvas(16, 16), filled = canvas(16, 16)
        clipped.draw { p in
            p.clip(to: circle)
            p.fill(Rect(x: -5, y: -5, width: 30, height: 30), color: .black)
        }
        filled.draw { $0.fill(circle, color: .black) }
        XCTAssertEqual(clipped, filled)
    }

    func testSaveRestoreScopesClipAndTransform() {
        var b = canvas(4, 1)
        b.draw { p in
            p.withSavedState {
                p.clip(to: Rect(x: 0, y: 0, width: 1, height: 1))
                p.translate(x: 2, y: 0)
                XCTAssertEqual(p.clipBoundingBox, PixelRect(x: 0, y: 0, width: 1, height: 1))
                p.withLayer(opacity: 1) {
                    XCTAssertEqual(p.clipBoundingBox, PixelRect(x: 0, y: 0, width: 1, height: 1), "in base pixels inside a layer too")
                    XCTAssertEqual(p.transform, Transform2D(translationX: 2, y: 0))
                }
            }
            XCTAssertEqual(p.clipBoundingBox, PixelRect(x: 0, y: 0, width: 4, height: 1))
            p.restore()  // unbalanced: nothing happens
            p.fill(Rect(x: 3, y: 0, width: 1, height: 1), color: .black)
        }
        XCTAssertEqual(b[3, 0].a, 255)
    }

    func testGroupOpacityDiffersFromPerChildAlphaExactlyWhereChildrenOverlap() {
        let red = Color(red: 1, green: 0, blue: 0), blue = Color(red: 0, green: 0, blue: 1)
        let first = Rect(x: 0, y: 0, width: 3, height: 1), second = Rect(x: 2, y: 0, width: 3, height: 1)
        var grouped = canvas(5, 1, fill: .white), perChild = canvas(5, 1, fill: .white)
        grouped.draw { p in
            p.withLayer(opacity: 0.5) {
                p.fill(first, color: red)
                p.fill(second, color: blue)
            }
        }
        perChild.draw { p in
            p.alpha = 0.5
            p.fill(first, color: red)
            p.fill(second, color: blue)
        }
        for x in [0, 1, 3, 4] { XCTAssertEqual(grouped[x, 0], perChild[x, 0], "x = \(x)") }
        // Group: blue (0, 0, 128, 128) over white: (127, 127, 255).
        XCTAssertEqual(grouped[2, 0], PremultipliedRGBA8(r: 127, g: 127, b: 255, a: 255))
        // Per child: red (128, 0, 0, 128) over white is (255, 127, 127); blue over that is
        // (round(255·127/255), round(127·127/255), 128 + round(127·127/255)) = (127, 63, 191).
        XCTAssertEqual(perChild[2, 0], PremultipliedRGBA8(r: 127, g: 63, b: 191, a: 255))
    }

    func testLayersHonourTheClipAndNest() {
        var b = canvas(6, 1)
        b.draw { p in
            p.clip(to: Rect(x: 1, y: 0, width: 4, height: 1))
            p.withLayer(opacity: 1) {
                p.withLayer(opacity: 0.5) { p.fill(Rect(x: 0, y: 0, width: 6, height: 1), color: .black) }
            }
        }
        XCTAssertEqual(b[0, 0].a, 0); XCTAssertEqual(b[5, 0].a, 0)
        XCTAssertEqual(b[1, 0].a, 128); XCTAssertEqual(b[4, 0].a, 128)
    }

    func testBilinearSamplingOfATwoByTwoImage() throws {
        var image = canvas(2, 2)
        image[0, 0] = PremultipliedRGBA8(r: 0, g: 0, b: 0, a: 255)
        image[1, 0] = PremultipliedRGBA8(r: 200, g: 0, b: 0, a: 255)
        image[0, 1] = PremultipliedRGBA8(r: 0, g: 100, b: 0, a: 255)
        image[1, 1] = PremultipliedRGBA8(r: 100, g: 100, b: 100, a: 255)
        var b = canvas(4, 4)
        b.draw { $0.draw(image, in: Rect(x: 0, y: 0, width: 4, height: 4)) }
        // Device centre 0.5…3.5 maps to image u = 0.25…1.75, texel position u − 0.5 clamped to 0…1:
        // weights 0, 0.25, 0.75, 1 along each axis.
        let w: [Double] = [0, 0.25, 0.75, 1]
        for y in 0..<4 {
            for x in 0..<4 {
                let tx = w[x], ty = w[y]
                func mix(_ c00: Double, _ c10: Double, _ c01: Double, _ c11: Double) -> UInt8 {
                    UInt8((c00 * (1 - tx) * (1 - ty) + c10 * tx * (1 - ty) + c01 * (1 - tx) * ty + c11 * tx * ty).rounded())
                }
                XCTAssertEqual(b[x, y], PremultipliedRGBA8(r: mix(0, 200, 0, 100), g: mix(0, 0, 100, 100), b: mix(0, 0, 0, 100), a: 255), "(\(x), \(y))")
            }
        }
    }

    func testIntegerTranslationCopiesExactlyAndRespectsScaleAndOpacity() {
        var image = canvas(3, 2, scale: 2)
        for y in 0..<2 { for x in 0..<3 { image[x, y] = PremultipliedRGBA8(r: UInt8(x * 50), g: UInt8(y * 70), b: 9, a: 255) } }
        var b = canvas(8, 6, scale: 2)
        b.draw { $0.draw(image, in: Rect(x: 1, y: 0.5, width: 1.5, height: 1)) }  // (2, 1) in pixels
        for y in 0..<2 { for x in 0..<3 { XCTAssertEqual(b[x + 2, y + 1], image[x, y]) } }
        XCTAssertEqual(b[1, 1], .clear)

        var faded = canvas(3, 2, scale: 2, fill: .white)
        faded.draw { $0.draw(image, in: Rect(x: 0, y: 0, width: 1.5, height: 1), opacity: 0.5) }
        // Opacity 0.5 is 128: each channel becomes round(c·128/255), then white shows through by 127.
        for y in 0..<2 {
            for x in 0..<3 {
                let s = image[x, y]
                func ch(_ c: UInt8) -> UInt8 { UInt8((Double(c) * 128 / 255).rounded() + 127) }
                XCTAssertEqual(faded[x, y], PremultipliedRGBA8(r: ch(s.r), g: ch(s.g), b: ch(s.b), a: 255), "(\(x), \(y))")
            }
        }
    }

    func testCopyBlendModeReplacesPixels() {
        var b = canvas(2, 1, fill: .white)
        b.draw { p in
            p.blendMode = .copy
            p.fill(Rect(x: 0, y: 0, width: 1.5, height: 1), color: .clear)
        }
        XCTAssertEqual(b[0, 0], .clear)
        XCTAssertEqual(b[1, 0], PremultipliedRGBA8(r: 127, g: 127, b: 127, a: 127), "half replaced by transparent")
    }

    func testNothingToDrawIsNotAnError() {
        var b = canvas(4, 4, fill: .white)
        let before = b
        b.draw { p in
            p.fill(Rect(x: .nan, y: 0, width: 1, height: 1), color: .black)
            p.fill(Rect(x: 0, y: 0, width: .infinity, height: 1), color: .black)
            var path = Path()
            path.move(to: Point(x: 0, y: 0)); path.addLine(to: Point(x: .nan, y: 3)); path.addLine(to: Point(x: 3, y: 3))
            p.fill(path, color: .black)
            p.fill(Path(), color: .black)
            p.fill(Rect(x: 10, y: 10, width: 5, height: 5), color: .black)
            p.draw(before, transform: Transform2D(scaleX: 0, y: 1))
            p.alpha = 0
            p.fill(Rect(x: 0, y: 0, width: 4, height: 4), color: .black)
            p.alpha = 1
            p.clip(to: Rect(x: 0, y: 0, width: 0, height: 0))
            p.fill(Rect(x: 0, y: 0, width: 4, height: 4), color: .black)
            p.endLayer()
            p.restore()
        }
        XCTAssertEqual(b, before)
    }

    func testHugeCoordinatesAreClippedWithoutHanging() {
        var b = canvas(8, 8)
        var path = Path()
        path.move(to: Point(x: -1e12, y: -1e12))
        path.addCurve(to: Point(x: 1e12, y: 4), control1: Point(x: 1e15, y: -1e15), control2: Point(x: -1e15, y: 1e15))
        path.addLine(to: Point(x: 4, y: 1e12))
        b.draw { $0.fill(path, color: .black) }
        b.draw { $0.fill(Rect(x: -1e300, y: -1e300, width: 2e300, height: 2e300), color: .black) }
        XCTAssertEqual(b[4, 4].a, 255)
    }
}

final class PainterExtremeInputTests: XCTestCase {
    func testAstronomicalCoordinatesNeitherTrapNorHang() throws {
        var b = try Bitmap(width: 8, height: 8)
        b.draw { p in
            var path = Path()
            path.move(to: Point(x: 0, y: -1e300))
            path.addLine(to: Point(x: 1e300, y: 4))
            path.addLine(to: Point(x: -1e300, y: 4 + 1e-300))
            path.addLine(to: Point(x: 4, y: 1e308))
            p.fill(path, color: .black)
            p.clip(to: Path(ellipseIn: Rect(x: -1e300, y: -1e300, width: 1e300, height: 1.7e308)))
            p.fill(Rect(x: 0, y: 0, width: 8, height: 8), color: .black)
        }
        var image = try Bitmap(width: 2, height: 2, fill: .black)
        image[1, 1] = .white
        var c = try Bitmap(width: 8, height: 8)
        c.draw { p in
            p.draw(image, in: Rect(x: 1, y: 1, width: 1e-300, height: 1e-300))
            p.draw(image, in: Rect(x: 1e300, y: 1, width: 1e300, height: 5))
            p.draw(image, transform: Transform2D(a: 1e300, b: 1e300, c: -1e300, d: 1e300, tx: 3, ty: 3))
            p.rotate(by: 0.3)
            p.draw(image, in: Rect(x: -1e15, y: -1e15, width: 2e15, height: 2e15))
        }
        XCTAssertEqual(c.width, 8)
    }
}

/// Regressions found in review: each of these once trapped, hung, or drew the wrong pixels.
final class PainterReviewRegressionTests: XCTestCase {
    func testPixelRectArithmeticSaturatesInsteadOfTrapping() throws {
        var b = try Bitmap(width: 4, height: 2, fill: .white)
        b.fill(PixelRect(x: .max - 2, y: 0, width: 10, height: 1), with: .black)
        XCTAssertThrowsError(try b.cropped(to: PixelRect(x: .max - 1, y: 0, width: .max, height: 1)))
        let crop = try b.cropped(to: PixelRect(x: 1, y: 0, width: .max, height: 1))
        XCTAssertEqual(crop.width, 3)
        let s = try Bitmap(width: 2, height: 2, fill: .black)
        b.copy(from: s, to: (Int.min, 0))
        b.copy(from: s, to: (Int.max, Int.max))
        b.copy(from: s, sourceRect: PixelRect(x: Int.min + 10, y: 0, width: .max, height: 2), to: (0, 0))
        XCTAssertEqual(b[0, 0], .white, "the requested rect's corner is far off to the left, so nothing lands")
        b.copy(from: s, sourceRect: PixelRect(x: -1, y: 0, width: 3, height: 2), to: (0, 0))
        XCTAssertEqual(b[0, 0], .white)
        XCTAssertEqual(b[1, 0], .black, "source column 0 lands one to the right of the requested corner")
    }

    func testCurvesOutsideTheClipAreNotSubdividedAndWindExactly() throws {
        // 2000 subpaths, each a huge curve entirely left of the bitmap closed by lines through it. Each
        // winds rows 0…7 like its chord (x = -5), so x < 4 is covered and nothing else.
        var path = Path()
        for _ in 0..<2000 {
            path.move(to: Point(x: -5, y: -5))
            path.addCurve(to: Point(x: -5, y: 20), control1: Point(x: -1e12, y: 1e12), control2: Point(x: -1e12, y: -1e12))
            path.addLine(to: Point(x: 4, y: 20))
            path.addLine(to: Point(x: 4, y: -5))
            path.closeSubpath()
        }
        var b = try Bitmap(width: 8, height: 8)
        b.draw { $0.fill(path, color: .black) }
        for y in 0..<8 { for x in 0..<8 { XCTAssertEqual(b[x, y].a, x < 4 ? 255 : 0, "(\(x), \(y))") } }
    }

    func testFarAwayVerticesDoNotBendVisibleEdges() throws {
        // The same slightly rotated edge, once from a rectangle spanning ±1e13 and once ±1e4.
        func draw(_ extent: Double) throws -> Bitmap {
            var b = try Bitmap(width: 16, height: 16)
            b.draw { p in
                p.translate(x: 0, y: 8)
                p.rotate(by: 0.001)
                p.fill(Rect(x: -extent, y: 0, width: 2 * extent, height: extent), color: .black)
            }
            return b
        }
        let far = try draw(1e13), near = try draw(1e4)
        // Double precision at 1e13 is about 0.002 px, so bytes may differ by one.
        for y in 0..<16 {
            for x in 0..<16 { XCTAssertLessThanOrEqual(abs(Int(far[x, y].a) - Int(near[x, y].a)), 1, "(\(x), \(y))") }
        }
        XCTAssertEqual(near[0, 7].a, 0)
        XCTAssertEqual(near[0, 9].a, 255)
    }

    func testCopyModeLayerStaysInsideAMaskedClip() throws {
        var b = try Bitmap(width: 20, height: 20, fill: .white)
        b.draw { p in
            p.clip(to: Path(ellipseIn: Rect(x: 2, y: 2, width: 16, height: 16)))
            p.blendMode = .copy
            p.withLayer(opacity: 1) { p.fill(Rect(x: 9, y: 9, width: 2, height: 2), color: .black) }
        }
        XCTAssertEqual(b[2, 2], .white, "outside the ellipse nothing changes")
        XCTAssertEqual(b[10, 10], .black)
        XCTAssertEqual(b[5, 10], .clear, "inside the clip, copy replaces with the layer's transparent pixels")
    }

    func testClippedLayerEdgesAreMaskedOnce() throws {
        // An opaque fill in a layer under a circular clip gives the same pixels as the fill clipped directly.
        let circle = Path(ellipseIn: Rect(x: 1.5, y: 1.5, width: 13, height: 13))
        var viaLayer = try Bitmap(width: 16, height: 16, fill: .white), direct = viaLayer
        viaLayer.draw { p in
            p.clip(to: circle)
            p.withLayer(opacity: 1) { p.fill(Rect(x: 0, y: 0, width: 16, height: 16), color: .black) }
        }
        direct.draw { p in
            p.clip(to: circle)
            p.fill(Rect(x: 0, y: 0, width: 16, height: 16), color: .black)
        }
        XCTAssertEqual(viaLayer, direct)
    }
}

final class PainterPixelClipTests: XCTestCase {
    func testClipToPixelsIsExactAndInBaseBitmapPixelsInsideLayers() throws {
        var bitmap = try Bitmap(width: 8, height: 8, scale: 2)
        bitmap.draw { p in
            p.clip(toPixels: PixelRect(x: 2, y: 3, width: 4, height: 2))
            XCTAssertEqual(p.clipBoundingBox, PixelRect(x: 2, y: 3, width: 4, height: 2))
            p.fill(Rect(x: 0, y: 0, width: 4, height: 4), color: .white)
        }
        for y in 0..<8 { for x in 0..<8 {
            let inside = (2..<6).contains(x) && (3..<5).contains(y)
            XCTAssertEqual(bitmap[x, y], inside ? .white : .clear, "(\(x), \(y))")
        } }

        var layered = try Bitmap(width: 8, height: 8, scale: 1)
        layered.draw { p in
            p.clip(to: Rect(x: 1, y: 1, width: 6, height: 6))
            p.beginLayer()
            p.clip(toPixels: PixelRect(x: 4, y: 4, width: 10, height: 10))
            XCTAssertEqual(p.clipBoundingBox, PixelRect(x: 4, y: 4, width: 3, height: 3))
            p.fill(Rect(x: 0, y: 0, width: 8, height: 8), color: .black)
            p.endLayer()
        }
        XCTAssertEqual(layered[4, 4], .black)
        XCTAssertEqual(layered[3, 4], .clear)
        XCTAssertEqual(layered[7, 7], .clear)
    }
}

extension PainterTests {
    /// `darken(coverageMask:…)` multiplies the colour of what is drawn by 1 − coverage and keeps alpha
    /// (source-atop with black): exact bytes, clear pixels stay clear, the painter's alpha and clip apply,
    /// and inside a layer the mask lands on the same device pixels.
    func testDarkenKeepsAlphaAndScalesColourExactly() throws {
        let red = PremultipliedRGBA8(r: 200, g: 30, b: 30, a: 255)
        let halfRed = PremultipliedRGBA8(r: 100, g: 15, b: 15, a: 128)
        var bitmap = try Bitmap(width: 4, height: 1)
        bitmap[0, 0] = red; bitmap[1, 0] = halfRed; bitmap[3, 0] = red
        let painter = Painter(bitmap: bitmap)
        let mask: [UInt8] = [128, 128, 255, 0]
        mask.withUnsafeBufferPointer { painter.darken(coverageMask: $0, width: 4, height: 1, atDevicePixel: (0, 0)) }
        bitmap = painter.finish()
        // 200 × 127 / 255 = 99.6 → 100; 30 × 127 / 255 = 14.9 → 15; 100 × 127 / 255 = 49.8 → 50.
        XCTAssertEqual(bitmap[0, 0], PremultipliedRGBA8(r: 100, g: 15, b: 15, a: 255))
        XCTAssertEqual(bitmap[1, 0], PremultipliedRGBA8(r: 50, g: 7, b: 7, a: 128))
        XCTAssertEqual(bitmap[2, 0], .clear, "nothing drawn: nothing to darken")
        XCTAssertEqual(bitmap[3, 0], red, "coverage 0")

        // Half the painter's alpha halves the coverage (255 → 128); a clip leaves pixels outside it alone.
        var second = try Bitmap(width: 2, height: 1, fill: red)
        let p2 = Painter(bitmap: second)
        p2.alpha = 0.5
        p2.clip(toPixels: PixelRect(x: 0, y: 0, width: 1, height: 1))
        [UInt8](repeating: 255, count: 2).withUnsafeBufferPointer { p2.darken(coverageMask: $0, width: 2, height: 1, atDevicePixel: (0, 0)) }
        second = p2.finish()
        XCTAssertEqual(second[0, 0], PremultipliedRGBA8(r: 100, g: 15, b: 15, a: 255))
        XCTAssertEqual(second[1, 0], red)

        // In a layer opened over a clip that starts at x = 2, device pixel 3 is the layer's pixel 1.
        var third = try Bitmap(width: 4, height: 1)
        let p3 = Painter(bitmap: third)
        p3.clip(toPixels: PixelRect(x: 2, y: 0, width: 2, height: 1))
        p3.beginLayer()
        p3.fill(Rect(x: 0, y: 0, width: 4, height: 1), color: Color(red8: 200, green8: 30, blue8: 30))
        [UInt8](repeating: 255, count: 1).withUnsafeBufferPointer { p3.darken(coverageMask: $0, width: 1, height: 1, atDevicePixel: (3, 0)) }
        p3.endLayer()
        third = p3.finish()
        XCTAssertEqual(third[2, 0], red)
        XCTAssertEqual(third[3, 0], PremultipliedRGBA8(r: 0, g: 0, b: 0, a: 255))
    }
}

/// Rectangle coverage is the product of a pixel's column and row fractions, wherever the rectangle lies
/// (issue 29 computes only the first and last column's fraction and fills the columns between).
final class RectangleCoverageTests: XCTestCase {
    func testEveryPixelOfARandomRectangleGetsItsColumnTimesRowFraction() throws {
        var state: UInt64 = 12345
        func next() -> Double {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Double(state >> 11) / Double(1 << 53)
        }
        for _ in 0..<2000 {
            // Edges on eighths, tenths and arbitrary fractions; widths from a fraction of a pixel up to past
            // the canvas on either side.
            let grid = [0.125, 0.1, 1e-3][Int(next() * 3)]
            let x = ((next() * 12 - 3) / grid).rounded() * grid, y = ((next() * 9 - 2) / grid).rounded() * grid
            let w = ((next() * next() * 13) / grid).rounded() * grid, h = ((next() * 8) / grid).rounded() * grid
            let rect = Rect(x: x, y: y, width: w, height: h)
            var b = try Bitmap(width: 8, height: 6)
            b.draw { $0.fill(rect, color: .black) }
            for py in 0..<6 {
                for px in 0..<8 {
                    let fx = max(0, min(rect.maxX, Double(px + 1)) - max(rect.minX, Double(px)))
                    let fy = max(0, min(rect.maxY, Double(py + 1)) - max(rect.minY, Double(py)))
                    let f = fy >= 1 ? fx : fx * fy
                    let expected = UInt8(Int(min(1, max(0, f)) * 255 + 0.5))
                    XCTAssertEqual(b[px, py].a, expected, "\(rect) at (\(px), \(py))")
                }
            }
        }
    }

    func testPixelRectInsideSubtractingAndUnion() {
        XCTAssertEqual(PixelRect(inside: Rect(x: 0.5, y: 1, width: 3, height: 2.9)), PixelRect(x: 1, y: 1, width: 2, height: 2))
        XCTAssertNil(PixelRect(inside: Rect(x: 0.5, y: 0, width: 0.9, height: 5)), "no whole pixel inside")
        XCTAssertNil(PixelRect(inside: Rect(x: .nan, y: 0, width: 1, height: 1)))
        let box = PixelRect(x: 0, y: 0, width: 10, height: 8), hole = PixelRect(x: 2, y: 3, width: 4, height: 2)
        let pieces = box.subtracting(hole)
        XCTAssertEqual(pieces, [PixelRect(x: 0, y: 0, width: 10, height: 3), PixelRect(x: 0, y: 5, width: 10, height: 3),
                                PixelRect(x: 0, y: 3, width: 2, height: 2), PixelRect(x: 6, y: 3, width: 4, height: 2)])
        XCTAssertEqual(pieces.map(\.area).reduce(0, +) + hole.area, box.area)
        XCTAssertEqual(box.subtracting(PixelRect(x: 20, y: 0, width: 2, height: 2)), [box])
        XCTAssertEqual(box.subtracting(PixelRect(x: -1, y: -1, width: 12, height: 12)), [])
        XCTAssertTrue(box.contains(hole))
        XCTAssertFalse(hole.contains(box))
        XCTAssertEqual(hole.union(PixelRect(x: 8, y: 0, width: 1, height: 1)), PixelRect(x: 2, y: 0, width: 7, height: 5))
        XCTAssertEqual(hole.union(PixelRect(x: 50, y: 50, width: 0, height: 3)), hole, "an empty rectangle adds nothing")
    }
}

/// The pieces of the smokescreen fold (issue 29): a region of whole pixels, a fill that leaves a region
/// alone, and stores of a known pixel.
final class PixelRegionTests: XCTestCase {
    func testARectangleLessHolesHoldsExactlyThePixelsNoHoleContains() {
        var state: UInt64 = 99
        func next(_ n: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int(state >> 33) % n
        }
        for _ in 0..<300 {
            let rect = PixelRect(x: next(6) - 2, y: next(6) - 2, width: next(14), height: next(12))
            let holes = (0..<next(7)).map { _ in PixelRect(x: next(16) - 3, y: next(14) - 3, width: next(8), height: next(8)) }
            let region = PixelRegion(rect, minus: holes)
            var count = 0
            for y in -4..<16 {
                for x in -4..<18 {
                    let inRect = x >= rect.minX && x < rect.maxX && y >= rect.minY && y < rect.maxY
                    let inHole = holes.contains { x >= $0.minX && x < $0.maxX && y >= $0.minY && y < $0.maxY }
                    XCTAssertEqual(region.contains(x: x, y: y), inRect && !inHole, "\(rect) less \(holes) at (\(x), \(y))")
                    if inRect && !inHole { count += 1 }
                }
            }
            XCTAssertEqual(region.area, count)
            // The union with the holes' parts inside is the rectangle again.
            let holesInside = holes.map { PixelRegion($0.intersection(rect), minus: []) }
            XCTAssertEqual(PixelRegion(union: [region] + holesInside), PixelRegion(rect, minus: []))
        }
    }

    func testAFillExcludingARegionLeavesItAndGivesEveryOtherPixelTheWholeFillsValue() throws {
        let garbage = PremultipliedRGBA8(r: 10, g: 200, b: 30, a: 255)
        let rect = Rect(x: 0.3, y: 0.75, width: 9.2, height: 6.6)
        let region = PixelRegion(PixelRect(x: 2, y: 1, width: 12, height: 9), minus: [PixelRect(x: 5, y: 3, width: 3, height: 3)])
        for (name, setup) in [("plain", { (_: Painter) in }), ("alpha", { $0.alpha = 0.7 }), ("layer", { $0.beginLayer() }),
                              ("clip", { $0.clip(toPixels: PixelRect(x: 3, y: 0, width: 20, height: 7)) })] as [(String, (Painter) -> Void)] {
            var whole = try Bitmap(width: 20, height: 16, scale: 2, fill: garbage), excluded = whole
            whole.draw { setup($0); $0.fill(rect, color: Color(red: 0.2, green: 0.4, blue: 0.9, alpha: 0.6)) }
            excluded.draw { p in
                setup(p)
                XCTAssertTrue(p.fill(rect, color: Color(red: 0.2, green: 0.4, blue: 0.9, alpha: 0.6), excluding: region))
            }
            for y in 0..<16 {
                for x in 0..<20 {
                    XCTAssertEqual(excluded[x, y], region.contains(x: x, y: y) ? garbage : whole[x, y], "\(name) (\(x), \(y))")
                }
            }
        }
        // A turned rectangle is refused, drawing nothing.
        var turned = try Bitmap(width: 20, height: 16, scale: 2, fill: garbage)
        turned.draw { p in
            p.rotate(by: 0.2)
            XCTAssertFalse(p.fill(rect, color: .black, excluding: region))
        }
        XCTAssertEqual(turned, try Bitmap(width: 20, height: 16, scale: 2, fill: garbage))
    }

    func testStoreWritesThePixelInTheRegionInsideTheClipOnlyAndFilledIsTheFillsArithmetic() throws {
        var bitmap = try Bitmap(width: 12, height: 10)
        let region = PixelRegion(PixelRect(x: 1, y: 1, width: 10, height: 8), minus: [PixelRect(x: 4, y: 4, width: 2, height: 2)])
        let pixel = PremultipliedRGBA8(r: 1, g: 2, b: 3, a: 255)
        bitmap.draw { p in
            p.clip(toPixels: PixelRect(x: 0, y: 0, width: 8, height: 10))
            p.store(pixel.packed, in: region)
        }
        for y in 0..<10 { for x in 0..<12 { XCTAssertEqual(bitmap[x, y], region.contains(x: x, y: y) && x < 8 ? pixel : .clear, "(\(x), \(y))") } }
        // filled(_:with:) is what a fill leaves on a pixel it covers wholly.
        let smoke = Color(white: 0, alpha: 0.3)
        var filled = try Bitmap(width: 2, height: 2, fill: PremultipliedRGBA8(r: 209, g: 209, b: 214, a: 255))
        var expected: UInt32 = 0
        filled.draw { p in
            expected = p.filled(PremultipliedRGBA8(r: 209, g: 209, b: 214, a: 255).packed, with: smoke)
            p.fill(Rect(x: 0, y: 0, width: 2, height: 2), color: smoke)
        }
        XCTAssertEqual(filled[1, 1].packed, expected)
    }
}
