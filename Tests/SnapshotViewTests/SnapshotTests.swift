import RasterCore
import XCTest
import SnapshotView

final class SnapshotTests: XCTestCase {
    let red = Color(red: 1, green: 0, blue: 0)
    let cellColor = Color(red: 0.2, green: 0.4, blue: 0.6)

    /// A cell with a background and a thumbnail, inside a scrolled list, inside a canvas.
    func makeTree() throws -> (canvas: View, list: ScrollView, cell: View) {
        let canvas = View(frame: Rect(x: 0, y: 0, width: 24, height: 24), name: "canvas")
        canvas.backgroundColor = .white
        let list = ScrollView(frame: Rect(x: 2, y: 4, width: 20, height: 18), name: "list")
        list.contentSize = Size(width: 20, height: 40)
        list.contentOffset = Point(x: 0, y: 3)
        let cell = View(frame: Rect(x: 0, y: 6, width: 20, height: 8), name: "cell")
        cell.backgroundColor = cellColor
        cell.isOpaque = true
        let thumb = View(frame: Rect(x: 2, y: 2, width: 4, height: 4), name: "thumb")
        thumb.backgroundColor = red
        try canvas.addSubview(list); try list.addSubview(cell); try cell.addSubview(thumb)
        return (canvas, list, cell)
    }

    func testClearBackgroundLeavesContentAndRestoresProperties() throws {
        let (_, _, cell) = try makeTree()
        for scale in [1.0, 2.0] {
            let plain = try cell.snapshot(scale: scale)
            let clear = try cell.snapshot(scale: scale, clearBackground: true)
            XCTAssertEqual(plain.width, Int(20 * scale))
            XCTAssertEqual(plain.height, Int(8 * scale))
            XCTAssertEqual(plain[0, 0], cellColor.premultiplied)
            XCTAssertEqual(clear[0, 0], .clear, "background pixels are fully transparent @\(scale)x")
            let s = Int(scale)
            for y in 0..<clear.height { for x in 0..<clear.width {
                let inThumb = (2 * s..<6 * s).contains(x) && (2 * s..<6 * s).contains(y)
                XCTAssertEqual(clear[x, y], inThumb ? plain[x, y] : .clear, "(\(x), \(y)) @\(scale)x")
            } }
            XCTAssertEqual(cell.backgroundColor, cellColor, "restored")
            XCTAssertTrue(cell.isOpaque, "restored")
        }
    }

    func testPropertiesAreRestoredWhenRenderingFails() throws {
        let view = View(frame: Rect(x: 0, y: 0, width: 0, height: 5), name: "empty")
        view.backgroundColor = red
        view.isOpaque = true
        XCTAssertThrowsError(try view.snapshot(scale: 2, clearBackground: true)) { error in
            guard case .unrenderable(let name, _)? = error as? ViewTreeError else { return XCTFail("\(error)") }
            XCTAssertEqual(name, "'empty'")
        }
        XCTAssertEqual(view.backgroundColor, red)
        XCTAssertTrue(view.isOpaque)
        let huge = View(frame: Rect(x: 0, y: 0, width: 100_000, height: 100_000))
        XCTAssertThrowsError(try huge.snapshot(scale: 3))
    }

    func testClearingTheBackgroundIsNotReportedAsAnAnimatableChange() throws {
        final class Counter: ViewChangeObserver {
            var count = 0
            func view(_ view: View, changed property: ViewProperty, from old: AnimatableValue, to new: AnimatableValue) { count += 1 }
        }
        let (_, _, cell) = try makeTree()
        let counter = Counter()
        _ = try ViewChangeObservation.observing(counter) { try cell.snapshot(scale: 1, clearBackground: true) }
        XCTAssertEqual(counter.count, 0)
    }

    func testASnapshotViewAtTheConvertedRectRendersLikeTheOriginal() throws {
        let (canvas, _, cell) = try makeTree()
        for scale in [1.0, 2.0] {
            let before = try canvas.snapshot(scale: scale)
            // A smokescreen over everything, with the cell's snapshot at the cell's rect converted into it.
            let smokescreen = View(frame: canvas.bounds, name: "smokescreen")
            try canvas.addSubview(smokescreen)
            let snap = try cell.snapshotView(scale: scale)
            snap.frame = try cell.convert(cell.bounds, to: smokescreen)
            try smokescreen.addSubview(snap)
            // Hide the real cell: the snapshot alone must reproduce it exactly.
            cell.isHidden = true
            XCTAssertEqual(try canvas.snapshot(scale: scale), before, "@\(scale)x")
            cell.isHidden = false
            smokescreen.removeFromSuperview()
        }
    }

    func testASnapshotViewCarriesTheTransformOfTheOriginal() throws {
        let canvas = View(frame: Rect(x: 0, y: 0, width: 16, height: 16))
        let card = View(frame: Rect(x: 4, y: 6, width: 8, height: 4), name: "card")
        card.backgroundColor = red
        card.transform = Transform2D(rotationAngle: .pi / 2)
        try canvas.addSubview(card)
        let before = try canvas.snapshot(scale: 1)
        let snap = try card.snapshotView(scale: 1)
        XCTAssertEqual(snap.name, "snapshot of card")
        XCTAssertEqual(snap.frame, card.frame)
        XCTAssertEqual(snap.image?.width, 8)
        card.removeFromSuperview()
        try canvas.addSubview(snap)
        XCTAssertEqual(try canvas.snapshot(scale: 1), before)
    }

    func testSnapshotIgnoresTheViewsOwnAlphaAndPositionButNotItsSubviews() throws {
        let (_, _, cell) = try makeTree()
        let reference = try cell.snapshot(scale: 1)
        cell.alpha = 0.3
        cell.isHidden = true
        cell.center = Point(x: 100, y: 100)
        XCTAssertEqual(try cell.snapshot(scale: 1), reference)
        cell.subviews[0].alpha = 0
        XCTAssertNotEqual(try cell.snapshot(scale: 1), reference)
    }

    func testRenderingAFrozenTreeIntoAReusedBitmap() throws {
        let (canvas, _, _) = try makeTree()
        let expected = try ViewRenderer.render(canvas, scale: 2)
        var frame = try Bitmap(pointSize: canvas.bounds.size, scale: 2, fill: .black)
        let node = try XCTUnwrap(canvas.renderNode())
        ViewRenderer.draw(node, into: &frame)
        XCTAssertEqual(frame, expected)
        // The frozen tree no longer depends on the views.
        canvas.backgroundColor = red
        ViewRenderer.draw(node, into: &frame)
        XCTAssertEqual(frame, expected)
    }
}
