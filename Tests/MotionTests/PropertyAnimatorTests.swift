import Motion
import RasterCore
import SnapshotView
import XCTest

final class PropertyAnimatorTests: XCTestCase {
    private func animator(_ engine: AnimationEngine, _ card: View, duration: Double = 1,
                          curve: TimingCurve = .easeInEaseOut) -> PropertyAnimator {
        PropertyAnimator(engine: engine, duration: duration, curve: curve) {
            card.center.x = 100
            card.alpha = 0
            card.transform = RasterCore.Transform2D(rotationAngle: 1)
        }
    }

    func testRunsToTheEndAndCompletesAtItsExactTime() {
        let engine = AnimationEngine()
        let card = makeView("card")
        let a = animator(engine, card)
        XCTAssertEqual(a.state, .inactive)
        XCTAssertEqual(card.center.x, 0, "animations run when the animator starts")
        var ended: (PropertyAnimator.Position, Double)?
        a.addCompletion { ended = ($0, engine.currentTime) }
        engine.advance(to: 0.2)
        a.startAnimation()
        XCTAssertEqual(a.state, .active)
        XCTAssertTrue(a.isRunning)
        XCTAssertEqual(card.center.x, 100)
        engine.advance(to: 0.7)
        XCTAssertEqual(engine.x(of: card), 50, accuracy: 1e-12)
        XCTAssertEqual(a.fractionComplete, 0.5, accuracy: 1e-12)
        engine.advance(to: 2)
        XCTAssertEqual(ended?.0, .end)
        XCTAssertEqual(ended?.1, 1.2)
        XCTAssertEqual(a.state, .inactive)
        XCTAssertEqual(engine.x(of: card), 100)
        XCTAssertTrue(engine.isIdle)
    }

    func testScrubbingIsLinearByDefault() {
        let engine = AnimationEngine()
        let card = makeView("card")
        let a = animator(engine, card)
        a.fractionComplete = 0.3  // activates it paused
        XCTAssertEqual(a.state, .active)
        XCTAssertFalse(a.isRunning)
        XCTAssertEqual(engine.x(of: card), 30, accuracy: 1e-12)
        XCTAssertEqual(engine.alpha(of: card), 0.7, accuracy: 1e-12)
        XCTAssertEqual(a.fractionComplete, 0.3)

        let b = animator(engine, makeView("other"))
        b.scrubsLinearly = false
        b.pauseAnimation()
        b.fractionComplete = 0.3
        engine.advance(to: 5)  // paused: time does not move it
        XCTAssertEqual(b.fractionComplete, 0.3)
        XCTAssertFalse(engine.isIdle)
    }

    func testScrubThroughTheCurveWhenNotLinear() {
        let engine = AnimationEngine()
        let card = makeView("card")
        let a = animator(engine, card)
        a.scrubsLinearly = false
        a.fractionComplete = 0.3
        XCTAssertEqual(engine.x(of: card), 100 * TimingCurve.easeInEaseOut.progress(at: 0.3), accuracy: 1e-12)
    }

    func testResumingAfterScrubbingCoversTheRestWithoutAJump() {
        let engine = AnimationEngine()
        let card = makeView("card")
        let a = animator(engine, card, duration: 2)
        var end: Double?
        a.addCompletion { _ in end = engine.currentTime }
        a.fractionComplete = 0.4
        engine.advance(to: 1)
        a.startAnimation()
        XCTAssertEqual(engine.x(of: card), 40, accuracy: 1e-12)
        engine.advance(to: 1.6)  // half of the remaining 1.2 s
        XCTAssertEqual(engine.x(of: card), 40 + 60 * TimingCurve.easeInEaseOut.progress(at: 0.5), accuracy: 1e-9)
        XCTAssertEqual(a.fractionComplete, 0.7, accuracy: 1e-12)
        engine.advance(to: 3)
        XCTAssertEqual(end, 2.2)
    }

    func testPausingARunningAnimatorKeepsWhatIsOnScreen() {
        let engine = AnimationEngine()
        let card = makeView("card")
        let a = animator(engine, card, curve: .easeIn)
        a.startAnimation()
        engine.advance(to: 0.5)
        let shown = engine.x(of: card)
        a.pauseAnimation()
        XCTAssertEqual(engine.x(of: card), shown)
        XCTAssertEqual(a.fractionComplete, shown / 100, accuracy: 1e-12, "reads the visual progress")
        a.fractionComplete = a.fractionComplete
        XCTAssertEqual(engine.x(of: card), shown, accuracy: 1e-12, "writing it back moves nothing")
    }

