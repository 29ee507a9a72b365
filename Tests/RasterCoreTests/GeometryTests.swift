import RasterCore
import XCTest

final class GeometryTests: XCTestCase {
    func testRectStandardizesNegativeSizes() {
        let r = Rect(x: 10, y: 10, width: -4, height: -6)
        XCTAssertEqual(r.minX, 6); XCTAssertEqual(r.maxX, 10); XCTAssertEqual(r.minY, 4); XCTAssertEqual(r.maxY, 10)
        XCTAssertEqual(r.standardized, Rect(x: 6, y: 4, width: 4, height: 6))
    }

    func testUnionTreatsNullAsIdentity() {
        let r = Rect(x: 1, y: 2, width: 3, height: 4)
        XCTAssertEqual(Rect.null.union(r), r)
        XCTAssertEqual(r.union(.null), r)
        XCTAssertEqual(r.union(Rect(x: 10, y: 0, width: 1, height: 1)), Rect(x: 1, y: 0, width: 10, height: 6))
    }

    func testIntersectionOfDisjointIsNullAndOfTouchingIsEmptyButNotNull() {
        let a = Rect(x: 0, y: 0, width: 10, height: 10)
        XCTAssertTrue(a.intersection(Rect(x: 20, y: 0, width: 5, height: 5)).isNull)
        let touching = a.intersection(Rect(x: 10, y: 0, width: 5, height: 5))
        XCTAssertFalse(touching.isNull)
        XCTAssertTrue(touching.isEmpty)
        XCTAssertEqual(touching, Rect(x: 10, y: 0, width: 0, height: 5))
        XCTAssertEqual(a.intersection(Rect(x: 5, y: -5, width: 10, height: 10)), Rect(x: 5, y: 0, width: 5, height: 5))
        XCTAssertFalse(a.intersects(Rect(x: 10, y: 0, width: 5, height: 5)))
    }

    func testIntegralContainsAndInsets() {
        XCTAssertEqual(Rect(x: 0.5, y: 1.2, width: 2, height: 2.1).integral, Rect(x: 0, y: 1, width: 3, height: 3))
        XCTAssertTrue(Rect.null.integral.isNull)
        let r = Rect(x: 0, y: 0, width: 10, height: 10)
        XCTAssertTrue(r.contains(Point(x: 0, y: 0)))
        XCTAssertFalse(r.contains(Point(x: 10, y: 5)), "the max edge is outside, as in CGRectContainsPoint")
        XCTAssertTrue(r.contains(Rect(x: 0, y: 0, width: 10, height: 10)))
        XCTAssertFalse(r.contains(Rect(x: 5, y: 5, width: 6, height: 1)))
        XCTAssertFalse(r.contains(Rect.null))
        XCTAssertEqual(r.insetBy(dx: 2, dy: 3), Rect(x: 2, y: 3, width: 6, height: 4))
        XCTAssertTrue(r.insetBy(dx: 6, dy: 0).isNull)
        XCTAssertEqual(r.inset(by: EdgeInsets(top: 1, left: 2, bottom: 3, right: 4)), Rect(x: 2, y: 1, width: 4, height: 6))
    }

    func testConcatenationAppliesLeftOperandFirst() {
        let scale = Transform2D(scaleX: 2, y: 2), move = Transform2D(translationX: 10, y: 0)
        XCTAssertEqual(scale.concatenating(move).apply(to: Point(x: 1, y: 1)), Point(x: 12, y: 2))
        XCTAssertEqual(move.concatenating(scale).apply(to: Point(x: 1, y: 1)), Point(x: 22, y: 2))
        // translatedBy prepends: the translation happens in the scaled space.
        XCTAssertEqual(scale.translatedBy(x: 10, y: 0).apply(to: .zero), Point(x: 20, y: 0))
    }

    func testRotationTurnsXTowardsYAndInverts() throws {
        let r = Transform2D(rotationAngle: .pi / 2)
        let p = r.apply(to: Point(x: 1, y: 0))
        XCTAssertEqual(p.x, 0, accuracy: 1e-12); XCTAssertEqual(p.y, 1, accuracy: 1e-12)
        let t = Transform2D(a: 2, b: 1, c: -1, d: 3, tx: 5, ty: -7)
        let inv = try XCTUnwrap(t.inverted())
        let q = inv.apply(to: t.apply(to: Point(x: 3.5, y: -2)))
        XCTAssertEqual(q.x, 3.5, accuracy: 1e-12); XCTAssertEqual(q.y, -2, accuracy: 1e-12)
        XCTAssertNil(Transform2D(scaleX: 0, y: 1).inverted())
        XCTAssertNil(Transform2D(a: .nan, b: 0, c: 0, d: 1, tx: 0, ty: 0).inverted())
    }

    func testRectThroughTransformIsBoundingBox() {
        let r = Transform2D(rotationAngle: .pi / 4).apply(to: Rect(x: 0, y: 0, width: 2, height: 2))
        XCTAssertEqual(r.minX, -2.squareRoot(), accuracy: 1e-12)
        XCTAssertEqual(r.width, 2 * 2.squareRoot(), accuracy: 1e-12)
        XCTAssertEqual(r.height, 2 * 2.squareRoot(), accuracy: 1e-12)
        XCTAssertTrue(Transform2D.identity.apply(to: Rect.null).isNull)
    }

    func testColorHexParsingAndPremultiplication() throws {
        XCTAssertEqual(Color(hex: 0x007AFF).premultiplied, PremultipliedRGBA8(r: 0, g: 122, b: 255, a: 255))
        XCTAssertEqual(try Color(parsing: "#fff"), Color.white)
        XCTAssertEqual(try Color(parsing: "007AFF80").premultiplied.a, 128)
        XCTAssertThrowsError(try Color(parsing: "#12345"))
        XCTAssertThrowsError(try Color(parsing: "red"))
        // alpha 0.3 → round(76.5) = 77; a half-transparent mid grey → round(63.75) = 64.
        XCTAssertEqual(Color(white: 0, alpha: 0.3).premultiplied, PremultipliedRGBA8(r: 0, g: 0, b: 0, a: 77))
        XCTAssertEqual(Color(white: 0.5, alpha: 0.5).premultiplied, PremultipliedRGBA8(r: 64, g: 64, b: 64, a: 128))
        XCTAssertEqual(Color(red: 2, green: .nan, blue: -1).premultiplied, PremultipliedRGBA8(r: 255, g: 0, b: 0, a: 255))
    }

    func testUnpremultiplyRoundsToNearest() {
        // 100 · 255 / 200 = 127.5 → 128; 1 · 255 / 3 = 85.
        XCTAssertEqual(PremultipliedRGBA8(r: 100, g: 1, b: 0, a: 200).unpremultiplied.r, 128)
        XCTAssertEqual(PremultipliedRGBA8(r: 1, g: 1, b: 1, a: 3).unpremultiplied.g, 85)
        XCTAssertEqual(PremultipliedRGBA8(r: 9, g: 9, b: 9, a: 4).r, 4, "colour channels are clamped to alpha")
    }
}
