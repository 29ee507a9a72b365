import Foundation
import Motion
import RasterCore
import SnapshotView
import XCTest

final class InterpolationTests: XCTestCase {
    private func assertTransform(_ t: RasterCore.Transform2D, _ u: RasterCore.Transform2D, accuracy: Double = 1e-12,
                                 _ message: String = "", file: StaticString = #filePath, line: UInt = #line) {
        for (a, b) in [(t.a, u.a), (t.b, u.b), (t.c, u.c), (t.d, u.d), (t.tx, u.tx), (t.ty, u.ty)] {
            XCTAssertEqual(a, b, accuracy: accuracy, "\(t) vs \(u) \(message)", file: file, line: line)
        }
    }

    func testEndsAreExact() {
        let a = Rect(x: 0.1, y: 0.2, width: 0.3, height: 0.7), b = Rect(x: 10.3, y: -4, width: 1e-3, height: 99.9)
        XCTAssertEqual(a.interpolated(to: b, progress: 0), a)
        XCTAssertEqual(a.interpolated(to: b, progress: 1), b)
        let r = RasterCore.Transform2D(rotationAngle: 0.3).scaledBy(x: 2, y: 0.5)
        XCTAssertEqual(RasterCore.Transform2D.identity.interpolated(to: r, progress: 1), r)
        XCTAssertEqual(0.1.interpolated(to: 0.7, progress: .nan), 0.1)
    }

    func testLinearValues() {
        XCTAssertEqual(2.0.interpolated(to: 6, progress: 0.25), 3)
        XCTAssertEqual(Point(x: 0, y: 10).interpolated(to: Point(x: 100, y: -10), progress: 0.5), Point(x: 50, y: 0))
        XCTAssertEqual(Size(width: 10, height: 20).interpolated(to: Size(width: 20, height: 40), progress: 0.5),
                       Size(width: 15, height: 30))
        // The scroll offset is the bounds origin: it slides with the rect.
        XCTAssertEqual(Rect(x: 0, y: 0, width: 320, height: 480).interpolated(to: Rect(x: 0, y: 600, width: 320, height: 480), progress: 0.25),
                       Rect(x: 0, y: 150, width: 320, height: 480))
        // Springs overshoot: extrapolation.
        XCTAssertEqual(0.0.interpolated(to: 10, progress: 1.1), 11, accuracy: 1e-12)
    }

    func testColoursInterpolateOnStraightComponents() {
        let red = Color(red: 1, green: 0, blue: 0), clearBlue = Color(red: 0, green: 0, blue: 1, alpha: 0)
        let mid = red.interpolated(to: clearBlue, progress: 0.5)
        XCTAssertEqual(mid.red, 0.5, accuracy: 1e-15)
        XCTAssertEqual(mid.blue, 0.5, accuracy: 1e-15)
        XCTAssertEqual(mid.alpha, 0.5, accuracy: 1e-15)
        // Overshooting colours stay in range.
        let over = Color.black.interpolated(to: .white, progress: 1.3)
        XCTAssertEqual(over, .white)
    }

    func testRotationInterpolatesAsARotation() {
        let quarter = RasterCore.Transform2D(rotationAngle: .pi / 2)
        let mid = RasterCore.Transform2D.identity.interpolated(to: quarter, progress: 0.5)
        // A matrix blend would shrink the view to 0.707 at the middle; a rotation keeps its size.
        assertTransform(mid, RasterCore.Transform2D(rotationAngle: .pi / 4))
        XCTAssertEqual(mid.determinant, 1, accuracy: 1e-12)
    }

    func testRotationTakesTheShorterWayRound() {
        let from = RasterCore.Transform2D(rotationAngle: 170 * .pi / 180)
        let to = RasterCore.Transform2D(rotationAngle: -170 * .pi / 180)
        // 20° the short way through 180°, not 340° back through 0°.
        assertTransform(from.interpolated(to: to, progress: 0.5), RasterCore.Transform2D(rotationAngle: .pi))
        assertTransform(from.interpolated(to: to, progress: 0.25), RasterCore.Transform2D(rotationAngle: 175 * .pi / 180))
    }

