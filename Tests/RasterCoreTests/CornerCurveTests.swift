import Foundation
import RasterCore
import XCTest

/// Continuous corners (`CornerCurve.continuous`): the published iOS 7 construction where the sides are
/// long enough, blended to the circle as the radius nears half a side; circular corners unchanged.
final class CornerCurveTests: XCTestCase {
    /// The point of a cubic at `t`.
    func point(_ c: (start: Point, c1: Point, c2: Point, end: Point), _ t: Double) -> Point {
        let u = 1 - t
        return c.start * (u * u * u) + c.c1 * (3 * u * u * t) + c.c2 * (3 * u * t * t) + c.end * (t * t * t)
    }

    func cubics(_ path: Path) -> [(start: Point, c1: Point, c2: Point, end: Point)] {
        var current = Point.zero, result: [(start: Point, c1: Point, c2: Point, end: Point)] = []
        for e in path.elements {
            switch e {
            case .move(let p), .line(let p): current = p
            case .curve(let p, let c1, let c2): result.append((current, c1, c2, p)); current = p
            default: break
            }
        }
        return result
    }

    func testALongSideGetsThePublishedCorner() {
        // 200 × 100 with radius 10: each corner reaches 15.28665 pt along both sides, three cubics each.
        let path = Path(roundedRect: Rect(x: 0, y: 0, width: 200, height: 100), cornerRadii: CornerRadii(all: 10), curve: .continuous)
        let curves = cubics(path)
        XCTAssertEqual(curves.count, 12)
        let first = curves[0]
        XCTAssertEqual(first.start.x, 0, accuracy: 1e-12)
        XCTAssertEqual(first.start.y, 15.28665, accuracy: 1e-9, "the top-left corner starts 1.528665 radii up the left side")
        XCTAssertEqual(curves[2].end.x, 15.28665, accuracy: 1e-9)
        XCTAssertEqual(curves[2].end.y, 0, accuracy: 1e-12)
        // The corner's middle, on the diagonal: (a3 + 3·m1 + 3·m2 + b3) / 8 radii from each side.
        let middle = point(curves[1], 0.5)
        let expected = 10 * (0.631493792830993 + 3 * 0.372823826625747 + 3 * 0.169059556044370 + 0.074911387847016) / 8
        XCTAssertEqual(middle.x, expected, accuracy: 1e-9)
        XCTAssertEqual(middle.y, expected, accuracy: 1e-9)
        // Where the cubics meet the published coefficients turn by 2.4° (they are not exactly tangent-
        // continuous; kept as published): each join's control arms are within 3° of each other.
        for i in 0..<2 {
            let a = curves[i].end - curves[i].c2, b = curves[i + 1].c1 - curves[i + 1].start
            let turn = atan2(abs(a.x * b.y - a.y * b.x), a.x * b.x + a.y * b.y) * 180 / .pi
            XCTAssertLessThan(turn, 3, "join \(i)")
        }
    }

    func testARadiusOfHalfTheSideIsACircle() {
        // A 40-pt square of radius 20: every point of the outline is 20 pt from the centre (within the
        // cubics' fit of a circle, 0.03 %).
        let path = Path(roundedRect: Rect(x: 0, y: 0, width: 40, height: 40), cornerRadii: CornerRadii(all: 20), curve: .continuous)
        for c in cubics(path) {
            for t in stride(from: 0.0, through: 1.0, by: 0.125) {
                let p = point(c, t)
                XCTAssertEqual(((p.x - 20) * (p.x - 20) + (p.y - 20) * (p.y - 20)).squareRoot(), 20, accuracy: 20 * 3e-4)
            }
        }
    }

    func testTheCornerBlendsTowardsTheCircleAsTheSideRunsShort() {
        // On a 100-pt square the corner reaches 1.528665 r while that is at most 50 pt, then exactly 50 pt.
        func reach(_ r: Double) -> Double {
            cubics(Path(roundedRect: Rect(x: 0, y: 0, width: 100, height: 100), cornerRadii: CornerRadii(all: r), curve: .continuous))[2].end.x
        }
        XCTAssertEqual(reach(30), 30 * 1.528665, accuracy: 1e-9)
        XCTAssertEqual(reach(40), 50, accuracy: 1e-9)
        XCTAssertEqual(reach(50), 50, accuracy: 1e-9)
        // A corner beside a square one may take the whole side.
        let one = Path(roundedRect: Rect(x: 0, y: 0, width: 100, height: 100), cornerRadii: CornerRadii(topLeft: 40, topRight: 0, bottomRight: 0, bottomLeft: 0), curve: .continuous)
        XCTAssertEqual(cubics(one)[2].end.x, 40 * 1.528665, accuracy: 1e-9)
    }

    func testContinuousCornersLeaveMoreOfTheSideStraightEdgeUncut() {
        // Radius 8: the circular corner's arc starts 8 pt from the vertex, the continuous one's 12.2 pt, so
        // the pixel 9 pt along the top is whole only with the circle; far from the corners both are solid.
        var circular = try! Bitmap(width: 40, height: 40), continuous = try! Bitmap(width: 40, height: 40)
        let rect = Rect(x: 0, y: 0, width: 40, height: 40)
        circular.draw { $0.fill(roundedRect: rect, cornerRadii: CornerRadii(all: 8), color: .black) }
        continuous.draw { $0.fill(roundedRect: rect, cornerRadii: CornerRadii(all: 8), curve: .continuous, color: .black) }
        XCTAssertEqual(circular[9, 0].a, 255)
        XCTAssertLessThan(continuous[9, 0].a, 255)
        XCTAssertEqual(continuous[20, 0].a, 255)
        XCTAssertEqual(continuous[20, 20].a, 255)
        XCTAssertEqual(continuous[0, 0].a, 0)
        // A border follows the same corner inside and out.
        var border = try! Bitmap(width: 40, height: 40)
        border.draw { $0.strokeBorder(of: rect, width: 2, cornerRadii: CornerRadii(all: 8), curve: .continuous, color: .black) }
        XCTAssertEqual(border[20, 0].a, 255)
        XCTAssertEqual(border[20, 2].a, 0)
        XCTAssertLessThan(border[9, 0].a, 255)
    }

    func testCircularCornersAreTheOneCubicTheyWere() {
        let path = Path(roundedRect: Rect(x: 0, y: 0, width: 50, height: 30), cornerRadii: CornerRadii(all: 6))
        XCTAssertEqual(cubics(path).count, 4)
        XCTAssertEqual(path, Path(roundedRect: Rect(x: 0, y: 0, width: 50, height: 30), cornerRadii: CornerRadii(all: 6), curve: .circular))
    }
}
