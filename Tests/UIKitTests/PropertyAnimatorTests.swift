import SmokescreenStage
import XCTest

final class PropertyAnimatorTests: XCTestCase {
    private var stage: Stage!
    private var box: UIView!

    override func setUpWithError() throws {
        stage = try makeStage(width: 100, height: 100)
        box = UIView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
        stage.window.addSubview(box)
    }

    private var shownX: CGFloat { box.layer.presentation()!.frame.minX }

    func testAStartedAnimatorRunsItsCurveAndCompletesAtTheEnd() throws {
        var ended: (UIViewAnimatingPosition, Double)?
        let animator = UIViewPropertyAnimator(duration: 1, curve: .linear) { self.box.frame.origin.x = 100 }
        animator.addCompletion { ended = ($0, self.stage.time) }
        XCTAssertEqual(animator.state, .inactive)
        XCTAssertEqual(box.frame.minX, 0, "the animations run when it starts")
        animator.startAnimation()
        XCTAssertEqual(animator.state, .active)
        XCTAssertTrue(animator.isRunning)
        XCTAssertEqual(box.frame.minX, 100)
        try stage.wait(0.25)
        XCTAssertEqual(shownX, 25, accuracy: 1e-9)
        XCTAssertEqual(animator.fractionComplete, 0.25, accuracy: 1e-9)
        try stage.waitUntilIdle()
        XCTAssertEqual(ended?.0, .end)
        XCTAssertEqual(ended?.1 ?? 0, 1, accuracy: 1e-9)
        XCTAssertEqual(animator.state, .inactive)
    }

    func testPausedItScrubsReversesAndContinuesWithASpring() throws {
        var position: UIViewAnimatingPosition?
        let animator = UIViewPropertyAnimator(duration: 1, curve: .easeIn) { self.box.frame.origin.x = 100 }
        animator.addCompletion { position = $0 }
        animator.fractionComplete = 0.5
        XCTAssertEqual(animator.state, .active, "setting the fraction of an inactive animator activates it paused")
        XCTAssertFalse(animator.isRunning)
        XCTAssertEqual(shownX, 50, accuracy: 1e-9, "scrubbing is linear by default")
        animator.scrubsLinearly = false
        animator.fractionComplete = 0.5
        XCTAssertLessThan(shownX, 40, "through the ease-in curve")
        animator.scrubsLinearly = true
        animator.fractionComplete = 0.5
        animator.isReversed = true
        animator.continueAnimation(withTimingParameters: UISpringTimingParameters(dampingRatio: 1), durationFactor: 1)
        try stage.waitUntilIdle()
        XCTAssertEqual(position, .start)
        XCTAssertEqual(box.frame.minX, 0, "ending at the start puts the start values back")
    }

    func testStoppingKeepsWhatShowsAndFinishingPicksTheEnd() throws {
        var position: UIViewAnimatingPosition?
        let animator = UIViewPropertyAnimator(duration: 1, dampingRatio: 1) { self.box.alpha = 0 }
        animator.addCompletion { position = $0 }
        animator.startAnimation()
        try stage.wait(0.5)
        let shown = box.layer.presentation()!.opacity
        animator.stopAnimation(false)
        XCTAssertEqual(animator.state, .stopped)
        XCTAssertEqual(Float(box.alpha), shown, accuracy: 1e-6, "the model takes what was on screen")
        XCTAssertNil(position)
        animator.finishAnimation(at: .current)
        XCTAssertEqual(position, .current)
        XCTAssertEqual(animator.state, .inactive)
    }

    func testARunningAnimatorStartsAfterItsDelay() throws {
        var done = false
        let animator = UIViewPropertyAnimator.runningPropertyAnimator(withDuration: 0.5, delay: 0.5, options: [.curveLinear], animations: {
            self.box.frame.origin.x = 50
        }, completion: { _ in done = true })
        try stage.wait(0.4)
        XCTAssertEqual(shownX, 0)
        try stage.wait(0.35)
        XCTAssertEqual(shownX, 25, accuracy: 1e-9)
        XCTAssertEqual(animator.delay, 0.5)
        try stage.waitUntilIdle()
        XCTAssertTrue(done)
    }

    func testSpringParametersInEachSpelling() throws {
        let physical = UIViewPropertyAnimator(duration: 3, timingParameters: UISpringTimingParameters(mass: 1, stiffness: 100, damping: 20,
                                                                                                      initialVelocity: CGVector(dx: 0, dy: 0)))
        XCTAssertLessThan(physical.duration, 3, "a physical spring runs for its own settling time")
        let perceptual = UIViewPropertyAnimator(duration: 0, timingParameters: UISpringTimingParameters(duration: 0.4, bounce: 0.2))
        XCTAssertGreaterThan(perceptual.duration, 0.4, "it settles after its perceptual duration")
        XCTAssertEqual(UISpringTimingParameters().timingCurveType, .spring)
        XCTAssertEqual(UICubicTimingParameters(animationCurve: .easeOut).controlPoint2, CGPoint(x: 0.58, y: 1))
        XCTAssertEqual(UICubicTimingParameters(controlPoint1: .zero, controlPoint2: CGPoint(x: 1, y: 1)).timingCurveType, .cubic)
    }

    func testWithoutAStageAStartedAnimatorEndsAtOnce() throws {
        stage = nil
        let view = UIView(frame: .zero)
        var position: UIViewAnimatingPosition?
        let animator = UIViewPropertyAnimator(duration: 1, curve: .easeOut) { view.alpha = 0.5 }
        animator.addCompletion { position = $0 }
        animator.startAnimation()
        XCTAssertEqual(view.alpha, 0.5)
        XCTAssertEqual(position, .end)
    }
}
