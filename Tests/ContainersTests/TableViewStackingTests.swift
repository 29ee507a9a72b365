import Foundation
import Containers
import Motion
import RasterCore
import SnapshotView
import XCTest

/// Z-order and paths during updates: plain headers above rows, grouped titles below them, inserted
/// blocks from behind their neighbours without crossing, moved rows in front.
final class TableViewStackingTests: XCTestCase {
    private func indexOf(_ view: View?, in table: TableView) -> Int? {
        guard let view else { return nil }
        return table.subviews.firstIndex { $0 === view }
    }

    func testPlainHeadersAndFootersStayAboveEveryRowDuringAnUpdate() throws {
        let engine = AnimationEngine(fps: 60)
        let model = ListModel([names(3, prefix: "a"), names(3, prefix: "b")])
        model.headerTitles = ["A", "B"]
        let table = try makeTable(model, engine: engine)
        // Section B moves above A, rows are inserted and one moved: every cell, in any layer, stays
        // below every header.
        model.sections = [names(3, prefix: "b"), ["new"] + names(3, prefix: "a")]
        model.headerTitles = ["B", "A"]
        try table.performBatchUpdates({
            try table.moveSection(1, toSection: 0)
            try table.insertRows(at: [IndexPath(row: 0, section: 1)], with: .top)
        })
        for t in [0.0, 0.1, 0.2] {
            engine.advance(to: t)
            let cells = table.subviews.indices.filter { table.subviews[$0] is TableViewCell }
            let headers = table.subviews.indices.filter { i in
                let v = table.subviews[i]
                return !(v is TableViewCell) && v !== table.backgroundView && v.frame.height < 44 && v.frame.height > 0
            }
            XCTAssertFalse(headers.isEmpty)
            XCTAssertGreaterThan(headers.min()!, cells.max()!, "at \(t) s: headers \(headers), cells \(cells)")
        }
    }

    func testGroupedTitlesAreBelowRowsSoTheyNeverPrintOverRowText() throws {
        let engine = AnimationEngine(fps: 60)
        let model = ListModel([names(2, prefix: "a"), names(2, prefix: "b")])
        model.headerTitles = ["A", "B"]
        let table = try makeTable(model, style: .grouped, engine: engine)
        model.sections = [names(2, prefix: "b"), names(2, prefix: "a")]
        model.headerTitles = ["B", "A"]
        try table.performBatchUpdates({ try table.moveSection(1, toSection: 0) })
        let cells = table.subviews.indices.filter { table.subviews[$0] is TableViewCell }
        let others = table.subviews.indices.filter { !(table.subviews[$0] is TableViewCell) && table.subviews[$0] !== table.backgroundView }
        XCTAssertFalse(others.isEmpty)
        XCTAssertLessThan(others.max()!, cells.min()!, "grouped headers and footers under the rows")
    }

    func testRowsInsertedTogetherMoveAsOneBlockAndNeverCross() throws {
        for style in [TableViewRowAnimation.top, .bottom, .middle] {
            let engine = AnimationEngine(fps: 60)
            let model = ListModel([names(4)])
            let table = try makeTable(model, engine: engine)
            model.sections[0].insert(contentsOf: ["n0", "n1", "n2"], at: 2)
            try table.performBatchUpdates({
                try table.insertRows(at: (2..<5).map { IndexPath(row: $0, section: 0) }, with: style)
            })
            // The inserted rows are behind the rows that stay.
            let order = table.subviews.compactMap { ($0 as? TableViewCell)?.name }
            XCTAssertEqual(Set(order.prefix(3)), ["n0", "n1", "n2"], "\(style): \(order)")
            let rows = try ["n0", "n1", "n2"].map { try XCTUnwrap(table.cell(named: $0)) }
            // One offset for the block: the block of 132 pt starts from the slot at y = 88.
            let dy: Double = switch style {
            case .top: 88 - 132 - 88
            case .bottom: 88 + 132 - 88
            default: 88 - 66 - 88
            }
            for frame in 0...18 {
                engine.advance(toFrame: frame)
                let frames = rows.map { engine.presentedFrame($0) }
                for k in 1..<3 {
                    XCTAssertEqual(frames[k].minY, frames[k - 1].maxY, accuracy: 1e-9, "\(style) frame \(frame): rows stay stacked")
                }
                if frame == 0 { XCTAssertEqual(frames[0].minY, 88 + dy, accuracy: 1e-9, "\(style)") }
            }
        }
    }

    func testGroupedAutomaticBlockThatFillsItsSectionFadesInPlace() throws {
        // Opening a section (as table-sort-plays opens Othello): its rows fade in where they end, so none
        // slides over the section's header or the next section.
        let engine = AnimationEngine(fps: 60)
        let model = ListModel([names(2, prefix: "a"), [], names(2, prefix: "c")])
        model.headerTitles = ["A", "B", "C"]
        let table = try makeTable(model, style: .grouped, engine: engine)
        model.sections[1] = ["Othello", "Desdemona", "Iago"]
        try table.insertRows(at: (0..<3).map { IndexPath(row: $0, section: 1) }, with: .automatic)
        for name in ["Othello", "Desdemona", "Iago"] {
            let cell = try XCTUnwrap(table.cell(named: name))
            XCTAssertEqual(engine.presentedFrame(cell), cell.frame, name)
            XCTAssertEqual(engine.presentedAlpha(cell), 0, name)
        }
        // Two rows added at the bottom of a section of three slide down together from under the row above.
        let engine2 = AnimationEngine(fps: 60)
        let model2 = ListModel([names(1)])
        let grouped = try makeTable(model2, style: .grouped, engine: engine2)
        model2.sections[0] += ["x", "y"]
        try grouped.insertRows(at: [IndexPath(row: 1, section: 0), IndexPath(row: 2, section: 0)], with: .automatic)
        let x = try XCTUnwrap(grouped.cell(named: "x")), y = try XCTUnwrap(grouped.cell(named: "y"))
        XCTAssertEqual(engine2.presentedFrame(x).minY, x.frame.minY - 88, "the block of 88 pt starts under r0")
        XCTAssertEqual(engine2.presentedFrame(y).minY, engine2.presentedFrame(x).maxY)
        XCTAssertEqual(engine2.presentedAlpha(x), 1)
    }
}
