import Foundation
import Containers
import Motion
import RasterCore
import SnapshotView
import XCTest

final class TableViewLayoutTests: XCTestCase {
    func testRowsStackAt44PointsByDefaultAndDelegateHeightsWin() throws {
        let model = ListModel([names(5)])
        model.heights["r1"] = 60
        let table = try makeTable(model)
        XCTAssertEqual(table.rowHeight, 44)
        XCTAssertEqual(table.rectForRow(at: IndexPath(row: 0, section: 0)), Rect(x: 0, y: 0, width: 320, height: 44))
        XCTAssertEqual(table.rectForRow(at: IndexPath(row: 1, section: 0)), Rect(x: 0, y: 44, width: 320, height: 60))
        XCTAssertEqual(table.rectForRow(at: IndexPath(row: 2, section: 0)), Rect(x: 0, y: 104, width: 320, height: 44))
        XCTAssertEqual(table.contentSize.height, 44 * 4 + 60)
        XCTAssertTrue(table.rectForRow(at: IndexPath(row: 5, section: 0)).isNull)
    }

    func testGroupedSectionsAreInsetWithTitledHeadersAndSpacing() throws {
        let model = ListModel([names(2, prefix: "a"), names(1, prefix: "b")])
        model.headerTitles = ["Comedies", nil]
        let table = try makeTable(model, style: .grouped)
        // Header with a title 38 pt; the first row below it, inset 16 pt on each side.
        XCTAssertEqual(table.rectForHeader(inSection: 0), Rect(x: 0, y: 0, width: 320, height: 38))
        XCTAssertEqual(table.rectForRow(at: IndexPath(row: 0, section: 0)), Rect(x: 16, y: 38, width: 288, height: 44))
        // Footer without a title 18 pt, then the untitled header 18 pt.
        XCTAssertEqual(table.rectForFooter(inSection: 0), Rect(x: 0, y: 126, width: 320, height: 18))
        XCTAssertEqual(table.rectForRow(at: IndexPath(row: 0, section: 1)), Rect(x: 16, y: 162, width: 288, height: 44))
        // The first row rounds its top corners, the last its bottom, and draws no separator.
        let first = try XCTUnwrap(table.cellForRow(at: IndexPath(row: 0, section: 0)))
        let last = try XCTUnwrap(table.cellForRow(at: IndexPath(row: 1, section: 0)))
        XCTAssertEqual(first.sectionPosition, CellSectionPosition(roundsTop: true, roundsBottom: false))
        XCTAssertEqual(last.sectionPosition, CellSectionPosition(roundsTop: false, roundsBottom: true))
        XCTAssertTrue(first.drawsSeparator)
        XCTAssertFalse(last.drawsSeparator)
        let only = try XCTUnwrap(table.cellForRow(at: IndexPath(row: 0, section: 1)))
        XCTAssertEqual(only.sectionPosition, CellSectionPosition(roundsTop: true, roundsBottom: true))
    }

    func testOnlyVisibleRowsHaveCellsAndScrollingReusesThem() throws {
        let model = ListModel([names(10_000)])
        let table = try makeTable(model)
        XCTAssertEqual(table.indexPathsForVisibleRows, (0..<10).map { IndexPath(row: $0, section: 0) })
        XCTAssertEqual(table.numberOfCellsCreated, 10)
        table.contentOffset = Point(x: 0, y: 44 * 5000 + 22)
        // Rows 5000…5010 overlap the bounds (half of 5000 and of 5010 show).
        XCTAssertEqual(table.indexPathsForVisibleRows.first, IndexPath(row: 5000, section: 0))
        XCTAssertEqual(table.indexPathsForVisibleRows.last, IndexPath(row: 5010, section: 0))
        XCTAssertEqual(table.numberOfCellsCreated, 11)
        XCTAssertEqual(table.numberOfCellsHeld, 11)
        XCTAssertEqual(table.cellForRow(at: IndexPath(row: 5003, section: 0))?.textLabel.text, "r5003")
        XCTAssertNil(table.cellForRow(at: IndexPath(row: 0, section: 0)))
        XCTAssertEqual(model.scrolls, [44 * 5000 + 22])
    }

    func testPlainHeadersStayAtTheTopUntilTheNextSectionPushesThem() throws {
        let model = ListModel([names(10, prefix: "a"), names(10, prefix: "b")])
        model.headerTitles = ["A", "B"]
        let table = try makeTable(model, size: Size(width: 320, height: 200))
        table.contentOffset = Point(x: 0, y: 100)
        XCTAssertEqual(table.subviews.first { $0.name == "header 0" }?.frame.minY, 100)
        // Section 0's rows end at 28 + 440 = 468: at offset 460 its header is pushed up to 440.
        table.contentOffset = Point(x: 0, y: 460)
        XCTAssertEqual(table.subviews.first { $0.name == "header 0" }?.frame.minY, 440)
        // Pulled down past the top (a bounce), the header stays with its section.
        table.contentOffset = Point(x: 0, y: -30)
        XCTAssertEqual(table.subviews.first { $0.name == "header 0" }?.frame.minY, 0)
    }

