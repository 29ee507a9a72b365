import Foundation
import RasterCore
import XCTest

/// Stroke outlines (`Path.strokeOutline`) measured exactly where the geometry is exact (areas of
/// straight outlines by the shoelace formula, pixels of axis-aligned strokes against filled rectangles),
/// within the flattening tolerance where it is not (arcs: stated per test); and even-odd fills.
final class StrokeTests: XCTestCase {
    /// The signed area of every closed polygon of a path of lines (points²); outlines all turn one way,
    /// so the sum's magnitude is the area covered where they do not overlap.
    func area(_ path: Path) -> Double {
        var total = 0.0, start = Point.zero, previous = Point.zero
        func edge(_ a: Point, _ b: Point) { total += a.x * b.y - b.x * a.y }
        for element in path.elements {
            switch element {
            case .move(let p): start = p; previous = p
            case .line(let p): edge(previous, p); previous = p
            case .close: edge(previous, start); previous = start
            default: XCTFail("outlines are made of lines")
            }
        }
        return abs(total) / 2
    }

    func subpathCount(_ path: Path) -> Int { path.elements.filter { if case .move = $0 { true } else { false } }.count }

    func line(_ points: [(Double, Double)]) -> Path {
        var path = Path()
        for (i, p) in points.enumerated() {
            if i == 0 { path.move(to: Point(x: p.0, y: p.1)) } else { path.addLine(to: Point(x: p.0, y: p.1)) }
        }
        return path
    }

    // MARK: Caps and joins, exactly

    func testAButtCappedLineIsItsRectangle() {
        let outline = line([(10, 10), (30, 10)]).strokeOutline(StrokeStyle(width: 4), tolerance: 0.1)
        XCTAssertEqual(area(outline), 80, accuracy: 1e-9)
        XCTAssertEqual(outline.controlPointBounds, Rect(x: 10, y: 8, width: 20, height: 4))
    }

    func testASquareCapReachesHalfTheWidthFurther() {
        let outline = line([(10, 10), (30, 10)]).strokeOutline(StrokeStyle(width: 4, cap: .square), tolerance: 0.1)
        XCTAssertEqual(area(outline), 96, accuracy: 1e-9)
        XCTAssertEqual(outline.controlPointBounds, Rect(x: 8, y: 8, width: 24, height: 4))
    }

    func testARoundCapAddsAHalfDiscAtEachEnd() {
        // Arcs are chords inside the circle: within the tolerance's share of the half circumference.
        let outline = line([(10, 10), (30, 10)]).strokeOutline(StrokeStyle(width: 4, cap: .round), tolerance: 0.01)
        XCTAssertEqual(area(outline), 80 + 4 * Double.pi, accuracy: 0.02 * 2 * Double.pi)
        XCTAssertLessThan(area(outline), 80 + 4 * Double.pi)
    }

    func testJoinsAtARightAngle() {
        // (0,0) → (10,0) → (10,10), width 2: the two segments' rectangles cover 22 + 18 = 40 with the
        // miter's corner square; a bevel cuts half of it off; a round join a quarter disc's worth less.
        let corner = line([(0, 0), (10, 0), (10, 10)])
        XCTAssertEqual(area(corner.strokeOutline(StrokeStyle(width: 2, join: .miter), tolerance: 0.1)), 40, accuracy: 1e-9)
        XCTAssertEqual(area(corner.strokeOutline(StrokeStyle(width: 2, join: .bevel), tolerance: 0.1)), 39.5, accuracy: 1e-9)
        XCTAssertEqual(area(corner.strokeOutline(StrokeStyle(width: 2, join: .round), tolerance: 0.001)), 39 + Double.pi / 4, accuracy: 0.002)
    }

