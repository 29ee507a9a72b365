import SmokescreenStage
import XCTest

final class UIViewHierarchyTests: XCTestCase {
    func testTreeCallsThatUIKitIgnoresAreIgnored() {
        let a = UIView(), b = UIView()
        a.addSubview(b)
        a.addSubview(a)          // itself
        b.addSubview(a)          // an ancestor: a cycle
        XCTAssertEqual(a.subviews.count, 1)
        XCTAssertTrue(b.subviews.isEmpty)
        XCTAssertNil(a.superview)
        b.removeFromSuperview()
        b.removeFromSuperview()  // twice is fine
        XCTAssertTrue(a.subviews.isEmpty)
    }

    func testOrderingCallsPlaceViewsAndTheirLayers() {
        let parent = UIView()
        let views = (0..<4).map { i -> UIView in
            let view = UIView()
            view.tag = i + 1
            parent.addSubview(view)
            return view
        }
        let extra = CALayer()
        parent.layer.insertSublayer(extra, above: views[1].layer)
        func order() -> [Int] { parent.subviews.map(\.tag) }
        parent.bringSubviewToFront(views[0])
        XCTAssertEqual(order(), [2, 3, 4, 1])
        parent.sendSubviewToBack(views[3])
        XCTAssertEqual(order(), [4, 2, 3, 1])
        parent.insertSubview(views[0], belowSubview: views[1])
        XCTAssertEqual(order(), [4, 1, 2, 3])
        parent.insertSubview(views[3], aboveSubview: views[2])
        XCTAssertEqual(order(), [1, 2, 3, 4])
        parent.exchangeSubview(at: 0, withSubviewAt: 3)
        XCTAssertEqual(order(), [4, 2, 3, 1])
        parent.insertSubview(UIView(), at: 99)
        XCTAssertEqual(parent.subviews.count, 5)
        // The layers follow the views; the plain sublayer stays just above the view it was above.
        let layerOrder = (parent.layer.sublayers ?? []).map { layer in parent.subviews.first { $0.layer === layer }?.tag ?? -1 }
        XCTAssertEqual(layerOrder.filter { $0 > 0 }, [4, 2, 3, 1])
        XCTAssertEqual(parent.layer.sublayers?.firstIndex { $0 === extra }, (parent.layer.sublayers ?? []).firstIndex { $0 === views[1].layer }.map { $0 + 1 })
        XCTAssertEqual(parent.viewWithTag(3), views[2])
        XCTAssertNil(parent.viewWithTag(42))
    }

    func testCallbacksComeInUIKitsOrder() throws {
        let stage = try makeStage()
        final class Logged: UIView {
            var log: [String] = []
            override func willMove(toSuperview newSuperview: UIView?) { log.append("willMoveToSuperview \(newSuperview == nil ? "nil" : "view")") }
            override func didMoveToSuperview() { log.append("didMoveToSuperview") }
            override func willMove(toWindow newWindow: UIWindow?) { log.append("willMoveToWindow \(newWindow == nil ? "nil" : "window")") }
            override func didMoveToWindow() { log.append("didMoveToWindow") }
            override func didAddSubview(_ subview: UIView) { log.append("didAddSubview") }
            override func willRemoveSubview(_ subview: UIView) { log.append("willRemoveSubview") }
        }
        let parent = Logged(), child = Logged(), grandchild = Logged()
        child.addSubview(grandchild)
        XCTAssertEqual(child.log, ["didAddSubview"])
        XCTAssertEqual(grandchild.log, ["willMoveToSuperview view", "didMoveToSuperview"])
        stage.window.addSubview(parent)
        parent.log = []; child.log = []; grandchild.log = []
        parent.addSubview(child)
        XCTAssertEqual(child.log, ["willMoveToSuperview view", "willMoveToWindow window", "didMoveToWindow", "didMoveToSuperview"])
        XCTAssertEqual(grandchild.log, ["willMoveToWindow window", "didMoveToWindow"])
        XCTAssertEqual(parent.log, ["didAddSubview"])
        parent.log = []; child.log = []; grandchild.log = []
        child.removeFromSuperview()
        XCTAssertEqual(child.log, ["willMoveToSuperview nil", "willMoveToWindow nil", "didMoveToWindow", "didMoveToSuperview"])
        XCTAssertEqual(parent.log, ["willRemoveSubview"])
        XCTAssertNil(grandchild.window)
    }

