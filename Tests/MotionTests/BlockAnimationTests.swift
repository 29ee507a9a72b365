import Foundation
import Motion
import RasterCore
import SnapshotView
import XCTest

/// Small helpers shared by the engine tests.
extension AnimationEngine {
    func x(of view: View) -> Double { presentationValue(of: .center, of: view).pointValue!.x }
    func alpha(of view: View) -> Double { presentationValue(of: .alpha, of: view).doubleValue! }
    func transform(of view: View) -> RasterCore.Transform2D { presentationValue(of: .transform, of: view).transformValue! }
}

func makeView(_ name: String, x: Double = 0) -> View {
    View(frame: Rect(x: x - 10, y: -10, width: 20, height: 20), name: name)
}

final class BlockAnimationTests: XCTestCase {
    func testModelTakesTheFinalValueAtOncePresentationFollowsTheCurve() {
        let engine = AnimationEngine()
        let card = makeView("card")
        engine.animate(duration: 1, animations: { card.center = Point(x: 100, y: 0); card.alpha = 0.5 })
        XCTAssertEqual(card.center.x, 100)
        XCTAssertEqual(card.alpha, 0.5)
        XCTAssertEqual(engine.x(of: card), 0)
        XCTAssertEqual(engine.alpha(of: card), 1)
        engine.advance(to: 0.25)
        XCTAssertEqual(engine.x(of: card), 100 * TimingCurve.easeInEaseOut.progress(at: 0.25), accuracy: 1e-12)
        engine.advance(to: 0.5)
        XCTAssertEqual(engine.x(of: card), 50, accuracy: 1e-12)
        XCTAssertEqual(engine.alpha(of: card), 0.75, accuracy: 1e-12)
        engine.advance(to: 1)
        XCTAssertEqual(engine.presentationValue(of: .center, of: card), card.modelValue(of: .center))
        XCTAssertEqual(engine.presentationValue(of: .alpha, of: card), .double(0.5))
        XCTAssertTrue(engine.isIdle)
    }

    func testDelayShowsTheStartValueUntilItBegins() {
        let engine = AnimationEngine()
        let card = makeView("card")
        var finishedAt: Double?
        engine.animate(duration: 1, delay: 0.5, options: .curveLinear, animations: { card.center.x = 100 },
                       completion: { _ in finishedAt = engine.currentTime })
        engine.advance(to: 0.4)
        XCTAssertEqual(engine.x(of: card), 0)
        engine.advance(to: 1)
        XCTAssertEqual(engine.x(of: card), 50, accuracy: 1e-12)
        engine.advance(to: 2)
        XCTAssertEqual(finishedAt, 1.5)
    }

    func testRepeatWithAutoreverseAndTheFinalValue() {
        let engine = AnimationEngine()
        let card = makeView("card")
        var finished: Bool?
        engine.animate(duration: 1, options: [.curveLinear, .repeatCount(2), .autoreverse],
                       animations: { card.center.x = 100 }, completion: { finished = $0 })
        let expected: [(Double, Double)] = [(0.5, 50), (1, 100), (1.5, 50), (2, 0), (2.5, 50), (3, 100), (3.5, 50), (3.9, 10)]
        for (t, x) in expected {
            engine.advance(to: t)
            XCTAssertEqual(engine.x(of: card), x, accuracy: 1e-9, "at \(t)")
        }
        XCTAssertNil(finished)
        engine.advance(to: 4)
        XCTAssertEqual(finished, true)
        // As in UIKit, the view ends at its model value, not where the last reverse left it.
        XCTAssertEqual(engine.x(of: card), 100)
        XCTAssertEqual(engine.records[0].end, 4)
    }

    func testFractionalRepeatStopsPartWay() {
        let engine = AnimationEngine()
        let card = makeView("card")
        engine.animate(duration: 1, options: [.curveLinear, .repeatCount(1.5)], animations: { card.center.x = 100 })
        engine.advance(to: 1.25)
        XCTAssertEqual(engine.x(of: card), 25, accuracy: 1e-12)
        engine.advance(to: 1.5)
        XCTAssertTrue(engine.isIdle)
        XCTAssertEqual(engine.x(of: card), 100)
    }

