import RasterCore
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

    func testAFlipTurnsTheOldLookAwayAndTheNewInInPerspective() throws {
        let stage = try makeStage(width: 200, height: 200)
        let view = UIView(frame: CGRect(x: 50, y: 50, width: 100, height: 100))
        view.backgroundColor = .red
        stage.window.addSubview(view)
        UIView.transition(with: view, duration: 1, options: [.transitionFlipFromRight, .curveLinear], animations: {
            view.backgroundColor = .blue
        })
        // Rows where the colour covers at least half the pixel (its edges are anti-aliased).
        func height(_ frame: Bitmap, _ x: Int, _ color: [UInt8]) -> Int {
            (0..<200).filter { y in let p = frame.rgba(x, y); return (0..<3).allSatisfy { abs(Int(p[$0]) - Int(color[$0])) < 128 } }.count
        }
        try stage.wait(0.25)
        let quarter = try stage.bitmap(ofFrame: 2)
        let red: [UInt8] = [255, 0, 0, 255], blue: [UInt8] = [0, 0, 255, 255]
        XCTAssertEqual(quarter.rgba(100, 100), red, "the old look, turning away")
        XCTAssertEqual(quarter.rgba(52, 100), [0, 0, 0, 255], "the screen beside it: turned a quarter, it is narrower")
        // From the right: the right side comes to the front, so it is the taller edge.
        XCTAssertGreaterThan(height(quarter, 125, red), 100)
        XCTAssertLessThan(height(quarter, 75, red), 100)
        try stage.wait(0.5)
        let threeQuarters = try stage.bitmap(ofFrame: 7)
        XCTAssertEqual(threeQuarters.rgba(100, 100), blue, "the new look, turning in from the other side")
        XCTAssertGreaterThan(height(threeQuarters, 75, blue), height(threeQuarters, 125, blue), "its left side is nearer now")
        try stage.waitUntilIdle()
        XCTAssertEqual(view.transform, .identity)
        XCTAssertEqual(view.layer.transform, CATransform3DIdentity, "the layer's own transform back")
        XCTAssertEqual(try stage.bitmap(ofFrame: stage.frameCount - 1).rgba(52, 100), blue)
        XCTAssertEqual(stage.notDrawn, [])
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
