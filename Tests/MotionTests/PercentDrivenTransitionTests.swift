import Motion
import RasterCore
import SnapshotView
import XCTest

/// Seed 003: an interactive back transition slides the detail view off to the right while the selected
/// row's highlight fades alongside it; cancelling brings both back and the row is reselected.
final class PercentDrivenTransitionTests: XCTestCase {
    private struct Scene {
        let engine = AnimationEngine(fps: 60)
        let detail = View(frame: Rect(x: 0, y: 0, width: 320, height: 480), name: "detail")
        let highlight = View(frame: Rect(x: 0, y: 88, width: 320, height: 44), name: "highlight")
        var rowSelected = true

        func makeTransition() -> PercentDrivenTransition {
            PercentDrivenTransition(engine: engine, duration: 0.5) { [detail] in detail.center.x = 480 }
        }
    }

    func testFollowsAGestureThenCancels() {
        var scene = Scene()
        let transition = scene.makeTransition()
        var log: [String] = []
        let highlight = scene.highlight
        // viewWillAppear: deselect alongside; reselect if cancelled (rz_smoothlyDeselectRows).
        transition.animateAlongside({ highlight.alpha = 0; scene.rowSelected = false }, completion: { context in
            log.append("alongside cancelled=\(context.isCancelled) at \(context.completionTime)")
            if context.isCancelled {
                scene.engine.performWithoutAnimation { highlight.alpha = 1 }
                scene.rowSelected = true
            }
        })
        transition.addCompletion { log.append("transition cancelled=\($0.isCancelled)") }
        let track = GestureTrack(samples: [(0, 0), (0.1, 0.2), (0.3, 0.4), (0.4, 0.3)], ending: .automatic)
        transition.follow(track)
        XCTAssertTrue(transition.isInteractive)
        XCTAssertEqual(scene.detail.center.x, 480, "the model holds the end at once")

        let engine = scene.engine
        engine.advance(to: 0.1)
        XCTAssertEqual(engine.x(of: scene.detail), 160 + 0.2 * 320, accuracy: 1e-9)
        XCTAssertEqual(engine.alpha(of: highlight), 0.8, accuracy: 1e-9, "the deselection follows the gesture")
        engine.advance(to: 0.2)
        XCTAssertEqual(transition.percentComplete, 0.3, accuracy: 1e-12)
        XCTAssertEqual(engine.x(of: scene.detail), 160 + 0.3 * 320, accuracy: 1e-9)
        XCTAssertEqual(engine.alpha(of: highlight), 0.7, accuracy: 1e-9)
        engine.advance(to: 0.4)
        XCTAssertFalse(transition.isInteractive, "the finger lifted at 0.3: cancel")
        // Cancelling runs the remaining 0.3 of 0.5 s back with ease-in-ease-out.
        engine.advance(to: 0.4 + 0.075)
        XCTAssertEqual(engine.alpha(of: highlight), 1 - 0.3 * (1 - TimingCurve.easeInEaseOut.progress(at: 0.5)), accuracy: 1e-9)
        engine.runUntilIdle()
        XCTAssertEqual(engine.lastEndTime, 0.55, accuracy: 1e-12)
        // Completions run in the order they were added, at the exact end.
        XCTAssertEqual(log, ["alongside cancelled=true at \(engine.lastEndTime)", "transition cancelled=true"])
        XCTAssertTrue(transition.isCancelled)
        XCTAssertEqual(scene.detail.center.x, 160, "back at the start value")
        XCTAssertEqual(highlight.alpha, 1)
        XCTAssertEqual(engine.alpha(of: highlight), 1)
        XCTAssertTrue(scene.rowSelected)
        XCTAssertEqual(engine.records.last?.kind, .transition)
        XCTAssertEqual(engine.records.last?.outcome, .ended(at: engine.lastEndTime, position: .start))
    }

    func testFinishesPastHalfWay() {
        let scene = Scene()
        let transition = scene.makeTransition()
        transition.completionSpeed = 2
        transition.completionCurve = .linear
        var cancelled: Bool?
        transition.animateAlongside({ scene.highlight.alpha = 0 }, completion: { cancelled = $0.isCancelled })
        transition.follow(GestureTrack(samples: [(0, 0), (0.2, 0.7)]))
        let engine = scene.engine
        engine.advance(to: 0.2)
        XCTAssertEqual(engine.x(of: scene.detail), 160 + 0.7 * 320, accuracy: 1e-9)
        // The rest, 0.3 of 0.5 s at double speed, linear: 0.075 s.
        engine.advance(to: 0.2 + 0.0375)
        XCTAssertEqual(transition.percentComplete, 0.85, accuracy: 1e-12)
        XCTAssertTrue(engine.runUntilIdle())
        XCTAssertEqual(engine.lastEndTime, 0.275, accuracy: 1e-12)
        XCTAssertEqual(cancelled, false)
        XCTAssertEqual(scene.detail.center.x, 480)
        XCTAssertEqual(scene.highlight.alpha, 0)
    }

    func testManualUpdatesAndFinish() {
        let scene = Scene()
        let transition = scene.makeTransition()
        var context: TransitionCoordinatorContext?
        transition.addCompletion { context = $0 }
        transition.update(0.25)
        XCTAssertEqual(scene.engine.x(of: scene.detail), 240, accuracy: 1e-12)
        scene.engine.advance(to: 1)
        transition.update(.nan)
        transition.update(0.5)
        XCTAssertEqual(scene.engine.x(of: scene.detail), 320, accuracy: 1e-12)
        transition.finish()
        transition.cancel()  // too late: already finishing
        scene.engine.runUntilIdle()
        XCTAssertEqual(context?.isCancelled, false)
        XCTAssertEqual(context?.completionTime ?? 0, 1.25, accuracy: 1e-12)
        XCTAssertEqual(scene.detail.center.x, 480)
    }

    func testGestureTrackInterpolatesAndSanitizes() {
        let track = GestureTrack(samples: [(0.2, 0.5), (0, 0), (.nan, 0.9), (0.4, 2), (0.4, .nan), (-1, 0.1)], ending: .threshold(0.99))
        XCTAssertEqual(track.samples.map(\.time), [0, 0, 0.2, 0.4])
        XCTAssertEqual(track.percent(at: -5), 0.1)
        XCTAssertEqual(track.percent(at: 0), 0.1, "of two samples at 0 the later wins")
        XCTAssertEqual(track.percent(at: 0.1), 0.3, accuracy: 1e-12)
        XCTAssertEqual(track.percent(at: 0.3), 0.75, accuracy: 1e-12)
        XCTAssertEqual(track.percent(at: 9), 1)
        XCTAssertEqual(track.duration, 0.4)
        XCTAssertTrue(track.finishes)
        XCTAssertFalse(GestureTrack(samples: [(0, 0.9)], ending: .cancel).finishes)
        XCTAssertEqual(GestureTrack(samples: []).percent(at: 1), 0)
    }
}