    func testHalfTurnKeepsItsDirection() {
        // As Core Animation: rotation(π) turns clockwise (positive angles), rotation(−π) the other way.
        assertTransform(RasterCore.Transform2D.identity.interpolated(to: RasterCore.Transform2D(rotationAngle: .pi), progress: 0.5),
                        RasterCore.Transform2D(rotationAngle: .pi / 2))
        assertTransform(RasterCore.Transform2D.identity.interpolated(to: RasterCore.Transform2D(rotationAngle: -.pi), progress: 0.5),
                        RasterCore.Transform2D(rotationAngle: -.pi / 2))
    }

    func testTranslationScaleAndRotationMoveIndependently() {
        // Scale, then rotate, then translate (concatenating applies the receiver first).
        let to = RasterCore.Transform2D(scaleX: 3, y: 5)
            .concatenating(RasterCore.Transform2D(rotationAngle: .pi / 3))
            .concatenating(RasterCore.Transform2D(translationX: 40, y: -20))
        let mid = RasterCore.Transform2D.identity.interpolated(to: to, progress: 0.5)
        let parts = TransformDecomposition(mid)
        XCTAssertEqual(parts.translation.x, 20, accuracy: 1e-12)
        XCTAssertEqual(parts.translation.y, -10, accuracy: 1e-12)
        XCTAssertEqual(parts.rotation, .pi / 6, accuracy: 1e-12)
        XCTAssertEqual(parts.scale.width, 2, accuracy: 1e-12)
        XCTAssertEqual(parts.scale.height, 3, accuracy: 1e-12)
    }

    func testAFlipIsNotHalfATurn() {
        let flip = RasterCore.Transform2D(scaleX: -1, y: 1)
        let parts = TransformDecomposition(flip)
        XCTAssertEqual(parts.rotation, 0)
        XCTAssertEqual(parts.scale.width, -1)
        let mid = RasterCore.Transform2D.identity.interpolated(to: flip, progress: 0.25)
        assertTransform(mid, RasterCore.Transform2D(scaleX: 0.5, y: 1))
    }

    func testDecompositionRoundTrips() {
        var rng = SeededGenerator(seed: 0x5EED)  // seeded: a failure reproduces
        for _ in 0..<500 {
            let t = RasterCore.Transform2D(a: .random(in: -3...3, using: &rng), b: .random(in: -3...3, using: &rng),
                                               c: .random(in: -3...3, using: &rng), d: .random(in: -3...3, using: &rng),
                                               tx: .random(in: -50...50, using: &rng), ty: .random(in: -50...50, using: &rng))
            assertTransform(TransformDecomposition(t).transform, t, accuracy: 1e-12)
        }
        for t in [RasterCore.Transform2D(a: 0, b: 0, c: 2, d: 1, tx: 1, ty: 2),
                  RasterCore.Transform2D(a: 0, b: 0, c: 0, d: 0, tx: 3, ty: 4),
                  RasterCore.Transform2D(a: 1, b: 0, c: 0.5, d: 1, tx: 0, ty: 0),
                  RasterCore.Transform2D(scaleX: 1, y: -1), RasterCore.Transform2D(rotationAngle: -.pi)] {
            assertTransform(TransformDecomposition(t).transform, t, accuracy: 1e-12)
        }
    }

    func testMismatchedKindsSwitchAtTheEnd() {
        let a = AnimatableValue.double(1), b = AnimatableValue.point(Point(x: 2, y: 3))
        XCTAssertEqual(a.interpolated(to: b, progress: 0.9), a)
        XCTAssertEqual(a.interpolated(to: b, progress: 1), b)
    }
}

/// SplitMix64: a small deterministic generator, so that randomized tests give the same values every run.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
