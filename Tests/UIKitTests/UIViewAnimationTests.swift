import SmokescreenStage
import XCTest

final class UIViewAnimationTests: XCTestCase {
    private var stage: Stage!
    private var box: UIView!

    override func setUpWithError() throws {
        stage = try makeStage(width: 100, height: 100)
        box = UIView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
        stage.window.addSubview(box)
    }

    /// The box's x as shown now.
    private var shownX: CGFloat { box.layer.presentation()!.frame.minX }

    private func x(at time: Double) throws -> CGFloat {
        try stage.wait(time - stage.time)
        return shownX
    }

    func testTheCurvesAreUIKitsNamedCurves() throws {
        // CSS/Core Animation values of the named curves half way (to 1e-3): ease in 0.315, ease out 0.685.
        let cases: [(UIView.AnimationOptions, CGFloat)] = [([], 0.5), (.curveEaseInOut, 0.5), (.curveLinear, 0.5), (.curveEaseIn, 0.3153), (.curveEaseOut, 0.6847)]
        for (options, expected) in cases {
            try setUpWithError()
            UIView.animate(withDuration: 1, delay: 0, options: options, animations: { self.box.frame.origin.x = 100 })
            XCTAssertEqual(box.frame.minX, 100, "the model value is the new one at once")
            XCTAssertEqual(try x(at: 0.5), 100 * expected, accuracy: 0.1, "options \(options.rawValue)")
        }
    }

    func testTheTwoArgumentFormsEaseInAndOut() throws {
        UIView.animate(withDuration: 1) { self.box.frame.origin.x = 100 }
        XCTAssertLessThan(try x(at: 0.1), 10)
        XCTAssertEqual(try x(at: 0.5), 50, accuracy: 1e-9)
    }

    func testADelayHoldsTheStartAndCompletionsRunAtTheExactEnd() throws {
        var completedAt: [Double] = []
        UIView.animate(withDuration: 0.25, delay: 0.5, options: .curveLinear, animations: { self.box.frame.origin.x = 100 }) { finished in
            XCTAssertTrue(finished)
            completedAt.append(self.stage.time)
        }
        XCTAssertEqual(try x(at: 0.5), 0)
        XCTAssertEqual(try x(at: 0.6), 40, accuracy: 1e-9)
        try stage.waitUntilIdle()
        XCTAssertEqual(completedAt, [0.75])
        // Frames at 0, 0.1, …, 0.8: the last tick after the end shows the end.
        XCTAssertEqual(stage.frameCount, 9)
    }

    func testABlockStartedFromACompletionStartsThen() throws {
        var secondStart: Double?
        UIView.animate(withDuration: 0.25, delay: 0, options: .curveLinear, animations: { self.box.frame.origin.x = 50 }) { _ in
            secondStart = self.stage.time
            UIView.animate(withDuration: 0.25, delay: 0, options: .curveLinear, animations: { self.box.frame.origin.x = 100 })
        }
        XCTAssertEqual(try x(at: 0.3), 50 + 50 * (0.05 / 0.25), accuracy: 1e-9)
        try stage.waitUntilIdle()
        XCTAssertEqual(secondStart, 0.25)
        XCTAssertEqual(shownX, 100)
    }

