import SmokescreenStage
import XCTest

/// A table's editing mode with UIKit's names: the editing control (delete or insert) at the leading edge
/// with the content indented 38 pt, the reorder control at the trailing edge for rows that move, the
/// editing accessory in the accessory's place, the controller's Edit/Done button, selection while editing,
/// and the slide in over 0.3 s.
final class TableEditingTests: XCTestCase {
    /// Three rows: 0 moves (and has a chevron), 1 is the insert row, 2 cannot be edited.
    final class List: UITableViewController {
        var inserted: [IndexPath] = []
        var deleted: [IndexPath] = []
        var selected: [IndexPath] = []
        var rows = 3
        /// What the delegate titles the Delete confirmation (nil: UIKit's "Delete").
        var confirmationTitle: String?
        override func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int { rows }
        override func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
            let cell = RecordingCell(style: .default, reuseIdentifier: nil)
            cell.textLabel?.text = "Row \(indexPath.row)"
            cell.accessoryType = indexPath.row == 0 ? .disclosureIndicator : .none
            return cell
        }
        override func tableView(_ tableView: UITableView, canEditRowAt indexPath: IndexPath) -> Bool { indexPath.row != 2 }
        override func tableView(_ tableView: UITableView, canMoveRowAt indexPath: IndexPath) -> Bool { indexPath.row == 0 }
        override func tableView(_ tableView: UITableView, editingStyleForRowAt indexPath: IndexPath) -> UITableViewCell.EditingStyle {
            indexPath.row == 1 ? .insert : .delete
        }
        override func tableView(_ tableView: UITableView, commit editingStyle: UITableViewCell.EditingStyle, forRowAt indexPath: IndexPath) {
            if editingStyle == .insert { inserted.append(indexPath) }
            if editingStyle == .delete {
                deleted.append(indexPath)
                rows -= 1
                tableView.deleteRows(at: [indexPath], with: .fade)
            }
        }
        override func tableView(_ tableView: UITableView, titleForDeleteConfirmationButtonForRowAt indexPath: IndexPath) -> String? {
            confirmationTitle
        }
        override func tableView(_ tableView: UITableView, didSelectRowAt indexPath: IndexPath) { selected.append(indexPath) }
        var deselected: [IndexPath] = []
        override func tableView(_ tableView: UITableView, didDeselectRowAt indexPath: IndexPath) { deselected.append(indexPath) }
    }

    /// A cell that records the states UIKit tells it it moves to.
    final class RecordingCell: UITableViewCell {
        var transitions: [String] = []
        private func name(_ state: StateMask) -> String {
            [(StateMask.showingEditControl, "edit"), (.showingDeleteConfirmation, "delete")].filter { state.contains($0.0) }.map(\.1).joined(separator: "+")
        }
        override func willTransition(to state: StateMask) { transitions.append("will " + name(state)) }
        override func didTransition(to state: StateMask) { transitions.append("did " + name(state)) }
    }

    /// `list` on a 320 × 480 phone at `fps`, drawn at `scale`, after a tenth of a second; in editing mode
    /// (at once, laid out) when `editing`.
    private func show(_ list: UITableViewController, fps: Double = 10, scale: CGFloat = 1, editing: Bool = false) throws -> Stage {
        let stage = try Stage(device: Device(name: "phone", size: CGSize(width: 320, height: 480), scale: 2,
                                             safeAreaInsets: .zero), fps: fps, scale: scale)
        stage.show(list)
        try stage.wait(0.1)
        if editing {
            list.setEditing(true, animated: false)
            stage.layOut()
        }
        return stage
    }

    private func cell(_ list: List, _ row: Int) throws -> UITableViewCell {
        try XCTUnwrap(list.tableView.cellForRow(at: IndexPath(row: row, section: 0)))
    }

    /// The cell's symbol images that show (the editing control and the reorder control), by frame.
    private func shownControls(_ cell: UITableViewCell) -> [CGRect] {
        cell.subviews.compactMap { $0 as? UIImageView }.filter { $0.alpha > 0 && $0.image != nil }.map(\.frame).sorted { $0.minX < $1.minX }
    }

    func testEditingShowsTheControlsIndentsTheContentAndReordersWhereRowsMove() throws {
        let list = List(style: .plain)
        let stage = try show(list)
        XCTAssertEqual(try cell(list, 0).contentView.frame, CGRect(x: 0, y: 0, width: 320 - 8 - 16 - 8, height: 43.5), "the chevron's room")
        list.setEditing(true, animated: false)
        XCTAssertTrue(list.tableView.isEditing)
        // Row 0: the delete control (22 pt, 14 from the edge, centred), the content 38 pt in, the reorder
        // control's 38 pt at the trailing edge in place of the chevron.
        let moving = try cell(list, 0)
        XCTAssertTrue(moving.isEditing)
        XCTAssertEqual(moving.contentView.frame, CGRect(x: 38, y: 0, width: 320 - 38 - 38, height: 43.5))
        XCTAssertEqual(shownControls(moving), [CGRect(x: 14, y: 11, width: 22, height: 22), CGRect(x: 320 - 38, y: 0, width: 38, height: 43.5)])
        XCTAssertFalse(moving.showsReorderControl, "the app's flag; the table shows the control for canMoveRowAt")
        // Row 1: the insert control, no reorder control, the whole width after the indent.
        let insert = try cell(list, 1)
        XCTAssertEqual(insert.contentView.frame, CGRect(x: 38, y: 0, width: 320 - 38, height: 43.5))
        XCTAssertEqual(shownControls(insert), [CGRect(x: 14, y: 11, width: 22, height: 22)])
        // Row 2 cannot be edited: no control, not indented.
        let fixed = try cell(list, 2)
        XCTAssertEqual(fixed.contentView.frame.minX, 0)
        XCTAssertEqual(shownControls(fixed), [])
        // Done: back as it was.
        list.setEditing(false, animated: false)
        XCTAssertEqual(try cell(list, 0).contentView.frame, CGRect(x: 0, y: 0, width: 320 - 8 - 16 - 8, height: 43.5))
        XCTAssertEqual(shownControls(try cell(list, 0)), [])
        XCTAssertEqual(stage.notDrawn, [])
    }

    /// Thirty reusable rows, the last an insert row: after a reload and a scroll in editing mode, every
    /// row shows its own control (a reused cell does not keep another row's).
    final class LongList: UITableViewController {
        override func viewDidLoad() {
            super.viewDidLoad()
            tableView.register(UITableViewCell.self, forCellReuseIdentifier: "row")
        }
        override func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int { 30 }
        override func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
            let cell = tableView.dequeueReusableCell(withIdentifier: "row", for: indexPath)
            cell.textLabel?.text = "Row \(indexPath.row)"
            return cell
        }
        override func tableView(_ tableView: UITableView, editingStyleForRowAt indexPath: IndexPath) -> UITableViewCell.EditingStyle {
            indexPath.row == 29 ? .insert : .delete
        }
    }

    func testReusedCellsShowTheirOwnRowsEditingControl() throws {
        let list = LongList(style: .plain)
        let stage = try Stage(device: Device(name: "phone", size: CGSize(width: 320, height: 480), scale: 2, safeAreaInsets: .zero), fps: 10, scale: 1)
        stage.show(list)
        list.setEditing(true, animated: false)
        list.tableView.scrollToRow(at: IndexPath(row: 29, section: 0), at: .bottom, animated: false)
        list.tableView.layoutIfNeeded()
        list.tableView.reloadData()
        list.tableView.layoutIfNeeded()
        list.tableView.scrollToRow(at: IndexPath(row: 0, section: 0), at: .top, animated: false)
        list.tableView.layoutIfNeeded()
        for cell in list.tableView.visibleCells {
            let control = try XCTUnwrap(cell.subviews.compactMap { $0 as? UIImageView }.first { $0.alpha > 0 && $0.frame.minX == 14 })
            XCTAssertEqual(control.tintColor, UIColor.systemRed, "\(cell.textLabel?.text ?? "")")
            XCTAssertTrue(cell.isEditing)
        }
        list.tableView.scrollToRow(at: IndexPath(row: 29, section: 0), at: .bottom, animated: false)
        list.tableView.layoutIfNeeded()
        let last = try XCTUnwrap(list.tableView.cellForRow(at: IndexPath(row: 29, section: 0)))
        let plus = try XCTUnwrap(last.subviews.compactMap { $0 as? UIImageView }.first { $0.alpha > 0 && $0.frame.minX == 14 })
        XCTAssertEqual(plus.tintColor, UIColor.systemGreen)
        XCTAssertEqual(stage.notDrawn, [])
    }

    func testTheEditButtonTogglesAndTheControllerPassesTheModeToItsTable() throws {
        let list = List(style: .plain)
        _ = try show(list)
        let button = list.editButtonItem
        XCTAssertTrue(list.editButtonItem === button, "made once")
        XCTAssertEqual(button.title, "Edit")
        XCTAssertEqual(button.style, .plain)
        list.isEditing = true
        XCTAssertEqual(button.title, "Done")
        XCTAssertEqual(button.style, .done)
        XCTAssertTrue(list.tableView.isEditing)
        XCTAssertTrue(try cell(list, 1).isEditing)
        list.setEditing(false, animated: true)
        XCTAssertEqual(button.title, "Edit")
        XCTAssertFalse(list.tableView.isEditing)
    }

    func testRowsAreSelectedWhileEditingOnlyWhenAllowedAndTheInsertControlCommits() throws {
        let list = List(style: .plain)
        let stage = try show(list)
        list.tableView.selectRow(at: IndexPath(row: 2, section: 0), animated: false, scrollPosition: .none)
        list.setEditing(true, animated: false)
        XCTAssertNil(list.tableView.indexPathForSelectedRow, "entering editing mode clears the selection")
        let row = try cell(list, 2)
        try stage.tap(at: row.convert(CGPoint(x: 200, y: 20), to: nil))
        XCTAssertEqual(list.selected, [], "allowsSelectionDuringEditing is false")
        list.tableView.allowsSelectionDuringEditing = true
        try stage.tap(at: row.convert(CGPoint(x: 200, y: 20), to: nil))
        XCTAssertEqual(list.selected, [IndexPath(row: 2, section: 0)])
        // The green plus commits an insert to the data source.
        let insert = try cell(list, 1)
        try stage.tap(at: insert.convert(CGPoint(x: 25, y: 22), to: nil))
        XCTAssertEqual(list.inserted, [IndexPath(row: 1, section: 0)])
        XCTAssertEqual(stage.notDrawn, [])
    }

    /// The labels of `view`'s subtree that show, by text, with their frames in the window.
    private func shownLabels(in view: UIView) -> [String: CGRect] {
        var found: [String: CGRect] = [:]
        func visit(_ v: UIView) {
            guard !v.isHidden, v.alpha > 0 else { return }
            if let label = v as? UILabel, let text = label.text { found[text] = label.convert(label.bounds, to: nil) }
            v.subviews.forEach(visit)
        }
        visit(view)
        return found
    }

    /// A tap on the red minus slides the row aside to show the Delete confirmation at the trailing edge
    /// (as a trailing swipe opens a row, over 0.3 s); a tap elsewhere on the table closes it and deletes
    /// nothing; a tap on it commits `.delete` to the data source, and the row goes.
    func testTheDeleteControlShowsTheConfirmationWhoseTapCommitsTheDelete() throws {
        let list = List(style: .plain)
        let stage = try show(list)
        list.setEditing(true, animated: false)
        let row = try cell(list, 0)
        try stage.tap(at: row.convert(CGPoint(x: 25, y: 22), to: nil))
        try stage.wait(0.1)
        let sliding = try XCTUnwrap(row.layer.presentation()).frame.minX
        XCTAssertTrue(sliding < -1 && sliding > row.frame.minX + 1, "on its way: \(sliding) towards \(row.frame.minX)")
        try stage.waitUntilIdle()
        let button = try XCTUnwrap(shownLabels(in: list.tableView)["Delete"], "UIKit's title")
        XCTAssertEqual(row.frame.minX, -(320 - button.midX) * 2, accuracy: 0.5, "the row aside by the button's width, the title centred in it")
        XCTAssertLessThanOrEqual(row.frame.minX, -60, "at least 60 pt")
        XCTAssertTrue(row.showingDeleteConfirmation)
        XCTAssertEqual((row as? RecordingCell)?.transitions, ["will edit", "did edit", "will edit+delete", "did edit+delete"])
        XCTAssertEqual(list.deleted, [])
        // A tap on another row closes the confirmation and selects nothing.
        try stage.tap(at: try cell(list, 2).convert(CGPoint(x: 200, y: 22), to: nil))
        try stage.waitUntilIdle()
        XCTAssertEqual(row.frame.minX, 0)
        XCTAssertNil(shownLabels(in: list.tableView)["Delete"], "its button goes once the row is back")
        XCTAssertFalse(row.showingDeleteConfirmation)
        XCTAssertEqual((row as? RecordingCell)?.transitions.suffix(2), ["will edit", "did edit"])
        XCTAssertEqual(list.deleted, [])
        // Again, titled by the delegate; its tap deletes the row.
        list.confirmationTitle = "Remove"
        try stage.tap(at: row.convert(CGPoint(x: 25, y: 22), to: nil))
        try stage.waitUntilIdle()
        let remove = try XCTUnwrap(shownLabels(in: list.tableView)["Remove"])
        try stage.tap(at: CGPoint(x: remove.midX, y: remove.midY))
        XCTAssertEqual(list.deleted, [IndexPath(row: 0, section: 0)])
        try stage.waitUntilIdle()
        XCTAssertEqual(list.tableView.numberOfRows(inSection: 0), 2)
        XCTAssertEqual(try cell(list, 0).textLabel?.text, "Row 1")
        XCTAssertNil(shownLabels(in: list.tableView)["Remove"], "the confirmation went with its row")
        XCTAssertEqual(stage.notDrawn, [])
        XCTAssertEqual(stage.warnings, [])
    }

    /// With `allowsMultipleSelectionDuringEditing`, editable rows show a selection circle in the editing
    /// control's place (the content indented as before) and each tap, the circle's included, selects or
    /// deselects its row alone; a row that cannot be edited shows none and is not selected; Done clears
    /// the selection.
    func testSelectingSeveralRowsWhileEditingShowsCirclesAndTogglesEachRow() throws {
        let list = List(style: .plain)
        let stage = try show(list)
        list.tableView.allowsMultipleSelectionDuringEditing = true
        list.setEditing(true, animated: false)
        stage.layOut()
        let circle = CGRect(x: 14, y: 11, width: 22, height: 22)
        XCTAssertEqual(shownControls(try cell(list, 0)).first, circle)
        XCTAssertEqual(shownControls(try cell(list, 1)), [circle], "the insert row too: a circle, not a plus")
        XCTAssertEqual(shownControls(try cell(list, 2)), [])
        XCTAssertEqual(try cell(list, 0).contentView.frame.minX, 38)
        /// A point of the circle clear of its check mark, in the table's picture: white inside the grey ring,
        /// blue once selected.
        func centre(_ row: Int) throws -> [UInt8] {
            stage.layOut()
            let bitmap = try XCTUnwrap(try stage.snapshot(of: list.tableView).bitmap)
            let p = try cell(list, row).convert(CGPoint(x: 17, y: 22), to: list.tableView)
            return bitmap.rgba(Int(p.x), Int(p.y))
        }
        XCTAssertEqual(try centre(0), [255, 255, 255, 255])
        try stage.tap(at: try cell(list, 0).convert(CGPoint(x: 200, y: 22), to: nil))
        try stage.tap(at: try cell(list, 1).convert(CGPoint(x: 25, y: 22), to: nil))
        XCTAssertEqual(list.tableView.indexPathsForSelectedRows?.sorted(), [IndexPath(row: 0, section: 0), IndexPath(row: 1, section: 0)])
        XCTAssertEqual(list.selected, [IndexPath(row: 0, section: 0), IndexPath(row: 1, section: 0)])
        XCTAssertEqual(list.inserted, [], "the circle selects: no insert")
        let blue = try centre(0)
        XCTAssertTrue(blue[2] > 200 && blue[0] < 60, "a filled check mark in the tint: \(blue)")
        // A second tap deselects; the row that cannot be edited is not selected.
        try stage.tap(at: try cell(list, 0).convert(CGPoint(x: 200, y: 22), to: nil))
        try stage.tap(at: try cell(list, 2).convert(CGPoint(x: 200, y: 22), to: nil))
        XCTAssertEqual(list.tableView.indexPathsForSelectedRows, [IndexPath(row: 1, section: 0)])
        XCTAssertEqual(list.deselected, [IndexPath(row: 0, section: 0)])
        XCTAssertEqual(try centre(0), [255, 255, 255, 255])
        list.setEditing(false, animated: false)
        XCTAssertNil(list.tableView.indexPathsForSelectedRows, "Done clears the selection")
        XCTAssertEqual(stage.notDrawn, [])
    }

    /// Five rows that move; the delegate keeps the last one last.
    final class Moving: UITableViewController {
        var names = ["A", "B", "C", "D", "E"]
        var moves: [(IndexPath, IndexPath)] = []
        override func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int { names.count }
        override func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
            let cell = UITableViewCell(style: .default, reuseIdentifier: nil)
            cell.textLabel?.text = names[indexPath.row]
            return cell
        }
        override func tableView(_ tableView: UITableView, canMoveRowAt indexPath: IndexPath) -> Bool { true }
        override func tableView(_ tableView: UITableView, moveRowAt sourceIndexPath: IndexPath, to destinationIndexPath: IndexPath) {
            moves.append((sourceIndexPath, destinationIndexPath))
            names.insert(names.remove(at: sourceIndexPath.row), at: destinationIndexPath.row)
        }
        override func tableView(_ tableView: UITableView, targetIndexPathForMoveFromRowAt sourceIndexPath: IndexPath,
                                toProposedIndexPath proposedDestinationIndexPath: IndexPath) -> IndexPath {
            IndexPath(row: min(proposedDestinationIndexPath.row, names.count - 2), section: 0)
        }
    }

    /// A pan from a row's reorder control drags the row with the finger (the table does not scroll); the
    /// rows it passes make room; on release the data source is told the move and the row settles in its
    /// new place. The delegate's target wins over the place proposed.
    func testDraggingTheReorderControlMovesTheRow() throws {
        let list = Moving(style: .plain)
        let stage = try show(list, editing: true)
        func cell(_ name: String) throws -> UITableViewCell {
            try XCTUnwrap(list.tableView.visibleCells.first { $0.textLabel?.text == name }, name)
        }
        let a = try cell("A"), b = try cell("B"), c = try cell("C")
        let height = a.frame.height
        // A's control (the trailing 38 pt), down by two rows and a half: past B's and C's middles.
        try stage.touchDown(at: a.convert(CGPoint(x: 320 - 19, y: height / 2), to: nil))
        try stage.moveTouch(to: a.convert(CGPoint(x: 320 - 19, y: height * 2.5), to: nil), duration: 0.5)
        try stage.wait(0.3)
        XCTAssertEqual(list.tableView.contentOffset.y, 0, "the table does not scroll")
        XCTAssertEqual(a.frame.minY, height * 2, accuracy: 1, "the row follows the finger")
        XCTAssertEqual(b.frame.minY, 0, accuracy: 1e-9, "B made room")
        XCTAssertEqual(c.frame.minY, height, accuracy: 1e-9, "C made room")
        XCTAssertGreaterThan(a.layer.shadowOpacity, 0, "lifted")
        XCTAssertTrue(list.moves.isEmpty, "nothing moves before the finger lifts")
        stage.liftTouch()
        try stage.waitUntilIdle()
        XCTAssertEqual(list.moves.map { [$0.0.row, $0.1.row] }, [[0, 2]])
        XCTAssertEqual(list.names, ["B", "C", "A", "D", "E"])
        XCTAssertEqual(list.tableView.cellForRow(at: IndexPath(row: 2, section: 0)), a, "the same cell, now row 2")
        XCTAssertEqual(a.frame.minY, 2 * height, accuracy: 1e-9, "settled in its slot")
        XCTAssertEqual(a.layer.shadowOpacity, 0)
        // Dragged far past the end: the delegate keeps E last, so A stops before it.
        let moved = try cell("A")
        try stage.pan(from: moved.convert(CGPoint(x: 320 - 19, y: height / 2), to: nil),
                      to: moved.convert(CGPoint(x: 320 - 19, y: height * 6), to: nil), duration: 0.5)
        try stage.waitUntilIdle()
        XCTAssertEqual(list.names, ["B", "C", "D", "A", "E"])
        XCTAssertEqual(list.tableView.visibleCells.sorted { $0.frame.minY < $1.frame.minY }.map { $0.textLabel?.text }, ["B", "C", "D", "A", "E"])
        XCTAssertEqual(stage.notDrawn, [])
        XCTAssertEqual(stage.warnings, [])
    }

    /// Rows in sections that all move, as a list of lists; `moves` records what the table told.
    final class Sectioned: UITableViewController {
        var sections: [[String]]
        var moves: [(IndexPath, IndexPath)] = []
        init(style: UITableView.Style, sections: [[String]]) {
            self.sections = sections
            super.init(style: style)
        }
        required init?(coder: NSCoder) { nil }
        override func numberOfSections(in tableView: UITableView) -> Int { sections.count }
        override func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int { sections[section].count }
        override func tableView(_ tableView: UITableView, titleForHeaderInSection section: Int) -> String? { "Section \(section)" }
        override func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
            let cell = UITableViewCell(style: .default, reuseIdentifier: nil)
            cell.textLabel?.text = sections[indexPath.section][indexPath.row]
            return cell
        }
        override func tableView(_ tableView: UITableView, canMoveRowAt indexPath: IndexPath) -> Bool { true }
        override func tableView(_ tableView: UITableView, moveRowAt sourceIndexPath: IndexPath, to destinationIndexPath: IndexPath) {
            moves.append((sourceIndexPath, destinationIndexPath))
            let name = sections[sourceIndexPath.section].remove(at: sourceIndexPath.row)
            sections[destinationIndexPath.section].insert(name, at: destinationIndexPath.row)
        }
        func cell(_ name: String) throws -> UITableViewCell {
            try XCTUnwrap(tableView.visibleCells.first { $0.textLabel?.text == name }, name)
        }
    }

    /// A row dragged out of its section: the rows and the header it passes stand aside (the next
    /// section's header moves up as the row leaves its own, its rows above the target with it), and the
    /// move reported crosses sections; the row settles between the next section's rows.
    func testARowDraggedIntoAnotherSectionMovesThere() throws {
        let (list, stage) = try dragIntoTheNextSection(scale: 1, check: true)
        let table = list.tableView!
        let a = try list.cell("A"), d = try list.cell("D")
        XCTAssertEqual(list.moves.map { [$0.0.section, $0.0.row, $0.1.section, $0.1.row] }, [[0, 0, 1, 1]])
        XCTAssertEqual(list.sections, [["B", "C"], ["D", "A", "E"]])
        XCTAssertEqual(table.cellForRow(at: IndexPath(row: 1, section: 1)), a, "the same cell, now row 1 of section 1")
        XCTAssertEqual(a.frame, table.rectForRow(at: IndexPath(row: 1, section: 1)), "settled in its slot")
        XCTAssertEqual(d.frame, table.rectForRow(at: IndexPath(row: 0, section: 1)))
        XCTAssertEqual(stage.notDrawn, [])
        XCTAssertEqual(stage.warnings, [])
        if let look = ProcessInfo.processInfo.environment["SMOKESCREEN_LOOK"] {
            try dragIntoTheNextSection(scale: 2, check: false).1.write(to: look + "/reorder-across-sections")
        }
    }

    /// Drags A (row 0 of section 0) between D and E (section 1) and lets go; checks the frames mid-drag.
    @discardableResult
    private func dragIntoTheNextSection(scale: CGFloat, check: Bool) throws -> (Sectioned, Stage) {
        let list = Sectioned(style: .grouped, sections: [["A", "B", "C"], ["D", "E"]])
        let stage = try show(list, fps: check ? 10 : 30, scale: scale, editing: true)
        let table = list.tableView!
        let a = try list.cell("A"), d = try list.cell("D"), e = try list.cell("E")
        let height = a.frame.height
        let header = table.rectForHeader(inSection: 1)
        let restD = d.frame.minY, restE = e.frame.minY
        // A's middle at D's top: between D's and E's middles once A has left section 0 (each, and the
        // header above them, then half a row higher).
        let grip = a.convert(CGPoint(x: 320 - 19, y: height / 2), to: nil)
        try stage.touchDown(at: grip)
        try stage.moveTouch(to: CGPoint(x: grip.x, y: grip.y + restD - a.frame.midY), duration: 0.5)
        try stage.wait(0.3)
        if check {
            XCTAssertEqual(a.frame.midY, restD, accuracy: 1, "the row follows the finger")
            XCTAssertNotNil(table.subviews.first { $0 is UITableViewHeaderFooterView && abs($0.frame.minY - (header.minY - height)) < 0.5 },
                            "section 1's header moved up by the row's height")
            XCTAssertEqual(d.frame.minY, restD - height, accuracy: 1e-9, "D moved up with its header, above the target")
            XCTAssertEqual(e.frame.minY, restE, accuracy: 1e-9, "E made room: back where it was")
            XCTAssertTrue(list.moves.isEmpty)
        }
        stage.liftTouch()
        try stage.waitUntilIdle()
        return (list, stage)
    }

    /// A dragged row held at the bottom of what shows scrolls the table, the row staying under the
    /// finger and its place following; at the top it scrolls back and stops at the content's top.
    func testARowHeldAtTheEdgeScrollsTheTable() throws {
        try holdAtTheEdges(scale: 1)
        if let look = ProcessInfo.processInfo.environment["SMOKESCREEN_LOOK"] {
            try holdAtTheEdges(scale: 2).write(to: look + "/reorder-autoscroll")
        }
    }

    /// A delegate that keeps every row where it is: a row dragged far down and let go goes back to its
    /// own place, which has scrolled out of view meanwhile; its cell is kept until it lands, then recycled.
    func testARowLetGoWhereItCannotGoReturnsEvenFromOffScreen() throws {
        final class Pinned: UITableViewController {
            var moves = 0
            override func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int { 40 }
            override func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
                let cell = UITableViewCell(style: .default, reuseIdentifier: nil)
                cell.textLabel?.text = "Row \(indexPath.row)"
                return cell
            }
            override func tableView(_ tableView: UITableView, canMoveRowAt indexPath: IndexPath) -> Bool { true }
            override func tableView(_ tableView: UITableView, moveRowAt sourceIndexPath: IndexPath, to destinationIndexPath: IndexPath) { moves += 1 }
            override func tableView(_ tableView: UITableView, targetIndexPathForMoveFromRowAt sourceIndexPath: IndexPath,
                                    toProposedIndexPath proposedDestinationIndexPath: IndexPath) -> IndexPath { sourceIndexPath }
        }
        let list = Pinned(style: .plain)
        let stage = try show(list, fps: 30, editing: true)
        let table = list.tableView!
        let row = try XCTUnwrap(table.cellForRow(at: IndexPath(row: 1, section: 0)))
        let height = row.frame.height
        try stage.touchDown(at: row.convert(CGPoint(x: 320 - 19, y: height / 2), to: nil))
        try stage.moveTouch(to: CGPoint(x: 320 - 19, y: 480 - height / 2), duration: 0.3)
        try stage.wait(1)
        XCTAssertGreaterThan(table.contentOffset.y, 2 * height, "row 1's place scrolled out of view")
        stage.liftTouch()
        try stage.wait(0.1)
        XCTAssertTrue(row.superview === table, "kept while it goes back")
        XCTAssertEqual(row.frame, table.rectForRow(at: IndexPath(row: 1, section: 0)), "headed for its own place")
        try stage.waitUntilIdle()
        XCTAssertEqual(list.moves, 0, "nothing moved")
        XCTAssertEqual(table.layer.presentation()?.bounds.minY ?? table.contentOffset.y, table.contentOffset.y)
        XCTAssertFalse(table.visibleCells.contains { $0 === row }, "recycled once it landed out of view")
        XCTAssertEqual(stage.warnings, [])
    }

    /// Drags row 1 of 40 to the bottom edge, the top, the bottom again, and lets go (checked at each).
    @discardableResult
    private func holdAtTheEdges(scale: CGFloat) throws -> Stage {
        let list = Sectioned(style: .plain, sections: [(0..<40).map { "Row \($0)" }])
        let stage = try show(list, fps: 30, scale: scale, editing: true)
        let table = list.tableView!
        let row = try list.cell("Row 1")
        let height = row.frame.height
        XCTAssertEqual(table.contentOffset.y, 0)
        let grip = row.convert(CGPoint(x: 320 - 19, y: height / 2), to: nil)
        try stage.touchDown(at: grip)
        // To the bottom: the row's bottom edge reaches the screen's.
        let bottom = CGPoint(x: grip.x, y: 480 - height / 2)
        try stage.moveTouch(to: bottom, duration: 0.3)
        let offsetThen = table.contentOffset.y
        try stage.wait(1)
        let scrolled = table.contentOffset.y - offsetThen
        // At full speed (600 pt/s, estimated) for the second held: the row's edge is at the screen's.
        XCTAssertEqual(scrolled, 600, accuracy: 25, "scrolls at full speed with the row at the edge")
        XCTAssertEqual(table.convert(row.frame, to: nil).midY, bottom.y, accuracy: 1, "the row stays under the finger")
        XCTAssertTrue(list.moves.isEmpty)
        // Back to the top: it scrolls back, and stops at the content's top.
        let top = CGPoint(x: grip.x, y: height / 2)
        try stage.moveTouch(to: top, duration: 0.3)
        try stage.wait(3)
        XCTAssertEqual(table.contentOffset.y, 0, "stopped at the top")
        try stage.moveTouch(to: bottom, duration: 0.2)
        try stage.wait(0.5)
        let shown = table.indexPathsForVisibleRows ?? []
        stage.liftTouch()
        try stage.waitUntilIdle()
        let move = try XCTUnwrap(list.moves.first)
        XCTAssertEqual(move.0, IndexPath(row: 1, section: 0))
        XCTAssertGreaterThan(move.1.row, 10, "dropped among rows that were below the screen when the drag began")
        XCTAssertTrue(shown.contains(move.1), "where it was held")
        XCTAssertEqual(list.sections[0][move.1.row], "Row 1")
        XCTAssertEqual(table.cellForRow(at: move.1), row)
        XCTAssertEqual(row.frame, table.rectForRow(at: move.1), "settled in its slot")
        XCTAssertEqual(stage.notDrawn, [])
        XCTAssertEqual(stage.warnings, [])
        return stage
    }

    func testTheControlsSlideInOverAThirdOfASecondEasedInAndOut() throws {
        let list = List(style: .plain)
        let stage = try show(list)
        let row = try cell(list, 0)
        list.setEditing(true, animated: true)
        XCTAssertEqual(row.contentView.frame.minX, 38, "the model value at once")
        try stage.wait(0.15)
        XCTAssertEqual(row.contentView.layer.presentation()!.frame.minX, 19, accuracy: 1e-6, "half way at half time: ease in and out")
        try stage.waitUntilIdle()
        XCTAssertEqual(row.contentView.layer.presentation()!.frame.minX, 38)
        XCTAssertEqual(stage.time, 0.4, accuracy: 1e-9, "0.1 s, then 0.3 s")
    }
}
