import Motion
import RasterCore
import SnapshotView
import XCTest

final class ClockTests: XCTestCase {
    func testFramesAreExactlyIndexOverFPS() {
        let engine = AnimationEngine(fps: 60)
        for i in 1...2000 {
            engine.advanceFrame()
            XCTAssertEqual(engine.currentTime, Double(i) / 60)
            XCTAssertEqual(engine.currentFrame, i)
        }
        let clock = FrameClock(fps: 30)
        XCTAssertEqual(clock.time(ofFrame: 7), 7.0 / 30)
        XCTAssertEqual(clock.frame(atOrBefore: 7.0 / 30), 7)
        XCTAssertEqual(clock.frame(atOrAfter: 7.0 / 30 + 1e-12), 8)
        XCTAssertEqual(clock.frameCount(covering: 1), 31)
        XCTAssertEqual(FrameClock(fps: 60).frameCount(covering: 0.65), 40)
    }

    func testChainOfCompletionsEndsAtTheSumOfDurations() {
        // Each animation starts from the previous one's completion, at its exact end, not the next frame.
        let engine = AnimationEngine(fps: 60)
        let card = makeView("card")
        var starts: [Double] = []
        engine.animate(duration: 0.25, animations: { card.center.x = 100 }) { _ in
            starts.append(engine.currentTime)
            engine.animate(duration: 0.3, animations: { card.center.x = 200 }) { _ in
                starts.append(engine.currentTime)
                engine.animate(duration: 0.1, animations: { card.center.x = 300 }) { _ in
                    starts.append(engine.currentTime)
                }
            }
        }
        var frame = 0
        while !engine.isIdle {
            frame += 1
            engine.advance(toFrame: frame)
        }
        XCTAssertEqual(starts, [0.25, 0.25 + 0.3, 0.25 + 0.3 + 0.1])
        XCTAssertEqual(engine.lastEndTime, 0.65)
        XCTAssertEqual(frame, 39, "0.65 s is frame 39 exactly, not rounded up to frame 40")
        XCTAssertEqual(engine.presentationValue(of: .center, of: card), card.modelValue(of: .center))
        XCTAssertEqual(engine.records.map(\.start), [0, 0.25, 0.55])
    }

    func testCompletionsRunInTimeOrderAtTheirExactTimes() {
        let engine = AnimationEngine()
        let views = (0..<5).map { makeView("v\($0)") }
        var log: [(String, Double)] = []
        for (view, duration) in zip(views, [0.3, 0.1, 0.2, 0.1, 0.05]) {
            engine.animate(duration: duration, animations: { view.alpha = 0 }) { _ in
                log.append((view.name!, engine.currentTime))
            }
        }
        engine.advance(to: 1)  // one jump over all of them
        XCTAssertEqual(log.map(\.0), ["v4", "v1", "v3", "v2", "v0"], "end time, then creation order")
        XCTAssertEqual(log.map(\.1), [0.05, 0.1, 0.1, 0.2, 0.3])
        XCTAssertEqual(engine.currentTime, 1)
        XCTAssertEqual(engine.lastEndTime, 0.3)
    }

    func testAnimationStartedFromACompletionBeginsAtThatTime() {
        let engine = AnimationEngine()
        let card = makeView("card")
        engine.animate(duration: 0.1, animations: { card.alpha = 0.5 }) { _ in
            engine.animate(duration: 1, options: .curveLinear, animations: { card.center.x = 100 })
        }
        engine.advance(to: 0.6)  // the second began at 0.1, not at 0.6
        XCTAssertEqual(engine.x(of: card), 50, accuracy: 1e-12)
    }

    func testAdvancingToTheEndRunsCompletionsUpToAndIncludingIt() {
        let engine = AnimationEngine()
        let card = makeView("card")
        var done = false
        engine.animate(duration: 0.5, animations: { card.alpha = 0 }, completion: { _ in done = true })
        engine.advance(to: 0.5)
        XCTAssertTrue(done)
        XCTAssertEqual(engine.alpha(of: card), 0)
    }

