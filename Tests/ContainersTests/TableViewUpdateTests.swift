import Foundation
import Containers
import Motion
import RasterCore
import SnapshotView
import XCTest

final class TableViewUpdateTests: XCTestCase {
    /// Start frame (minX, minY) and alpha of a row inserted at row 2 of five 44-pt rows, per style: the
    /// table of `TableViewRowAnimation`'s documentation with W = 320, h = 44, final frame y = 88.
    static let insertedStart: [TableViewRowAnimation: (x: Double, y: Double, alpha: Double)] = [
        .fade: (0, 88, 0), .right: (320, 88, 0), .left: (-320, 88, 0), .top: (0, 44, 1),
        .bottom: (0, 132, 1), .middle: (0, 66, 0), .none: (0, 88, 1),
    ]

    func testEveryStyleInsertsFromItsStartFrameWhileTheRowsBelowMoveDown() throws {
        for (style, start) in Self.insertedStart {
            let engine = AnimationEngine(fps: 60)
            let model = ListModel([names(5)])
            let table = try makeTable(model, engine: engine)
            model.sections[0].insert("new", at: 2)
            var finished: Bool?
            try table.performBatchUpdates({ try table.insertRows(at: [IndexPath(row: 2, section: 0)], with: style) },
                                          completion: { finished = $0 })
            let new = try XCTUnwrap(table.cell(named: "new"), "\(style)")
            let below = try XCTUnwrap(table.cell(named: "r2"))
            let above = try XCTUnwrap(table.cell(named: "r1"))
            // Start.
            XCTAssertEqual(engine.presentedFrame(new), Rect(x: start.x, y: start.y, width: 320, height: 44), "\(style)")
            XCTAssertEqual(engine.presentedAlpha(new), start.alpha, "\(style)")
            XCTAssertEqual(engine.presentedFrame(below).minY, 88)
            // Middle: the ease-in-ease-out curve is at exactly half way.
            engine.advance(to: 0.15)
            let mid = engine.presentedFrame(new)
            XCTAssertEqual(mid.minX, (start.x + 0) / 2, accuracy: 1e-9, "\(style)")
            XCTAssertEqual(mid.minY, style == .none ? 88 : (start.y + 88) / 2, accuracy: 1e-9, "\(style)")
            XCTAssertEqual(engine.presentedAlpha(new), style == .none ? 1 : (start.alpha + 1) / 2, accuracy: 1e-9, "\(style)")
            XCTAssertEqual(engine.presentedFrame(below).minY, 110, accuracy: 1e-9)
            XCTAssertEqual(engine.presentedFrame(above).minY, 44)
            // End.
            engine.advance(to: 0.3)
            XCTAssertEqual(engine.presentedFrame(new), Rect(x: 0, y: 88, width: 320, height: 44), "\(style)")
            XCTAssertEqual(engine.presentedAlpha(new), 1)
            XCTAssertEqual(engine.presentedFrame(below).minY, 132)
            XCTAssertEqual(finished, true)
            XCTAssertTrue(engine.isIdle)
            XCTAssertTrue(table.cellForRow(at: IndexPath(row: 2, section: 0)) === new)
        }
    }

    func testEveryStyleDeletesToWhereAnInsertStarts() throws {
        for (style, end) in Self.insertedStart {
            let engine = AnimationEngine(fps: 60)
            let model = ListModel([names(5)])
            let table = try makeTable(model, engine: engine)
            let gone = try XCTUnwrap(table.cell(named: "r2"))
            let below = try XCTUnwrap(table.cell(named: "r3"))
            model.sections[0].remove(at: 2)
            try table.deleteRows(at: [IndexPath(row: 2, section: 0)], with: style)
            if style == .none {
                XCTAssertNil(gone.superview, "removed at once")
            } else {
                XCTAssertEqual(engine.presentedFrame(gone), Rect(x: 0, y: 88, width: 320, height: 44), "\(style)")
                XCTAssertEqual(engine.presentedAlpha(gone), 1)
                engine.advance(to: 0.15)
                XCTAssertEqual(engine.presentedFrame(gone).minX, end.x / 2, accuracy: 1e-9, "\(style)")
                XCTAssertEqual(engine.presentedFrame(gone).minY, (88 + end.y) / 2, accuracy: 1e-9, "\(style)")
                XCTAssertEqual(engine.presentedAlpha(gone), (1 + end.alpha) / 2, accuracy: 1e-9, "\(style)")
                XCTAssertEqual(engine.presentedFrame(below).minY, 110, accuracy: 1e-9)
                engine.advance(to: 0.3)
                XCTAssertNil(gone.superview, "removed when the update completes")
            }
            engine.runUntilIdle()
            XCTAssertEqual(engine.presentedFrame(below).minY, 88)
            XCTAssertEqual(table.numberOfRows(inSection: 0), 4)
            XCTAssertEqual(table.indexPathsForVisibleRows.count, 4)
        }
    }

