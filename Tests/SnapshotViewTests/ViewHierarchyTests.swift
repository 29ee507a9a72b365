import RasterCore
import XCTest
import SnapshotView

final class ViewHierarchyTests: XCTestCase {
    func names(_ v: View) -> [String] { v.subviews.map { $0.name ?? "?" } }

    func testAddInsertAndReorder() throws {
        let root = View(name: "root")
        let a = View(name: "a"), b = View(name: "b"), c = View(name: "c"), d = View(name: "d")
        try root.addSubview(a)
        try root.addSubview(b)
        try root.insertSubview(c, at: 0)
        XCTAssertEqual(names(root), ["c", "a", "b"])
        try root.insertSubview(d, aboveSubview: a)
        XCTAssertEqual(names(root), ["c", "a", "d", "b"])
        try root.insertSubview(b, belowSubview: c)
        XCTAssertEqual(names(root), ["b", "c", "a", "d"])
        root.bringSubviewToFront(b)
        XCTAssertEqual(names(root), ["c", "a", "d", "b"])
        root.sendSubviewToBack(d)
        XCTAssertEqual(names(root), ["d", "c", "a", "b"])
        try root.insertSubview(a, at: 99)
        XCTAssertEqual(names(root), ["d", "c", "b", "a"])
        XCTAssertTrue(a.superview === root)

        // Adding to another view moves it.
        try d.addSubview(a)
        XCTAssertEqual(names(root), ["d", "c", "b"])
        XCTAssertTrue(a.superview === d)
        XCTAssertTrue(a.root === root)
        XCTAssertTrue(root.view(named: "a") === a)
        XCTAssertNil(root.view(named: "zzz"))
        XCTAssertEqual(root.subtree.map { $0.name! }, ["root", "d", "a", "c", "b"])

        a.removeFromSuperview()
        XCTAssertNil(a.superview)
        XCTAssertEqual(names(d), [])
        a.removeFromSuperview()  // nothing to do
    }

    func testAddingAViewToItsOwnDescendantIsRefused() throws {
        let outer = View(name: "outer"), inner = View(name: "inner"), leaf = View(name: "leaf")
        try outer.addSubview(inner)
        try inner.addSubview(leaf)
        XCTAssertThrowsError(try leaf.addSubview(outer)) { error in
            XCTAssertEqual(error as? ViewTreeError, .cycle(child: "'outer'", parent: "'leaf'"))
        }
        XCTAssertThrowsError(try inner.addSubview(inner))
        XCTAssertThrowsError(try leaf.insertSubview(inner, aboveSubview: leaf))
        XCTAssertThrowsError(try leaf.insertSubview(outer, belowSubview: leaf))
        // Nothing moved.
        XCTAssertTrue(inner.superview === outer)
        XCTAssertTrue(leaf.superview === inner)
    }

    func testTheSuperviewReferenceIsWeak() throws {
        let child = View(name: "child")
        do {
            let parent = View(name: "parent")
            try parent.addSubview(child)
            XCTAssertNotNil(child.superview)
        }
        XCTAssertNil(child.superview, "the child must not keep its superview alive")
    }

    func testTreeDescriptionNamesEveryView() throws {
        let root = View(frame: Rect(x: 0, y: 0, width: 10, height: 10), name: "root")
        let image = ImageView(image: try Bitmap(width: 4, height: 2, scale: 2), name: "thumb")
        try root.addSubview(image)
        let text = root.treeDescription()
        XCTAssertEqual(text, """
            View 'root' frame (0.0, 0.0, 10.0, 10.0)
              ImageView 'thumb' frame (0.0, 0.0, 2.0, 1.0) image 4x2@2.0x scaleToFill
            """)
    }

    final class Recorder: ViewChangeObserver {
        var changes: [(String, ViewProperty, AnimatableValue, AnimatableValue)] = []
        func view(_ view: View, changed property: ViewProperty, from old: AnimatableValue, to new: AnimatableValue) {
            changes.append((view.name ?? "?", property, old, new))
        }
    }

    func testAnimatableChangesAreReportedToTheInstalledObserver() {
        let v = View(frame: Rect(x: 0, y: 0, width: 10, height: 10), name: "v")
        let recorder = Recorder()
        v.alpha = 0.5  // no observer: not reported anywhere
        ViewChangeObservation.observing(recorder) {
            v.alpha = 0.25
            v.frame = Rect(x: 10, y: 0, width: 20, height: 10)
            v.backgroundColor = .white
            v.alpha = 0.25  // unchanged: not reported
            ViewChangeObservation.withoutObserver { v.cornerRadius = 3 }
        }
        v.alpha = 1
        XCTAssertEqual(recorder.changes.map { "\($0.0).\($0.1): \($0.2) -> \($0.3)" }, [
            "v.alpha: 0.5 -> 0.25",
            "v.center: (5.0, 5.0) -> (20.0, 5.0)",
            "v.bounds: (0.0, 0.0, 10.0, 10.0) -> (0.0, 0.0, 20.0, 10.0)",
            "v.backgroundColor: \(Color.clear) -> \(Color.white)",
        ])
        XCTAssertEqual(v.cornerRadius, 3)
    }

    func testModelValuesRoundTripThroughTheGenericAccessors() {
        let v = View(frame: Rect(x: 1, y: 2, width: 3, height: 4))
        v.setModelValue(.double(0.5), of: .alpha)
        v.setModelValue(.point(Point(x: 9, y: 9)), of: .center)
        v.setModelValue(.point(Point(x: 1, y: 1)), of: .alpha)  // wrong kind: ignored
        v.setModelValue(.color(.white), of: .backgroundColor)
        XCTAssertEqual(v.alpha, 0.5)
        XCTAssertEqual(v.center, Point(x: 9, y: 9))
        XCTAssertEqual(v.backgroundColor, .white)
        for p in ViewProperty.allCases {
            let value = v.modelValue(of: p)
            v.setModelValue(value, of: p)
            XCTAssertEqual(v.modelValue(of: p), value, "\(p)")
        }
    }
}