    func testTheMiterLimitBevelsSharpCorners() {
        // A corner of 60° between the segments: the miter is 1/sin(30°) = 2 line widths long.
        let a = Point(x: 0, y: 0), p = Point(x: 10, y: 0)
        let b = Point(x: 10 - 10 * cos(Double.pi / 3), y: 10 * sin(Double.pi / 3))
        var corner = Path(); corner.move(to: a); corner.addLine(to: p); corner.addLine(to: b)
        let mitered = corner.strokeOutline(StrokeStyle(width: 2, miterLimit: 2.001), tolerance: 0.1)
        let bevelled = corner.strokeOutline(StrokeStyle(width: 2, miterLimit: 1.999), tolerance: 0.1)
        // The miter's tip lies half the width over cos 60°, 2 pt, from the corner along the outer bisector.
        XCTAssertEqual(mitered.controlPointBounds.maxX, 10 + 2 * cos(Double.pi / 6), accuracy: 1e-9)
        XCTAssertLessThan(bevelled.controlPointBounds.maxX, 10 + 1.0001)
        XCTAssertGreaterThan(area(mitered), area(bevelled))
    }

    func testAStrokeCoversTheSamePixelsAsItsRectangle() {
        var stroked = try! Bitmap(width: 40, height: 20), filled = try! Bitmap(width: 40, height: 20)
        stroked.draw { $0.stroke(line([(5.25, 10.5), (33.75, 10.5)]), style: StrokeStyle(width: 3.5), color: .black) }
        filled.draw { $0.fill(Rect(x: 5.25, y: 8.75, width: 28.5, height: 3.5), color: .black) }
        XCTAssertEqual(stroked.withUnsafePixels { Array($0) }, filled.withUnsafePixels { Array($0) })
    }

    func testAStretchedTransformStretchesTheLine() {
        // Core Graphics strokes in user space: scaled 2 × 1, a vertical line 2 pt wide is 4 pixels wide.
        var stroked = try! Bitmap(width: 20, height: 20), filled = try! Bitmap(width: 20, height: 20)
        stroked.draw { p in
            p.scale(x: 2, y: 1)
            p.stroke(line([(5, 2), (5, 18)]), style: StrokeStyle(width: 2), color: .black)
        }
        filled.draw { $0.fill(Rect(x: 8, y: 2, width: 4, height: 16), color: .black) }
        XCTAssertEqual(stroked.withUnsafePixels { Array($0) }, filled.withUnsafePixels { Array($0) })
    }

    // MARK: Dashes and trimming

    func testDashesCutALineIntoItsPattern() {
        let solid = line([(0, 0), (100, 0)])
        let dashed = solid.strokeOutline(StrokeStyle(width: 2, dashes: [10, 5]), tolerance: 0.1)
        // Dashes at 0, 15, …, 90: seven of 10 pt.
        XCTAssertEqual(subpathCount(dashed), 7)
        XCTAssertEqual(area(dashed), 7 * 10 * 2, accuracy: 1e-9)
        // Phase 5: the first dash is its last 5 pt, then 10-pt dashes at 10, 25, …, 85, and 100 is where
        // the next would start.
        let shifted = solid.strokeOutline(StrokeStyle(width: 2, dashes: [10, 5], dashPhase: 5), tolerance: 0.1)
        XCTAssertEqual(subpathCount(shifted), 7)
        XCTAssertEqual(area(shifted), (5 + 6 * 10) * 2, accuracy: 1e-9)
        // An odd pattern is repeated: [10] is 10 on, 10 off.
        XCTAssertEqual(area(solid.strokeOutline(StrokeStyle(width: 2, dashes: [10]), tolerance: 0.1)), 5 * 10 * 2, accuracy: 1e-9)
    }

    func testZeroLengthDashesWithRoundCapsAreDots() {
        let dots = line([(0, 0), (100, 0)]).strokeOutline(StrokeStyle(width: 4, cap: .round, dashes: [0, 20]), tolerance: 0.001)
        XCTAssertEqual(subpathCount(dots), 6, "dots at 0, 20, …, 100")
        XCTAssertEqual(area(dots), 6 * 4 * Double.pi, accuracy: 6 * 0.01)
        XCTAssertTrue(line([(0, 0), (100, 0)]).strokeOutline(StrokeStyle(width: 4, dashes: [0, 20]), tolerance: 0.1).isEmpty,
                      "butt caps on zero-length dashes draw nothing")
    }

