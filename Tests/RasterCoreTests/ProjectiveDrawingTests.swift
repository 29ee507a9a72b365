import RasterCore
import XCTest

/// Perspective: the geometry of a turned plane (`Transform3D`, `Projective2D`) and the painter's drawing
/// through it (`Painter.draw(_:projection:opacity:)`).
final class ProjectiveDrawingTests: XCTestCase {
    private var perspective: Transform3D { var p = Transform3D.identity; p.m34 = -1 / 500; return p }

    private func solid(_ w: Int, _ h: Int, _ color: PremultipliedRGBA8) throws -> Bitmap {
        var b = try Bitmap(width: w, height: h)
        for y in 0..<h { for x in 0..<w { b[x, y] = color } }
        return b
    }

    // MARK: Geometry

    func testATurnAboutYWithPerspectiveShortensTheEdgeThatGoesAway() throws {
        // Core Animation's convention: a positive turn about y takes +x away from the viewer (z < 0),
        // and m34 = -1/d makes what is further away smaller.
        let flat = Transform3D(rotationAngle: 0.6, x: 0, y: 1, z: 0).concatenating(perspective).flattened
        let right = try XCTUnwrap(flat.apply(to: Point(x: 100, y: 50))), rightTop = try XCTUnwrap(flat.apply(to: Point(x: 100, y: -50)))
        let left = try XCTUnwrap(flat.apply(to: Point(x: -100, y: 50))), leftTop = try XCTUnwrap(flat.apply(to: Point(x: -100, y: -50)))
        XCTAssertLessThan(right.y - rightTop.y, 100)
        XCTAssertGreaterThan(left.y - leftTop.y, 100)
        XCTAssertTrue(flat.facesViewer(at: .zero))
        let turnedAway = Transform3D(rotationAngle: 2.0, x: 0, y: 1, z: 0).concatenating(perspective).flattened
        XCTAssertFalse(turnedAway.facesViewer(at: .zero), "more than a quarter turn: the back faces the viewer")
    }

    func testAnAffineTransformIsTheSameAsAProjectiveOne() throws {
        let t = Transform2D(rotationAngle: 0.3).concatenating(Transform2D(translationX: 4, y: -2)).scaledBy(x: 2, y: 0.5)
        let p = Projective2D(t)
        XCTAssertEqual(p.affine, t)
        let q = try XCTUnwrap(p.apply(to: Point(x: 3, y: 7)))
        XCTAssertEqual(q.x, t.apply(to: Point(x: 3, y: 7)).x, accuracy: 1e-12)
        XCTAssertEqual(q.y, t.apply(to: Point(x: 3, y: 7)).y, accuracy: 1e-12)
        XCTAssertEqual(Transform3D(t).flattened.affine, t)
        XCTAssertTrue(Transform3D(t).isAffine)
        XCTAssertFalse(perspective.isAffine)
    }

    func testTheInverseMapsBackWithAPositiveDepth() throws {
        let p = Transform3D(rotationAngle: 0.8, x: 1, y: 0.3, z: 0).concatenating(perspective)
            .concatenating(Transform3D(translationX: 40, y: 30, z: 0)).flattened
        let inverse = try XCTUnwrap(p.inverted())
        for point in [Point(x: 0, y: 0), Point(x: 37, y: -12), Point(x: -80, y: 66)] {
            let there = try XCTUnwrap(p.apply(to: point))
            XCTAssertGreaterThan(inverse.homogeneous(there).w, 0)
            let back = try XCTUnwrap(inverse.apply(to: there))
            XCTAssertEqual(back.x, point.x, accuracy: 1e-9)
            XCTAssertEqual(back.y, point.y, accuracy: 1e-9)
        }
        XCTAssertNil(Transform3D(rotationAngle: .pi / 2, x: 0, y: 1, z: 0).concatenating(perspective).flattened.inverted(),
                     "a plane seen edge-on has no inverse")
    }

    func testTheOutlineIsCutWhereThePlanePassesBehindTheEye() {
        // The eye is 500 points in front; the rectangle reaches 600 points towards it after a turn.
        let p = Transform3D(rotationAngle: -1.2, x: 0, y: 1, z: 0).concatenating(perspective).flattened
        let rect = Rect(x: -700, y: -50, width: 1400, height: 100)
        let outline = p.outline(of: rect, within: Rect(x: -1e5, y: -1e5, width: 2e5, height: 2e5))
        XCTAssertGreaterThanOrEqual(outline.count, 3)
        XCTAssertTrue(outline.allSatisfy { $0.x.isFinite && $0.y.isFinite && abs($0.x) <= 1e5 + 1 })
        XCTAssertEqual(p.outline(of: rect, within: Rect(x: 2e5, y: 2e5, width: 10, height: 10)), [], "nothing there")
    }