    func testTapsSelectThroughTheDelegate() throws {
        let model = ListModel([names(5)])
        let table = try makeTable(model)
        XCTAssertEqual(table.tap(at: Point(x: 10, y: 50)), IndexPath(row: 1, section: 0))
        XCTAssertEqual(table.indexPathsForSelectedRows, [IndexPath(row: 1, section: 0)])
        XCTAssertTrue(table.cellForRow(at: IndexPath(row: 1, section: 0))!.isSelected)
        XCTAssertEqual(table.cellForRow(at: IndexPath(row: 1, section: 0))!.selectedBackgroundView.alpha, 1)
        table.tapRow(at: IndexPath(row: 3, section: 0))
        XCTAssertEqual(model.log, ["willSelect [0, 1]", "didSelect [0, 1]", "willSelect [0, 3]", "willDeselect [0, 1]", "didDeselect [0, 1]", "didSelect [0, 3]"])
        XCTAssertEqual(table.indexPathsForSelectedRows, [IndexPath(row: 3, section: 0)])
        XCTAssertFalse(table.cellForRow(at: IndexPath(row: 1, section: 0))!.isSelected)
        // A row the delegate refuses is not selected; the selection stays.
        model.willSelect = { _ in nil }
        table.tapRow(at: IndexPath(row: 4, section: 0))
        XCTAssertEqual(table.indexPathsForSelectedRows, [IndexPath(row: 3, section: 0)])
        // No selection at all.
        table.allowsSelection = false
        table.tapRow(at: IndexPath(row: 2, section: 0))
        XCTAssertEqual(table.indexPathsForSelectedRows, [IndexPath(row: 3, section: 0)])
    }

    func testMultipleSelectionTogglesRows() throws {
        let model = ListModel([names(5)])
        let table = try makeTable(model)
        table.allowsMultipleSelection = true
        table.tapRow(at: IndexPath(row: 0, section: 0))
        table.tapRow(at: IndexPath(row: 2, section: 0))
        XCTAssertEqual(table.indexPathsForSelectedRows, [IndexPath(row: 0, section: 0), IndexPath(row: 2, section: 0)])
        table.tapRow(at: IndexPath(row: 0, section: 0))
        XCTAssertEqual(table.indexPathsForSelectedRows, [IndexPath(row: 2, section: 0)])
        XCTAssertEqual(model.log.last, "didDeselect [0, 0]")
        table.selectRow(at: nil, animated: false, scrollPosition: .none)
        XCTAssertNil(table.indexPathsForSelectedRows)
    }

    /// UIKit hides both separators of a selected row (its own and the one of the row above), so the grey
    /// band has no lines; they come back when it is deselected. A grouped section's last row has none
    /// either way.
    func testSeparatorsBesideASelectedRowAreHidden() throws {
        func shown(_ table: TableView, _ rows: Int, section: Int = 0) -> [Bool?] {  // nil: no cell
            (0..<rows).map { table.cellForRow(at: IndexPath(row: $0, section: section))?.drawsSeparator }
        }
        let model = ListModel([names(5)])  // the table's data source is weak
        let table = try makeTable(model)
        XCTAssertEqual(shown(table, 5), [true, true, true, true, true])
        table.tapRow(at: IndexPath(row: 2, section: 0))
        XCTAssertEqual(shown(table, 5), [true, false, false, true, true])
        table.tapRow(at: IndexPath(row: 0, section: 0))
        XCTAssertEqual(shown(table, 5), [false, true, true, true, true], "the first row has no row above it")
        table.deselectRow(at: IndexPath(row: 0, section: 0), animated: false)
        XCTAssertEqual(shown(table, 5), [true, true, true, true, true])
        // Multiple selection: two rows next to each other hide the three separators around them.
        table.allowsMultipleSelection = true
        table.selectRow(at: IndexPath(row: 2, section: 0), animated: false, scrollPosition: .none)
        table.selectRow(at: IndexPath(row: 3, section: 0), animated: false, scrollPosition: .none)
        XCTAssertEqual(shown(table, 5), [true, false, false, false, true])
        table.deselectRow(at: IndexPath(row: 2, section: 0), animated: false)
        XCTAssertEqual(shown(table, 5), [true, true, false, false, true])
        // A cell made again for a selected row keeps them hidden; reloading the data deselects every row.
        table.scrollToRow(at: IndexPath(row: 4, section: 0), at: .top, animated: false)
        table.scrollToRow(at: IndexPath(row: 0, section: 0), at: .top, animated: false)
        XCTAssertEqual(shown(table, 5), [true, true, false, false, true])
        try table.reloadData()
        XCTAssertEqual(shown(table, 5), [true, true, true, true, true])
        let groupedModel = ListModel([names(3)])
        let grouped = try makeTable(groupedModel, style: .grouped)
        grouped.tapRow(at: IndexPath(row: 1, section: 0))
        XCTAssertEqual(shown(grouped, 3), [false, false, false])
        grouped.deselectRow(at: IndexPath(row: 1, section: 0), animated: false)
        XCTAssertEqual(shown(grouped, 3), [true, true, false])
    }

