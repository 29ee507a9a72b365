import SmokescreenStage
import XCTest

/// Records what its recognizers report, through target–action as the source pass writes it.
final class GestureLog: NSObject {
    var entries: [String] = []
    var translations: [CGPoint] = []
    var velocities: [CGPoint] = []

    func handlePan(_ pan: UIPanGestureRecognizer) {
        entries.append("pan \(pan.state.rawValue)")
        translations.append(pan.translation(in: pan.view))
        velocities.append(pan.velocity(in: pan.view))
    }

    func handleTap(_ tap: UITapGestureRecognizer) {
        let p = tap.location(in: tap.view)
        entries.append("tap \(tap.state.rawValue) at (\(p.x), \(p.y))")
    }
    func handleLongPress(_ press: UILongPressGestureRecognizer) { entries.append("long \(press.state.rawValue)") }
    func noArguments() { entries.append("called") }
}

final class GestureTests: XCTestCase {
    private var stage: Stage!
    private var box: UIView!
    private var log: GestureLog!

    override func setUpWithError() throws {
        stage = try makeStage(width: 100, height: 100)
        box = UIView(frame: CGRect(x: 10, y: 10, width: 80, height: 80))
        stage.window.addSubview(box)
        log = GestureLog()
    }

    func testAPanBeginsAfterTenPointsAndReportsTranslationAndVelocity() throws {
        let pan = UIPanGestureRecognizer(target: log, action: Selector(GestureLog.handlePan(_:), name: "handlePan(_:)"))
        box.addGestureRecognizer(pan)
        XCTAssertTrue(pan.view === box)
        XCTAssertEqual(box.gestureRecognizers?.count, 1)
        try stage.pan(from: CGPoint(x: 20, y: 50), to: CGPoint(x: 80, y: 50), duration: 0.6)
        // Ticks at 10 fps: the finger at 30, 40 … 80; it begins at the first tick 10 points away.
        XCTAssertEqual(log.entries.first, "pan 1")
        XCTAssertEqual(log.entries.last, "pan 3")
        XCTAssertEqual(log.entries.filter { $0 == "pan 2" }.count, 5)
        XCTAssertEqual(log.translations.first, CGPoint(x: 10, y: 0))
        XCTAssertEqual(log.translations.last, CGPoint(x: 60, y: 0))
        XCTAssertEqual(log.velocities.last?.x ?? 0, 100, accuracy: 1e-9, "60 points in 0.6 s")
        XCTAssertEqual(pan.state, .possible, "back to possible after the gesture")
        XCTAssertEqual(stage.frameCount, 7)
        XCTAssertEqual(stage.time, 0.6, accuracy: 1e-9)
    }

    func testAReleaseVelocityAndSetTranslation() throws {
        final class Resetting: NSObject {
            var seen: [CGFloat] = []
            func handle(_ pan: UIPanGestureRecognizer) {
                seen.append(pan.translation(in: nil).x)
                pan.setTranslation(.zero, in: nil)
                if pan.state == .ended { seen.append(pan.velocity(in: nil).y) }
            }
        }
        let target = Resetting()
        box.addGestureRecognizer(UIPanGestureRecognizer(target: target, action: Selector(Resetting.handle(_:))))
        try stage.pan(from: CGPoint(x: 20, y: 20), to: CGPoint(x: 60, y: 20), duration: 0.4, releaseVelocity: CGVector(dx: 0, dy: 500))
        XCTAssertEqual(target.seen, [10, 10, 10, 10, 0, 500], "each step of 10 once the translation is reset every time")
    }

    func testAnEdgePanBeginsOnlyFromItsEdge() throws {
        let edge = UIScreenEdgePanGestureRecognizer(target: log, action: Selector(GestureLog.handlePan(_:)))
        edge.edges = .left
        stage.window.addGestureRecognizer(edge)
        try stage.pan(from: CGPoint(x: 50, y: 50), to: CGPoint(x: 90, y: 50), duration: 0.3)
        XCTAssertEqual(log.entries, [], "from the middle it fails")
        try stage.pan(from: CGPoint(x: 5, y: 50), to: CGPoint(x: 60, y: 50), duration: 0.3)
        XCTAssertEqual(log.entries.first, "pan 1")
        XCTAssertEqual(log.entries.last, "pan 3")
    }