    func testUnusableDashPatternsStrokeSolid() {
        let solid = line([(0, 0), (100, 0)])
        for pattern in [[0.0, 0], [-1, 5], [Double.nan, 2], [Double.infinity, 1]] {
            XCTAssertEqual(area(solid.strokeOutline(StrokeStyle(width: 2, dashes: pattern), tolerance: 0.1)), 200, accuracy: 1e-9, "\(pattern)")
        }
        // A pattern too fine to count is drawn solid rather than as millions of dashes.
        let fine = solid.strokeOutline(StrokeStyle(width: 2, dashes: [1e-6, 1e-6]), tolerance: 0.1)
        XCTAssertEqual(subpathCount(fine), 1)
    }

    func testTrimmingKeepsThePartBetweenStartAndEnd() {
        let trimmed = line([(0, 0), (100, 0)]).strokeOutline(StrokeStyle(width: 2, start: 0.25, end: 0.75), tolerance: 0.1)
        XCTAssertEqual(trimmed.controlPointBounds, Rect(x: 25, y: -1, width: 50, height: 2))
        // Over two subpaths of 100 pt each, 0.25…0.75 of the whole is the second half of the first and the
        // first half of the second.
        var two = line([(0, 0), (100, 0)]); two.addPath(line([(0, 10), (100, 10)]))
        let parts = two.strokeOutline(StrokeStyle(width: 2, start: 0.25, end: 0.75), tolerance: 0.1)
        XCTAssertEqual(subpathCount(parts), 2)
        XCTAssertEqual(parts.controlPointBounds, Rect(x: 0, y: -1, width: 100, height: 12))
        XCTAssertEqual(area(parts), 200, accuracy: 1e-9)
        for (start, end) in [(0.5, 0.5), (0.8, 0.2), (1.0, 1.0)] {
            XCTAssertTrue(two.strokeOutline(StrokeStyle(width: 2, start: start, end: end), tolerance: 0.1).isEmpty, "\(start)…\(end)")
        }
    }

    func testDashesStayPutWhileTheStrokeIsTrimmed() {
        // Core Animation's rule as followed here: trimming hides dashes, it does not move them.
        let solid = line([(0, 0), (100, 0)])
        let trimmed = solid.strokeOutline(StrokeStyle(width: 2, dashes: [10, 10], start: 0.05), tolerance: 0.1)
        // Dashes 0–10, 20–30, …, 80–90; trimmed at 5: 5–10 and four whole.
        XCTAssertEqual(area(trimmed), (5 + 4 * 10) * 2, accuracy: 1e-9)
        XCTAssertEqual(trimmed.controlPointBounds.minX, 5, accuracy: 1e-9)
    }

    // MARK: Closed paths and curves

    func testAClosedSquareIsAFrameWithMiteredCorners() {
        var square = Path(rect: Rect(x: 0, y: 0, width: 10, height: 10))
        square = square.strokeOutline(StrokeStyle(width: 2), tolerance: 0.1)
        XCTAssertEqual(subpathCount(square), 2, "an outer loop and an inner one")
        XCTAssertEqual(square.controlPointBounds, Rect(x: -1, y: -1, width: 12, height: 12))
        // 12² − 8², as signed areas of opposite loops.
        var signed = 0.0, start = Point.zero, previous = Point.zero
        for element in square.elements {
            switch element {
            case .move(let p): start = p; previous = p
            case .line(let p): signed += previous.x * p.y - p.x * previous.y; previous = p
            case .close: signed += previous.x * start.y - start.x * previous.y
            default: break
            }
        }
        XCTAssertEqual(abs(signed) / 2, 144 - 64, accuracy: 1e-9)
    }

