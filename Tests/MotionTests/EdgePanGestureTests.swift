import Motion
import RasterCore
import SnapshotView
import XCTest

/// The back swipe's path (a monotone spline), its release velocity, and the rest after the release
/// (a curve whose initial slope is that velocity).
final class EdgePanGestureTests: XCTestCase {
    static let finishing = EdgePanGesture(samples: [(0, 0), (0.15, 40), (0.45, 170), (0.6, 230)])
    static let cancelling = EdgePanGesture(samples: [(0, 0), (0.3, 120), (0.55, 150), (0.75, 110)])

    func testThePathGoesThroughTheSamplesWithAContinuousVelocity() {
        for swipe in [Self.finishing, Self.cancelling] {
            for s in swipe.samples { XCTAssertEqual(swipe.translation(at: s.time), s.translation, accuracy: 1e-9) }
            // Velocity continuous: no jump at a sample (the old straight segments jumped 267 → 433 pt/s at 0.15 s).
            for s in swipe.samples.dropFirst().dropLast() {
                XCTAssertEqual(swipe.velocity(at: s.time - 1e-7), swipe.velocity(at: s.time + 1e-7), accuracy: 0.01)
            }
            // The velocity is the derivative of the path.
            for t in stride(from: 0.01, to: swipe.duration - 0.01, by: 0.013) {
                let numeric = (swipe.translation(at: t + 1e-6) - swipe.translation(at: t - 1e-6)) / 2e-6
                XCTAssertEqual(swipe.velocity(at: t), numeric, accuracy: 1e-3)
            }
            // Frame to frame at 60 fps the step changes by little (was 4.5 → 7.5 pt/frame at 0.15 s).
            var steps: [Double] = []
            for f in 0..<Int(swipe.duration * 60) {
                steps.append(swipe.translation(at: Double(f + 1) / 60) - swipe.translation(at: Double(f) / 60))
            }
            for (a, b) in zip(steps, steps.dropFirst()) { XCTAssertLessThan(abs(b - a), 1.0) }
        }
        // Monotone: no overshoot past a sample where the finger turns round (150 pt at 0.55 s).
        for t in stride(from: 0.0, through: 0.75, by: 0.005) {
            XCTAssertLessThanOrEqual(Self.cancelling.translation(at: t), 150 + 1e-9)
        }
        XCTAssertEqual(Self.cancelling.velocity(at: 0.55), 0, accuracy: 1e-9)
    }

    func testReleaseVelocityIsTheLastSegmentsSlope() {
        XCTAssertEqual(Self.finishing.releaseVelocity, 400, accuracy: 1e-9)
        XCTAssertEqual(Self.cancelling.releaseVelocity, -200, accuracy: 1e-9)
        XCTAssertEqual(Self.finishing.velocity(at: 0.6 - 1e-7), 400, accuracy: 0.01)
    }

    func testTheRestStartsAtTheFingersVelocity() {
        // Finish: released at 230/375 = 0.613 moving 400/375 = 1.067 widths/s; 0.387 remains, which a
        // steady slow-down would cover in 0.725 s: capped at 0.4 s; initial slope 1.067 × 0.4 / 0.387 = 1.10.
        let f = Self.finishing.release(width: 375)
        XCTAssertTrue(f.finishes)
        XCTAssertEqual(f.duration, 0.4)
        XCTAssertEqual(f.remaining, 145.0 / 375, accuracy: 1e-12)
        XCTAssertEqual(f.speed, 400.0 / 375, accuracy: 1e-12)
        XCTAssertEqual(f.curve.c1.y / f.curve.c1.x * f.remaining / f.duration, f.speed, accuracy: 1e-9)
        // Cancel: released at 110/375 moving left at 200/375 widths/s towards 0.
        let c = Self.cancelling.release(width: 375)
        XCTAssertFalse(c.finishes)
        XCTAssertEqual(c.remaining, 110.0 / 375, accuracy: 1e-12)
        XCTAssertEqual(c.speed, 200.0 / 375, accuracy: 1e-12)
        XCTAssertEqual(c.curve.c1.y / c.curve.c1.x * c.remaining / c.duration, c.speed, accuracy: 1e-9)
        // A fast flick: 3000 pt/s (8 widths/s) at 80 %: 2 × 0.2 / 8 = 0.05 s → at least 0.15 s; s = 6: (1/6, 1).
        let flick = EdgePanGesture(samples: [(0, 0), (0.1, 300)]).release(width: 375)
        XCTAssertEqual(flick.duration, 0.15)
        XCTAssertEqual(flick.curve.c1.y, 1)
        XCTAssertEqual(flick.curve.c1.y / flick.curve.c1.x * flick.remaining / flick.duration, flick.speed, accuracy: 1e-9)
        // A finger moving away from where the rest goes: the rest starts from rest.
        let away = EdgePanGesture(samples: [(0, 0), (0.5, 300), (0.6, 290)]).release(width: 375)
        XCTAssertTrue(away.finishes)
        XCTAssertEqual(away.speed, 0)
        XCTAssertEqual(away.curve.c1.y, 0)
    }

    /// The progress speed over the last 1/30 s under the finger and over the first 1/30 s after it, as
    /// a percent-driven transition shows it.
    static func releaseSpeeds(_ swipe: EdgePanGesture, width: Double, duration: Double) -> (under: Double, after: Double) {
        let engine = AnimationEngine(fps: 60)
        let view = View(frame: Rect(x: 0, y: 0, width: 10, height: 10))
        let transition = PercentDrivenTransition(engine: engine, duration: duration) { view.alpha = 0 }
        transition.follow(swipe, width: width)
        let r = swipe.duration, dt = 1.0 / 30
        engine.advance(to: r - dt)
        let p0 = transition.progress
        engine.advance(to: r)
        let p1 = transition.progress
        engine.advance(to: r + dt)
        let p2 = transition.progress
        return ((p1 - p0) / dt, (p2 - p1) / dt)
    }

    func testNoLurchAtTheRelease() {
        for duration in [0.35, 0.6] {
            for swipe in [Self.finishing, Self.cancelling, EdgePanGesture(samples: [(0, 0), (0.2, 50), (0.3, 180)])] {
                let (under, after) = Self.releaseSpeeds(swipe, width: 375, duration: duration)
                XCTAssertGreaterThan(under * after, 0, "same direction")
                XCTAssertLessThan(max(abs(after / under), abs(under / after)), 2, "\(swipe.samples) \(under) \(after)")
                XCTAssertLessThan(max(abs(after / under), abs(under / after)), 1.3)
            }
        }
    }

    func testTheTrackFollowsTheSpline() {
        let track = Self.finishing.progressTrack(width: 375)
        for t in stride(from: 0.0, through: 0.6, by: 0.01) {
            XCTAssertEqual(track.percent(at: t), Self.finishing.translation(at: t) / 375, accuracy: 1e-4)
        }
        XCTAssertEqual(track.ending, .finish)
        // A jump (two samples at one time) stays a jump.
        let jump = EdgePanGesture(samples: [(0, 0), (0.2, 50), (0.2, 100), (0.4, 150)])
        XCTAssertEqual(jump.progressTrack(width: 100).percent(at: 0.2), 0.999)
        XCTAssertEqual(jump.progressTrack(width: 1000).percent(at: 0.2 - 1e-9), 0.05, accuracy: 1e-6)
    }
}
