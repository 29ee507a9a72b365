import Motion
import XCTest

final class DisplayLinkTests: XCTestCase {
    func testFiresAtEveryFrameAfterItsStartAndExactlyAtItsEnd() {
        let engine = AnimationEngine(fps: 10)
        engine.advance(to: 0.05)
        var times: [Double] = []
        engine.addDisplayLink(duration: 0.32) { times.append($0) }
        XCTAssertFalse(engine.isIdle)
        XCTAssertEqual(engine.scheduledEndTime, 0.37)
        engine.runUntilIdle()
        XCTAssertEqual(times, [0.1, 0.2, 0.3, 0.37])
        XCTAssertEqual(engine.lastEndTime, 0.37)
    }

    func testRunsUntilInvalidated() {
        let engine = AnimationEngine(fps: 4)
        var count = 0
        var link: DisplayLink?
        link = engine.addDisplayLink { _ in
            count += 1
            if count == 3 { link?.invalidate() }
        }
        XCTAssertNil(engine.scheduledEndTime, "no known end")
        engine.advance(to: 10)
        XCTAssertEqual(count, 3)
        XCTAssertTrue(engine.isIdle)
        XCTAssertFalse(link!.isValid)
    }

    func testPerformAfterDelayRunsInTimeOrder() {
        let engine = AnimationEngine(fps: 60)
        var log: [String] = []
        engine.perform(afterDelay: 0.5) { log.append("b \(engine.currentTime)") }
        engine.perform(afterDelay: 0.25) { log.append("a \(engine.currentTime)") }
        engine.perform(afterDelay: .nan) { log.append("now \(engine.currentTime)") }
        engine.advance(to: 0.3)
        XCTAssertEqual(log, ["now 0.0", "a 0.25"])
        engine.runUntilIdle()
        XCTAssertEqual(log.last, "b 0.5")
    }
}
