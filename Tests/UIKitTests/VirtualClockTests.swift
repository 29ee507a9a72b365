import SmokescreenStage
import XCTest

/// The main queue and timers on the stage's clock. Named with their module here: in this test target,
/// which also imports XCTest, the plain names are ambiguous with Dispatch's and Foundation's (iOS files
/// rendered by `smokescreen render` use the plain names: the `delayed-fade` sample).
final class VirtualClockTests: XCTestCase {
    /// What the blocks saw (a reference, so that the blocks share it).
    final class Recorder: @unchecked Sendable {
        var events: [String] = []
        var ticks = 0
        let stage: Stage
        init(stage: Stage) { self.stage = stage }
        func add(_ what: String) { events.append("\(what) \(stage.time)") }
    }

    func testTheMainQueueAndTimersRunAtVirtualTimes() throws {
        let stage = try makeStage(width: 20, height: 20)
        let recorder = Recorder(stage: stage)
        UIKit.DispatchQueue.main.asyncAfter(deadline: .now() + 0.35) { recorder.add("after") }
        UIKit.DispatchQueue.main.async { recorder.add("async") }
        UIKit.Timer.scheduledTimer(withTimeInterval: 0.2, repeats: true) { timer in
            recorder.ticks += 1
            recorder.add("tick")
            if recorder.ticks == 3 { timer.invalidate() }
        }
        var events: [String] { recorder.events }
        XCTAssertEqual(events, [], "nothing runs before time passes")
        try stage.waitUntilIdle()
        XCTAssertEqual(events.count, 5, "\(events)")
        XCTAssertEqual(events[0], "async 0.0")
        XCTAssertTrue(events.contains("tick 0.2"))
        XCTAssertTrue(events.contains { $0.hasPrefix("after 0.3") }, "\(events)")
        XCTAssertTrue(events.contains { $0.hasPrefix("tick 0.6") })
        XCTAssertLessThan(stage.time, 0.8, "the invalidated timer does not keep the stage waiting")
        XCTAssertTrue(events.contains("after 0.35"), "exactly 0.35 s of the stage's clock: \(events)")
        // Other queues are Dispatch's.
        let done = expectation(description: "global")
        UIKit.DispatchQueue.global().async { done.fulfill() }
        wait(for: [done], timeout: 5)
    }

    /// `.now() + d` on a stage is the stage's clock: however long the wall clock takes between reading it
    /// and the call (a loaded machine), the work runs exactly d later. A `DispatchTime` made beforehand is
    /// read to the millisecond; `.never` and `.distantFuture` never run (nor keep the stage waiting).
    func testADeadlineFromNowIsOnTheStagesClockWhateverTheWallClockDoes() throws {
        let stage = try makeStage(width: 20, height: 20)
        let recorder = Recorder(stage: stage)
        let deadline: UIKit.StageDeadline = .now() + 0.3
        usleep(20_000)
        UIKit.DispatchQueue.main.asyncAfter(deadline: deadline) { recorder.add("late call") }
        UIKit.DispatchQueue.main.asyncAfter(deadline: .now() + .milliseconds(250) - 0.125) { recorder.add("interval") }
        UIKit.DispatchQueue.main.asyncAfter(deadline: .now() + .never) { recorder.add("never") }
        UIKit.DispatchQueue.main.asyncAfter(deadline: DispatchTime.distantFuture) { recorder.add("distant future") }
        UIKit.DispatchQueue.main.asyncAfter(wallDeadline: .distantFuture) { recorder.add("distant wall future") }
        UIKit.DispatchQueue.main.asyncAfter(deadline: DispatchTime.now() + 0.2) { recorder.add("dispatch time") }
        UIKit.DispatchQueue.main.asyncAfter(wallDeadline: .now() + 0.25) { recorder.add("wall time") }
        try stage.waitUntilIdle()
        var times: [String: Double] = [:]
        for event in recorder.events {
            let parts = event.split(separator: " ")
            times[parts.dropLast().joined(separator: " ")] = Double(parts.last!)
        }
        XCTAssertEqual(Set(times.keys), ["late call", "interval", "dispatch time", "wall time"])
        XCTAssertEqual(times["late call"], 0.3, "exact: the 20 ms slept are wall-clock time")
        XCTAssertEqual(times["interval"], 0.125)
        // (Read from the wall clock to the millisecond: a millisecond early on a busy machine.)
        XCTAssertEqual(times["dispatch time"] ?? 0, 0.2, accuracy: 0.0015)
        XCTAssertEqual(times["wall time"] ?? 0, 0.25, accuracy: 0.0015)
        XCTAssertEqual(stage.time, 0.3, accuracy: 1e-9)
    }
}