    func testRepeatingForeverLikeTheAnimatedBackground() {
        // Seed 001: a background image twice the screen's width slides left forever at constant speed.
        let engine = AnimationEngine()
        let background = View(frame: Rect(x: 0, y: 0, width: 640, height: 480), name: "clouds")
        var finished: Bool?
        engine.animate(duration: 60, options: [.repeat, .curveLinear],
                       animations: { background.frame = Rect(x: -320, y: 0, width: 640, height: 480) },
                       completion: { finished = $0 })
        engine.advance(to: 30)
        XCTAssertEqual(engine.x(of: background), 320 - 160, accuracy: 1e-9)
        engine.advance(to: 90)
        XCTAssertEqual(engine.x(of: background), 320 - 160, accuracy: 1e-9)
        XCTAssertFalse(engine.isIdle)
        XCTAssertNil(engine.scheduledEndTime)
        XCTAssertFalse(engine.runUntilIdle(timeLimit: 1000))
        XCTAssertNil(finished)
        engine.removeAnimations(of: background)
        XCTAssertEqual(engine.x(of: background), 0)  // the model
        engine.advance(to: engine.currentTime)
        XCTAssertEqual(finished, false)
        XCTAssertTrue(engine.isIdle)
        XCTAssertEqual(engine.records[0].outcome, .interrupted(at: 90))
    }

    func testZeroDurationAppliesAtOnceAndCompletesInOrder() {
        let engine = AnimationEngine()
        let card = makeView("card")
        var log: [String] = []
        engine.animate(duration: 0, delay: 3, animations: { card.alpha = 0 }, completion: { log.append("zero \($0)") })
        engine.animate(duration: 1, animations: {}, completion: { log.append("empty \($0)") })
        XCTAssertEqual(engine.alpha(of: card), 0)
        XCTAssertEqual(log, [], "completions never run inside animate")
        engine.advance(to: 0)
        XCTAssertEqual(log, ["zero true", "empty true"])
        XCTAssertEqual(engine.lastEndTime, 0)
        XCTAssertEqual(engine.records.map(\.animated), [false, false])
    }

    func testNestedBlocksInheritDurationAndCurve() {
        let engine = AnimationEngine()
        let outer = makeView("outer"), inner = makeView("inner"), own = makeView("own"), ownCurve = makeView("ownCurve")
        engine.animate(duration: 1, delay: 0.5, options: .curveLinear, animations: {
            outer.center.x = 100
            engine.animate(duration: 5, animations: { inner.center.x = 100 })
            engine.animate(duration: 2, options: .overrideInheritedDuration, animations: { own.center.x = 100 })
            engine.animate(duration: 2, options: [.overrideInheritedCurve, .curveEaseIn], animations: { ownCurve.center.x = 100 })
        })
        engine.advance(to: 1)
        XCTAssertEqual(engine.x(of: outer), 50, accuracy: 1e-12)
        XCTAssertEqual(engine.x(of: inner), 50, accuracy: 1e-12, "inherits start, duration and curve")
        XCTAssertEqual(engine.x(of: own), 25, accuracy: 1e-12, "own duration, inherited linear curve")
        XCTAssertEqual(engine.x(of: ownCurve), 100 * TimingCurve.easeIn.progress(at: 0.5), accuracy: 1e-12)
        XCTAssertEqual(engine.records[1].parentID, 0)
        XCTAssertEqual(engine.records[1].start, 0.5)
        XCTAssertEqual(engine.records[1].duration, 1)
    }

    func testBlocksEndingTogetherCompleteInCallOrder() {
        let engine = AnimationEngine()
        let a = makeView("a"), b = makeView("b")
        var log: [String] = []
        engine.animate(duration: 1, animations: {
            a.alpha = 0
            engine.animate(duration: 1, animations: { b.alpha = 0 }, completion: { _ in log.append("inner") })
        }, completion: { _ in log.append("outer") })
        engine.animate(duration: 1, options: [], curve: .easeOut, animations: { b.center.x = 1 },
                       completion: { _ in log.append("next") })
        engine.advance(to: 1)
        XCTAssertEqual(log, ["outer", "inner", "next"])
        XCTAssertEqual(engine.records[2].timing, "easeOut")
    }