    func testCancellingReturnsEveryPropertyToItsStart() {
        let engine = AnimationEngine()
        let card = makeView("card")
        let a = animator(engine, card)
        var position: PropertyAnimator.Position?
        var at: Double?
        a.addCompletion { position = $0; at = engine.currentTime }
        a.startAnimation()
        engine.advance(to: 0.5)
        a.pauseAnimation()
        a.isReversed = true
        a.continueAnimation(withTimingParameters: nil, durationFactor: 1)
        engine.advance(to: 0.75)
        XCTAssertLessThan(engine.x(of: card), 50)
        engine.advance(to: 2)
        XCTAssertEqual(position, .start)
        XCTAssertEqual(at, 1.0, "half the duration back")
        XCTAssertEqual(card.center.x, 0)
        XCTAssertEqual(card.alpha, 1)
        XCTAssertEqual(card.transform, .identity)
        XCTAssertEqual(engine.presentationValue(of: .transform, of: card), .transform(.identity))
        XCTAssertEqual(a.fractionComplete, 0)
    }

    func testReversingWhileRunningTurnsRoundAtOnce() {
        let engine = AnimationEngine()
        let card = makeView("card")
        let a = animator(engine, card, curve: .linear)
        var position: PropertyAnimator.Position?
        a.addCompletion { position = $0 }
        a.startAnimation()
        engine.advance(to: 0.4)
        a.isReversed = true
        XCTAssertEqual(engine.x(of: card), 40, accuracy: 1e-12)
        engine.advance(to: 0.6)
        XCTAssertEqual(engine.x(of: card), 20, accuracy: 1e-12)
        engine.advance(to: 0.8)
        XCTAssertEqual(position, .start)
        XCTAssertEqual(card.center.x, 0)
    }

    func testStopAndFinishAtEachPosition() {
        for position in [PropertyAnimator.Position.current, .start, .end] {
            let engine = AnimationEngine()
            let card = makeView("card")
            let a = animator(engine, card, curve: .linear)
            var told: PropertyAnimator.Position?
            a.addCompletion { told = $0 }
            a.startAnimation()
            engine.advance(to: 0.25)
            a.stopAnimation(false)
            XCTAssertEqual(a.state, .stopped)
            XCTAssertEqual(card.center.x, 25, accuracy: 1e-12, "the model keeps what was on screen")
            XCTAssertEqual(engine.x(of: card), 25, accuracy: 1e-12)
            XCTAssertNil(told)
            a.finishAnimation(at: position)
            XCTAssertEqual(told, position)
            XCTAssertEqual(a.state, .inactive)
            let expected = ["current": 25.0, "start": 0, "end": 100][position.rawValue]!
            XCTAssertEqual(card.center.x, expected, accuracy: 1e-12)
        }
    }

    func testStopWithoutFinishingRunsNoCompletion() {
        let engine = AnimationEngine()
        let card = makeView("card")
        let a = animator(engine, card, curve: .linear)
        var called = false
        a.addCompletion { _ in called = true }
        a.startAnimation()
        engine.advance(to: 0.5)
        a.stopAnimation(true)
        a.finishAnimation(at: .end)  // ignored: not stopped
        engine.advance(to: 3)
        XCTAssertFalse(called)
        XCTAssertEqual(a.state, .inactive)
        XCTAssertEqual(card.center.x, 50, accuracy: 1e-12)
        XCTAssertTrue(engine.isIdle)
    }

    func testPausesOnCompletion() {
        let engine = AnimationEngine()
        let card = makeView("card")
        let a = animator(engine, card)
        a.pausesOnCompletion = true
        var called = false
        a.addCompletion { _ in called = true }
        a.startAnimation()
        engine.advance(to: 2)
        XCTAssertFalse(called)
        XCTAssertEqual(a.state, .active)
        XCTAssertFalse(a.isRunning)
        XCTAssertEqual(a.fractionComplete, 1)
        // Paused at the end it can go back.
        a.isReversed = true
        a.startAnimation()
        engine.advance(to: 2.5)
        XCTAssertEqual(engine.x(of: card), 50, accuracy: 1e-12)
    }

