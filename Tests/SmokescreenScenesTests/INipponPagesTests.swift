import Foundation
import Motion
import RasterCore
import SnapshotView
import TransitionCompositor
import XCTest
import Containers
import SmokescreenScenes

/// iNippon's pages (seed 002): the window, refused turns, and what each scene's gestures do.
final class INipponPagesTests: XCTestCase {
    static let assets = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("assets").path

    func run(_ scene: INipponPagesTransition.Scene, describe: Bool = false) throws -> (INipponPagesTransition.Record, RenderedTransition) {
        let record = INipponPagesTransition.Record()
        var settings = RenderSettings(scale: 1, fps: 20, assetsDirectory: Self.assets)
        settings.describesFrames = describe
        let rendered = try INipponPagesTransition(scene).render(settings, record: record)
        XCTAssertEqual(rendered.sequence.times.last ?? 0, INipponPagesTransition(scene).length, accuracy: 1e-9, "\(scene) runs to its length")
        return (record, rendered)
    }

    private func turns(_ record: INipponPagesTransition.Record) -> [String] {
        record.turns.map { "\($0.from)→\($0.to)\($0.completed ? "" : " cancelled")" }
    }

    func testTheWindowHoldsThePreviousCurrentAndNextPageAfterEveryTurn() throws {
        let engine = AnimationEngine(fps: 20)
        let store = try PageStore(strategy: .window, scale: 1, assetsDirectory: Self.assets, engine: engine)
        let pvc = PageViewController(transitionStyle: .pageCurl, engine: engine, size: INipponPagesTransition.pageSize)
        pvc.snapshotScale = 1
        pvc.dataSource = store
        pvc.delegate = store
        store.pageViewController = pvc
        pvc.setViewControllers([try XCTUnwrap(store.loaded[0])], direction: .forward, animated: false)
        XCTAssertEqual(store.loaded.keys.sorted(), [0, 1], "two at page 0")
        var time = 0.0
        func turn(_ direction: PageViewController.NavigationDirection) throws {
            XCTAssertTrue(pvc.tap(direction), "at page \(store.current)")
            let loads = store.loadTimes.count
            time += 0.4
            engine.advance(to: time)
            // Loading (not when the window reached an end and has nothing new): turning is off until it
            // has taken as long as the load did.
            if store.loadTimes.count > loads {
                XCTAssertFalse(pvc.gestureRecognizers.contains { $0.isEnabled }, "off while the new page loads")
                XCTAssertFalse(pvc.tap(direction), "a turn during loading is refused")
            }
            time += 1
            engine.advance(to: time)
            XCTAssertTrue(pvc.gestureRecognizers.allSatisfy(\.isEnabled))
            let c = store.current
            XCTAssertEqual(store.loaded.keys.sorted(), [c - 1, c, c + 1].filter { (0..<PageStore.count).contains($0) }, "after the turn to page \(c)")
        }
        for _ in 1..<PageStore.count { try turn(.forward) }
        XCTAssertEqual(store.current, 9)
        XCTAssertFalse(pvc.tap(.forward), "no page after the last")
        for _ in 1..<PageStore.count { try turn(.reverse) }
        XCTAssertEqual(store.current, 0)
        XCTAssertEqual(store.loaded.keys.sorted(), [0, 1])
        XCTAssertEqual(store.loadTimes.count, 2 + 8 + 8, "one load per turn, except towards an end where the window has nothing new")
    }

    func testFastFlicksTheSecondComesWhileThePageLoadsAndIsRefused() throws {
        let (record, _) = try run(.fastFlicks)
        XCTAssertEqual(record.accepted, [true, false, true])
        XCTAssertEqual(turns(record), ["0→1", "1→2"])
    }

    func testTheOtherScenes() throws {
        let (curl, _) = try run(.curl)
        XCTAssertEqual(curl.accepted, [true])
        XCTAssertEqual(turns(curl), ["0→1"])
        let (back, _) = try run(.curlBack)
        XCTAssertEqual(turns(back), ["3→2"])
        let (interactive, _) = try run(.curlInteractive)
        XCTAssertEqual(interactive.accepted, [true, true])
        XCTAssertEqual(turns(interactive), ["0→1", "1→1 cancelled"], "the first drag finishes, the second falls back")
        let (scroll, _) = try run(.scroll)
        XCTAssertEqual(turns(scroll), ["0→1", "1→2"])
    }