    func testAdditiveRetargetingHasNoJump() {
        let engine = AnimationEngine()
        let card = makeView("card")
        var ends: [Double] = []
        engine.animate(duration: 1, animations: { card.center.x = 100 }, completion: { _ in ends.append(engine.currentTime) })
        engine.advance(to: 0.3)
        let before = engine.x(of: card)
        engine.animate(duration: 1, animations: { card.center.x = -50 }, completion: { _ in ends.append(engine.currentTime) })
        XCTAssertEqual(engine.x(of: card), before, accuracy: 1e-12, "retargeting must not jump")
        // Presentation stays continuous: small steps make small changes.
        var previous = before
        for i in 1...130 {
            engine.advance(to: 0.3 + Double(i) / 100)
            let x = engine.x(of: card)
            XCTAssertLessThan(abs(x - previous), 4, "at \(engine.currentTime)")
            previous = x
        }
        XCTAssertEqual(engine.x(of: card), -50)
        XCTAssertEqual(ends, [1, 1.3])
    }

    func testBeginFromCurrentStateReplacesTheAnimationInFlight() {
        let engine = AnimationEngine()
        let card = makeView("card")
        var first: Bool?
        engine.animate(duration: 1, options: .curveLinear, animations: { card.center.x = 100 }, completion: { first = $0 })
        engine.advance(to: 0.5)
        engine.animate(duration: 1, options: [.curveLinear, .beginFromCurrentState], animations: { card.center.x = 0 })
        XCTAssertEqual(engine.x(of: card), 50, accuracy: 1e-12)
        engine.advance(to: 1)
        XCTAssertEqual(first, false, "its only animation was replaced")
        XCTAssertEqual(engine.x(of: card), 25, accuracy: 1e-12, "straight from 50 to 0, nothing added")
        engine.advance(to: 1.5)
        XCTAssertEqual(engine.x(of: card), 0)
    }

    func testSpringBlockLandsAtItsDuration() {
        let engine = AnimationEngine()
        let card = makeView("card")
        engine.animate(duration: 0.5, usingSpringWithDamping: 0.4, initialSpringVelocity: 0,
                       animations: { card.center.x = 100 })
        let spring = Spring(dampingRatio: 0.4, duration: 0.5)
        var maximum = 0.0
        for frame in 1...30 {
            engine.advance(toFrame: frame)
            let x = engine.x(of: card)
            XCTAssertEqual(x, 100 * spring.progress(at: engine.currentTime), accuracy: 1e-9)
            maximum = max(maximum, x)
        }
        XCTAssertGreaterThan(maximum, 110, "an under-damped spring overshoots")
        XCTAssertEqual(engine.currentTime, 0.5)
        XCTAssertEqual(engine.x(of: card), 100)
        XCTAssertTrue(engine.records[0].timing.hasPrefix("spring(dampingRatio 0.4"))
    }

    func testPhysicalSpringRunsForItsSettlingDuration() {
        let engine = AnimationEngine()
        let card = makeView("card")
        let spring = Spring(mass: 1, stiffness: 300, damping: 20)
        engine.animate(duration: 99, timing: .physicalSpring(spring), animations: { card.center.x = 10 })
        XCTAssertEqual(engine.scheduledEndTime, spring.settlingDuration())
    }

    func testPerformWithoutAnimation() {
        let engine = AnimationEngine()
        let card = makeView("card"), badge = makeView("badge")
        var finished: Bool?
        engine.animate(duration: 1, animations: {
            card.center.x = 100
            engine.performWithoutAnimation {
                badge.alpha = 0
                engine.animate(duration: 1, animations: { badge.center.x = 30 }, completion: { finished = $0 })
            }
        })
        XCTAssertEqual(engine.alpha(of: badge), 0)
        XCTAssertEqual(engine.x(of: badge), 30)
        XCTAssertTrue(engine.isAnimating(card))
        XCTAssertFalse(engine.isAnimating(badge))
        engine.advance(to: 0)
        XCTAssertEqual(finished, true)
    }

