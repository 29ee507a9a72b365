import Motion
import RasterCore
import XCTest

/// The 3-D decomposition that animations mix layer transforms by: exact round trips, and rotations that
/// turn the way the matrices say.
final class Transform3DDecompositionTests: XCTestCase {
    private func assertEqual(_ a: Transform3D, _ b: Transform3D, accuracy: Double = 1e-9, file: StaticString = #filePath, line: UInt = #line) {
        for (x, y) in zip(a.entries, b.entries) where abs(x - y) > accuracy {
            XCTFail("\(a) is not \(b)", file: file, line: line)
            return
        }
    }

    private var perspective: Transform3D { var p = Transform3D.identity; p.m34 = -1 / 500; return p }

    func testEveryKindOfTransformComesBackFromItsParts() throws {
        let cases: [Transform3D] = [
            .identity,
            Transform3D(rotationAngle: 0.3, x: 0, y: 1, z: 0),
            Transform3D(rotationAngle: 2.5, x: 1, y: 0, z: 0),
            Transform3D(rotationAngle: -1.2, x: 0, y: 0, z: 1),
            Transform3D(rotationAngle: 1, x: 1, y: 2, z: 3),
            Transform3D(rotationAngle: 0.7, x: 0, y: 1, z: 0).concatenating(perspective),
            Transform3D(scaleX: 2, y: 0.5, z: 1).concatenating(Transform3D(rotationAngle: 0.4, x: 1, y: 0, z: 0))
                .concatenating(Transform3D(translationX: 10, y: -20, z: 30)).concatenating(perspective),
            Transform3D(scaleX: -1, y: 1, z: 1),
            Transform3D(Transform2D(a: 1, b: 0, c: 0.5, d: 1, tx: 3, ty: 4)),
        ]
        for t in cases {
            let parts = try XCTUnwrap(Transform3DDecomposition(t), "\(t)")
            // The same mapping, with m44 made 1 (a matrix and its multiples are one projective transform).
            let normalized = Transform3D(entries: t.entries.map { $0 / t.m44 })
            assertEqual(parts.transform, normalized)
            assertEqual(Transform3DDecomposition(lanes: parts.lanes).transform, normalized)
        }
    }

    func testARotationAboutYIsThatAngleAboutY() throws {
        for angle in [0.1, 1.0, 2.0, 3.0] {
            let parts = try XCTUnwrap(Transform3DDecomposition(Transform3D(rotationAngle: angle, x: 0, y: 1, z: 0)))
            XCTAssertEqual(parts.rotation.x, 0, accuracy: 1e-12)
            XCTAssertEqual(parts.rotation.y, angle, accuracy: 1e-9)
            XCTAssertEqual(parts.rotation.z, 0, accuracy: 1e-12)
        }
    }

    func testHalfWayToATurnInPerspectiveIsHalfTheTurnInTheSamePerspective() throws {
        let from = try XCTUnwrap(Transform3DDecomposition(perspective))
        let to = try XCTUnwrap(Transform3DDecomposition(Transform3D(rotationAngle: 1.2, x: 0, y: 1, z: 0).concatenating(perspective)))
        let half = Transform3DDecomposition(lanes: zip(from.lanes, to.lanes).map { ($0 + $1) / 2 })
        assertEqual(half.transform, Transform3D(rotationAngle: 0.6, x: 0, y: 1, z: 0).concatenating(perspective))
    }

    func testATurnPastAHalfTurnContinuesTheShortWay() {
        let beyond = Transform3DDecomposition.rotation(SIMD3(0, -.pi / 2, 0), continuingFrom: SIMD3(0, .pi, 0))
        XCTAssertEqual(beyond.y, 1.5 * .pi, accuracy: 1e-12, "a quarter turn on, not three quarters back")
        XCTAssertEqual(beyond.x, 0, accuracy: 1e-12)
        let near = Transform3DDecomposition.rotation(SIMD3(0, 0.5, 0), continuingFrom: SIMD3(0, 0.2, 0))
        XCTAssertEqual(near, SIMD3(0, 0.5, 0), "already the short way: unchanged")
    }

    func testAMatrixWithoutADecompositionHasNone() {
        var flat = Transform3D.identity
        flat.m44 = 0
        XCTAssertNil(Transform3DDecomposition(flat))
        XCTAssertNil(Transform3DDecomposition(Transform3D(scaleX: 0, y: 1, z: 1)))
        var bad = Transform3D.identity
        bad.m41 = .nan
        XCTAssertNil(Transform3DDecomposition(bad))
    }
}
