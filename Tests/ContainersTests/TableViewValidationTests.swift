import Foundation
import Containers
import Motion
import RasterCore
import SnapshotView
import XCTest

/// Every update UIKit refuses is refused here with an error naming what is wrong, and leaves the table
/// as it was.
final class TableViewValidationTests: XCTestCase {
    private func refused(_ sections: [[String]], after: [[String]], _ update: @escaping (TableView) throws -> Void,
                         file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let engine = AnimationEngine(fps: 60)
        let model = ListModel(sections)
        let table = try makeTable(model, engine: engine)
        let rectsBefore = table.indexPathsForVisibleRows.map { table.cellForRow(at: $0)!.frame }
        let subviewsBefore = table.subviews.count
        model.sections = after
        var message = ""
        XCTAssertThrowsError(try table.performBatchUpdates({ try update(table) }), file: file, line: line) { error in
            message = "\(error)"
            XCTAssertTrue(error is TableViewError, file: file, line: line)
        }
        XCTAssertTrue(engine.isIdle, "nothing animates", file: file, line: line)
        XCTAssertEqual(table.numberOfSections, sections.count, file: file, line: line)
        XCTAssertEqual(table.indexPathsForVisibleRows.map { table.cellForRow(at: $0)!.frame }, rectsBefore, file: file, line: line)
        XCTAssertEqual(table.subviews.count, subviewsBefore, file: file, line: line)
        // The table still works: the model put back, an empty update goes through.
        model.sections = sections
        XCTAssertNoThrow(try table.performBatchUpdates(nil), file: file, line: line)
        return message
    }

    func testWrongRowCountsNameTheSectionAndEveryCount() throws {
        let message = try refused([names(3)], after: [names(5)]) { try $0.insertRows(at: [IndexPath(row: 0, section: 0)], with: .fade) }
        XCTAssertEqual(message, "invalid update: invalid number of rows in section 0. The number of rows contained in an existing section after the update (5) must be equal to the number of rows contained in that section before the update (3), plus or minus the number of rows inserted or deleted from that section (1 inserted, 0 deleted) and plus or minus the number of rows moved into or out of that section (0 moved in, 0 moved out).")
    }

    func testWrongSectionCounts() throws {
        let message = try refused([names(1)], after: [names(1), names(1)]) { _ in }
        XCTAssertEqual(message, "invalid update: invalid number of sections. The number of sections contained in the table view after the update (2) must be equal to the number of sections contained in the table view before the update (1), plus or minus the number of sections inserted or deleted (0 inserted, 0 deleted).")
    }

    func testMovesCountInAndOut() throws {
        // A row moved from section 0 to 1 without the model changing.
        let message = try refused([names(2), names(2)], after: [names(2), names(2)]) {
            try $0.moveRow(at: IndexPath(row: 0, section: 0), to: IndexPath(row: 0, section: 1))
        }
        XCTAssertTrue(message.contains("invalid number of rows in section 0"), message)
        XCTAssertTrue(message.contains("(0 moved in, 1 moved out)"), message)
    }

    func testIndexPathsOutOfRangeBeforeAndAfter() throws {
        var message = try refused([names(3)], after: [names(2)]) { try $0.deleteRows(at: [IndexPath(row: 3, section: 0)], with: .fade) }
        XCTAssertEqual(message, "invalid update: attempt to delete row 3 from section 0, but there are only 3 rows in section 0 before the update")
        message = try refused([names(3)], after: [names(4)]) { try $0.insertRows(at: [IndexPath(row: 9, section: 0)], with: .fade) }
        XCTAssertEqual(message, "invalid update: attempt to insert row 9 into section 0, but there are only 4 rows in section 0 after the update")
        message = try refused([names(3)], after: [names(2)]) { try $0.deleteRows(at: [IndexPath(row: 0, section: 4)], with: .fade) }
        XCTAssertEqual(message, "invalid update: attempt to delete row 0 in section 4, but there are only 1 sections before the update")
        message = try refused([names(3)], after: []) { try $0.deleteSections([2], with: .fade) }
        XCTAssertEqual(message, "invalid update: attempt to delete section 2, but there are only 1 sections before the update")
        message = try refused([names(1)], after: [names(1), names(1)]) { try $0.insertSections([5], with: .fade) }
        XCTAssertEqual(message, "invalid update: attempt to insert section 5, but there are only 2 sections after the update")
        message = try refused([names(3)], after: [names(3)]) { try $0.reloadRows(at: [IndexPath(row: -1, section: 0)], with: .fade) }
        XCTAssertTrue(message.contains("reload row -1"), message)
    }