    func testStartAfterDelayShowsTheStartValues() {
        let engine = AnimationEngine()
        let card = makeView("card")
        let a = animator(engine, card, curve: .linear)
        a.startAnimation(afterDelay: 0.5)
        XCTAssertTrue(a.isRunning)
        engine.advance(to: 0.4)
        XCTAssertEqual(engine.x(of: card), 0)
        engine.advance(to: 1)
        XCTAssertEqual(engine.x(of: card), 50, accuracy: 1e-12)
        XCTAssertEqual(engine.records[0].start, 0.5)
        engine.advance(to: 2)
        XCTAssertEqual(a.state, .inactive)
        a.pauseAnimation()  // a new run, paused at once: no delay from the last start
        XCTAssertEqual(engine.records[1].start, 2)
        XCTAssertEqual(a.delay, 0)
    }

    func testAnimationsAddedWhileRunningFinishWithIt() {
        let engine = AnimationEngine()
        let card = makeView("card"), badge = makeView("badge")
        let a = animator(engine, card, curve: .linear)
        a.startAnimation()
        engine.advance(to: 0.5)
        a.addAnimations { badge.center.x = 100 }
        XCTAssertEqual(engine.x(of: badge), 0, "joins without a jump")
        engine.advance(to: 0.75)
        XCTAssertEqual(engine.x(of: badge), 50, accuracy: 1e-12)
        engine.advance(to: 1)
        XCTAssertEqual(engine.x(of: badge), 100)
        XCTAssertTrue(engine.isIdle)
    }

    func testNestedBlocksJoinTheAnimator() {
        let engine = AnimationEngine()
        let card = makeView("card"), row = makeView("row")
        var nestedFinished: Bool?
        let a = PropertyAnimator(engine: engine, duration: 1, curve: .linear) {
            card.center.x = 100
            engine.animate(duration: 0.1, animations: { row.alpha = 0 }, completion: { nestedFinished = $0 })
        }
        a.fractionComplete = 0.6
        XCTAssertEqual(engine.alpha(of: row), 0.4, accuracy: 1e-12, "follows the animator, not its own 0.1 s")
        a.startAnimation()
        engine.runUntilIdle()
        XCTAssertEqual(nestedFinished, true)
        XCTAssertEqual(Set(engine.records[0].properties.map(\.description)), ["card.center", "row.alpha"])
    }

    func testSpringTimingParameters() {
        let engine = AnimationEngine()
        let card = makeView("card")
        let a = PropertyAnimator(engine: engine, duration: 0.6, dampingRatio: 0.5) { card.center.x = 100 }
        a.startAnimation()
        let spring = Spring(dampingRatio: 0.5, duration: 0.6)
        engine.advance(to: 0.3)
        XCTAssertEqual(engine.x(of: card), 100 * spring.progress(at: 0.3), accuracy: 1e-9)
        engine.advance(to: 0.6)
        XCTAssertTrue(engine.isIdle)

        // continueAnimation with a spring refits it to the remaining time.
        let b = PropertyAnimator(engine: engine, duration: 1, curve: .linear) { card.alpha = 0 }
        b.fractionComplete = 0.5
        b.continueAnimation(withTimingParameters: .spring(dampingRatio: 1, initialVelocity: 0), durationFactor: 2)
        XCTAssertEqual(engine.scheduledEndTime, 0.6 + 1, "0.5 remaining × 1 s × factor 2")
    }

    func testInvalidCallsAreIgnored() {
        let engine = AnimationEngine()
        let card = makeView("card")
        let a = animator(engine, card)
        a.finishAnimation(at: .end)
        a.stopAnimation(false)
        a.continueAnimation(withTimingParameters: nil, durationFactor: .nan)
        XCTAssertEqual(a.state, .inactive)
        a.startAnimation()
        a.fractionComplete = 0.9  // running: ignored
        a.fractionComplete = .nan
        engine.advance(to: 0.5)
        XCTAssertEqual(a.fractionComplete, 0.5, accuracy: 1e-12)
        let b = PropertyAnimator(engine: engine, duration: .nan, timing: .spring(dampingRatio: .nan, initialVelocity: .infinity)) {
            card.cornerRadius = 5
        }
        b.startAnimation(afterDelay: -.infinity)
        engine.advance(to: 0.5)
        XCTAssertEqual(b.state, .inactive, "zero duration: done at once")
    }
}