    func testARingCoversItsAnnulus() {
        // A circle of radius 20 stroked 6 wide covers π(23² − 17²); flattening keeps within a 0.05-pt band.
        var ring = try! Bitmap(width: 60, height: 60)
        ring.draw { $0.stroke(Path(ellipseIn: Rect(x: 10, y: 10, width: 40, height: 40)), style: StrokeStyle(width: 6), color: .black) }
        let covered = ring.withUnsafePixels { $0.reduce(0.0) { $0 + Double($1 >> 24) / 255 } }
        XCTAssertEqual(covered, Double.pi * (23 * 23 - 17 * 17), accuracy: 2 * Double.pi * 40 * 0.05)
        XCTAssertEqual(ring[30, 30].a, 0, "the hole")
        XCTAssertEqual(ring[30, 10].a, 255, "on the path")
    }

    func testAStrokeWiderThanItsCurveFillsTheMiddle() {
        // Every point within half the width of the path is covered: a circle of radius 6 stroked 20 wide
        // is a disc of radius 16 (Skia's stroker leaves a hole of radius 4 there; Core Graphics' defines the
        // stroke as this region).
        var disc = try! Bitmap(width: 40, height: 40)
        disc.draw { $0.stroke(Path(ellipseIn: Rect(x: 14, y: 14, width: 12, height: 12)), style: StrokeStyle(width: 20), color: .black) }
        for (x, y) in [(20, 20), (19, 19), (22, 18), (20, 7), (31, 20)] { XCTAssertEqual(disc[x, y].a, 255, "(\(x), \(y))") }
        XCTAssertEqual(disc[2, 2].a, 0)
    }

    func testAZeroLengthSubpathIsADotWithRoundOrSquareCaps() {
        var dot = Path(); dot.move(to: Point(x: 5, y: 5)); dot.addLine(to: Point(x: 5, y: 5))
        XCTAssertEqual(area(dot.strokeOutline(StrokeStyle(width: 4, cap: .round), tolerance: 0.001)), 4 * Double.pi, accuracy: 0.01)
        XCTAssertEqual(area(dot.strokeOutline(StrokeStyle(width: 4, cap: .square), tolerance: 0.1)), 16, accuracy: 1e-9)
        XCTAssertTrue(dot.strokeOutline(StrokeStyle(width: 4), tolerance: 0.1).isEmpty)
        var moveOnly = Path(); moveOnly.move(to: Point(x: 5, y: 5))
        XCTAssertTrue(moveOnly.strokeOutline(StrokeStyle(width: 4, cap: .round), tolerance: 0.1).isEmpty, "a move alone draws nothing")
    }

    func testNothingToStrokeIsNotAnError() {
        let l = line([(0, 0), (10, 0)])
        for style in [StrokeStyle(width: 0), StrokeStyle(width: -1), StrokeStyle(width: .nan), StrokeStyle(width: .infinity)] {
            XCTAssertTrue(l.strokeOutline(style, tolerance: 0.1).isEmpty, "\(style.width)")
        }
        var bad = Path(); bad.move(to: Point(x: 0, y: 0)); bad.addLine(to: Point(x: .nan, y: 1))
        XCTAssertTrue(bad.strokeOutline(StrokeStyle(width: 2), tolerance: 0.1).isEmpty)
        XCTAssertTrue(Path().strokeOutline(StrokeStyle(width: 2), tolerance: 0.1).isEmpty)
        // A painter with a transform that flattens everything draws nothing, without trapping.
        var b = try! Bitmap(width: 4, height: 4)
        b.draw { p in p.scale(x: 0, y: 0); p.stroke(l, style: StrokeStyle(width: 2), color: .black) }
        XCTAssertEqual(b[0, 0].a, 0)
    }

    // MARK: Even-odd