    func testTapsDoubleTapsAndWhatTheyRequire() throws {
        let single = UITapGestureRecognizer(target: log, action: Selector(GestureLog.handleTap(_:)))
        let double = UITapGestureRecognizer(target: log, action: Selector(GestureLog.noArguments))
        double.numberOfTapsRequired = 2
        single.require(toFail: double)
        box.addGestureRecognizer(single)
        box.addGestureRecognizer(double)
        try stage.tap(at: CGPoint(x: 30, y: 40))
        XCTAssertEqual(log.entries, [], "the single tap waits to see whether a second tap comes")
        try stage.wait(0.5)
        XCTAssertEqual(log.entries, ["tap 3 at (20.0, 30.0)"], "none came within 0.35 s: the double tap failed, the single fires")
        log.entries = []
        try stage.tap(at: CGPoint(x: 30, y: 40), count: 2)
        try stage.wait(0.5)
        XCTAssertEqual(log.entries, ["called"], "two taps: the double tap, and the single tap fails")
    }

    func testALongPressBeginsAfterItsDurationAndAMovedFingerFailsIt() throws {
        let press = UILongPressGestureRecognizer(target: log, action: Selector(GestureLog.handleLongPress(_:)))
        box.addGestureRecognizer(press)
        try stage.longPress(at: CGPoint(x: 50, y: 50), duration: 0.3)
        XCTAssertEqual(log.entries, [], "shorter than 0.5 s")
        try stage.longPress(at: CGPoint(x: 50, y: 50), duration: 0.8)
        XCTAssertEqual(log.entries, ["long 1", "long 3"])
    }

    func testOnlyOneRecognizerWinsUnlessTheDelegateSaysOtherwise() throws {
        final class Simultaneous: NSObject, UIGestureRecognizerDelegate {
            var allow = false
            func gestureRecognizer(_ g: UIGestureRecognizer, shouldRecognizeSimultaneouslyWith other: UIGestureRecognizer) -> Bool { allow }
        }
        let delegate = Simultaneous()
        let inner = UIPanGestureRecognizer(target: log, action: Selector(GestureLog.handlePan(_:)))
        let outer = UIPanGestureRecognizer(target: log, action: Selector(GestureLog.noArguments))
        inner.delegate = delegate
        box.addGestureRecognizer(inner)
        stage.window.addGestureRecognizer(outer)
        try stage.pan(from: CGPoint(x: 20, y: 20), to: CGPoint(x: 60, y: 20), duration: 0.2)
        XCTAssertFalse(log.entries.contains("called"), "the box's pan goes first and the window's fails")
        log.entries = []
        delegate.allow = true
        try stage.pan(from: CGPoint(x: 20, y: 20), to: CGPoint(x: 60, y: 20), duration: 0.2)
        XCTAssertTrue(log.entries.contains("called"))
        // A disabled recognizer gets nothing; a string selector cannot be called and says so.
        inner.isEnabled = false
        outer.removeTarget(log!, action: nil)
        outer.addTarget(log!, action: Selector("handlePan:"))
        try stage.pan(from: CGPoint(x: 20, y: 20), to: CGPoint(x: 60, y: 20), duration: 0.2)
        XCTAssertTrue(stage.warnings.contains { $0.hasPrefix("handlePan: was not called") })
    }

    func testTheViewsOwnTouchMethodsAreCancelledWhenAGestureIsRecognized() throws {
        final class TouchView: UIView {
            var calls: [String] = []
            override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent?) { calls.append("began") }
            override func touchesMoved(_ touches: Set<UITouch>, with event: UIEvent?) { calls.append("moved") }
            override func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent?) { calls.append("ended") }
            override func touchesCancelled(_ touches: Set<UITouch>, with event: UIEvent?) { calls.append("cancelled") }
        }
        let view = TouchView(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        stage.window.addSubview(view)
        try stage.tap(at: CGPoint(x: 5, y: 5))
        XCTAssertEqual(view.calls, ["began", "ended"])
        view.calls = []
        view.addGestureRecognizer(UIPanGestureRecognizer(target: log, action: Selector(GestureLog.handlePan(_:))))
        try stage.pan(from: CGPoint(x: 5, y: 5), to: CGPoint(x: 50, y: 5), duration: 0.3)
        XCTAssertEqual(view.calls, ["began", "moved", "cancelled"], "the first tick moves the finger 7.5 points, under the pan's 10")
    }

    func testBadTouchesAreRefused() throws {
        XCTAssertThrowsError(try stage.tap(at: CGPoint(x: CGFloat.nan, y: 0)))
        XCTAssertThrowsError(try stage.moveTouch(to: CGPoint(x: 1, y: 1), duration: 0.1))
        XCTAssertThrowsError(try stage.pan(along: [], duration: 1))
        XCTAssertThrowsError(try stage.pan(from: .zero, to: CGPoint(x: 1, y: 1), duration: -1))
        XCTAssertThrowsError(try stage.tap(at: .zero, count: 0))
    }
}