    func testNestedBlocksInheritTheOuterDurationUnlessTheyOverrideIt() throws {
        let other = UIView(frame: CGRect(x: 0, y: 20, width: 10, height: 10))
        stage.window.addSubview(other)
        var inherited: [TimeInterval] = []
        UIView.animate(withDuration: 1, delay: 0, options: .curveLinear, animations: {
            inherited.append(UIView.inheritedAnimationDuration)
            self.box.frame.origin.x = 100
            UIView.animate(withDuration: 5, delay: 0, options: [], animations: { other.frame.origin.x = 100 })
        })
        XCTAssertEqual(inherited, [1])
        XCTAssertEqual(UIView.inheritedAnimationDuration, 0)
        try stage.wait(0.5)
        XCTAssertEqual(other.layer.presentation()!.frame.minX, 50, accuracy: 1e-9, "inherits 1 s and the linear curve")
        try setUpWithError()
        let third = UIView(frame: CGRect(x: 0, y: 20, width: 10, height: 10))
        stage.window.addSubview(third)
        UIView.animate(withDuration: 1, delay: 0, options: .curveLinear, animations: {
            UIView.animate(withDuration: 2, delay: 0, options: [.overrideInheritedDuration, .overrideInheritedCurve, .curveLinear],
                           animations: { third.frame.origin.x = 100 })
        })
        try stage.wait(0.5)
        XCTAssertEqual(third.layer.presentation()!.frame.minX, 25, accuracy: 1e-9)
    }

    func testChangesWithoutAnimationApplyAtOnce() throws {
        UIView.animate(withDuration: 1, animations: {
            UIView.performWithoutAnimation { self.box.alpha = 0.5 }
            self.box.frame.origin.x = 100
        })
        try stage.wait(0.5)
        XCTAssertEqual(box.layer.presentation()!.opacity, 0.5)
        XCTAssertEqual(shownX, 50, accuracy: 1e-9)
        UIView.setAnimationsEnabled(false)
        defer { UIView.setAnimationsEnabled(true) }
        var finished: Bool?
        UIView.animate(withDuration: 1, animations: { self.box.alpha = 1 }, completion: { finished = $0 })
        XCTAssertEqual(box.layer.presentation()!.opacity, 1)
        XCTAssertEqual(finished, true)
    }

    func testRemovingAnimationsCompletesThemUnfinished() throws {
        var finished: Bool?
        UIView.animate(withDuration: 1, animations: { self.box.frame.origin.x = 100 }, completion: { finished = $0 })
        try stage.wait(0.5)
        XCTAssertNotNil(box.layer.animationKeys())
        box.layer.removeAllAnimations()
        try stage.wait(0.1)
        XCTAssertEqual(finished, false)
        XCTAssertEqual(shownX, 100)
        XCTAssertNil(box.layer.animationKeys())
    }

    func testANewAnimationAddsToOneInFlightUnlessItBeginsFromTheCurrentState() throws {
        UIView.animate(withDuration: 1, delay: 0, options: .curveLinear, animations: { self.box.frame.origin.x = 100 })
        try stage.wait(0.5)
        // Additive: the new animation starts from the old model value (100), the old one's offset still
        // on top, so nothing jumps.
        UIView.animate(withDuration: 1, delay: 0, options: .curveLinear, animations: { self.box.frame.origin.x = 0 })
        XCTAssertEqual(shownX, 50, accuracy: 1e-9)
        try setUpWithError()
        UIView.animate(withDuration: 1, delay: 0, options: .curveLinear, animations: { self.box.frame.origin.x = 100 })
        try stage.wait(0.5)
        UIView.animate(withDuration: 1, delay: 0, options: [.curveLinear, .beginFromCurrentState], animations: { self.box.frame.origin.x = 0 })
        try stage.wait(0.5)
        XCTAssertEqual(shownX, 25, accuracy: 1e-9, "from 50 (where it was) to 0, half way")
    }

    func testRepeatingForeverNeverBecomesIdleAndSaysSo() throws {
        UIView.animate(withDuration: 0.5, delay: 0, options: [.repeat, .autoreverse], animations: { self.box.alpha = 0 })
        XCTAssertThrowsError(try stage.waitUntilIdle(timeLimit: 2)) { error in
            guard case StageError.stillRunning(let after, let running) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(after, 2)
            XCTAssertFalse(running.isEmpty)
            XCTAssertTrue("\(error)".contains("still animating after 2 s"), "\(error)")
        }
        XCTAssertEqual(stage.frameCount, 21, "a frame every 0.1 s up to the limit")
    }

