import Foundation
import RasterCore
import SnapshotView
import TransitionCompositor
import XCTest
import SmokescreenScenes

/// What the table scenes promise, checked on the presented view tree at many times.
final class TableSceneTests: XCTestCase {
    /// The tree as presented at `time` (window coordinates, points).
    private func tree(_ scene: TableTransition.Scene, at time: Double, fps: Double = 20) throws -> ViewDescription {
        var settings = RenderSettings(scale: 1, fps: fps, assetsDirectory: "/nonexistent")
        settings.inspectionTime = time
        return try XCTUnwrap(TableTransition(scene).render(settings).inspection?.tree)
    }

    private func all(_ node: ViewDescription) -> [ViewDescription] { [node] + node.subviews.flatMap(all) }

    func testTheFloatingButtonStaysAtOnePlaceOnScreenInEveryFrameBounceIncluded() throws {
        let settings = RenderSettings(scale: 1, fps: 20, assetsDirectory: "/nonexistent")
        let rendered = try TableTransition(.floatingView).render(settings)
        XCTAssertEqual(rendered.sequence.times.last, TableTransition.floatingViewLength, "a fixed length")
        var offsets: [Double] = []
        for time in rendered.sequence.times {
            let nodes = all(try tree(.floatingView, at: time))
            let button = try XCTUnwrap(nodes.first { $0.name == "floatingButton" })
            // Exact but for floating-point rounding: (12 + offset) − offset.
            for (value, expected) in zip(button.frame, [259.0, 76, 100, 32]) {
                XCTAssertEqual(value, expected, accuracy: 1e-9, "at \(time) s")
            }
            offsets.append(try XCTUnwrap(nodes.first { $0.name == "table" }?.contentOffset?[1]))
        }
        XCTAssertEqual(offsets.max(), 700)
        // Pulled past the top on the rubber band: at most what a 180-pt pull shows on the 603-pt table
        // (85 pt), plus the little the lift's velocity carries it; then straight back, with no two equal
        // frames on the way (no hold).
        let deepest = try XCTUnwrap(offsets.min())
        XCTAssertLessThan(deepest, -60, "pulled past the top")
        XCTAssertGreaterThan(deepest, -ScrollView.rubberBand(180, dimension: 603) - 3)
        let past = offsets.indices.filter { offsets[$0] < -1 }
        for k in past.dropFirst() where past.contains(k - 1) {
            XCTAssertNotEqual(offsets[k], offsets[k - 1], "frame \(k): no hold past the top")
        }
    }

    func testTheCloudsShowTheRightPhaseAtAnyTime() throws {
        // 60 s per half width (375 pt), linear, repeating: x = −375 · (t mod 60) / 60.
        for time in [0.0, 0.35, 1.2, 2.95] {
            let clouds = try XCTUnwrap(all(try tree(.floatingView, at: time)).first { $0.name == "clouds" })
            XCTAssertEqual(clouds.frame[0], -375 * time / 60, accuracy: 1e-9, "at \(time) s")
            XCTAssertEqual(clouds.frame[2], 750)
        }
    }

    func testAtMostOneControlRowAndItCannotBeSelected() throws {
        let settings = RenderSettings(scale: 1, fps: 20, assetsDirectory: "/nonexistent")
        let times = try TableTransition(.controlRow).render(settings).sequence.times
        var seen: [Int] = []
        for time in times {
            let nodes = all(try tree(.controlRow, at: time))
            let controls = nodes.filter { $0.name == "control row" && $0.alpha > 0 }
            seen.append(controls.count)
        }
        // Two may show at once only while one leaves and the other arrives in the same update.
        XCTAssertEqual(seen.max(), 2)
        // The end state: no control row; after the first tap (settled at 0.5 s): one, under row 1.
        XCTAssertEqual(seen.last, 0)
        let settled = all(try tree(.controlRow, at: 0.75))
        let control = try XCTUnwrap(settled.first { $0.name == "control row" })
        XCTAssertEqual(control.frame[1], 64 + 88)
        // The tap on the control row at 0.8 s selects nothing: no row is highlighted just after it.
        let afterTap = all(try tree(.controlRow, at: 0.85))
        XCTAssertFalse(afterTap.contains { $0.name == "selectedBackground" && $0.alpha > 0 })
    }

    func testSortingMovesEverySectionIntoAlphabeticalOrderAndBack() throws {
        func headers(at time: Double) throws -> [String] {
            all(try tree(.sortPlays, at: time)).filter { ($0.name ?? "").hasPrefix("header") }
                .sorted { $0.frame[1] < $1.frame[1] }.compactMap { $0.subviews.first?.text }
        }
        XCTAssertEqual(try headers(at: 0).prefix(3), ["MACBETH", "HAMLET", "TWELFTH NIGHT"])
        XCTAssertEqual(try headers(at: 1.5).prefix(3), ["AS YOU LIKE IT", "HAMLET", "KING LEAR"])
        XCTAssertEqual(try headers(at: 10).prefix(3), ["MACBETH", "HAMLET", "TWELFTH NIGHT"])
    }

    func testEveryTableSceneIsListedAndRenders() throws {
        for scene in TableTransition.Scene.allCases {
            XCTAssertNotNil(TransitionCatalog.transition(named: scene.rawValue))
            let rendered = try TableTransition(scene).render(RenderSettings(scale: 1, fps: 10, assetsDirectory: "/nonexistent"))
            XCTAssertGreaterThan(rendered.sequence.count, 5, scene.rawValue)
        }
    }
}