    func testAnimatedDeselectionFollowsTheEnclosingBlock() throws {
        let engine = AnimationEngine(fps: 60)
        let model = ListModel([names(5)])
        let table = try makeTable(model, engine: engine)
        table.selectRow(at: IndexPath(row: 1, section: 0), animated: false, scrollPosition: .none)
        let highlight = table.cellForRow(at: IndexPath(row: 1, section: 0))!.selectedBackgroundView
        // Inside a 1 s linear block (a transition), the highlight fades over that second.
        engine.animate(duration: 1, options: .curveLinear, animations: {
            table.deselectRow(at: IndexPath(row: 1, section: 0), animated: true)
        })
        engine.advance(to: 0.25)
        XCTAssertEqual(engine.presentedAlpha(highlight), 0.75, accuracy: 1e-12)
        engine.advance(to: 1)
        XCTAssertEqual(engine.presentedAlpha(highlight), 0)
        // Alone, it takes the cell's fade duration.
        table.selectRow(at: IndexPath(row: 1, section: 0), animated: false, scrollPosition: .none)
        table.deselectRow(at: IndexPath(row: 1, section: 0), animated: true)
        XCTAssertTrue(engine.isAnimating(highlight))
        engine.advance(to: 1 + TableViewCell.selectionFadeDuration / 2)
        XCTAssertEqual(engine.presentedAlpha(highlight), 0.5, accuracy: 1e-12)
    }

    func testAnimatedScrollSetsTheOffsetEveryFrameAndTellsTheDelegate() throws {
        let engine = AnimationEngine(fps: 10)
        let model = ListModel([names(100)])
        let table = try makeTable(model, engine: engine)
        final class Ender: ScrollViewDelegate {
            var ended = 0
            func scrollViewDidEndScrollingAnimation(_ scrollView: ScrollView) { ended += 1 }
        }
        table.setContentOffset(Point(x: 0, y: 300), animated: true)
        XCTAssertEqual(table.contentOffset.y, 0, "nothing moves before the first frame")
        for frame in 1...3 { engine.advance(toFrame: frame) }
        // Frames at 0.1, 0.2 and 0.3 s of a 0.3 s ease-in-ease-out scroll.
        let curve = TimingCurve.easeInEaseOut
        XCTAssertEqual(model.scrolls.count, 3)
        XCTAssertEqual(model.scrolls[0], 300 * curve.progress(at: 1.0 / 3), accuracy: 1e-9)
        XCTAssertEqual(model.scrolls[1], 300 * curve.progress(at: 2.0 / 3), accuracy: 1e-9)
        XCTAssertEqual(model.scrolls[2], 300)
        XCTAssertTrue(engine.isIdle)
        XCTAssertEqual(table.indexPathsForVisibleRows.first, IndexPath(row: 6, section: 0))
        // scrollToRow keeps within the content and ends exactly there; the end is reported once.
        let ender = Ender()
        table.delegate = ender
        table.scrollToRow(at: IndexPath(row: 99, section: 0), at: .top, animated: true)
        engine.runUntilIdle()
        XCTAssertEqual(table.contentOffset.y, 4400 - 440)
        XCTAssertEqual(ender.ended, 1)
    }

    func testOffsetsPastTheTopAreKept() throws {
        let model = ListModel([names(3)])
        let table = try makeTable(model)
        table.setContentOffset(Point(x: 0, y: -60), animated: false)
        XCTAssertEqual(table.contentOffset.y, -60)
        XCTAssertEqual(model.scrolls, [-60])
    }
}