    func testSpringsLandAtTheirDurationAndOvershootWhenUnderdamped() throws {
        var ended: Double?
        UIView.animate(withDuration: 1, delay: 0, usingSpringWithDamping: 1, initialSpringVelocity: 0, options: [],
                       animations: { self.box.frame.origin.x = 100 }, completion: { _ in ended = self.stage.time })
        var previous: CGFloat = 0
        for _ in 0..<10 {
            try stage.wait(0.1)
            XCTAssertGreaterThanOrEqual(shownX, previous, "critically damped: no overshoot")
            previous = shownX
        }
        try stage.waitUntilIdle()
        XCTAssertEqual(ended, 1)
        try setUpWithError()
        UIView.animate(withDuration: 1, delay: 0, usingSpringWithDamping: 0.3, initialSpringVelocity: 0, options: [],
                       animations: { self.box.frame.origin.x = 100 })
        var peak: CGFloat = 0
        for _ in 0..<10 {
            try stage.wait(0.1)
            peak = max(peak, shownX)
        }
        XCTAssertGreaterThan(peak, 100)
    }

    func testTheIOS17SpringRunsUntilItSettles() throws {
        var ended: Double?
        UIView.animate(springDuration: 0.5, bounce: 0.3, animations: { self.box.frame.origin.x = 100 }, completion: { _ in ended = self.stage.time })
        try stage.waitUntilIdle()
        XCTAssertNotNil(ended)
        XCTAssertGreaterThan(ended ?? 0, 0.5, "a bouncy spring settles after its perceptual duration")
        XCTAssertEqual(shownX, 100)
    }

    func testKeyframesReachTheirValuesAtTheirTimes() throws {
        UIView.animateKeyframes(withDuration: 1, delay: 0, options: UIView.KeyframeAnimationOptions(rawValue: UIView.AnimationOptions.curveLinear.rawValue),
                                animations: {
            UIView.addKeyframe(withRelativeStartTime: 0, relativeDuration: 0.5) { self.box.frame.origin.x = 10 }
            UIView.addKeyframe(withRelativeStartTime: 0.5, relativeDuration: 0.5) { self.box.frame.origin.x = 30 }
        })
        XCTAssertEqual(try x(at: 0.25), 5, accuracy: 1e-9)
        XCTAssertEqual(try x(at: 0.5), 10, accuracy: 1e-9)
        XCTAssertEqual(try x(at: 0.75), 20, accuracy: 1e-9)
        try setUpWithError()
        // Discrete: each keyframe's value shows from the end of its keyframe (Core Animation's discrete
        // mode over the values UIKit gives it, one at each keyframe's end). The whole runs on a linear curve:
        // keyframe animations ease in and out by default, as UIKit's.
        let discreteAndLinear = UIView.KeyframeAnimationOptions(rawValue: UIView.AnimationOptions.curveLinear.rawValue).union(.calculationModeDiscrete)
        UIView.animateKeyframes(withDuration: 1, delay: 0, options: discreteAndLinear, animations: {
            UIView.addKeyframe(withRelativeStartTime: 0.2, relativeDuration: 0) { self.box.frame.origin.x = 10 }
            UIView.addKeyframe(withRelativeStartTime: 0.5, relativeDuration: 0.3) { self.box.frame.origin.x = 30 }
        })
        XCTAssertEqual(try x(at: 0.1), 0)
        XCTAssertEqual(try x(at: 0.3), 10)
        XCTAssertEqual(try x(at: 0.7), 10)
        XCTAssertEqual(try x(at: 0.9), 30)
    }

    func testWithoutAStageChangesApplyAndCompleteAtOnce() throws {
        stage = nil
        let view = UIView(frame: .zero)
        var finished: Bool?
        UIView.animate(withDuration: 1, animations: { view.alpha = 0.25 }, completion: { finished = $0 })
        XCTAssertEqual(view.alpha, 0.25)
        XCTAssertEqual(finished, true)
    }
}
