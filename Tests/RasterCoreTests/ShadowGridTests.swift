import CCPUFeatures
import CRasterKernels
import RasterCore
import XCTest

/// A shadow blurred from `Painter.minShiftedBlurSigma` (3 px) up is blurred once on its own pixel grid and
/// moved to where it lands within a pixel by bilinear interpolation (`BlurredAlpha.shifted`), so that a
/// moving shadow is blurred once: at whole pixels that is the shadow blurred where it lands, byte for byte;
/// between them it is within 2 levels of it. A smaller blur is blurred where it lands.
final class ShadowGridTests: XCTestCase {
    /// Round and sharp shapes: a card, an ellipse, a triangle, a five-pointed star and two bars under a pixel
    /// wide (the sharpest edges and corners a shadow's shape has).
    private let shapes: [(String, Path)] = {
        var triangle = Path()
        triangle.move(to: Point(x: 12, y: 40))
        triangle.addLine(to: Point(x: 30, y: 9))
        triangle.addLine(to: Point(x: 47, y: 37))
        triangle.closeSubpath()
        var star = Path()
        for k in 0..<10 {
            let r = k % 2 == 0 ? 18.0 : 6.0, angle = Double(k) * .pi / 5
            let point = Point(x: 30 + r * sin(angle), y: 25 - r * cos(angle))
            if k == 0 { star.move(to: point) } else { star.addLine(to: point) }
        }
        star.closeSubpath()
        var bars = Path(rect: Rect(x: 10, y: 20, width: 40, height: 0.6))
        bars.addPath(Path(rect: Rect(x: 28.3, y: 5, width: 0.4, height: 40)))
        return [("a rounded card", Path(roundedRect: Rect(x: 10, y: 12, width: 36, height: 24), cornerRadii: CornerRadii(all: 7))),
                ("an ellipse", Path(ellipseIn: Rect(x: 14, y: 10, width: 28, height: 30))),
                ("a triangle", triangle), ("a star", star), ("thin bars", bars)]
    }()

    /// The frames are 100 × 90 pixels, the shapes 24 pixels in from their top-left: room for the widest
    /// blur's reach (3σ + 1 = 25 px at σ = 8) all round, so that blurring the whole frame blurs all of it.
    private let inset = 24.0

    /// The shadow blurred where it lands: the path's coverage drawn at that place, its alpha blurred.
    private func blurredWhereItLands(_ path: Path, at place: (x: Double, y: Double), sigma: Double) throws -> Bitmap {
        var shape = try Bitmap(width: 100, height: 90), frame = try Bitmap(width: 100, height: 90)
        shape.draw { p in p.translate(x: inset + place.x, y: inset + place.y); p.fill(path, color: .black) }
        frame.draw { $0.fillBlurred(alphaOf: shape, atDevicePixel: (0, 0), sigmaPixels: sigma, color: .black) }
        return frame
    }

    private func shadow(_ path: Path, at place: (x: Double, y: Double), sigma: Double) throws -> Bitmap {
        var frame = try Bitmap(width: 100, height: 90)
        frame.draw { p in p.translate(x: inset + place.x, y: inset + place.y); p.fillBlurred(path, sigma: sigma, color: .black) }
        return frame
    }

    private func worstDifference(_ a: Bitmap, _ b: Bitmap) -> Int {
        var worst = 0
        for y in 0..<a.height { for x in 0..<a.width { worst = max(worst, abs(Int(a[x, y].a) - Int(b[x, y].a))) } }
        return worst
    }

    func testAtWholePixelsTheShadowIsTheOneBlurredWhereItLands() throws {
        for (name, path) in shapes {
            for sigma in [3.0, 3.5, 6] {
                for place in [(x: 0.0, y: 0.0), (x: 3, y: -2)] {
                    XCTAssertEqual(try shadow(path, at: place, sigma: sigma), try blurredWhereItLands(path, at: place, sigma: sigma), "\(name), σ \(sigma), at \(place)")
                }
            }
        }
    }

    /// Over every eighth of a pixel each way (and a few places further off), for blurs from 3 px up.
    func testBetweenPixelsTheShadowIsWithinTwoLevelsOfTheOneBlurredWhereItLands() throws {
        var worst = 0
        let places = (0..<8).flatMap { i in (0..<8).map { j in (x: Double(i) / 8, y: Double(j) / 8) } }
            + [(x: 2.75, y: -1.3), (x: 0.999, y: 0.001)]
        for (name, path) in shapes {
            for sigma in [3.0, 3.5, 5, 8] {
                for place in places {
                    let moved = try shadow(path, at: place, sigma: sigma), exact = try blurredWhereItLands(path, at: place, sigma: sigma)
                    let difference = worstDifference(moved, exact)
                    XCTAssertLessThanOrEqual(difference, 2, "\(name), σ \(sigma), at \(place)")
                    worst = max(worst, difference)
                }
            }
        }
        XCTAssertGreaterThan(worst, 0, "moved by interpolation, not blurred where it lands")
    }

