import Foundation
import Motion
import RasterCore
import SnapshotView
import XCTest
import Containers

/// Pages of one colour each, numbered, as a data source and delegate that records what it is told.
final class ColourPages: PageViewControllerDataSource, PageViewControllerDelegate {
    final class Page: ViewController {
        let number: Int
        init(_ number: Int) { self.number = number; super.init() }
        override func loadView() -> View {
            let view = View(frame: Rect(x: 0, y: 0, width: 100, height: 120), name: "page\(number)")
            view.backgroundColor = ColourPages.colours[number % ColourPages.colours.count]
            return view
        }
    }
    static let colours = [Color(red8: 200, green8: 30, blue8: 30), Color(red8: 30, green8: 160, blue8: 40), Color(red8: 240, green8: 200, blue8: 40)]
    let pages: [Page]
    var told: [String] = []
    init(count: Int) { pages = (0..<count).map(Page.init) }
    func pageViewController(_ pvc: PageViewController, viewControllerBefore vc: ViewController) -> ViewController? {
        let n = (vc as! Page).number
        return n > 0 ? pages[n - 1] : nil
    }
    func pageViewController(_ pvc: PageViewController, viewControllerAfter vc: ViewController) -> ViewController? {
        let n = (vc as! Page).number
        return n + 1 < pages.count ? pages[n + 1] : nil
    }
    func pageViewController(_ pvc: PageViewController, willTransitionTo pending: [ViewController]) {
        told.append("will \((pending.first as! Page).number)")
    }
    func pageViewController(_ pvc: PageViewController, didFinishAnimating finished: Bool, previousViewControllers: [ViewController], transitionCompleted completed: Bool) {
        told.append("did \((previousViewControllers.first as! Page).number) \(completed ? "completed" : "cancelled")")
    }
}

final class PageViewControllerTests: XCTestCase {
    func make(_ style: PageViewController.TransitionStyle = .pageCurl, count: Int = 3, fps: Double = 20) -> (PageViewController, ColourPages, AnimationEngine) {
        let engine = AnimationEngine(fps: fps)
        let pages = ColourPages(count: count)
        let pvc = PageViewController(transitionStyle: style, engine: engine, size: Size(width: 100, height: 120))
        pvc.snapshotScale = 1
        pvc.dataSource = pages
        pvc.delegate = pages
        pvc.setViewControllers([pages.pages[0]], direction: .forward, animated: false)
        return (pvc, pages, engine)
    }

    func number(_ pvc: PageViewController) -> Int? { (pvc.viewControllers.first as? ColourPages.Page)?.number }

    func testATapTurnsForwardInPointFourSecondsAndTellsTheDelegate() {
        let (pvc, pages, engine) = make()
        XCTAssertTrue(pvc.tap(.forward))
        XCTAssertTrue(pvc.isTurning)
        XCTAssertFalse(pvc.tap(.forward), "refused while a turn runs")
        engine.advance(to: 0.2)
        XCTAssertEqual(pvc.turnProgress ?? -1, 0.5, accuracy: 1e-3, "ease-in-ease-out at half time")
        XCTAssertNotNil(pvc.view.subviews.first { $0.name == "pageCurl" })
        engine.advance(to: 0.4)
        XCTAssertFalse(pvc.isTurning)
        XCTAssertEqual(number(pvc), 1)
        XCTAssertEqual(pages.told, ["will 1", "did 0 completed"])
        XCTAssertEqual(pvc.view.subviews.map(\.name), ["page1"], "only the page on screen")
    }

    /// Issue 28: a tapped curl lifts from the bottom corner with a tilted axis that straightens as the
    /// page goes over (as a drag's does); reversed, the page lands corner last.
    func testATapCurlLiftsFromTheCornerWithATiltedAxisThatStraightens() throws {
        for direction in [PageViewController.NavigationDirection.forward, .reverse] {
            let (pvc, pages, engine) = make()
            defer { withExtendedLifetime(pages) {} }
            if direction == .reverse {
                XCTAssertTrue(pvc.tap(.forward))
                engine.advance(to: 1)
            }
            XCTAssertTrue(pvc.tap(direction))
            let start = engine.currentTime
            var angles: [Double] = []
            for frame in 1...7 {
                engine.advance(to: start + Double(frame) / 20)
                let curl = try XCTUnwrap(pvc.view.subviews.first { $0.name == "pageCurl" } as? DrawingView)
                let g = try XCTUnwrap(curl.drawing as? PageCurlDrawing).geometry
                // The angle from the vertical: negative, the bottom corner first.
                let angle = atan2(-g.towardsEdge.y, g.towardsEdge.x)
                let curled = direction == .forward ? pvc.turnProgress! : 1 - pvc.turnProgress!
                XCTAssertEqual(angle, PageViewController.tapCurlAngle * (1 - curled), accuracy: 1e-9)
                XCTAssertLessThan(angle, 0)
                // The bottom corner is the farthest from the axis: it lifts first.
                let bottom = g.distance(of: Point(x: 100, y: 120))
                XCTAssertGreaterThan(bottom, g.distance(of: Point(x: 100, y: 0)))
                // It is off the page at 0 and lifts as soon as the turn moves (the axis pivots at the top).
                if frame == 1, direction == .forward { XCTAssertGreaterThan(bottom, 0) }
                angles.append(angle)
            }
            // Forward it straightens as the page goes over; reverse it tilts as the page comes down.
            for (a, b) in zip(angles, angles.dropFirst()) {
                if direction == .forward { XCTAssertGreaterThan(b, a) } else { XCTAssertLessThan(b, a) }
            }
        }
    }