    func testTheLargestStretchIsThatOfTheNearestCorner() throws {
        XCTAssertEqual(try XCTUnwrap(Projective2D(Transform2D(scaleX: 2, y: 3)).largestStretch(over: Rect(x: 0, y: 0, width: 10, height: 10))), 3, accuracy: 1e-12)
        // Turned about y, the near edge (-x, towards the eye) is magnified: 500 / (500 − 100·sin 0.6).
        let p = Transform3D(rotationAngle: 0.6, x: 0, y: 1, z: 0).concatenating(perspective).flattened
        let stretch = try XCTUnwrap(p.largestStretch(over: Rect(x: -100, y: -10, width: 200, height: 20)))
        XCTAssertGreaterThan(stretch, 500 / (500 - 100 * sin(0.6)) - 1e-3)
        XCTAssertLessThan(stretch, 1.3)
    }

    // MARK: Drawing

    /// A homography whose left edge (image x = 0) lands on device x = 10.5 whatever y, with a depth that
    /// grows to the right: a perspective with a vertical edge at a known place.
    private func leaningProjection() -> Projective2D {
        Projective2D(m11: 1, m12: 0, m13: 0.004, m21: 0, m22: 1, m23: 0, m31: 10.5, m32: 2, m33: 1)
    }

    func testAHalfCoveredEdgePixelIsHalfCovered() throws {
        let image = try solid(40, 20, PremultipliedRGBA8(r: 255, g: 255, b: 255, a: 255))
        var target = try Bitmap(width: 50, height: 30)
        target.draw { $0.draw(image, projection: leaningProjection()) }
        // Column 10 is half inside the image (its left edge at x = 10.5), column 11 wholly.
        for y in 5..<18 {
            XCTAssertEqual(target[10, y], PremultipliedRGBA8(r: 128, g: 128, b: 128, a: 128), "row \(y)")
            XCTAssertEqual(target[11, y], PremultipliedRGBA8(r: 255, g: 255, b: 255, a: 255), "row \(y)")
            XCTAssertEqual(target[9, y].a, 0, "row \(y)")
        }
    }

    func testAOneColourImageStaysThatColourThroughAnyPerspective() throws {
        let color = PremultipliedRGBA8(r: 90, g: 30, b: 200, a: 255)
        let image = try solid(64, 64, color)
        var target = try Bitmap(width: 80, height: 80)
        let p = Transform3D(translationX: -32, y: -32, z: 0).concatenating(Transform3D(rotationAngle: 1.3, x: 0.3, y: 1, z: 0))
            .concatenating(perspective).concatenating(Transform3D(translationX: 40, y: 40, z: 0)).flattened
        target.draw { $0.draw(image, projection: p) }
        var inside = 0
        for y in 0..<80 { for x in 0..<80 where target[x, y].a == 255 {
            XCTAssertEqual(target[x, y], color, "(\(x), \(y))")
            inside += 1
        } }
        XCTAssertGreaterThan(inside, 200, "the turned image covers a band of the target")
    }

    func testTheFarSideIsFilteredNotAliased() throws {
        // A checkerboard of single pixels turned steeply: where one device pixel sees several image pixels
        // it shows their mean (grey), not one of them (black or white).
        var board = try Bitmap(width: 128, height: 128)
        for y in 0..<128 { for x in 0..<128 { board[x, y] = (x + y) % 2 == 0 ? PremultipliedRGBA8(r: 255, g: 255, b: 255, a: 255) : PremultipliedRGBA8(r: 0, g: 0, b: 0, a: 255) } }
        let p = Transform3D(translationX: -64, y: -64, z: 0).concatenating(Transform3D(rotationAngle: 1.45, x: 0, y: 1, z: 0))
            .concatenating(perspective).concatenating(Transform3D(translationX: 64, y: 64, z: 0)).flattened
        var target = try Bitmap(width: 128, height: 128)
        target.draw { $0.draw(board, projection: p) }
        var opaque = 0, extreme = 0
        for y in 20..<108 { for x in 0..<128 where target[x, y].a == 255 {
            opaque += 1
            if target[x, y].r < 64 || target[x, y].r > 191 { extreme += 1 }
        } }
        XCTAssertGreaterThan(opaque, 300)
        XCTAssertLessThan(Double(extreme) / Double(opaque), 0.05, "\(extreme) of \(opaque) pixels black or white")
    }

