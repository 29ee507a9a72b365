import Foundation
import Motion
import RasterCore
import SnapshotView
import XCTest

final class KeyframeTests: XCTestCase {
    func testLinearKeyframesHoldBetweenKeyframes() {
        let engine = AnimationEngine()
        let card = makeView("card")
        var finished: Bool?
        engine.animateKeyframes(duration: 1, options: .curveLinear, animations: {
            engine.addKeyframe(withRelativeStartTime: 0, relativeDuration: 0.25) { card.center.x = 100 }
            engine.addKeyframe(withRelativeStartTime: 0.5, relativeDuration: 0.5) { card.center.x = 0 }
            engine.addKeyframe(withRelativeStartTime: 0, relativeDuration: 1) { card.alpha = 0 }
        }, completion: { finished = $0 })
        XCTAssertEqual(card.center.x, 0, "the model holds the value set last")
        let expected: [(Double, Double)] = [(0.125, 50), (0.25, 100), (0.4, 100), (0.5, 100), (0.75, 50), (0.9, 20)]
        for (t, x) in expected {
            engine.advance(to: t)
            XCTAssertEqual(engine.x(of: card), x, accuracy: 1e-9, "at \(t)")
            XCTAssertEqual(engine.alpha(of: card), 1 - t, accuracy: 1e-9, "at \(t)")
        }
        engine.advance(to: 1)
        XCTAssertEqual(finished, true)
        XCTAssertEqual(engine.presentationValue(of: .center, of: card), card.modelValue(of: .center))
        XCTAssertEqual(engine.records[0].kind, .keyframes)
    }

    func testDefaultCurveSpansTheWholeAnimation() {
        let engine = AnimationEngine()
        let card = makeView("card")
        engine.animateKeyframes(duration: 2, animations: {
            engine.addKeyframe(withRelativeStartTime: 0, relativeDuration: 1) { card.center.x = 100 }
        })
        engine.advance(to: 0.5)
        XCTAssertEqual(engine.x(of: card), 100 * TimingCurve.easeInEaseOut.progress(at: 0.25), accuracy: 1e-9)
    }

    func testDiscreteKeyframesJumpAtTheEndOfEachKeyframe() {
        let engine = AnimationEngine()
        let card = makeView("card")
        engine.animateKeyframes(duration: 1, options: .curveLinear, calculationMode: .discrete, animations: {
            engine.addKeyframe(withRelativeStartTime: 0, relativeDuration: 0.5) { card.center.x = 100 }
            engine.addKeyframe(withRelativeStartTime: 0.5, relativeDuration: 0.25) { card.center.x = 200 }
        })
        for (t, x) in [(0.25, 0.0), (0.49, 0), (0.5, 100), (0.7, 100), (0.75, 200), (0.99, 200)] {
            engine.advance(to: t)
            XCTAssertEqual(engine.x(of: card), x, "at \(t)")
        }
    }

    func testKeyframesTurnAFullCircle() {
        // Four quarter turns end where they started, yet the view turns all the way round.
        let engine = AnimationEngine()
        let wheel = makeView("wheel")
        engine.animateKeyframes(duration: 1, options: .curveLinear, animations: {
            for i in 1...4 {
                engine.addKeyframe(withRelativeStartTime: Double(i - 1) / 4, relativeDuration: 0.25) {
                    wheel.transform = RasterCore.Transform2D(rotationAngle: Double(i) * .pi / 2)
                }
            }
        })
        for i in 1..<20 {
            let t = Double(i) / 20
            engine.advance(to: t)
            let m = engine.transform(of: wheel)
            XCTAssertEqual(m.a, cos(2 * .pi * t), accuracy: 1e-9, "at \(t)")
            XCTAssertEqual(m.b, sin(2 * .pi * t), accuracy: 1e-9, "at \(t)")
        }
    }

    func testDirectChangesSpanTheWholeDurationAndOddInputIsClamped() {
        let engine = AnimationEngine()
        let card = makeView("card")
        engine.animateKeyframes(duration: 1, options: .curveLinear, animations: {
            card.alpha = 0
            engine.addKeyframe(withRelativeStartTime: .nan, relativeDuration: 5) { card.center.x = 100 }
        })
        engine.advance(to: 0.5)
        XCTAssertEqual(engine.alpha(of: card), 0.5, accuracy: 1e-12)
        XCTAssertEqual(engine.x(of: card), 50, accuracy: 1e-12)
        // Outside a keyframe animation, addKeyframe just makes the change.
        engine.addKeyframe(withRelativeStartTime: 0, relativeDuration: 1) { card.cornerRadius = 4 }
        XCTAssertEqual(card.cornerRadius, 4)
        XCTAssertFalse(engine.isAnimating(card, property: .cornerRadius))
    }
}