final class TableViewCellTests: XCTestCase {
    func testCustomHeaderViewsAndTheirHeights() throws {
        final class Headers: TableViewDataSource, TableViewDelegate {
            func numberOfSections(in tableView: TableView) -> Int { 2 }
            func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int { 1 }
            func tableView(_ tableView: TableView, cellForRowAt indexPath: IndexPath) -> TableViewCell {
                tableView.dequeueReusableCell(withIdentifier: "row", for: indexPath)
            }
            func tableView(_ tableView: TableView, viewForHeaderInSection section: Int) -> View? {
                section == 0 ? View(frame: Rect(x: 0, y: 0, width: 10, height: 50), name: "custom") : nil
            }
            func tableView(_ tableView: TableView, heightForHeaderInSection section: Int) -> Double {
                section == 1 ? 12 : TableView.automaticDimension
            }
        }
        let source = Headers()
        let table = TableView(frame: Rect(x: 0, y: 0, width: 300, height: 400))
        table.dataSource = source
        table.delegate = source
        try table.reloadData()
        // The custom view's own height when the delegate gives none; the delegate's 12 pt otherwise.
        XCTAssertEqual(table.rectForHeader(inSection: 0), Rect(x: 0, y: 0, width: 300, height: 50))
        XCTAssertEqual(table.rectForHeader(inSection: 1), Rect(x: 0, y: 94, width: 300, height: 12))
        let custom = try XCTUnwrap(table.subviews.first { $0.name == "custom" })
        XCTAssertEqual(custom.frame, Rect(x: 0, y: 0, width: 300, height: 50), "sized by the table")
    }

    func testAResizeLaysTheRowsOutAgain() throws {
        let model = ListModel([names(3)])
        let table = try makeTable(model, style: .grouped)
        table.frame = Rect(x: 0, y: 0, width: 200, height: 440)
        XCTAssertEqual(table.cellForRow(at: IndexPath(row: 1, section: 0))?.frame, Rect(x: 16, y: 62, width: 168, height: 44))
    }

    func testACellDrawsItsTextImageAndAccessory() throws {
        let cell = TableViewCell(style: .subtitle, reuseIdentifier: "x")
        cell.frame = Rect(x: 0, y: 0, width: 200, height: 44)
        let image = try Bitmap(width: 20, height: 20, scale: 1, fill: PremultipliedRGBA8(r: 255, g: 0, b: 0, a: 255))
        cell.imageView.image = image
        cell.textLabel.text = "Title"
        cell.detailTextLabel?.text = "Detail"
        cell.accessoryType = .checkmark
        cell.layoutSubviews()
        // Image at the left inset, text after it, the checkmark 16 pt from the right edge.
        XCTAssertEqual(cell.imageView.frame, Rect(x: 16, y: 12, width: 20, height: 20))
        XCTAssertEqual(cell.textLabel.frame.minX, 48)
        let node = try XCTUnwrap(cell.renderNode())
        var canvas = try Bitmap(width: 200, height: 44, scale: 1)
        ViewRenderer.draw(node, into: &canvas)
        XCTAssertEqual(canvas[20, 20], PremultipliedRGBA8(r: 255, g: 0, b: 0, a: 255), "the image")
        XCTAssertEqual(canvas[2, 2], PremultipliedRGBA8(r: 255, g: 255, b: 255, a: 255), "the white background")
        // The checkmark's pixels are the tint colour, inside its 14x11 box at x 170…184.
        let tinted = (170..<184).flatMap { x in (16..<28).map { y in canvas[x, y] } }.filter { $0.b > 200 && $0.r < 60 }
        XCTAssertFalse(tinted.isEmpty, "a blue checkmark")
        // The checkmark's stroke has round ends: its first point (1 pt in from the box's left edge, 2 pt
        // wide) is capped by a half circle reaching the edge, not cut square 1 pt short of it.
        let outline = AccessoryDrawing.stroke([Point(x: 10, y: 10), Point(x: 20, y: 10), Point(x: 20, y: 20)], width: 2)
        let bounds = outline.controlPointBounds
        XCTAssertEqual(bounds.minX, 9, accuracy: 0.02, "a round cap 1 pt beyond the start")
        XCTAssertEqual(bounds.maxX, 21, accuracy: 0.02, "a round join 1 pt beyond the corner")
        XCTAssertEqual(bounds.maxY, 21, accuracy: 0.02, "a round cap 1 pt beyond the end")
        // Drawn at 10 pixels a point: the pixel at (20.9…21, 9.1…9.2) pt, inside a mitred join's corner
        // (21, 9), is wholly outside the round one (1.2 pt from the corner point); (20.6…20.7, 9.6…9.7) is
        // wholly inside it.
        var fine = try Bitmap(width: 300, height: 300, scale: 10)
        fine.draw { painter in painter.fill(outline, color: .black) }
        XCTAssertEqual(fine[209, 91].a, 0, "the join is round, not mitred")
        XCTAssertEqual(fine[206, 96].a, 255, "inside the round join")
        // Selected: the grey background behind the content.
        cell.setSelected(true, animated: false)
        ViewRenderer.draw(try XCTUnwrap(cell.renderNode()), into: &canvas)
        XCTAssertEqual(canvas[2, 2], PremultipliedRGBA8(r: 0xD1, g: 0xD1, b: 0xD6, a: 255))
    }
}