    func testConflictingOperations() throws {
        var message = try refused([names(3)], after: [names(2)]) {
            try $0.deleteRows(at: [IndexPath(row: 1, section: 0)], with: .fade)
            try $0.moveRow(at: IndexPath(row: 1, section: 0), to: IndexPath(row: 0, section: 0))
        }
        XCTAssertEqual(message, "invalid update: attempt to delete and move the same index path ([0, 1])")
        message = try refused([names(3)], after: [names(2)]) {
            try $0.deleteRows(at: [IndexPath(row: 1, section: 0)], with: .fade)
            try $0.reloadRows(at: [IndexPath(row: 1, section: 0)], with: .fade)
        }
        XCTAssertEqual(message, "invalid update: attempt to delete and reload the same index path ([0, 1])")
        message = try refused([names(3)], after: [names(3)]) {
            try $0.moveRow(at: IndexPath(row: 0, section: 0), to: IndexPath(row: 2, section: 0))
            try $0.moveRow(at: IndexPath(row: 1, section: 0), to: IndexPath(row: 2, section: 0))
        }
        XCTAssertEqual(message, "invalid update: attempt to move two index paths ([0, 0] and [0, 1]) to index path [0, 2]")
        message = try refused([names(1), names(1)], after: [names(1)]) {
            try $0.deleteSections([0], with: .fade)
            try $0.moveSection(0, toSection: 0)
        }
        XCTAssertEqual(message, "invalid update: attempt to move section 0, which is being deleted")
        message = try refused([names(2), names(1)], after: [names(1)]) {
            try $0.deleteSections([0], with: .fade)
            try $0.deleteRows(at: [IndexPath(row: 0, section: 0)], with: .fade)
        }
        XCTAssertEqual(message, "invalid update: attempt to delete row 0 in section 0, which is being deleted")
        message = try refused([names(1)], after: [names(1), names(2)]) {
            try $0.insertSections([1], with: .fade)
            try $0.insertRows(at: [IndexPath(row: 0, section: 1)], with: .fade)
        }
        XCTAssertEqual(message, "invalid update: attempt to insert row 0 into section 1, which is being inserted or reloaded")
    }

    func testAThrowingUpdateBlockAppliesNothing() throws {
        struct Stop: Error {}
        let model = ListModel([names(3)])
        let table = try makeTable(model)
        model.sections[0].append("x")
        XCTAssertThrowsError(try table.performBatchUpdates({
            try table.insertRows(at: [IndexPath(row: 3, section: 0)], with: .fade)
            throw Stop()
        })) { XCTAssertTrue($0 is Stop) }
        XCTAssertEqual(table.numberOfRows(inSection: 0), 3)
        // The next update starts clean.
        try table.insertRows(at: [IndexPath(row: 3, section: 0)], with: .fade)
        XCTAssertEqual(table.numberOfRows(inSection: 0), 4)
    }

    func testADataSourceReportingAbsurdCountsIsRefused() throws {
        final class Huge: TableViewDataSource {
            var rows = 1
            func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int { rows }
            func tableView(_ tableView: TableView, cellForRowAt indexPath: IndexPath) -> TableViewCell {
                tableView.dequeueReusableCell(withIdentifier: "x", for: indexPath)
            }
        }
        let source = Huge()
        let table = TableView(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        table.dataSource = source
        try table.reloadData()
        source.rows = Int.max
        XCTAssertThrowsError(try table.reloadData()) { XCTAssertTrue("\($0)".contains("more than 10000000 rows"), "\($0)") }
        source.rows = -1
        XCTAssertThrowsError(try table.insertRows(at: [], with: .fade)) { XCTAssertTrue("\($0)".contains("-1 rows in section 0"), "\($0)") }
        XCTAssertEqual(table.numberOfRows(inSection: 0), 1)
    }

    /// A 10,000-row table: one batch of 100 inserts and deletes spread over the whole table makes cells
    /// for the rows on screen only.
    func testABatchOverTenThousandRowsMakesCellsOnlyForVisibleRows() throws {
        let engine = AnimationEngine(fps: 60)
        let model = ListModel([names(10_000)])
        let table = try makeTable(model, engine: engine)
        XCTAssertEqual(model.cellRequests, 10)
        var rows = model.sections[0]
        var deletes: [IndexPath] = [], inserts: [IndexPath] = []
        for k in 0..<50 { deletes.append(IndexPath(row: 100 + k * 197, section: 0)) }
        for index in deletes.reversed() { rows.remove(at: index.row) }
        for k in 0..<50 {
            let at = 50 + k * 190
            rows.insert("n\(k)", at: at)
            inserts.append(IndexPath(row: at, section: 0))
        }
        model.sections[0] = rows
        try table.performBatchUpdates({
            try table.deleteRows(at: deletes, with: .fade)
            try table.insertRows(at: inserts, with: .fade)
        })
        // Nothing changed on screen (rows 0…9), so no cell was asked for.
        XCTAssertEqual(model.cellRequests, 10)
        XCTAssertEqual(table.numberOfCellsCreated, 10)
        XCTAssertEqual(table.numberOfRows(inSection: 0), 10_000)
        engine.runUntilIdle()
        // Scroll to the middle: only the rows there get cells, reusing the ones that left.
        table.contentOffset = Point(x: 0, y: 44 * 5000)
        XCTAssertEqual(table.numberOfCellsCreated, 10)
        XCTAssertEqual(table.numberOfCellsHeld, 10)
        XCTAssertEqual(table.cellForRow(at: IndexPath(row: 5000, section: 0))?.textLabel.text, rows[5000])
    }
}