    func testATurnBackOnTheFirstPageDoesNothing() throws {
        let (record, rendered) = try run(.firstPage, describe: true)
        XCTAssertEqual(record.accepted, [false, false])
        XCTAssertEqual(record.turns.count, 0)
        let first = try XCTUnwrap(rendered.frameDescriptions.first)
        for tree in rendered.frameDescriptions { XCTAssertEqual(tree, first) }
    }

    func testTheCurlFollowsTheFingerWhileItDrags() throws {
        // At 0.35 s the finishing drag (from 0.2 s) is 0.15 s in: 50 of 320 pt towards the spine.
        var settings = RenderSettings(scale: 1, fps: 20, assetsDirectory: Self.assets)
        settings.inspectionTime = 0.35
        let rendered = try INipponPagesTransition(.curlInteractive).render(settings)
        let tree = try XCTUnwrap(rendered.inspection?.tree)
        func all(_ n: ViewDescription) -> [ViewDescription] { [n] + n.subviews.flatMap(all) }
        XCTAssertNotNil(all(tree).first { $0.name == "pageCurl" }, "the curl is drawn over the next page")
        XCTAssertEqual(all(tree).first { $0.name == "page-0" }?.hidden, true, "the real page hides under its curl")
    }

    func testTheMemoryReportHasTheSeedsNumbers() throws {
        // Few frames per turn: the figures that matter (pages held, background bytes) do not depend on it.
        let report = try PagesMemoryReport.measure(assetsDirectory: Self.assets, scales: [1, 2], loads: 3, fps: 5)
        XCTAssertEqual(report.pages, 10)
        XCTAssertEqual(report.scales.map(\.backgroundBytes), [469_760, 1_879_040], "320x367x4 and 640x734x4: four times the data")
        for scale in report.scales {
            let byName = Dictionary(uniqueKeysWithValues: scale.strategies.map { ($0.name, $0) })
            let all = try XCTUnwrap(byName["all-loaded"]), window = try XCTUnwrap(byName["three-page-window"]), demand = try XCTUnwrap(byName["on-demand"])
            XCTAssertEqual(all.pagesHeldAtPeak, 10)
            XCTAssertEqual(window.pagesHeldAtPeak, 3)
            XCTAssertEqual(demand.pagesHeldAtPeak, 2)
            XCTAssertEqual([all.loadsAtLaunch, all.loadsDuringTurns, all.loadsAfterTurns], [10, 0, 0])
            XCTAssertEqual([window.loadsAtLaunch, window.loadsDuringTurns, window.loadsAfterTurns], [2, 0, 8])
            XCTAssertEqual([demand.loadsAtLaunch, demand.loadsDuringTurns, demand.loadsAfterTurns], [1, 9, 0])
            // The window's peak: three backgrounds plus what drawing holds (frame, curl snapshot, layers),
            // which is the same for every strategy; ten pages cost seven backgrounds more.
            // What drawing holds at the peak (frame, the curl's snapshot, a strip's layer, a first draw) is
            // about the same for every strategy: at most one page more for the window, whose loads (with
            // their first draw) come right after a turn.
            let drawingAll = all.peakBytes - 10 * scale.backgroundBytes
            let drawingWindow = window.peakBytes - 3 * scale.backgroundBytes
            XCTAssertGreaterThan(drawingAll, 0)
            XCTAssertLessThanOrEqual(drawingWindow, drawingAll + scale.backgroundBytes)
            XCTAssertGreaterThanOrEqual(all.peakBytes - window.peakBytes, 6 * scale.backgroundBytes, "ten pages cost six to seven backgrounds more")
            XCTAssertGreaterThan(scale.loadMilliseconds, 0)
            XCTAssertEqual(scale.frameBudgets, scale.loadMilliseconds / (1000.0 / 60), accuracy: 1e-9)
        }
    }
}
