import Foundation
import RasterCore
import SnapshotView
import XCTest

/// Points and rects converted through 3-D transforms as Core Animation sees them: each view's chain seen
/// flat in its superview's plane, joined in 3-D inside a transform layer. Exact against the formula.
final class Conversion3DTests: XCTestCase {
    /// A 200x100 pt card centred at (150, 100) in a 300x200 pt root, turned `angle` about y behind
    /// `m34 = -1/500` (the perspective after the turn, as `CATransform3DRotate(perspective, …)` makes it).
    private func card(angle: Double) throws -> (root: View, card: View) {
        let root = View(frame: Rect(x: 0, y: 0, width: 300, height: 200), name: "root")
        let card = View(frame: Rect(x: 50, y: 50, width: 200, height: 100), name: "card")
        var perspective = Transform3D.identity
        perspective.m34 = -1.0 / 500
        card.transform3D = Transform3D(rotationAngle: angle, x: 0, y: 1, z: 0).concatenating(perspective)
        try root.addSubview(card)
        return (root, card)
    }

    /// Where the card's local point lands in the root, worked by hand: about the centre, x turns to
    /// x·cos θ and z to −x·sin θ; w = 1 − z/500.
    private func expected(_ p: Point, angle: Double) -> Point {
        let px = p.x - 100, py = p.y - 50
        let w = 1 + px * sin(angle) / 500
        return Point(x: px * cos(angle) / w + 150, y: py / w + 100)
    }

    private func assertClose(_ a: Point, _ b: Point, _ tolerance: Double = 1e-9, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(a.x, b.x, accuracy: tolerance, file: file, line: line)
        XCTAssertEqual(a.y, b.y, accuracy: tolerance, file: file, line: line)
    }

    func testAPointGoesThroughThePerspectiveAndBack() throws {
        let angle = Double.pi / 3
        let (root, card) = try card(angle: angle)
        for p in [Point(x: 0, y: 0), Point(x: 200, y: 100), Point(x: 37, y: 81), Point(x: 100, y: 50)] {
            let seen = try card.convert(p, to: root)
            assertClose(seen, expected(p, angle: angle))
            assertClose(try root.convert(seen, to: card), p)
            assertClose(try card.convert(seen, from: root), p)
        }
        // The near (left) edge is taller than the far one: the homography is not affine.
        XCTAssertGreaterThan(try card.convert(Point(x: 0, y: 100), to: root).y - (try card.convert(Point(x: 0, y: 0), to: root).y),
                             try card.convert(Point(x: 200, y: 100), to: root).y - (try card.convert(Point(x: 200, y: 0), to: root).y))
    }

    func testARectBecomesTheBoundingBoxOfItsCorners() throws {
        let angle = 0.9
        let (root, card) = try card(angle: angle)
        let corners = [Point(x: 0, y: 0), Point(x: 200, y: 0), Point(x: 200, y: 100), Point(x: 0, y: 100)].map { expected($0, angle: angle) }
        let box = try card.convert(card.bounds, to: root)
        XCTAssertEqual(box.minX, corners.map(\.x).min()!, accuracy: 1e-9)
        XCTAssertEqual(box.maxX, corners.map(\.x).max()!, accuracy: 1e-9)
        XCTAssertEqual(box.minY, corners.map(\.y).min()!, accuracy: 1e-9)
        XCTAssertEqual(box.maxY, corners.map(\.y).max()!, accuracy: 1e-9)
    }

    /// Inside a transform layer two turns about the same axis join in 3-D: the child lands where one
    /// view turned by both would. Under a plain view the parent flattens the child first, and it does not.
    func testATransformLayerJoinsTurnsBeforeSeeingThemFlat() throws {
        func tree(preservesDepth: Bool) throws -> (root: View, child: View) {
            let root = View(frame: Rect(x: 0, y: 0, width: 300, height: 200), name: "root")
            root.sublayerTransform.m34 = -1.0 / 500
            let parent = View(frame: Rect(x: 50, y: 50, width: 200, height: 100), name: "parent")
            parent.preservesDepth = preservesDepth
            parent.transform3D = Transform3D(rotationAngle: 0.4, x: 0, y: 1, z: 0)
            let child = View(frame: Rect(x: 0, y: 0, width: 200, height: 100), name: "child")
            child.transform3D = Transform3D(rotationAngle: 0.5, x: 0, y: 1, z: 0)
            try parent.addSubview(child)
            try root.addSubview(parent)
            return (root, child)
        }
        let lone = View(frame: Rect(x: 50, y: 50, width: 200, height: 100), name: "lone")
        lone.transform3D = Transform3D(rotationAngle: 0.9, x: 0, y: 1, z: 0)
        let loneRoot = View(frame: Rect(x: 0, y: 0, width: 300, height: 200), name: "root")
        loneRoot.sublayerTransform.m34 = -1.0 / 500
        try loneRoot.addSubview(lone)
        let joined = try tree(preservesDepth: true), flattened = try tree(preservesDepth: false)
        for p in [Point(x: 0, y: 0), Point(x: 180, y: 90)] {
            let target = try lone.convert(p, to: loneRoot)
            assertClose(try joined.child.convert(p, to: joined.root), target)
            assertClose(try joined.root.convert(target, to: joined.child), p, 1e-8)
            XCTAssertGreaterThan(abs(try flattened.child.convert(p, to: flattened.root).x - target.x), 0.5, "flattened by the plain parent")
        }
    }

    func testAPlaneSeenEdgeOnHasNoPointsAndAPointBehindTheEyeThrows() throws {
        let (root, card) = try card(angle: .pi / 2)
        XCTAssertThrowsError(try root.convert(Point(x: 150, y: 100), to: card), "a quarter turn: the card is a line")
        // Turned so that its far edge passes behind the eye (z > 500).
        let near = View(frame: Rect(x: 0, y: 0, width: 2000, height: 100), name: "near")
        near.transform3D = Transform3D(rotationAngle: 1.2, x: 0, y: 1, z: 0).concatenating({ var p = Transform3D.identity; p.m34 = -1.0 / 500; return p }())
        try root.addSubview(near)
        XCTAssertThrowsError(try near.convert(Point(x: 0, y: 50), to: root))
    }

    /// Trees without 3-D transforms convert as before, through the affine map (the same numbers).
    func testFlatTreesKeepTheirAffineConversion() throws {
        let root = View(frame: Rect(x: 0, y: 0, width: 300, height: 200), name: "root")
        let a = View(frame: Rect(x: 10, y: 20, width: 100, height: 80), name: "a")
        a.transform = Transform2D(rotationAngle: 0.3).scaledBy(x: 1.5, y: 0.5)
        let b = View(frame: Rect(x: 5, y: 7, width: 30, height: 20), name: "b")
        try a.addSubview(b)
        try root.addSubview(a)
        let p = Point(x: 3.25, y: 4.5)
        XCTAssertEqual(try b.convert(p, to: root), try b.transform(to: root).apply(to: p))
        XCTAssertEqual(try root.convert(p, to: b), try root.transform(to: b).apply(to: p))
    }
}
