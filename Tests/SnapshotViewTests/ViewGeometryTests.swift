import RasterCore
import XCTest
import SnapshotView

final class ViewGeometryTests: XCTestCase {
    func assertPoint(_ p: Point, _ x: Double, _ y: Double, accuracy: Double = 1e-9, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(p.x, x, accuracy: accuracy, "x of \(p)", file: file, line: line)
        XCTAssertEqual(p.y, y, accuracy: accuracy, "y of \(p)", file: file, line: line)
    }

    func assertRect(_ r: Rect, _ x: Double, _ y: Double, _ w: Double, _ h: Double, accuracy: Double = 1e-9, file: StaticString = #filePath, line: UInt = #line) {
        for (got, want, what) in [(r.minX, x, "x"), (r.minY, y, "y"), (r.width, w, "width"), (r.height, h, "height")] {
            XCTAssertEqual(got, want, accuracy: accuracy, "\(what) of \(r)", file: file, line: line)
        }
    }

    func testFrameIsDerivedFromCenterBoundsAndTransform() {
        let v = View(frame: Rect(x: 10, y: 20, width: 100, height: 50))
        assertPoint(v.center, 60, 45)
        XCTAssertEqual(v.bounds, Rect(x: 0, y: 0, width: 100, height: 50))

        // Scaling about the centre keeps the centre and scales the frame around it.
        v.transform = Transform2D(scaleX: 2, y: 0.5)
        assertRect(v.frame, -40, 32.5, 200, 25)
        // A quarter turn: the frame is the bounding box, 50 wide and 100 tall, still centred.
        v.transform = Transform2D(rotationAngle: .pi / 2)
        assertRect(v.frame, 35, -5, 50, 100)
        XCTAssertEqual(v.bounds.size, Size(width: 100, height: 50), "bounds are untransformed")

        // Setting the frame sets centre and size.
        v.transform = .identity
        v.frame = Rect(x: 0, y: 0, width: 40, height: 30)
        assertPoint(v.center, 20, 15)
        XCTAssertEqual(v.bounds.size, Size(width: 40, height: 30))
        // The bounds origin (scroll offset) does not move the frame.
        v.bounds.origin = Point(x: 7, y: 9)
        assertRect(v.frame, 0, 0, 40, 30)
    }

    func testNonFiniteGeometryIsIgnored() {
        let v = View(frame: Rect(x: 1, y: 2, width: 3, height: 4))
        v.center = Point(x: .nan, y: 0)
        v.frame = Rect(x: 0, y: 0, width: .infinity, height: 1)
        v.transform = Transform2D(a: .nan, b: 0, c: 0, d: 1, tx: 0, ty: 0)
        v.alpha = .nan
        XCTAssertEqual(v.frame, Rect(x: 1, y: 2, width: 3, height: 4))
        XCTAssertEqual(v.transform, .identity)
        XCTAssertEqual(v.alpha, 1)
        XCTAssertEqual(View(frame: Rect(x: .nan, y: 0, width: 1, height: 1)).frame, .zero)
    }

    func testConversionThroughNestedViewsAndScrollOffsets() throws {
        let root = View(frame: Rect(x: 0, y: 0, width: 320, height: 480), name: "root")
        let scroll = ScrollView(frame: Rect(x: 0, y: 64, width: 320, height: 416))
        scroll.contentSize = Size(width: 320, height: 2000)
        let row = View(frame: Rect(x: 0, y: 300, width: 320, height: 44))
        let thumb = View(frame: Rect(x: 8, y: 4, width: 36, height: 36))
        try root.addSubview(scroll)
        try scroll.addSubview(row)
        try row.addSubview(thumb)

        assertPoint(try thumb.convert(Point.zero, to: nil), 8, 368)
        scroll.contentOffset = Point(x: 0, y: 250)
        assertPoint(try thumb.convert(Point.zero, to: root), 8, 118)
        assertRect(try thumb.convert(thumb.bounds, to: scroll), 8, 304, 36, 36)
        assertRect(try root.convert(Rect(x: 8, y: 118, width: 36, height: 36), to: thumb), 0, 0, 36, 36)
        assertPoint(try thumb.convert(Point(x: 8, y: 118), from: nil), 0, 0)
        assertPoint(try row.convert(Point(x: 1, y: 2), from: thumb), 9, 6)
        XCTAssertEqual(scroll.maximumContentOffset, Point(x: 0, y: 1584))
    }