    func testRemovingAnimationsOfOneView() {
        let engine = AnimationEngine()
        let a = makeView("a"), b = makeView("b")
        var results: [String: Bool] = [:]
        engine.animate(duration: 1, animations: { a.center.x = 100 }, completion: { results["a"] = $0 })
        engine.animate(duration: 1, animations: { a.alpha = 0; b.alpha = 0 }, completion: { results["ab"] = $0 })
        engine.advance(to: 0.5)
        engine.removeAnimations(of: a)
        XCTAssertEqual(engine.x(of: a), 100)
        XCTAssertEqual(engine.alpha(of: a), 0)
        XCTAssertEqual(engine.alpha(of: b), 0.5, accuracy: 1e-12, "b still animates")
        engine.advance(to: 2)
        XCTAssertEqual(results, ["a": false, "ab": true])
    }

    func testTransformColourAndScrollOffsetAnimate() {
        let engine = AnimationEngine()
        let card = makeView("card")
        card.backgroundColor = Color(red: 1, green: 0, blue: 0)
        let scroller = ScrollView(frame: Rect(x: 0, y: 0, width: 100, height: 100), name: "scroller")
        engine.animate(duration: 1, options: .curveLinear, animations: {
            card.transform = RasterCore.Transform2D(rotationAngle: .pi / 2)
            card.backgroundColor = Color(red: 0, green: 0, blue: 1)
            scroller.contentOffset = Point(x: 0, y: 300)
        })
        engine.advance(to: 0.5)
        let t = engine.transform(of: card)
        XCTAssertEqual(t.a, cos(.pi / 4), accuracy: 1e-12)
        XCTAssertEqual(t.b, sin(.pi / 4), accuracy: 1e-12)
        XCTAssertEqual(engine.presentationValue(of: .backgroundColor, of: card).colorValue,
                       Color(red: 0.5, green: 0, blue: 0.5))
        XCTAssertEqual(engine.presentationValue(of: .bounds, of: scroller).rectValue, Rect(x: 0, y: 150, width: 100, height: 100))
    }

    func testAnimatingFromNoBackgroundFadesFromClear() {
        let engine = AnimationEngine()
        let card = makeView("card")
        engine.animate(duration: 1, options: .curveLinear, animations: { card.backgroundColor = .white })
        engine.advance(to: 0.25)
        XCTAssertEqual(engine.presentationValue(of: .backgroundColor, of: card).colorValue,
                       Color(white: 0.25, alpha: 0.25))
    }

    func testTimelineRecordsWhatRan() {
        let engine = AnimationEngine()
        let card = makeView("card"), navbar = View(frame: Rect(x: 0, y: 0, width: 10, height: 10))
        engine.animate(duration: 0.25, delay: 0.1, options: [.curveEaseOut, .autoreverse, .repeatCount(2)],
                       animations: { card.center.x = 5; card.alpha = 0; navbar.alpha = 0.5 })
        engine.animate(duration: 0.4, usingSpringWithDamping: 0.8, initialSpringVelocity: 1, animations: { card.cornerRadius = 8 })
        let first = engine.records[0]
        XCTAssertEqual(first.kind, .block)
        XCTAssertEqual(first.start, 0.1)
        XCTAssertEqual(first.end, 0.1 + 0.25 * 2 * 2)
        XCTAssertEqual(first.timing, "easeOut")
        XCTAssertEqual(first.repetition, .count(2))
        XCTAssertTrue(first.autoreverses)
        XCTAssertEqual(first.properties.map(\.description), ["card.center", "card.alpha", "View.alpha"])
        engine.runUntilIdle()
        let text = engine.timelineDescription()
        XCTAssertTrue(text.contains("#0  block  0.100 → 1.100  easeOut  repeat ×2 autoreverse  card.center, card.alpha, View.alpha  finished at 1.100"), text)
        XCTAssertTrue(text.contains("#1  block  0.000 → 0.400  spring(dampingRatio 0.8, velocity 1, mass 1, stiffness"), text)
        XCTAssertTrue(text.contains("card.cornerRadius  finished at 0.400"), text)
    }
}