    func testAnAffineProjectionDrawsAsTheAffineDraw() throws {
        var image = try Bitmap(width: 12, height: 9)
        for y in 0..<9 { for x in 0..<12 { image[x, y] = PremultipliedRGBA8(r: UInt8(x * 20), g: UInt8(y * 25), b: 70, a: 255) } }
        let t = Transform2D(rotationAngle: 0.35).concatenating(Transform2D(translationX: 6.3, y: 2.7))
        var a = try Bitmap(width: 24, height: 24), b = try Bitmap(width: 24, height: 24)
        a.draw { $0.draw(image, transform: t) }
        b.draw { $0.draw(image, projection: Projective2D(t)) }
        XCTAssertEqual(a, b)
    }

    func testNothingIsDrawnForAPlaneEdgeOnOrNotFinite() throws {
        let image = try solid(10, 10, PremultipliedRGBA8(r: 255, g: 0, b: 0, a: 255))
        let blank = try Bitmap(width: 20, height: 20)
        for p in [Transform3D(rotationAngle: .pi / 2, x: 0, y: 1, z: 0).concatenating(perspective).flattened,
                  Projective2D(m11: .nan, m12: 0, m13: 0.01, m21: 0, m22: 1, m23: 0, m31: 0, m32: 0, m33: 1),
                  Projective2D(m11: 1, m12: 0, m13: 0, m21: 0, m22: 1, m23: 0.5, m31: 0, m32: 0, m33: -100)] {
            var target = try Bitmap(width: 20, height: 20)
            target.draw { $0.draw(image, projection: p) }
            XCTAssertEqual(target, blank, "\(p)")
        }
    }
}

/// `Painter.clip(toAlphaOf:atDevicePixel:)`: an image's alpha as part of the clip (a layer's mask).
final class AlphaClipTests: XCTestCase {
    func testWhatIsDrawnIsMultipliedByTheImagesAlphaAndNothingOutsideIt() throws {
        var mask = try Bitmap(width: 4, height: 2)
        for x in 0..<4 { mask[x, 0] = PremultipliedRGBA8(r: 0, g: 0, b: 0, a: 255); mask[x, 1] = PremultipliedRGBA8(r: 0, g: 0, b: 0, a: 128) }
        var target = try Bitmap(width: 8, height: 6)
        target.draw { p in
            p.clip(toAlphaOf: mask, atDevicePixel: (2, 3))
            p.fill(Rect(x: 0, y: 0, width: 8, height: 6), color: Color(red: 1, green: 1, blue: 1))
        }
        for y in 0..<6 { for x in 0..<8 {
            let inside = (2..<6).contains(x) && (3..<5).contains(y)
            let expected: UInt8 = !inside ? 0 : (y == 3 ? 255 : 128)
            XCTAssertEqual(target[x, y].a, expected, "(\(x), \(y))")
        } }
    }

    func testItCombinesWithAnotherClipAndFollowsLayers() throws {
        var mask = try Bitmap(width: 6, height: 6)
        for y in 0..<6 { for x in 0..<6 { mask[x, y] = PremultipliedRGBA8(r: 0, g: 0, b: 0, a: 128) } }
        var target = try Bitmap(width: 10, height: 10)
        target.draw { p in
            p.clip(to: Rect(x: 0, y: 0, width: 4, height: 10))
            p.clip(toPixels: PixelRect(x: 1, y: 1, width: 8, height: 8))
            p.beginLayer()
            p.clip(toAlphaOf: mask, atDevicePixel: (2, 2))
            p.fill(Rect(x: 0, y: 0, width: 10, height: 10), color: Color(red: 1, green: 1, blue: 1))
            p.endLayer(opacity: 1)
        }
        XCTAssertEqual(target[3, 3].a, 128, "inside both")
        XCTAssertEqual(target[5, 3].a, 0, "outside the rectangle clip")
        XCTAssertEqual(target[1, 3].a, 0, "outside the image")
    }
}

/// `Painter.fillBlurred`: shadows' Gaussian, as three box blurs.
final class BlurTests: XCTestCase {
    /// The standard normal distribution's cumulative function.
    private func phi(_ x: Double) -> Double { 0.5 * (1 + erf(x / 2.0.squareRoot())) }

