import Motion
import RasterCore
import SnapshotView
import XCTest

/// Nothing traps or goes non-finite on NaN, infinite or negative input; each has a documented rule.
final class InvalidInputTests: XCTestCase {
    func testDurationsAndDelays() {
        let engine = AnimationEngine()
        let card = makeView("card")
        var log: [Bool] = []
        engine.animate(duration: .nan, delay: .nan, animations: { card.alpha = 0.5 }, completion: { log.append($0) })
        engine.animate(duration: -1, delay: -1, animations: { card.center.x = 3 }, completion: { log.append($0) })
        XCTAssertEqual(engine.alpha(of: card), 0.5)
        XCTAssertEqual(engine.x(of: card), 3)
        engine.animate(duration: .infinity, delay: .infinity, animations: { card.cornerRadius = 9 })
        XCTAssertEqual(engine.records.last?.duration, AnimationEngine.maximumDuration)
        XCTAssertEqual(engine.records.last?.start, AnimationEngine.maximumDuration)
        engine.advance(to: 1)
        XCTAssertEqual(log, [true, true])
        XCTAssertEqual(engine.presentationValue(of: .cornerRadius, of: card), .double(0), "still in its delay")
    }

    func testRepeatCounts() {
        XCTAssertEqual(AnimationRepeat.count(.nan).description, "×1")
        let engine = AnimationEngine()
        let card = makeView("card")
        engine.animate(duration: 1, options: .repeatCount(.nan), animations: { card.alpha = 0 })
        engine.animate(duration: 1, options: .repeatCount(-3), animations: { card.center.x = 1 })
        XCTAssertEqual(engine.scheduledEndTime, 1)
        engine.animate(duration: 1, options: .repeatCount(.infinity), animations: { card.cornerRadius = 1 })
        XCTAssertNil(engine.scheduledEndTime)
    }

    func testSpringAndKeyframeParameters() {
        let engine = AnimationEngine()
        let card = makeView("card")
        engine.animate(duration: 0.5, usingSpringWithDamping: .nan, initialSpringVelocity: .infinity,
                       animations: { card.center.x = 100 })
        engine.animateKeyframes(duration: .nan, animations: {
            engine.addKeyframe(withRelativeStartTime: .infinity, relativeDuration: -.infinity) { card.alpha = 0 }
        })
        for frame in 0...40 {
            engine.advance(toFrame: frame)
            XCTAssertTrue(engine.x(of: card).isFinite)
        }
        XCTAssertEqual(engine.x(of: card), 100)
        XCTAssertEqual(engine.alpha(of: card), 0)
    }

    func testAnimatorAndTransitionParameters() {
        let engine = AnimationEngine()
        let card = makeView("card")
        let transition = PercentDrivenTransition(engine: engine, duration: -2) { card.center.x = 50 }
        transition.completionSpeed = 0
        transition.update(.infinity)
        XCTAssertEqual(transition.percentComplete, 1)
        transition.cancel()
        XCTAssertTrue(engine.runUntilIdle())
        XCTAssertTrue(transition.isCancelled)
        XCTAssertEqual(card.center.x, 0)
    }

    func testUntouchedViewsShowTheirModelExactly() {
        let engine = AnimationEngine()
        let card = makeView("card")
        card.transform = RasterCore.Transform2D(a: 0.3, b: 0.1, c: -0.7, d: 2, tx: 1.1, ty: 3)
        engine.removeAnimations(of: card, includingSubviews: true)
        engine.removeAllAnimations()
        for property in ViewProperty.allCases {
            XCTAssertEqual(engine.presentationValue(of: property, of: card), card.modelValue(of: property))
        }
    }
}