    func testEvenOddLeavesTheInnerSquareEmpty() {
        var nested = Path(rect: Rect(x: 1, y: 1, width: 8, height: 8))
        nested.addRect(Rect(x: 3, y: 3, width: 4, height: 4))  // same direction: non-zero fills it
        var evenOdd = try! Bitmap(width: 10, height: 10), nonZero = try! Bitmap(width: 10, height: 10)
        evenOdd.draw { $0.fill(nested, color: .black, rule: .evenOdd) }
        nonZero.draw { $0.fill(nested, color: .black) }
        XCTAssertEqual(evenOdd[5, 5].a, 0)
        XCTAssertEqual(evenOdd[2, 5].a, 255)
        XCTAssertEqual(nonZero[5, 5].a, 255)
        // Half-covered edge pixels stay exact where windings 0 and 1 meet.
        var half = Path(rect: Rect(x: 1.5, y: 1, width: 8, height: 8)); half.addRect(Rect(x: 3, y: 3, width: 4, height: 4))
        var b = try! Bitmap(width: 10, height: 10)
        b.draw { $0.fill(half, color: .black, rule: .evenOdd) }
        XCTAssertEqual(b[1, 5].a, 128)
    }
}

/// Strokes of hostile sizes stay bounded, and thin strokes on tight curves stay near the curve.
final class StrokeBoundsTests: XCTestCase {
    func elementCount(_ path: Path) -> Int { path.elements.count }

    func testAnEnormousWidthMakesABoundedOutline() {
        var line = Path(); line.move(to: Point(x: 0, y: 0)); line.addLine(to: Point(x: 10, y: 0)); line.addLine(to: Point(x: 10, y: 10))
        for width in [1e6, 1e12, 1e17, 1e300] {
            let outline = line.strokeOutline(StrokeStyle(width: width, cap: .round, join: .round), tolerance: 0.1)
            XCTAssertLessThan(elementCount(outline), 10_000, "width \(width)")
        }
    }

    func testHugeCoordinatesAndATinyToleranceDoNotTrap() {
        var curve = Path(); curve.move(to: Point(x: 0, y: 0))
        curve.addCurve(to: Point(x: 1e40, y: 0), control1: Point(x: 1e40, y: 1e40), control2: Point(x: -1e40, y: 1e40))
        XCTAssertLessThanOrEqual(elementCount(curve.strokeOutline(StrokeStyle(width: 2), tolerance: 0.1)), 40_000, "at most 4,096 steps a curve, a few points each a side")
        var small = Path(); small.move(to: Point(x: 0, y: 0)); small.addCurve(to: Point(x: 10, y: 0), control1: Point(x: 0, y: 10), control2: Point(x: 10, y: 10))
        XCTAssertLessThanOrEqual(elementCount(small.strokeOutline(StrokeStyle(width: 2, cap: .round), tolerance: 1e-40)), 40_000)
    }

    func testAThinStrokeOnATightCurveStaysNearIt() {
        // A cusp-like cubic 20 pt tall, stroked 0.2 wide: no miter spike reaches far from the curve.
        var curve = Path(); curve.move(to: Point(x: 0, y: 0))
        curve.addCurve(to: Point(x: 20, y: 0), control1: Point(x: 20, y: 20), control2: Point(x: -0.16, y: 20))
        let bounds = curve.strokeOutline(StrokeStyle(width: 0.2), tolerance: 0.1).controlPointBounds
        XCTAssertLessThan(bounds.maxY, 20.5)
        XCTAssertGreaterThan(bounds.minX, -1)
        XCTAssertLessThan(bounds.maxX, 21)
    }

    func testManyDashesAlongALongCurveAreAllThere() {
        // 40 cubics, a dash pattern of 1 on 1: about half the length is stroked, in many pieces.
        var path = Path(); path.move(to: Point(x: 0, y: 0))
        for i in 0..<40 {
            let x = Double(i) * 50
            path.addCurve(to: Point(x: x + 50, y: 0), control1: Point(x: x + 10, y: 30), control2: Point(x: x + 40, y: -30))
        }
        let dashed = path.strokeOutline(StrokeStyle(width: 1, dashes: [1, 1]), tolerance: 0.1)
        let pieces = dashed.elements.filter { if case .move = $0 { true } else { false } }.count
        XCTAssertGreaterThan(pieces, 1000)
    }
}