    func testInsertedAndDeletedRowsAreBehindMovedRowsInFront() throws {
        let engine = AnimationEngine(fps: 60)
        let model = ListModel([names(6)])
        let table = try makeTable(model, engine: engine)
        // Before: r0 r1 r2 r3 r4 r5. Delete r1, insert "new" at 0, move r4 to the top.
        model.sections[0] = ["r4", "new", "r0", "r2", "r3", "r5"]
        try table.performBatchUpdates({
            try table.deleteRows(at: [IndexPath(row: 1, section: 0)], with: .fade)
            try table.insertRows(at: [IndexPath(row: 1, section: 0)], with: .fade)
            try table.moveRow(at: IndexPath(row: 4, section: 0), to: IndexPath(row: 0, section: 0))
        })
        let order = table.subviews.compactMap { ($0 as? TableViewCell)?.name }
        XCTAssertEqual(Set(order.prefix(2)), ["r1", "new"], "inserted and deleted rows at the back: \(order)")
        XCTAssertEqual(order.last, "r4", "the moved row in front: \(order)")
        // Stayers keep their order and slide: r0 from 0 to 88, r2 from 88 to 132.
        XCTAssertEqual(engine.presentedFrame(table.cell(named: "r0")!).minY, 0)
        engine.advance(to: 0.3)
        XCTAssertEqual(engine.presentedFrame(table.cell(named: "r0")!).minY, 88)
        XCTAssertEqual(engine.presentedFrame(table.cell(named: "r2")!).minY, 132)
        XCTAssertEqual(engine.presentedFrame(table.cell(named: "r4")!).minY, 0)
        engine.runUntilIdle()
        XCTAssertEqual(table.indexPathsForVisibleRows.map { table.cellForRow(at: $0)!.name! }, model.sections[0])
    }

    func testMovesBetweenSectionsAndOfWholeSections() throws {
        let engine = AnimationEngine(fps: 60)
        let model = ListModel([["a0", "a1"], ["b0", "b1"], ["c0"]])
        model.headerTitles = ["A", "B", "C"]
        let table = try makeTable(model, engine: engine, size: Size(width: 320, height: 600))
        // Plain: header 28, rows 44. A at 0 (rows 28, 72), B at 116 (rows 144, 188), C at 232 (row 260).
        XCTAssertEqual(table.rectForRow(at: IndexPath(row: 0, section: 2)).minY, 260)
        // Move section C to the top and row a1 to the end of B.
        model.sections = [["c0"], ["a0"], ["b0", "b1", "a1"]]
        model.headerTitles = ["C", "A", "B"]
        try table.performBatchUpdates({
            try table.moveSection(2, toSection: 0)
            try table.moveRow(at: IndexPath(row: 1, section: 0), to: IndexPath(row: 2, section: 2))
        })
        let c0 = try XCTUnwrap(table.cell(named: "c0"))
        let a1 = try XCTUnwrap(table.cell(named: "a1"))
        let headerC = try XCTUnwrap(table.subviews.first { $0.name == "header 2" })
        XCTAssertEqual(engine.presentedFrame(c0).minY, 260)
        XCTAssertEqual(engine.presentedFrame(headerC).minY, 232)
        engine.advance(to: 0.3)
        // After: C at 0 (row 28), A at 72 (row 100), B at 144 (rows 172, 216, 260).
        XCTAssertEqual(engine.presentedFrame(c0).minY, 28)
        XCTAssertEqual(engine.presentedFrame(headerC).minY, 0)
        XCTAssertEqual(engine.presentedFrame(a1).minY, 260)
        engine.runUntilIdle()
        XCTAssertTrue(table.cellForRow(at: IndexPath(row: 2, section: 2)) === a1)
        let order = table.subviews.compactMap { ($0 as? TableViewCell)?.name }
        XCTAssertEqual(order, ["c0", "a0", "b0", "b1", "a1"], "layers reset when the update ends")
    }