    func testAnEdgeBlursToTheGaussianWithinThreePercentOfItsPeak() throws {
        for sigma in [3.0, 6.0, 10.0] {
            var target = try Bitmap(width: 200, height: 8)
            // A half-plane from x = 100 to the right (wider than 3 sigma beyond the image).
            target.draw { $0.fillBlurred(Path(rect: Rect(x: 100, y: -100, width: 300, height: 208)), sigma: sigma, color: .black) }
            var worst = 0.0
            for x in 60..<140 {
                let expected = 255 * phi((Double(x) + 0.5 - 100) / sigma)
                worst = max(worst, abs(Double(target[x, 4].a) - expected))
            }
            XCTAssertLessThanOrEqual(worst, 0.03 * 255, "σ = \(sigma): worst \(worst) levels")
            XCTAssertEqual(Double(target[100, 4].a), 255 * phi(0.5 / sigma), accuracy: 0.03 * 255)
        }
    }

    func testNoBlurIsTheSharpFillAndNothingLeaksPastThreeSigma() throws {
        var sharp = try Bitmap(width: 40, height: 40), blurred0 = try Bitmap(width: 40, height: 40)
        let square = Path(rect: Rect(x: 10.5, y: 10.25, width: 12, height: 9))
        sharp.draw { $0.fill(square, color: .black) }
        blurred0.draw { $0.fillBlurred(square, sigma: 0, color: .black) }
        XCTAssertEqual(sharp, blurred0)
        var blurred = try Bitmap(width: 60, height: 60)
        blurred.draw { $0.fillBlurred(Path(rect: Rect(x: 20, y: 20, width: 20, height: 20)), sigma: 3, color: .black) }
        XCTAssertEqual(blurred[30, 30].a, 255, "the middle of a square 6.7 sigma wide stays full")
        XCTAssertEqual(blurred[30, 9].a, 0, "more than 3 sigma beyond the edge: nothing")
        XCTAssertGreaterThan(blurred[30, 19].a, 50)
    }

    func testAContentsAlphaBlursTheSame() throws {
        var image = try Bitmap(width: 40, height: 40)
        image.draw { $0.fill(Rect(x: 10, y: 10, width: 20, height: 20), color: Color(red: 1, green: 0, blue: 0)) }
        var fromAlpha = try Bitmap(width: 40, height: 40), fromPath = try Bitmap(width: 40, height: 40)
        fromAlpha.draw { $0.fillBlurred(alphaOf: image, atDevicePixel: (0, 0), sigmaPixels: 2.5, color: .black) }
        fromPath.draw { $0.fillBlurred(Path(rect: Rect(x: 10, y: 10, width: 20, height: 20)), sigma: 2.5, color: .black) }
        XCTAssertEqual(fromAlpha, fromPath)
    }

