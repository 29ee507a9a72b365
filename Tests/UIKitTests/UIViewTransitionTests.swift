import SmokescreenStage
import XCTest

final class UIViewTransitionTests: XCTestCase {
    func testACrossDissolveMixesTheOldLookIntoTheNew() throws {
        let stage = try makeStage(width: 20, height: 20)
        let view = UIView(frame: CGRect(x: 0, y: 0, width: 20, height: 20))
        view.backgroundColor = .red
        stage.window.addSubview(view)
        var finished: Bool?
        UIView.transition(with: view, duration: 1, options: [.transitionCrossDissolve, .curveLinear], animations: {
            view.backgroundColor = .blue
        }, completion: { finished = $0 })
        XCTAssertEqual(view.backgroundColor, .blue, "the change is made at once")
        try stage.wait(0.5)
        let middle = try stage.bitmap(ofFrame: 5).rgba(10, 10)
        XCTAssertEqual(Double(middle[0]), 127.5, accuracy: 1)
        XCTAssertEqual(middle[1], 0)
        XCTAssertEqual(Double(middle[2]), 127.5, accuracy: 1)
        try stage.waitUntilIdle()
        XCTAssertEqual(finished, true)
        XCTAssertEqual(try stage.bitmap(ofFrame: stage.frameCount - 1).rgba(10, 10), [0, 0, 255, 255])
        XCTAssertTrue(view.subviews.isEmpty, "the old look is gone")
        XCTAssertEqual(stage.notDrawn, [])
    }

    func testAFlipNarrowsTheOldLookAndWidensTheNew() throws {
        let stage = try makeStage(width: 20, height: 20)
        let view = UIView(frame: CGRect(x: 0, y: 0, width: 20, height: 20))
        view.backgroundColor = .red
        stage.window.addSubview(view)
        UIView.transition(with: view, duration: 1, options: [.transitionFlipFromRight, .curveLinear], animations: {
            view.backgroundColor = .blue
        })
        try stage.wait(0.25)
        let quarter = try stage.bitmap(ofFrame: 2)
        XCTAssertEqual(quarter.rgba(10, 10), [255, 0, 0, 255], "the old look, narrowed")
        XCTAssertEqual(quarter.rgba(1, 10), [0, 0, 0, 255], "the screen beside it")
        try stage.wait(0.5)
        let threeQuarters = try stage.bitmap(ofFrame: 7)
        XCTAssertEqual(threeQuarters.rgba(10, 10), [0, 0, 255, 255], "the new look, widening")
        try stage.waitUntilIdle()
        XCTAssertEqual(view.transform, .identity)
        XCTAssertEqual(stage.notDrawn, ["UIView.transition flips (drawn flattened, without perspective)"])
    }

    func testTransitionFromToReplacesTheView() throws {
        let stage = try makeStage(width: 20, height: 20)
        let container = UIView(frame: CGRect(x: 0, y: 0, width: 20, height: 20))
        let a = UIView(frame: container.bounds), b = UIView(frame: container.bounds)
        stage.window.addSubview(container)
        container.addSubview(a)
        var finished: Bool?
        UIView.transition(from: a, to: b, duration: 0.3, options: .transitionCrossDissolve) { finished = $0 }
        XCTAssertNil(a.superview)
        XCTAssertTrue(b.superview === container)
        try stage.waitUntilIdle()
        XCTAssertEqual(finished, true)
        let c = UIView(frame: container.bounds)
        c.isHidden = true
        container.addSubview(c)
        UIView.transition(from: b, to: c, duration: 0.3, options: [.transitionCrossDissolve, .showHideTransitionViews])
        XCTAssertTrue(b.isHidden)
        XCTAssertFalse(c.isHidden)
        XCTAssertTrue(b.superview === container)
    }
}