    /// Below 3 px the shadow is blurred where it lands, byte for byte: moving a sharper blur by interpolation
    /// would differ by up to 4 levels at 2 px (a star's points), 7 at 1 px.
    func testASmallerBlurIsBlurredWhereItLands() throws {
        for (name, path) in shapes {
            for sigma in [1.5, 2.9] {
                for place in [(x: 0.25, y: 0.0), (x: 0.5, y: 0.5), (x: 0.1, y: 0.9)] {
                    XCTAssertEqual(try shadow(path, at: place, sigma: sigma), try blurredWhereItLands(path, at: place, sigma: sigma), "\(name), σ \(sigma), at \(place)")
                }
            }
        }
    }

    /// The moved shadow is the shadow at the whole pixel below, shifted: one blur for every place.
    func testTheMovedShadowIsTheWholePixelsShadowShifted() throws {
        let card = shapes[0].1
        var shape = try Bitmap(width: 100, height: 90)
        shape.draw { p in p.translate(x: inset + 2, y: inset + 1); p.fill(card, color: .black) }
        let atWholePixels = try XCTUnwrap(Painter.blurredAlpha(of: shape, atDevicePixel: (0, 0), sigmaPixels: 4))
        var shifted = try Bitmap(width: 100, height: 90)
        shifted.draw { $0.fill(atWholePixels.shifted(x: 0.3, y: 0.6), color: .black) }
        XCTAssertEqual(try shadow(card, at: (x: 2.3, y: 1.6), sigma: 4), shifted)
    }

    /// The AVX2 build of the move and the portable one give the same bytes, over masks of many widths (the
    /// vector loops' leftovers) and every sixteenth of a pixel.
    func testTheVectorAndPortableMovesAgree() throws {
        let forced = ccpu_scalar_forced()
        defer { ccpu_force_scalar(forced) }
        var state: UInt32 = 12345
        for width in [1, 2, 7, 15, 16, 17, 33, 64, 101] {
            var image = try Bitmap(width: width, height: 5)
            image.withUnsafeMutablePixels { pixels in
                for i in pixels.indices {
                    state = state &* 1_664_525 &+ 1_013_904_223
                    pixels[i] = (state >> 24) << 24
                }
            }
            let alpha = try XCTUnwrap(Painter.blurredAlpha(of: image, atDevicePixel: (0, 0), sigmaPixels: 0))
            for k in 0...16 {
                let dx = Double(k) / 16, dy = Double(16 - k) / 16
                ccpu_force_scalar(0)
                let vector = alpha.shifted(x: dx, y: dy)
                ccpu_force_scalar(1)
                XCTAssertEqual(alpha.shifted(x: dx, y: dy), vector, "\(width) wide, moved (\(dx), \(dy))")
            }
        }
    }

    /// `crk_shift_span` gives any span of any row of `crk_shift_mask`'s output (edges, middles, single values),
    /// in both builds.
    func testASpanOfTheMoveIsThatPartOfTheWholeMove() throws {
        let forced = ccpu_scalar_forced()
        defer { ccpu_force_scalar(forced) }
        var state: UInt32 = 777
        for (width, height) in [(1, 1), (1, 4), (5, 1), (17, 3), (40, 6)] {
            var mask = [UInt8](repeating: 0, count: width * height)
            for i in mask.indices { state = state &* 1_664_525 &+ 1_013_904_223; mask[i] = UInt8(state >> 24) }
            for (wx, wy) in [(Int32(0), Int32(37)), (101, 0), (256, 255), (1, 1), (128, 200)] {
                var whole = [UInt8](repeating: 0, count: (width + 1) * (height + 1)), scratch = [UInt16](repeating: 0, count: 2 * (width + 1))
                crk_shift_mask(mask, Int32(width), Int32(height), wx, wy, &whole, &scratch)
                for scalar in [Int32(0), 1] {
                    ccpu_force_scalar(scalar)
                    for y in 0...height {
                        let row = Array(whole[(y * (width + 1))..<((y + 1) * (width + 1))])
                        for (from, to) in [(0, width + 1), (0, 1), (width, width + 1), (1, max(1, width)), (width / 2, width / 2 + 1)] where from < to {
                            var span = [UInt8](repeating: 0xAA, count: to - from)
                            crk_shift_span(mask, Int32(width), Int32(height), Int32(y), Int32(from), Int32(to), wx, wy, &span)
                            XCTAssertEqual(span, Array(row[from..<to]), "\(width)x\(height), moved (\(wx), \(wy))/256, row \(y), [\(from), \(to)), scalar \(scalar)")
                        }
                    }
                }
            }
        }
    }