    func testConvertFollowsTransformsAndBounds() throws {
        let stage = try makeStage(width: 200, height: 200)
        let a = UIView(frame: CGRect(x: 50, y: 50, width: 100, height: 100))
        let b = UIView(frame: CGRect(x: 10, y: 20, width: 40, height: 40))
        stage.window.addSubview(a)
        a.addSubview(b)
        XCTAssertEqual(b.convert(CGPoint(x: 0, y: 0), to: nil), CGPoint(x: 60, y: 70))
        XCTAssertEqual(a.convert(CGPoint(x: 60, y: 70), from: nil), CGPoint(x: 10, y: 20))
        XCTAssertEqual(b.convert(b.bounds, to: stage.window), CGRect(x: 60, y: 70, width: 40, height: 40))
        // A scroll: the bounds' origin moves what is inside.
        a.bounds.origin = CGPoint(x: 0, y: 10)
        XCTAssertEqual(b.convert(CGPoint.zero, to: nil), CGPoint(x: 60, y: 60))
        // A scale about the centre (100, 100) of a.
        a.bounds.origin = .zero
        a.transform = CGAffineTransform(scaleX: 2, y: 2)
        XCTAssertEqual(a.convert(CGPoint(x: 0, y: 0), to: nil), CGPoint(x: 0, y: 0))
        XCTAssertEqual(a.convert(CGPoint(x: 100, y: 100), to: nil), CGPoint(x: 200, y: 200))
        // The frame of a transformed view is the bounding box of its transformed bounds.
        XCTAssertEqual(a.frame, CGRect(x: 0, y: 0, width: 200, height: 200))
    }

    func testHitTestingFindsTheFrontmostInteractiveView() throws {
        let stage = try makeStage(width: 100, height: 100)
        let back = UIView(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        let front = UIView(frame: CGRect(x: 0, y: 0, width: 50, height: 50))
        let hidden = UIView(frame: CGRect(x: 0, y: 0, width: 20, height: 20))
        let image = UIImageView(frame: CGRect(x: 60, y: 60, width: 20, height: 20))
        hidden.isHidden = true
        stage.window.addSubview(back)
        back.addSubview(front)
        front.addSubview(hidden)
        back.addSubview(image)
        XCTAssertTrue(stage.window.hitTest(CGPoint(x: 10, y: 10), with: nil) === front)
        XCTAssertTrue(stage.window.hitTest(CGPoint(x: 70, y: 70), with: nil) === back)  // image views take no touches
        front.isUserInteractionEnabled = false
        XCTAssertTrue(stage.window.hitTest(CGPoint(x: 10, y: 10), with: nil) === back)
        XCTAssertNil(stage.window.hitTest(CGPoint(x: 150, y: 10), with: nil))
    }

    func testSafeAreaInsetsAreTheDevicesWhereAViewReachesIntoThem() throws {
        let device = Device(name: "notched", size: CGSize(width: 100, height: 200), scale: 1,
                            safeAreaInsets: UIEdgeInsets(top: 40, left: 0, bottom: 20, right: 0))
        let stage = try Stage(device: device, fps: 10)
        let full = UIView(frame: stage.window.bounds)
        let middle = UIView(frame: CGRect(x: 0, y: 50, width: 100, height: 100))
        let top = UIView(frame: CGRect(x: 0, y: 30, width: 100, height: 100))
        for view in [full, middle, top] { stage.window.addSubview(view) }
        XCTAssertEqual(stage.window.safeAreaInsets, UIEdgeInsets(top: 40, left: 0, bottom: 20, right: 0))
        XCTAssertEqual(full.safeAreaInsets, UIEdgeInsets(top: 40, left: 0, bottom: 20, right: 0))
        XCTAssertEqual(middle.safeAreaInsets, .zero)
        XCTAssertEqual(top.safeAreaInsets, UIEdgeInsets(top: 10, left: 0, bottom: 0, right: 0))
        XCTAssertEqual(UIView().safeAreaInsets, .zero)
    }

    func testLayoutRunsTopDownOnlyWhereNeeded() throws {
        let stage = try makeStage()
        final class Counting: UIView {
            var passes = 0
            override func layoutSubviews() { passes += 1 }
        }
        let parent = Counting(frame: CGRect(x: 0, y: 0, width: 40, height: 30))
        let child = Counting(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
        parent.addSubview(child)
        stage.window.addSubview(parent)
        stage.layOut()
        XCTAssertEqual([parent.passes, child.passes], [1, 1])
        stage.layOut()
        XCTAssertEqual([parent.passes, child.passes], [1, 1])
        child.frame.size.width = 20   // a new size asks for layout
        stage.layOut()
        XCTAssertEqual([parent.passes, child.passes], [1, 2])
        child.frame.origin.x = 5      // moving does not
        parent.setNeedsLayout()
        parent.layoutIfNeeded()
        XCTAssertEqual([parent.passes, child.passes], [2, 2])
    }
}
