import Foundation
import RasterCore
import SnapshotView
import TransitionCompositor
import XCTest
@testable import SmokescreenScenes

/// The navigation built-ins, checked through what `inspect --json --time T` reports.
final class NavigationSceneTests: XCTestCase {
    private func state(_ scene: NavigationTransition.Scene, at time: Double) throws -> [String: Double] {
        var settings = RenderSettings(scale: 1, fps: 20, assetsDirectory: "/nonexistent")
        settings.inspectionTime = time
        return try XCTUnwrap(NavigationTransition(scene).render(settings).inspectionState)
    }

    func testTheHighlightFollowsTheProgressInEveryFrameOfTheNaiveAndSmartSwipes() throws {
        for scene in [NavigationTransition.Scene.deselectNaiveFinish, .deselectNaiveCancel, .deselectSmartFinish, .deselectSmartCancel] {
            // Every frame from the start of the swipe until its transition completes.
            var time = NavigationTransition.startTime
            var checked = 0
            while time < 1.3 {
                let s = try state(scene, at: time)
                if s["interactive"] == 1 || (s["progress"] ?? 0) > 0 && (s["progress"] ?? 0) < 1 {
                    let highlight = try XCTUnwrap(s["highlight"], "\(scene) at \(time)")
                    XCTAssertEqual(highlight, 1 - s["progress"]!, accuracy: 1.0 / 255, "\(scene) at \(time) s")
                    checked += 1
                }
                time += 0.05
            }
            XCTAssertGreaterThan(checked, 10, "\(scene)")
        }
    }

    func testAfterTheCancelSmartIsSelectedAndHighlightedNaiveIsNotDefaultIsStuck() throws {
        // The cancel completes before 1.1 s; the back button comes at 1.4 s.
        let smart = try state(.deselectSmartCancel, at: 1.2)
        XCTAssertEqual(smart["selected"], 1)
        XCTAssertEqual(smart["highlight"], 1)
        let naive = try state(.deselectNaiveCancel, at: 1.2)
        XCTAssertEqual(naive["selected"], 0)
        XCTAssertEqual(naive["highlight"], 0)
        let stuck = try state(.deselectDefaultCancel, at: 1.2)
        XCTAssertEqual(stuck["selected"], 1)
        XCTAssertEqual(stuck["highlight"], 1)
        // Default, finished: highlighted until the swipe's transition ends, then fading.
        let waiting = try state(.deselectDefaultFinish, at: 0.75)
        XCTAssertEqual(waiting["highlight"], 1)
        XCTAssertGreaterThan(waiting["progress"] ?? 0, 0.4)
        XCTAssertEqual(try state(.deselectDefaultFinish, at: 10)["selected"], 0)
    }

    func testEveryNavigationSceneIsListed() {
        for scene in NavigationTransition.Scene.allCases { XCTAssertNotNil(TransitionCatalog.transition(named: scene.rawValue)) }
    }
}