    func testConversionThroughScaleAndQuarterTurn() throws {
        let root = View(frame: Rect(x: 0, y: 0, width: 200, height: 200))
        let card = View(frame: Rect(x: 50, y: 50, width: 100, height: 60))  // centre (100, 80)
        let badge = View(frame: Rect(x: 0, y: 0, width: 10, height: 10))
        try root.addSubview(card)
        try card.addSubview(badge)

        card.transform = Transform2D(scaleX: 2, y: 2)
        // (0, 0) of the card is 50 left and 30 above its centre; doubled: 100 and 60.
        assertPoint(try badge.convert(Point.zero, to: nil), 0, 20)
        assertRect(try badge.convert(badge.bounds, to: root), 0, 20, 20, 20)

        // A quarter turn (positive angles turn +x towards +y): the card's top-left goes to the top-right.
        card.transform = Transform2D(rotationAngle: .pi / 2)
        assertPoint(try card.convert(Point.zero, to: nil), 130, 30)
        assertPoint(try card.convert(Point(x: 100, y: 0), to: nil), 130, 130)
        // The badge's 10x10 square stays a 10x10 bounding box, now left of x = 130.
        assertRect(try badge.convert(badge.bounds, to: nil), 120, 30, 10, 10)
        // A rect through a 45° turn gives its bounding box, as UIKit does.
        card.transform = Transform2D(rotationAngle: .pi / 4)
        let box = try badge.convert(badge.bounds, to: nil)
        XCTAssertEqual(box.width, 10 * 2.0.squareRoot(), accuracy: 1e-9)
    }

    func testRoundTripsBetweenAnyTwoViews() throws {
        let root = View(frame: Rect(x: 0, y: 0, width: 300, height: 300))
        let a = View(frame: Rect(x: 20, y: 30, width: 100, height: 80))
        let a1 = View(frame: Rect(x: 5, y: 5, width: 40, height: 40))
        let b = ScrollView(frame: Rect(x: 150, y: 10, width: 120, height: 200))
        let b1 = View(frame: Rect(x: 10, y: 90, width: 60, height: 30))
        try root.addSubview(a); try a.addSubview(a1); try root.addSubview(b); try b.addSubview(b1)
        a.transform = Transform2D(rotationAngle: 0.3).scaledBy(x: 1.5, y: 0.75)
        b.contentOffset = Point(x: 3, y: 40)
        b1.transform = Transform2D(rotationAngle: -1.1)
        let p = Point(x: 12.5, y: -7.25)
        for (from, to) in [(a1, b1), (b1, a1), (a1, root), (root, b1), (b, a)] {
            let there = try from.convert(p, to: to)
            assertPoint(try to.convert(there, to: from), p.x, p.y, accuracy: 1e-9)
            assertPoint(try to.convert(p, from: from), there.x, there.y, accuracy: 1e-9)
        }
    }

    func testViewsInDifferentTreesAreReported() throws {
        let one = View(frame: Rect(x: 0, y: 0, width: 10, height: 10), name: "one")
        let two = View(frame: Rect(x: 0, y: 0, width: 10, height: 10), name: "two")
        XCTAssertThrowsError(try one.convert(Point.zero, to: two)) { error in
            XCTAssertEqual(error as? ViewTreeError, .differentTrees(from: "'one'", to: "'two'"))
            XCTAssertTrue("\(error)".contains("different view trees"))
        }
        XCTAssertThrowsError(try one.convert(Rect.zero, from: two))
        // A view squashed to zero scale cannot be converted into.
        let child = View(frame: Rect(x: 0, y: 0, width: 5, height: 5), name: "flat")
        try one.addSubview(child)
        child.transform = Transform2D(scaleX: 0, y: 1)
        XCTAssertThrowsError(try one.convert(Point.zero, to: child))
        XCTAssertNoThrow(try child.convert(Point.zero, to: one))
    }
}