    func testAMixedUpdateResolvesAsUIKitDoes() throws {
        let engine = AnimationEngine(fps: 60)
        let model = ListModel([["a0", "a1", "a2"], ["b0", "b1"], ["c0", "c1"]])
        let table = try makeTable(model, engine: engine, size: Size(width: 320, height: 800))
        // Delete section b (before: 1), reload a0 (before), delete a2 (before), move c1 (before [2,1]) to
        // [1,0] (after), insert a new section at 0 and a row at [1,2] (after).
        model.sections = [["n0"], ["a0*", "a1", "x"], ["c1", "c0"]]
        var finished = false
        try table.performBatchUpdates({
            try table.deleteSections([1], with: .left)
            try table.reloadRows(at: [IndexPath(row: 0, section: 0)], with: .fade)
            try table.deleteRows(at: [IndexPath(row: 2, section: 0)], with: .right)
            try table.moveRow(at: IndexPath(row: 1, section: 2), to: IndexPath(row: 0, section: 2))
            try table.insertSections([0], with: .top)
            try table.insertRows(at: [IndexPath(row: 2, section: 1)], with: .bottom)
        }, completion: { finished = $0 })
        engine.runUntilIdle()
        XCTAssertTrue(finished)
        XCTAssertEqual(table.indexPathsForVisibleRows.map { table.cellForRow(at: $0)!.textLabel.text }, ["n0", "a0*", "a1", "x", "c1", "c0"])
        XCTAssertEqual(table.subviews.compactMap { $0 as? TableViewCell }.count, 6, "leaving cells are gone")
    }

    func testAnUpdateWithOnlyNewHeightsAnimatesEveryRow() throws {
        let engine = AnimationEngine(fps: 60)
        let model = ListModel([names(4)])
        let table = try makeTable(model, engine: engine)
        for name in names(4) { model.heights[name] = 66 }
        try table.performBatchUpdates(nil)
        let r3 = try XCTUnwrap(table.cell(named: "r3"))
        XCTAssertEqual(engine.presentedFrame(r3), Rect(x: 0, y: 132, width: 320, height: 44))
        engine.advance(to: 0.15)
        XCTAssertEqual(engine.presentedFrame(r3).minY, 165, accuracy: 1e-9)
        XCTAssertEqual(engine.presentedFrame(r3).height, 55, accuracy: 1e-9)
        engine.advance(to: 0.3)
        XCTAssertEqual(engine.presentedFrame(r3), Rect(x: 0, y: 198, width: 320, height: 66))
    }

    func testInsideAnAnimationBlockTheUpdateTakesItsDurationAndCurve() throws {
        let engine = AnimationEngine(fps: 60)
        let model = ListModel([names(3)])
        let table = try makeTable(model, engine: engine)
        model.sections[0].insert("new", at: 0)
        engine.animate(duration: 1, options: .curveLinear, animations: {
            try? table.insertRows(at: [IndexPath(row: 0, section: 0)], with: .fade)
        })
        let r0 = try XCTUnwrap(table.cell(named: "r0"))
        engine.advance(to: 0.25)
        XCTAssertEqual(engine.presentedFrame(r0).minY, 11, accuracy: 1e-9)
        engine.advance(to: 0.5)
        XCTAssertEqual(engine.presentedFrame(r0).minY, 22, accuracy: 1e-9)
    }

