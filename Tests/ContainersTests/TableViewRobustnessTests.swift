import Containers
import Foundation
import Motion
import RasterCore
import SnapshotView
import XCTest

/// Updates that overlap, interrupt or come without an engine keep the table consistent: every row on
/// screen has one cell of its own, nothing off screen keeps one, and layers belong to their update.
final class TableViewRobustnessTests: XCTestCase {
    /// No cell is shown for two rows or held twice.
    func assertConsistent(_ table: TableView, file: StaticString = #filePath, line: UInt = #line) {
        let cells = table.visibleCellsInOrder
        XCTAssertEqual(Set(cells.map(ObjectIdentifier.init)).count, cells.count, "a cell shown for two rows", file: file, line: line)
        let subviewCells = table.subviews.compactMap { $0 as? TableViewCell }
        XCTAssertEqual(Set(subviewCells.map(ObjectIdentifier.init)), Set(cells.map(ObjectIdentifier.init)), "stray cells", file: file, line: line)
    }

    func testReloadDataDuringAnAnimatedUpdateTakesEverythingBack() throws {
        let engine = AnimationEngine(fps: 60)
        let model = ListModel([names(20)])
        let table = try makeTable(model, engine: engine)
        model.sections[0].remove(at: 2)
        model.sections[0].remove(at: 0)
        try table.deleteRows(at: [IndexPath(row: 0, section: 0), IndexPath(row: 2, section: 0)], with: .fade)
        engine.advance(to: 0.1)
        try table.reloadData()
        assertConsistent(table)
        engine.advance(to: 1)
        table.contentOffset = Point(x: 0, y: 200)
        assertConsistent(table)
        XCTAssertEqual(table.visibleCellsInOrder.count, 11)
        XCTAssertEqual(table.cellForRow(at: IndexPath(row: 5, section: 0))?.textLabel.text, model.sections[0][5])
    }

    func testWithoutAnEngineRowsThatLeaveTheScreenGiveTheirCellsBack() throws {
        let model = ListModel([names(30)])
        let table = try makeTable(model)
        for k in 0..<20 {
            model.sections[0].insert("new \(k)", at: 0)
            try table.insertRows(at: [IndexPath(row: 0, section: 0)], with: .fade)
        }
        XCTAssertEqual(table.indexPathsForVisibleRows.count, 10)
        XCTAssertNil(table.cellForRow(at: IndexPath(row: 15, section: 0)))
        XCTAssertEqual(table.subviews.compactMap { $0 as? TableViewCell }.count, 10)
        assertConsistent(table)
    }

    func testAMovedRowStaysInFrontUntilItsOwnUpdateEnds() throws {
        let engine = AnimationEngine(fps: 60)
        let model = ListModel([names(6)])
        let table = try makeTable(model, engine: engine)
        model.sections[0] = ["r1", "r2", "r3", "r4", "r0", "r5"]
        try table.moveRow(at: IndexPath(row: 0, section: 0), to: IndexPath(row: 4, section: 0))
        engine.advance(to: 0.2)
        model.sections[0] = ["r0", "r1", "r2", "r3", "r4", "r5"]
        try table.moveRow(at: IndexPath(row: 4, section: 0), to: IndexPath(row: 0, section: 0))
        engine.advance(to: 0.35)  // the first update has ended, the second runs on
        XCTAssertEqual(table.subviews.compactMap { ($0 as? TableViewCell)?.name }.last, "r0", "still in front")
        engine.runUntilIdle()
        assertConsistent(table)
    }

    func testHeadersMadeDuringAnUpdateArePlacedAtOnce() throws {
        let engine = AnimationEngine(fps: 60)
        let model = ListModel([names(5, prefix: "a"), names(5, prefix: "b"), names(5, prefix: "c"), names(5, prefix: "d"), names(5, prefix: "e")])
        model.headerTitles = ["A", "B", "C", "D", "E"]
        let table = try makeTable(model, engine: engine, size: Size(width: 320, height: 300))
        model.sections[0].remove(at: 0)
        try table.deleteRows(at: [IndexPath(row: 0, section: 0)], with: .fade)
        engine.advance(to: 0.05)
        table.contentOffset = Point(x: 0, y: 600)
        let header = try XCTUnwrap(table.subviews.first { $0.name == "header 3" })
        XCTAssertEqual(header.frame.minY, table.rectForHeader(inSection: 3).minY)
    }

    func testMalformedIndexPathsAreRefusedNotTrapped() throws {
        let model = ListModel([names(2)])
        let table = try makeTable(model)
        model.sections[0].append("x")
        XCTAssertThrowsError(try table.insertRows(at: [IndexPath(indexes: [0, 0, 5])], with: .fade)) {
            XCTAssertEqual("\($0)", "invalid update: attempt to use index path [0, 0, 5], but a table's index paths have a section and a row")
        }
        XCTAssertThrowsError(try table.deleteRows(at: [IndexPath(index: 1)], with: .fade))
        XCTAssertTrue(table.rectForRow(at: IndexPath(index: 0)).isNull)
        table.tapRow(at: IndexPath(indexes: [0, 0, 1]))
        XCTAssertNil(table.indexPathsForSelectedRows)
    }

    func testAGroupedReloadWithAutomaticCrossFades() throws {
        let engine = AnimationEngine(fps: 60)
        let model = ListModel([names(3)])
        let table = try makeTable(model, style: .grouped, engine: engine)
        model.sections[0][0] = "r0*"
        try table.reloadRows(at: [IndexPath(row: 0, section: 0)], with: .automatic)
        let new = try XCTUnwrap(table.cell(named: "r0*"))
        XCTAssertEqual(engine.presentedFrame(new), table.rectForRow(at: IndexPath(row: 0, section: 0)), "in place")
        XCTAssertEqual(engine.presentedAlpha(new), 0)
    }

    func testAFailedOuterBatchDropsTheCompletionsOfItsInnerOnes() throws {
        struct Stop: Error {}
        let model = ListModel([names(3)])
        let table = try makeTable(model)
        var called = 0
        XCTAssertThrowsError(try table.performBatchUpdates({
            try table.performBatchUpdates(nil, completion: { _ in called += 1 })
            throw Stop()
        }))
        model.sections[0].append("x")
        try table.insertRows(at: [IndexPath(row: 3, section: 0)], with: .fade)
        XCTAssertEqual(called, 0)
    }
}
