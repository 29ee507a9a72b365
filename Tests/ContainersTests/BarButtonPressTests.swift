import Containers
import Motion
import RasterCore
import SnapshotView
import XCTest

/// A tapped bar button dims under the finger and fades back as the action starts.
final class BarButtonPressTests: XCTestCase {
    func testATapDimsTheButtonThenRunsTheActionAsItFadesBack() throws {
        let engine = AnimationEngine(fps: 100)
        let button = View(frame: Rect(x: 0, y: 0, width: 60, height: 44), name: "button")
        var actionTime: Double?
        BarButtonPress.tap({ button }, liftingAt: 0.5, on: engine) { actionTime = engine.currentTime }
        engine.advance(to: 0.39)
        XCTAssertEqual(engine.presentedAlpha(button), 1, "before the finger comes down")
        engine.advance(to: 0.4)
        XCTAssertEqual(engine.presentedAlpha(button), BarButtonPress.pressedAlpha, "down 0.1 s before the lift, dimmed at once")
        engine.advance(to: 0.49)
        XCTAssertEqual(engine.presentedAlpha(button), BarButtonPress.pressedAlpha)
        XCTAssertNil(actionTime, "nothing happens before the finger lifts")
        engine.advance(to: 0.5)
        XCTAssertEqual(actionTime, 0.5)
        // Back over 0.2 s, ease out: half the time is past more than half the way.
        engine.advance(to: 0.6)
        let halfway = BarButtonPress.pressedAlpha + (1 - BarButtonPress.pressedAlpha) * TimingCurve.easeOut.progress(at: 0.5)
        XCTAssertEqual(engine.presentedAlpha(button), halfway, accuracy: 1e-9)
        XCTAssertGreaterThan(halfway, (1 + BarButtonPress.pressedAlpha) / 2)
        engine.advance(to: 0.7)
        XCTAssertEqual(engine.presentedAlpha(button), 1)
        XCTAssertFalse(engine.isAnimating(button))
    }

    /// Inside a transition's animation block the fade keeps its own duration and curve; a tap sooner than
    /// the press lasts presses at once; a button gone by then is no error and the action still runs.
    func testTheFadeIgnoresAnEnclosingBlockAndAMissingButtonIsSkipped() throws {
        let engine = AnimationEngine(fps: 100)
        let button = View(frame: Rect(x: 0, y: 0, width: 60, height: 44), name: "button")
        engine.animate(duration: 2, options: .curveLinear, animations: {
            BarButtonPress.tap({ button }, liftingAt: 0.05, on: engine) {}
        })
        engine.advance(to: 0)
        XCTAssertEqual(engine.presentedAlpha(button), BarButtonPress.pressedAlpha)
        engine.advance(to: 0.05 + BarButtonPress.releaseDuration)
        XCTAssertEqual(engine.presentedAlpha(button), 1)
        var ran = false
        BarButtonPress.tap({ nil }, liftingAt: 0.3, on: engine) { ran = true }
        engine.advance(to: 1)
        XCTAssertTrue(ran)
    }

    /// A button its action takes away (a back button that pops its item) stays dimmed as it goes: its
    /// alpha never rises again, which would read as a flicker while the item fades out.
    func testAButtonThatLeavesStaysDimmed() throws {
        let engine = AnimationEngine(fps: 100)
        let button = View(frame: Rect(x: 0, y: 0, width: 60, height: 44), name: "back")
        BarButtonPress.tap({ button }, liftingAt: 0.2, on: engine, leaves: true) {
            engine.animate(duration: 0.35, animations: { button.alpha = 0 })
        }
        var last = 1.0
        for step in 0...60 {
            engine.advance(to: Double(step) / 100)
            let alpha = engine.presentedAlpha(button)
            XCTAssertLessThanOrEqual(alpha, last + 1e-12, "t = \(Double(step) / 100)")
            last = alpha
        }
        XCTAssertEqual(last, 0)
    }
}
