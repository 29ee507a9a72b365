import SmokescreenStage
import XCTest

/// Swipe actions with UIKit's names: a horizontal pan slides a row aside to its actions, a release past
/// half of them keeps it open, short of it closes it; a tap on an action calls its handler; a full swipe
/// performs the first action; a tap elsewhere or a scroll closes the open row.
final class TableSwipeTests: XCTestCase {
    /// Ten rows; each row's trailing actions are two image actions of 60 pt ("outer" first), its leading
    /// one, except row 5, which has none.
    final class List: UITableViewController {
        var performed: [String] = []
        var selected: [IndexPath] = []
        var fullSwipe = true
        override func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int { 10 }
        override func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
            let cell = UITableViewCell(style: .default, reuseIdentifier: nil)
            cell.textLabel?.text = "Row \(indexPath.row)"
            return cell
        }
        func action(_ name: String) -> UIContextualAction {
            let action = UIContextualAction(style: .normal, title: nil) { [weak self] _, view, completion in
                self?.performed.append("\(name) \(Int(view.bounds.width))")
                completion(true)
            }
            action.image = UIImage(systemName: "star")
            return action
        }
        override func tableView(_ tableView: UITableView, trailingSwipeActionsConfigurationForRowAt indexPath: IndexPath) -> UISwipeActionsConfiguration? {
            guard indexPath.row != 5 else { return nil }
            let configuration = UISwipeActionsConfiguration(actions: [action("outer"), action("inner")])
            configuration.performsFirstActionWithFullSwipe = fullSwipe
            return configuration
        }
        override func tableView(_ tableView: UITableView, leadingSwipeActionsConfigurationForRowAt indexPath: IndexPath) -> UISwipeActionsConfiguration? {
            indexPath.row == 5 ? nil : UISwipeActionsConfiguration(actions: [action("leading")])
        }
        override func tableView(_ tableView: UITableView, didSelectRowAt indexPath: IndexPath) { selected.append(indexPath) }
    }

    private func show(_ list: List) throws -> Stage {
        let stage = try Stage(device: Device(name: "phone", size: CGSize(width: 320, height: 300), scale: 2, safeAreaInsets: .zero), fps: 10, scale: 1)
        stage.show(list)
        try stage.wait(0.1)
        return stage
    }

    private func cell(_ list: List, _ row: Int) throws -> UITableViewCell {
        try XCTUnwrap(list.tableView.cellForRow(at: IndexPath(row: row, section: 0)))
    }

    /// Pans across row `row` from x = `from` to `to` (points in the row), let go without speed.
    private func swipe(_ stage: Stage, _ list: List, row: Int, from: CGFloat, to: CGFloat) throws {
        let y = CGFloat(row) * 44 + 22
        try stage.pan(from: CGPoint(x: from, y: y), to: CGPoint(x: to, y: y), duration: 0.3, releaseVelocity: CGVector(dx: 0, dy: 0))
        try stage.waitUntilIdle()
    }

    func testASwipePastHalfItsActionsOpensTheRowAndShortOfHalfClosesIt() throws {
        let list = List(style: .plain)
        let stage = try show(list)
        try swipe(stage, list, row: 1, from: 200, to: 150)
        XCTAssertEqual(try cell(list, 1).frame.minX, 0, "50 of 120 points: back")
        try swipe(stage, list, row: 1, from: 200, to: 120)
        XCTAssertEqual(try cell(list, 1).frame.minX, -120, "80 of 120: open, the two 60-point actions in the gap")
        XCTAssertEqual(try cell(list, 2).frame.minX, 0)
        // The inner action is the one beside the row; its handler gets its button (60 points wide).
        try stage.tap(at: CGPoint(x: 320 - 120 + 30, y: 44 + 22))
        try stage.waitUntilIdle()
        XCTAssertEqual(list.performed, ["inner 60"])
        XCTAssertEqual(try cell(list, 1).frame.minX, 0, "closed once the handler completed")
        XCTAssertEqual(list.selected, [])
        XCTAssertEqual(stage.notDrawn, [])
    }

    func testAFullSwipePerformsTheFirstActionOrGivesWayWhenItMayNot() throws {
        let list = List(style: .plain)
        let stage = try show(list)
        try swipe(stage, list, row: 2, from: 300, to: 40)
        XCTAssertEqual(list.performed, ["outer 320"], "the first action, over the whole row")
        XCTAssertEqual(try cell(list, 2).frame.minX, 0)
        list.fullSwipe = false
        let y: CGFloat = 3 * 44 + 22
        try stage.touchDown(at: CGPoint(x: 300, y: y))
        try stage.moveTouch(to: CGPoint(x: 30, y: y), duration: 0.3)
        // 270 points of finger: 120 to the actions, then a third of the other 150.
        XCTAssertEqual(try cell(list, 3).frame.minX, -(120 + 150 / 3), accuracy: 1e-9)
        stage.liftTouch(velocity: CGVector(dx: 0, dy: 0))
        try stage.waitUntilIdle()
        XCTAssertEqual(try cell(list, 3).frame.minX, -120, "open, nothing performed")
        XCTAssertEqual(list.performed, ["outer 320"])
    }

    func testATapElsewhereClosesTheOpenRowAndSelectsNothing() throws {
        let list = List(style: .plain)
        let stage = try show(list)
        try swipe(stage, list, row: 0, from: 30, to: 100)
        XCTAssertEqual(try cell(list, 0).frame.minX, 60, "the leading action's 60 points")
        try stage.tap(at: CGPoint(x: 200, y: 4 * 44 + 22))
        try stage.waitUntilIdle()
        XCTAssertEqual(try cell(list, 0).frame.minX, 0)
        XCTAssertEqual(list.selected, [], "the tap only closed the row")
        try stage.tap(at: CGPoint(x: 200, y: 4 * 44 + 22))
        XCTAssertEqual(list.selected, [IndexPath(row: 4, section: 0)])
    }

    func testAnOpenRowTakenAgainFollowsTheFingerFromWhereItIs() throws {
        let list = List(style: .plain)
        let stage = try show(list)
        try swipe(stage, list, row: 1, from: 200, to: 120)
        XCTAssertEqual(try cell(list, 1).frame.minX, -120)
        // Taken again and dragged 30 points further: it follows from -120, and stays open when let go.
        let y: CGFloat = 44 + 22
        try stage.touchDown(at: CGPoint(x: 150, y: y))
        try stage.moveTouch(to: CGPoint(x: 120, y: y), duration: 0.2)
        XCTAssertEqual(try cell(list, 1).layer.presentation()!.frame.minX, -150, accuracy: 1e-9)
        stage.liftTouch(velocity: CGVector(dx: 0, dy: 0))
        try stage.waitUntilIdle()
        XCTAssertEqual(try cell(list, 1).layer.presentation()!.frame.minX, -120, accuracy: 1e-9)
        // Its actions still answer.
        try stage.tap(at: CGPoint(x: 320 - 120 + 30, y: y))
        try stage.waitUntilIdle()
        XCTAssertEqual(list.performed, ["inner 60"])
        XCTAssertEqual(try cell(list, 1).layer.presentation()!.frame.minX, 0, accuracy: 1e-9)
    }

    func testAReloadOrAnUpdateWhileARowIsOpenClosesItAndTakesItsActionsAway() throws {
        let list = List(style: .plain)
        let stage = try show(list)
        try swipe(stage, list, row: 1, from: 200, to: 120)
        list.tableView.reloadData()
        list.tableView.layoutIfNeeded()
        XCTAssertEqual(try cell(list, 1).frame.minX, 0)
        // Where the actions were, a tap now selects the row.
        try stage.tap(at: CGPoint(x: 320 - 30, y: 44 + 22))
        XCTAssertEqual(list.selected, [IndexPath(row: 1, section: 0)])
        XCTAssertEqual(list.performed, [])
        // An update elsewhere while a row is open: the row ends closed, its actions gone with the update.
        try swipe(stage, list, row: 3, from: 200, to: 120)
        XCTAssertEqual(try cell(list, 3).frame.minX, -120)
        list.tableView.reloadRows(at: [IndexPath(row: 0, section: 0)], with: .fade)
        try stage.waitUntilIdle()
        XCTAssertEqual(try cell(list, 3).layer.presentation()!.frame.minX, 0, accuracy: 1e-9)
        XCTAssertEqual(try cell(list, 3).subviews.filter { $0.frame.minX >= 320 }, [], "no actions left beside the cell")
        try stage.tap(at: CGPoint(x: 320 - 30, y: 3 * 44 + 22))
        XCTAssertEqual(list.selected.last, IndexPath(row: 3, section: 0))
        XCTAssertEqual(list.performed, [])
    }

    func testASwipeFromTheScreensEdgeIsTheBackSwipeNotTheRows() throws {
        let stage = try Stage(device: Device(name: "phone", size: CGSize(width: 320, height: 300), scale: 2, safeAreaInsets: .zero), fps: 10, scale: 1)
        let root = UIViewController(), list = List(style: .plain)
        let navigation = UINavigationController(rootViewController: root)
        stage.show(navigation)
        navigation.pushViewController(list, animated: false)
        try stage.wait(0.1)
        let row = try cell(list, 1)
        let y = row.convert(CGPoint(x: 0, y: row.bounds.midY), to: nil).y
        // From 40 points in: the row's leading action.
        try stage.pan(from: CGPoint(x: 40, y: y), to: CGPoint(x: 120, y: y), duration: 0.3, releaseVelocity: CGVector(dx: 0, dy: 0))
        try stage.waitUntilIdle()
        XCTAssertEqual(row.frame.minX, 60)
        try stage.tap(at: CGPoint(x: 200, y: y + 88))
        try stage.waitUntilIdle()
        // From the edge: the navigation controller's back swipe.
        try stage.pan(from: CGPoint(x: 5, y: y), to: CGPoint(x: 250, y: y), duration: 0.3)
        try stage.waitUntilIdle()
        XCTAssertTrue(navigation.topViewController === root, "popped")
        XCTAssertEqual(list.performed, [])
    }

    func testAVerticalPanScrollsAndARowWithoutActionsDoesNotSwipe() throws {
        let list = List(style: .plain)
        let stage = try show(list)
        try swipe(stage, list, row: 5, from: 250, to: 100)
        XCTAssertEqual(try cell(list, 5).frame.minX, 0, "row 5 has no actions")
        try swipe(stage, list, row: 1, from: 200, to: 120)
        XCTAssertEqual(try cell(list, 1).frame.minX, -120)
        // A scroll closes the open row.
        try stage.pan(from: CGPoint(x: 100, y: 250), to: CGPoint(x: 100, y: 220), duration: 0.3, releaseVelocity: CGVector(dx: 0, dy: 0))
        try stage.waitUntilIdle()
        XCTAssertEqual(list.tableView.contentOffset.y, 30, accuracy: 1e-9, "scrolled by the finger's motion")
        XCTAssertEqual(try cell(list, 1).frame.minX, 0)
    }
}
