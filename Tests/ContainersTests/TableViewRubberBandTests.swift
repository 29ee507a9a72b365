import Foundation
import Containers
import Motion
import RasterCore
import SnapshotView
import XCTest

/// Pulling past the top: UIScrollView's rubber band under the finger, then a bounce back with no hold.
final class TableViewRubberBandTests: XCTestCase {
    func testRubberBandFormula() {
        // f(x) = (1 − 1/(x·0.55/d + 1))·d
        XCTAssertEqual(ScrollView.rubberBand(0, dimension: 440), 0)
        XCTAssertEqual(ScrollView.rubberBand(100, dimension: 440), (1 - 1 / (100 * 0.55 / 440 + 1)) * 440, accuracy: 1e-12)
        XCTAssertEqual(ScrollView.rubberBand(-100, dimension: 440), -ScrollView.rubberBand(100, dimension: 440))
        XCTAssertLessThan(ScrollView.rubberBand(1e9, dimension: 440), 440)
        XCTAssertEqual(ScrollView.rubberBand(0.001, dimension: 440) / 0.001, 0.55, accuracy: 1e-5, "slope c at 0")
        let shown = ScrollView.rubberBand(180, dimension: 603)
        XCTAssertEqual(try XCTUnwrap(ScrollView.rubberBandPull(showing: shown, dimension: 603)), 180, accuracy: 1e-9)
        XCTAssertNil(ScrollView.rubberBandPull(showing: 603, dimension: 603))
    }

    func testPullPastTheTopFollowsTheRubberBandThenBouncesBackWithoutAHold() throws {
        let engine = AnimationEngine(fps: 60)
        let model = ListModel([names(30)])
        let table = try makeTable(model, engine: engine)  // 440 pt tall
        let d = 440.0
        table.dragContent(by: 180, duration: 0.3)
        // Under the finger (frames 1…18): the finger is 180·t/0.3 pt past the top, the content shows f of it.
        for frame in 1...18 {
            engine.advance(toFrame: frame)
            let pull = 180 * (Double(frame) / 60) / 0.3
            XCTAssertEqual(table.contentOffset.y, -ScrollView.rubberBand(pull, dimension: d), accuracy: 1e-9, "frame \(frame)")
        }
        let x0 = -ScrollView.rubberBand(180, dimension: d)
        XCTAssertEqual(x0, -(1 - 1 / (180 * 0.55 / d + 1)) * d, accuracy: 1e-9)
        // After the lift: x(t) = (x0 + (v0 + ω·x0)·t)·e^(−ω·t), v0 the content's velocity at the lift.
        let k = 180 * 0.55 / d + 1
        let v0 = -600 * 0.55 / (k * k)
        let omega = TableView.bounceFrequency
        var previous = table.contentOffset.y
        var frame = 19
        var heldFrames = 0
        while !engine.isIdle && frame < 400 {
            engine.advance(toFrame: frame)
            let u = Double(frame) / 60 - 0.3
            let y = table.contentOffset.y
            if !engine.isIdle {
                XCTAssertEqual(y, (x0 + (v0 + omega * x0) * u) * exp(-omega * u), accuracy: 1e-9, "frame \(frame)")
            }
            if abs(y - previous) < 1e-9 && y != 0 { heldFrames += 1 }
            previous = y
            frame += 1
        }
        XCTAssertTrue(engine.isIdle)
        XCTAssertEqual(table.contentOffset.y, 0, "it comes to rest exactly at the top")
        XCTAssertEqual(heldFrames, 0, "no flat hold")
        // Half a second after the lift it is within 10 pt of the top; the rest is under a point.
        let at05 = (x0 + (v0 + omega * x0) * 0.5) * exp(-omega * 0.5)
        XCTAssertLessThan(abs(at05), 10)
        XCTAssertGreaterThan(frame, 19 + 30)
    }

    func testWithoutAnEngineTheContentRestsAtTheEdge() throws {
        let model = ListModel([names(30)])
        let table = try makeTable(model)
        table.dragContent(by: 120, duration: 0.3)
        XCTAssertEqual(table.contentOffset.y, 0)
        table.dragContent(by: -100, duration: 0.3)
        XCTAssertEqual(table.contentOffset.y, 100, "inside the content it stays where the finger left it")
    }
}