    func testGroupedAutomaticSlidesUnderTheRestOfTheSection() throws {
        let table = TableView(frame: Rect(x: 0, y: 0, width: 320, height: 400), style: .grouped)
        XCTAssertEqual(table.resolvedAnimation(.automatic, forRowAt: 0, inSectionOfCount: 3), .bottom)
        XCTAssertEqual(table.resolvedAnimation(.automatic, forRowAt: 2, inSectionOfCount: 3), .top)
        XCTAssertEqual(table.resolvedAnimation(.automatic, forRowAt: 1, inSectionOfCount: 3), .fade)
        XCTAssertEqual(table.resolvedAnimation(.automatic, forRowAt: 0, inSectionOfCount: 1), .fade)
        XCTAssertEqual(table.resolvedAnimation(.left, forRowAt: 0, inSectionOfCount: 3), .left)
        let plain = TableView(frame: table.frame, style: .plain)
        XCTAssertEqual(plain.resolvedAnimation(.automatic, forRowAt: 0, inSectionOfCount: 3), .fade)

        // Inserting at the top of a grouped section: the new row starts h below its slot, under the
        // rows below, at full alpha; the row that was first keeps its rounded top until the end.
        let engine = AnimationEngine(fps: 60)
        let model = ListModel([names(3)])
        let grouped = try makeTable(model, style: .grouped, engine: engine)
        let oldFirst = try XCTUnwrap(grouped.cell(named: "r0"))
        model.sections[0].insert("new", at: 0)
        try grouped.insertRows(at: [IndexPath(row: 0, section: 0)], with: .automatic)
        let new = try XCTUnwrap(grouped.cell(named: "new"))
        XCTAssertEqual(engine.presentedFrame(new).minY, 18 + 44)
        XCTAssertEqual(engine.presentedAlpha(new), 1)
        XCTAssertTrue(oldFirst.sectionPosition.roundsTop)
        engine.runUntilIdle()
        XCTAssertFalse(oldFirst.sectionPosition.roundsTop)
        XCTAssertTrue(new.sectionPosition.roundsTop)
        // Deleting at the bottom slides it up under the row above.
        let last = try XCTUnwrap(grouped.cell(named: "r2"))
        model.sections[0].removeLast()
        try grouped.deleteRows(at: [IndexPath(row: 3, section: 0)], with: .automatic)
        engine.advance(to: engine.currentTime + 0.3)
        XCTAssertEqual(engine.presentedFrame(last).minY, 18 + 88)
    }

    func testReloadCrossFadesOldAndNewCells() throws {
        let engine = AnimationEngine(fps: 60)
        let model = ListModel([names(3)])
        let table = try makeTable(model, engine: engine)
        let old = try XCTUnwrap(table.cell(named: "r1"))
        model.sections[0][1] = "r1*"
        try table.reloadRows(at: [IndexPath(row: 1, section: 0)], with: .automatic)
        let new = try XCTUnwrap(table.cell(named: "r1*"))
        engine.advance(to: 0.15)
        XCTAssertEqual(engine.presentedAlpha(old), 0.5, accuracy: 1e-9)
        XCTAssertEqual(engine.presentedAlpha(new), 0.5, accuracy: 1e-9)
        XCTAssertEqual(engine.presentedFrame(new), engine.presentedFrame(old))
        engine.runUntilIdle()
        XCTAssertNil(old.superview)
        XCTAssertTrue(table.cellForRow(at: IndexPath(row: 1, section: 0)) === new)
    }

    func testSelectionFollowsRowsThroughAnUpdate() throws {
        let model = ListModel([names(4)])
        let table = try makeTable(model)
        table.allowsMultipleSelection = true
        table.selectRow(at: IndexPath(row: 1, section: 0), animated: false, scrollPosition: .none)
        table.selectRow(at: IndexPath(row: 3, section: 0), animated: false, scrollPosition: .none)
        model.sections[0] = ["r0", "r2", "r3"]
        try table.deleteRows(at: [IndexPath(row: 1, section: 0)], with: .fade)
        XCTAssertEqual(table.indexPathsForSelectedRows, [IndexPath(row: 2, section: 0)])
    }
}