    /// Filling a blurred alpha moved within a pixel a span at a time (what the fill reaches) gives the pixels
    /// of filling the whole moved alpha: over a coloured background, with pixels left out (inside the box,
    /// across its edge, and two rectangles where each row takes the wider), through a rounded clip, at half
    /// alpha, inside a layer, and at whole pixels.
    func testFillingTheMoveSpanBySpanGivesTheWholeMovesPixels() throws {
        var state: UInt32 = 4242
        var image = try Bitmap(width: 37, height: 23)
        image.withUnsafeMutablePixels { pixels in
            for i in pixels.indices { state = state &* 1_664_525 &+ 1_013_904_223; pixels[i] = (state >> 24) << 24 }
        }
        let alpha = try XCTUnwrap(Painter.blurredAlpha(of: image, atDevicePixel: (6, 5), sigmaPixels: 3))
        let exclusions: [[PixelRect]] = [[], [PixelRect(x: 12, y: 9, width: 20, height: 12)], [PixelRect(x: 0, y: 0, width: 15, height: 40)],
                                         [PixelRect(x: 10, y: 8, width: 8, height: 16), PixelRect(x: 8, y: 12, width: 26, height: 6)]]
        let color = Color(red: 0.1, green: 0.2, blue: 0.6, alpha: 0.45)
        for (dx, dy) in [(0.3, 0.6), (0.0, 0.9), (0.77, 0.0), (0.5, 0.5), (0.0, 0.0), (1.0, 0.25)] {
            for excluding in exclusions {
                for setting in 0..<4 {
                    func frame(_ fill: (Painter) -> Void) throws -> Bitmap {
                        var frame = try Bitmap(width: 56, height: 44)
                        frame.draw { p in
                            p.fill(Rect(x: 0, y: 0, width: 56, height: 44), color: Color(red: 0.9, green: 0.8, blue: 0.3, alpha: 1))
                            switch setting {
                            case 1: p.clip(to: Path(roundedRect: Rect(x: 4.5, y: 3.25, width: 40, height: 30), cornerRadii: CornerRadii(all: 9)))
                            case 2: p.alpha = 0.5
                            case 3: p.clip(toPixels: PixelRect(x: 9, y: 7, width: 40, height: 30)); p.beginLayer()
                            default: break
                            }
                            fill(p)
                            if setting == 3 { p.endLayer(opacity: 0.8) }
                        }
                        return frame
                    }
                    let whole = try frame { $0.fill(alpha.shifted(x: dx, y: dy), color: color, excluding: excluding) }
                    let spans = try frame { $0.fill(alpha, shiftedBy: dx, dy, color: color, excluding: excluding) }
                    XCTAssertEqual(spans, whole, "moved (\(dx), \(dy)), leaving out \(excluding), setting \(setting)")
                }
            }
        }
    }

    func testShiftingMixesTheFourNeighboursWithRoundedWeights() throws {
        var mask = try Bitmap(width: 2, height: 1)
        mask[0, 0] = PremultipliedRGBA8(r: 0, g: 0, b: 0, a: 100)
        mask[1, 0] = PremultipliedRGBA8(r: 0, g: 0, b: 0, a: 200)
        let alpha = try XCTUnwrap(Painter.blurredAlpha(of: mask, atDevicePixel: (5, 7), sigmaPixels: 0))
        XCTAssertEqual(alpha.box, PixelRect(x: 5, y: 7, width: 2, height: 1))
        // Half a pixel right: each value half its own and half its left neighbour's, rounded down at .5
        // ((sum + 32768) >> 16 of 100·128·256 + 32768 is 50).
        let half = alpha.shifted(x: 0.5, y: 0)
        XCTAssertEqual(half.box, PixelRect(x: 5, y: 7, width: 3, height: 2))
        XCTAssertEqual(half.bytes, [50, 150, 100, 0, 0, 0])
        // A quarter right and three quarters down, from one value of 255: 0.75·0.25, 0.25·0.25, 0.75·0.75 and
        // 0.25·0.75 of it, each rounded: 48, 16, 143, 48.
        var one = try Bitmap(width: 1, height: 1)
        one[0, 0] = PremultipliedRGBA8(r: 0, g: 0, b: 0, a: 255)
        let spread = try XCTUnwrap(Painter.blurredAlpha(of: one, atDevicePixel: (0, 0), sigmaPixels: 0)).shifted(x: 0.25, y: 0.75)
        XCTAssertEqual(spread.bytes, [48, 16, 143, 48])
        // Nothing to move: itself; fractions outside 0…1 are clamped, and one that is not a number is 0.
        XCTAssertEqual(alpha.shifted(x: 0, y: 0.001), alpha)
        XCTAssertEqual(alpha.shifted(x: 7, y: 0), alpha.shifted(x: 1, y: 0))
        XCTAssertEqual(alpha.shifted(x: .nan, y: -3), alpha)
        // A whole pixel right is the same bytes a pixel further, with a column of 0 before them.
        XCTAssertEqual(alpha.shifted(x: 1, y: 0).bytes, [0, 100, 200, 0, 0, 0])
        XCTAssertEqual(alpha.moved(x: -5, y: 2)?.box, PixelRect(x: 0, y: 9, width: 2, height: 1))
        XCTAssertNil(alpha.moved(x: 1 << 41, y: 0))
    }
}