    /// A blurred alpha is trimmed to the pixels it covers at all, and filling it leaves every other pixel as
    /// it was: over a coloured background it draws what the whole untrimmed blur does.
    func testABlurredAlphaIsTrimmedAndFillsAsTheWholeBlur() throws {
        var image = try Bitmap(width: 30, height: 20)
        image.draw { $0.fill(Path(ellipseIn: Rect(x: 10, y: 6, width: 10, height: 6)), color: Color(red: 0.2, green: 0.8, blue: 0.1, alpha: 0.7)) }
        let blurred = try XCTUnwrap(Painter.blurredAlpha(of: image, atDevicePixel: (7, 9), sigmaPixels: 1.5))
        // Trimmed: inside the image's 30 × 20 pixels at (7, 9), and every edge row and column of the box holds
        // a byte other than 0.
        let box = blurred.box
        XCTAssertTrue(box.width < 30 && box.height < 20 && box.minX > 7 && box.minY > 9 && box.maxX < 37 && box.maxY < 29, "\(box)")
        XCTAssertEqual(blurred.bytes.count, box.width * box.height)
        func row(_ y: Int) -> ArraySlice<UInt8> { blurred.bytes[y * box.width..<(y + 1) * box.width] }
        func column(_ x: Int) -> [UInt8] { (0..<box.height).map { blurred.bytes[$0 * box.width + x] } }
        XCTAssertTrue(row(0).contains { $0 != 0 } && row(box.height - 1).contains { $0 != 0 })
        XCTAssertTrue(column(0).contains { $0 != 0 } && column(box.width - 1).contains { $0 != 0 })
        // The whole blur: the trimmed bytes back in the image's 30 × 20, zeros round them.
        var whole = [UInt8](repeating: 0, count: 30 * 20)
        for y in 0..<box.height { for x in 0..<box.width { whole[(box.minY - 9 + y) * 30 + box.minX - 7 + x] = blurred.bytes[y * box.width + x] } }
        // Over a background of every colour and alpha, through a translucent shade.
        func background() throws -> Bitmap {
            var b = try Bitmap(width: 50, height: 40)
            b.draw { p in for k in 0..<10 { p.fill(Rect(x: Double(5 * k), y: 0, width: 5, height: 40), color: Color(red: Double(k) / 9, green: 0.5, blue: 1 - Double(k) / 9, alpha: 0.1 + Double(k) / 11)) } }
            return b
        }
        let shade = Color(red: 0.1, green: 0, blue: 0.3, alpha: 0.6)
        var trimmed = try background(), untrimmed = try background()
        trimmed.draw { $0.fill(blurred, color: shade) }
        untrimmed.draw { p in whole.withUnsafeBufferPointer { p.fill(coverageMask: $0, width: 30, height: 20, atDevicePixel: (7, 9), color: shade) } }
        XCTAssertEqual(trimmed, untrimmed)
        XCTAssertNotEqual(trimmed, try background())
        // Nothing drawn: an empty box, which fills nothing.
        let none = try XCTUnwrap(Painter.blurredAlpha(of: try Bitmap(width: 8, height: 8), atDevicePixel: (0, 0), sigmaPixels: 2))
        XCTAssertTrue(none.box.isEmpty)
        XCTAssertEqual(none.bytes, [])
        // No blur for a negative or endless sigma, or an origin too far away.
        XCTAssertNil(Painter.blurredAlpha(of: image, atDevicePixel: (0, 0), sigmaPixels: -1))
        XCTAssertNil(Painter.blurredAlpha(of: image, atDevicePixel: (0, 0), sigmaPixels: .infinity))
        XCTAssertNil(Painter.blurredAlpha(of: image, atDevicePixel: (1 << 40, 0), sigmaPixels: 2))
    }

    /// Pixels excluded from a blurred alpha's fill (what an opaque background drawn next covers) are left as
    /// they were; the others are filled as without the exclusion.
    func testExcludedPixelsAreLeftAsTheyWere() throws {
        var image = try Bitmap(width: 20, height: 20)
        image.draw { $0.fill(Rect(x: 5, y: 5, width: 10, height: 10), color: .black) }
        let blurred = try XCTUnwrap(Painter.blurredAlpha(of: image, atDevicePixel: (0, 0), sigmaPixels: 2))
        var all = try Bitmap(width: 20, height: 20), some = try Bitmap(width: 20, height: 20)
        all.draw { $0.fill(blurred, color: .black) }
        let hole = PixelRect(x: 7, y: 7, width: 6, height: 6)
        some.draw { $0.fill(blurred, color: .black, excluding: [hole]) }
        for y in 0..<20 {
            for x in 0..<20 {
                let inside = x >= 7 && x < 13 && y >= 7 && y < 13
                XCTAssertEqual(some[x, y], inside ? PremultipliedRGBA8(r: 0, g: 0, b: 0, a: 0) : all[x, y], "(\(x), \(y))")
            }
        }
    }
}

/// Blurred shapes are kept between draws: the same shape at another whole-pixel place gives the same
/// pixels, moved.
final class BlurCacheTests: XCTestCase {
    func testTheSameShadowMovedByWholePixelsIsTheSamePixelsMoved() throws {
        let card = Path(roundedRect: Rect(x: 10.25, y: 10.5, width: 30, height: 20), cornerRadii: CornerRadii(all: 6))
        var first = try Bitmap(width: 80, height: 70), second = try Bitmap(width: 80, height: 70)
        first.draw { $0.fillBlurred(card, sigma: 4, color: .black) }
        second.draw { p in p.translate(x: 13, y: 12); p.fillBlurred(card, sigma: 4, color: .black) }
        second.draw { p in p.translate(x: 13, y: 12); p.fillBlurred(card, sigma: 4, color: .black) }  // kept: drawn again over itself
        var again = try Bitmap(width: 80, height: 70)
        again.draw { p in p.translate(x: 13, y: 12); p.fillBlurred(card, sigma: 4, color: .black) }
        for y in 0..<50 { for x in 0..<60 {
            XCTAssertEqual(again[x + 13, y + 12], first[x, y], "(\(x), \(y))")
        } }
        XCTAssertGreaterThan(second[30, 30].a, again[30, 30].a, "drawn twice is darker than once")
    }
}