    func testNoPageBeforeTheFirstOrAfterTheLastAndDisabledGesturesRefuse() {
        let (pvc, pages, engine) = make(count: 2)
        XCTAssertFalse(pvc.tap(.reverse), "page 0 has nothing before it")
        XCTAssertFalse(pvc.drag(.reverse, following: PageDrag(samples: [(0, 10, 50), (0.2, 80, 50)])))
        pvc.gestureRecognizers.forEach { $0.isEnabled = false }
        XCTAssertFalse(pvc.tap(.forward), "tap recognizer off")
        XCTAssertFalse(pvc.drag(.forward, following: PageDrag(samples: [(0, 90, 50), (0.1, 10, 50)])), "pan recognizer off")
        pvc.gestureRecognizers.forEach { $0.isEnabled = true }
        XCTAssertTrue(pvc.tap(.forward))
        engine.advance(to: 1)
        XCTAssertFalse(pvc.tap(.forward), "the last page has nothing after it")
        XCTAssertEqual(pages.told, ["will 1", "did 0 completed"])
    }

    func testADragFollowsTheFingerThenFinishesOrFallsBack() {
        let (pvc, pages, engine) = make()
        // 60 of 100 pt towards the spine, released moving fast: finishes.
        let drag = PageDrag(samples: [(0, 95, 60), (0.2, 65, 60), (0.3, 35, 60)])
        XCTAssertTrue(pvc.drag(.forward, following: drag))
        engine.advance(to: 0.1)
        // The finger on its spline (13.6 pt at 0.1 s: it speeds up towards the second sample).
        XCTAssertEqual(pvc.turnProgress ?? -1, drag.swipe(.forward).translation(at: 0.1) / 100, accuracy: 1e-9, "under the finger")
        XCTAssertEqual(pvc.turnProgress ?? -1, 0.136, accuracy: 1e-3)
        engine.advance(to: 2)
        XCTAssertEqual(number(pvc), 1)
        // A short slow drag back: falls back to page 1.
        XCTAssertTrue(pvc.drag(.forward, following: PageDrag(samples: [(0, 95, 60), (0.3, 85, 60), (0.6, 80, 60)])))
        engine.advance(to: 2.6)
        XCTAssertEqual(pvc.turnProgress ?? -1, 0.15, accuracy: 1e-9, "released at 15 pt")
        engine.advance(to: 4)
        XCTAssertFalse(pvc.isTurning)
        XCTAssertEqual(number(pvc), 1)
        XCTAssertEqual(pages.told, ["will 1", "did 0 completed", "will 2", "did 1 cancelled"])
        XCTAssertEqual(pvc.view.subviews.map(\.name), ["page1"])
    }

    /// A curl drag's release does not lurch: over the first 1/30 s after the finger lifts, the turn's
    /// progress moves within 2x of its speed over the last 1/30 s under the finger, finishing and
    /// falling back (the rest starts at the finger's velocity, as a back swipe's does).
    func testACurlDragReleasesWithoutALurch() {
        let window = 1.0 / 30
        for (drag, finishes) in [(PageDrag(samples: [(0, 95, 60), (0.2, 65, 60), (0.3, 35, 60)]), true),
                                 (PageDrag(samples: [(0, 95, 60), (0.2, 70, 60), (0.35, 62, 60), (0.5, 70, 60)]), false)] {
            // 240 frames a second: the display link fires on frames, and 1/30 s must span several.
            let (pvc, pages, engine) = make(fps: 240)
            XCTAssertTrue(pvc.drag(.forward, following: drag))
            let release = drag.swipe(.forward).duration
            var progress: [Double] = []
            for t in [release - window, release, release + window] {
                engine.advance(to: t)
                progress.append(pvc.turnProgress ?? -1)
            }
            let before = (progress[1] - progress[0]) / window, after = (progress[2] - progress[1]) / window
            XCTAssertNotEqual(before, 0, "the finger moves at the release")
            XCTAssertEqual(before.sign, after.sign, "the turn goes on the way the finger went (finishes: \(finishes))")
            XCTAssertLessThanOrEqual(max(abs(after / before), abs(before / after)), 2,
                                     "speed under the finger \(before)/s, just after the release \(after)/s (finishes: \(finishes))")
            engine.advance(to: 3)
            XCTAssertEqual(number(pvc), finishes ? 1 : 0)
            withExtendedLifetime(pages) {}
        }
    }

    func testScrollStyleSlidesSideBySide() throws {
        let (pvc, pages, engine) = make(.scroll)
        XCTAssertTrue(pvc.tap(.forward))
        engine.advance(to: 0.15)  // half of 0.3 s
        let old = try XCTUnwrap(pvc.view.subviews.first { $0.name == "page0" })
        let new = try XCTUnwrap(pvc.view.subviews.first { $0.name == "page1" })
        XCTAssertEqual(old.frame.minX, -50, accuracy: 1e-3)
        XCTAssertEqual(new.frame.minX, 50, accuracy: 1e-3)
        engine.advance(to: 1)
        XCTAssertEqual(number(pvc), 1)
        XCTAssertTrue(pvc.tap(.reverse))
        engine.advance(to: 1.15)
        XCTAssertEqual(try XCTUnwrap(pvc.view.subviews.first { $0.name == "page0" }).frame.minX, -50, accuracy: 1e-3, "comes back from the left")
        withExtendedLifetime(pages) {}
    }

    func testSetViewControllersTurnsWithoutAskingOrTelling() {
        let (pvc, pages, engine) = make()
        var finished: Bool?
        pvc.setViewControllers([pages.pages[2]], direction: .forward, animated: true) { finished = $0 }
        engine.advance(to: 1)
        XCTAssertEqual(finished, true)
        XCTAssertEqual(number(pvc), 2)
        XCTAssertEqual(pages.told, [], "the delegate hears only of gesture-driven turns")
    }
}