    func testIdleScheduledEndAndRunUntilIdle() {
        let engine = AnimationEngine()
        XCTAssertTrue(engine.isIdle)
        XCTAssertNil(engine.scheduledEndTime)
        let card = makeView("card")
        engine.animate(duration: 0.4, delay: 0.1, animations: { card.alpha = 0 }) { _ in
            engine.animate(duration: 0.2, animations: { card.alpha = 1 })
        }
        XCTAssertEqual(engine.scheduledEndTime, 0.5)
        XCTAssertTrue(engine.runUntilIdle())
        XCTAssertEqual(engine.lastEndTime, 0.7)
        XCTAssertEqual(engine.currentTime, 0.7)
    }

    func testTimeNeverGoesBackAndNonsenseIsIgnored() {
        let engine = AnimationEngine()
        engine.advance(to: 1)
        engine.advance(to: 0.5)
        XCTAssertEqual(engine.currentTime, 1)
        engine.advance(to: .nan)
        engine.advance(to: .infinity)
        engine.advance(toFrame: -5)
        XCTAssertEqual(engine.currentTime, 1)
        XCTAssertEqual(FrameClock(fps: .nan).fps, 60)
        XCTAssertEqual(FrameClock(fps: 0).frame(atOrBefore: .infinity), FrameClock(fps: 60).frame(atOrBefore: .greatestFiniteMagnitude))
    }

    func testAdvancingFromInsideACompletionIsIgnored() {
        let engine = AnimationEngine()
        let card = makeView("card")
        var log: [Double] = []
        engine.animate(duration: 0.1, animations: { card.alpha = 0 }) { _ in
            engine.advance(to: 5)
            log.append(engine.currentTime)
        }
        engine.animate(duration: 0.2, animations: { card.center.x = 1 }) { _ in log.append(engine.currentTime) }
        engine.advance(to: 1)
        XCTAssertEqual(log, [0.1, 0.2])
    }

    func testTimeStandsStillInsideAnAnimationClosure() {
        let engine = AnimationEngine()
        let card = makeView("card")
        engine.animate(duration: 1, animations: {
            card.alpha = 0
            engine.advance(to: 0.5)
            engine.runUntilIdle()
        })
        XCTAssertEqual(engine.currentTime, 0)
    }

    func testCompletionLoopsCannotHang() {
        let engine = AnimationEngine()
        let card = makeView("card")
        var count = 0
        func again() {
            engine.animate(duration: 0, animations: { card.alpha = card.alpha == 0 ? 1 : 0 }) { _ in
                count += 1
                again()
            }
        }
        again()
        engine.advance(to: 1)
        XCTAssertEqual(count, AnimationEngine.maximumEventsPerAdvance)
        XCTAssertEqual(engine.currentTime, 0, "stuck at the instant; the next call carries on")
    }

    /// Seed 004 (Vesper): three blocks with durations from a plist; a reference-counted smokescreen is
    /// removed by whichever completion brings its count to zero, whichever block is longest.
    func testReferenceCountedSmokescreenIsRemovedWhenTheLastBlockCompletes() throws {
        for durations in [[0.3, 0.45, 0.2], [0.5, 0.1, 0.25], [0.2, 0.2, 0.2]] {
            let engine = AnimationEngine(fps: 60)
            let window = View(frame: Rect(x: 0, y: 0, width: 320, height: 480), name: "window")
            let smokescreen = View(frame: window.bounds, name: "smokescreen")
            try window.addSubview(smokescreen)
            var useCount = 0
            var removedAt: Double?
            let parts = ["navbar", "table", "note"].map { View(frame: Rect(x: 0, y: 0, width: 10, height: 10), name: $0) }
            for view in parts { try smokescreen.addSubview(view) }
            for (view, duration) in zip(parts, durations) {
                useCount += 1
                engine.animate(duration: duration, animations: { view.alpha = 0 }) { _ in
                    useCount -= 1
                    if useCount == 0 {
                        smokescreen.removeFromSuperview()
                        removedAt = engine.currentTime
                    }
                }
            }
            while !engine.isIdle { engine.advanceFrame() }
            XCTAssertEqual(removedAt, durations.max())
            XCTAssertNil(smokescreen.superview)
            XCTAssertEqual(engine.lastEndTime, durations.max())
        }
    }
}
