import Foundation
import RasterCore
import XCTest

/// Curves whose control points lie far past the canvas (a path reaching 10⁷ points off it) are flattened
/// only where they can be seen: the fill is still the curve's (checked against each pixel centre's winding
/// number, found exactly from the cubics), and a stroke of thousands of them stays bounded.
final class FarCurveTests: XCTestCase {
    /// The nonzero winding number of `point` about a closed path of one start point and cubics: each
    /// cubic's y(t) split at its extremes into monotone pieces, each crossing of the point's row found by
    /// bisection, counted where the crossing lies right of the point (the closing line likewise).
    func winding(of point: Point, start: Point, cubics: [(Point, Point, Point)]) -> Int {
        var total = 0, from = start
        func crossings(_ p0: Point, _ p1: Point, _ p2: Point, _ p3: Point) {
            func at(_ t: Double) -> Point {
                let u = 1 - t
                return p0 * (u * u * u) + p1 * (3 * u * u * t) + p2 * (3 * u * t * t) + p3 * (t * t * t)
            }
            // y'(t) = a t² + b t + c: its roots split [0, 1] into pieces where y is monotone.
            let a = 3 * (-p0.y + 3 * p1.y - 3 * p2.y + p3.y), b = 6 * (p0.y - 2 * p1.y + p2.y), c = 3 * (p1.y - p0.y)
            var cuts = [0.0, 1.0]
            if abs(a) > 1e-300 {
                let d = b * b - 4 * a * c
                if d >= 0 { cuts += [(-b - d.squareRoot()) / (2 * a), (-b + d.squareRoot()) / (2 * a)] }
            } else if abs(b) > 1e-300 { cuts.append(-c / b) }
            let ts = cuts.filter { $0 >= 0 && $0 <= 1 }.sorted()
            for (lo, hi) in zip(ts, ts.dropFirst()) where hi > lo {
                let ya = at(lo).y - point.y, yb = at(hi).y - point.y
                // Half-open as the rasterizer's rows are: a crossing counts where the row's y lies in [min, max).
                guard (ya <= 0 && yb > 0) || (yb <= 0 && ya > 0) else { continue }
                var l = lo, h = hi
                for _ in 0..<200 {
                    let m = (l + h) / 2
                    if (at(m).y - point.y <= 0) == (ya <= 0) { l = m } else { h = m }
                }
                if at((l + h) / 2).x > point.x { total += ya <= 0 ? 1 : -1 }
            }
        }
        for (c1, c2, to) in cubics {
            crossings(from, c1, c2, to)
            from = to
        }
        // The closing line, as a straight cubic.
        crossings(from, from + (start - from) * (1.0 / 3), from + (start - from) * (2.0 / 3), start)
        return total
    }

    func testAFarReachingCurveFillsWhatItEnclosesOnTheCanvas() throws {
        // Loops out 10⁷ points each way and back, crossing the 64 × 64 canvas on the way: far past the
        // 4,096 steps a curve is flattened in at most, so it is split until the parts off the canvas are chords.
        let start = Point(x: 10, y: 50)
        let cubics: [(Point, Point, Point)] = [
            (Point(x: 1e7, y: -1e7), Point(x: -1e7, y: 1e7), Point(x: 54, y: 12)),
            (Point(x: 3e6, y: 9e6), Point(x: -2e6, y: -4e6), Point(x: 30, y: 60)),
        ]
        var path = Path()
        path.move(to: start)
        for (c1, c2, to) in cubics { path.addCurve(to: to, control1: c1, control2: c2) }
        path.closeSubpath()
        var bitmap = try Bitmap(width: 64, height: 64)
        bitmap.draw { $0.fill(path, color: .black) }
        var inside = 0, outside = 0
        for y in 0..<64 {
            for x in 0..<64 {
                let coverage = bitmap[x, y].a
                guard coverage == 0 || coverage == 255 else { continue }
                let w = winding(of: Point(x: Double(x) + 0.5, y: Double(y) + 0.5), start: start, cubics: cubics)
                XCTAssertEqual(coverage == 255, w != 0, "pixel (\(x), \(y)): coverage \(coverage), winding \(w)")
                if coverage == 255 { inside += 1 } else { outside += 1 }
            }
        }
        XCTAssertGreaterThan(inside, 100, "the curve encloses part of the canvas")
        XCTAssertGreaterThan(outside, 100)
    }

    func testAStrokeOfThousandsOfFarCurvesStaysBounded() {
        var path = Path()
        path.move(to: Point(x: 0, y: 0))
        for _ in 0..<2000 { path.addCurve(to: Point(x: 100, y: 100), control1: Point(x: 1e7, y: -1e7), control2: Point(x: -1e7, y: 1e7)) }
        let outline = path.strokeOutline(StrokeStyle(width: 2), tolerance: 0.1)
        // Each curve needs the full 4,096 segments; the first 66 past 128 spend the path's budget and the rest
        // get 128: about 520,000 segments, each a few outline points, where it was 8 million.
        XCTAssertLessThan(outline.elements.count, 4_000_000)
        XCTAssertGreaterThan(outline.elements.count, 500_000)
    }

    /// Curves that need no more than 128 segments are flattened as they need, however many others the path
    /// holds: after the far curves have spent the budget, a circle is as round as it is alone.
    func testOrdinaryCurvesAreNeverCoarsened() {
        var far = Path()
        far.move(to: Point(x: 0, y: 0))
        for _ in 0..<300 { far.addCurve(to: Point(x: 100, y: 100), control1: Point(x: 1e7, y: -1e7), control2: Point(x: -1e7, y: 1e7)) }
        let circle = Path(ellipseIn: Rect(x: 200, y: 200, width: 400, height: 400))
        var both = far
        both.addPath(circle)
        let style = StrokeStyle(width: 2)
        let alone = circle.strokeOutline(style, tolerance: 0.1).elements.count
        let after = both.strokeOutline(style, tolerance: 0.1).elements.count - far.strokeOutline(style, tolerance: 0.1).elements.count
        XCTAssertEqual(after, alone)
    }
}
