import Motion
import XCTest

final class TimingCurveTests: XCTestCase {
    /// An independent reference: bisection on x(s) over 200 halvings, then y(s).
    private func reference(_ c: TimingCurve, _ x: Double) -> Double {
        func bez(_ p1: Double, _ p2: Double, _ s: Double) -> Double {
            let u = 1 - s
            return 3 * u * u * s * p1 + 3 * u * s * s * p2 + s * s * s
        }
        var lo = 0.0, hi = 1.0
        for _ in 0..<200 { let mid = (lo + hi) / 2; if bez(c.c1.x, c.c2.x, mid) < x { lo = mid } else { hi = mid } }
        return bez(c.c1.y, c.c2.y, (lo + hi) / 2)
    }

    func testKnownPoints() {
        XCTAssertEqual(TimingCurve.easeInEaseOut.progress(at: 0.5), 0.5, accuracy: 1e-12)
        XCTAssertEqual(TimingCurve.linear.progress(at: 0.3), 0.3)
        for c in [TimingCurve.easeIn, .easeOut, .easeInEaseOut, .default] {
            XCTAssertEqual(c.progress(at: 0), 0)
            XCTAssertEqual(c.progress(at: 1), 1)
            XCTAssertEqual(c.progress(at: -3), 0)
            XCTAssertEqual(c.progress(at: .nan), 0)
        }
        // x'(0.5) = 0 here, the hardest case for Newton's method; by symmetry the answer is exactly 0.5.
        XCTAssertEqual(TimingCurve(1, 0, 0, 1).progress(at: 0.5), 0.5, accuracy: 1e-6)
    }

    func testCurvesMatchDenseBisection() {
        let curves: [TimingCurve] = [.easeIn, .easeOut, .easeInEaseOut, .default, TimingCurve(0.9, -0.5, 0.1, 1.5), TimingCurve(0.7, 0, 0.3, 1)]
        for c in curves {
            for i in 0...200 {
                let t = Double(i) / 200
                // x is solved to 1e-7; y's slope is at most ~3 here, so 1e-6 bounds the error in progress.
                XCTAssertEqual(c.progress(at: t), reference(c, t), accuracy: 1e-6, "\(c) at \(t)")
            }
        }
    }
}

final class TimingCurveEdgeTests: XCTestCase {
    func testEaseInEaseOutIsExactlyHalfWayAtHalfTime() {
        XCTAssertEqual(TimingCurve.easeInEaseOut.progress(at: 0.5), 0.5)
    }

    func testNamesAndDescriptions() {
        XCTAssertEqual(TimingCurve.easeInEaseOut.name, "easeInEaseOut")
        XCTAssertEqual(TimingCurve.default.description, "default")
        XCTAssertNil(TimingCurve(0.1, 0.2, 0.3, 0.4).name)
        XCTAssertEqual(TimingCurve(0.1, 0.2, 0.3, 0.4).description, "cubic-bezier(0.1, 0.2, 0.3, 0.4)")
    }

    func testNonFiniteControlPointsGiveFiniteProgress() {
        let odd = TimingCurve(.nan, .nan, .infinity, -.infinity)
        for i in 0...20 {
            XCTAssertTrue(odd.progress(at: Double(i) / 20).isFinite)
        }
        XCTAssertEqual(odd.progress(at: 1), 1)
    }
}
