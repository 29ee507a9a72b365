import SmokescreenStage
import XCTest

/// A phone turned to landscape (`Device.landscape`): the island's 59 points on both sides are kept clear
/// by what UIKit keeps clear of them — table cells' content, accessories and separators
/// (`insetsContentViewsToSafeArea`), section titles, the navigation bar's items and titles, the
/// toolbar's items — while backgrounds still run to the screen's edges.
final class LandscapeTests: XCTestCase {
    final class List: UITableViewController {
        override func viewDidLoad() {
            super.viewDidLoad()
            title = "Mailboxes"
            navigationItem.rightBarButtonItem = editButtonItem
            toolbarItems = [UIBarButtonItem(title: "Filter", style: .plain, target: nil, action: nil)]
        }
        override func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int { 20 }
        override func tableView(_ tableView: UITableView, titleForHeaderInSection section: Int) -> String? { "Accounts" }
        override func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
            let cell = UITableViewCell(style: .default, reuseIdentifier: nil)
            cell.textLabel?.text = "Mailbox \(indexPath.row)"
            cell.accessoryType = .disclosureIndicator
            return cell
        }
    }

    /// The frame of `view` in the window.
    private func inWindow(_ view: UIView) -> CGRect { view.convert(view.bounds, to: nil) }

    func testContentKeepsClearOfTheIslandsSides() throws {
        let stage = try Stage(device: Device.iPhone15.landscape, fps: 30, scale: 1, appearance: .light)
        let list = List(style: .plain)
        let navigation = UINavigationController(rootViewController: list)
        navigation.isToolbarHidden = false
        stage.show(navigation)
        try stage.wait(0.1)
        let table = list.tableView!
        // The system margin: 20 points on a screen this wide.
        let margin: CGFloat = 20
        let cell = try XCTUnwrap(table.cellForRow(at: IndexPath(row: 0, section: 0)))
        XCTAssertEqual(inWindow(cell).minX, 0, "the cell's background runs to the screen's edge")
        XCTAssertEqual(inWindow(cell.contentView).minX, 59)
        XCTAssertEqual(inWindow(cell.contentView).maxX, 852 - 59 - margin - 8 - 8, accuracy: 1e-9, "short of the chevron and its margins")
        XCTAssertEqual(inWindow(try XCTUnwrap(cell.textLabel)).minX, 59 + margin)
        let chevron = try XCTUnwrap(cell.subviews.first { String(describing: type(of: $0)) == "TableAccessoryView" && $0.alpha > 0 })
        XCTAssertEqual(inWindow(chevron).maxX, 852 - 59 - margin, accuracy: 1e-9)
        let separator = try XCTUnwrap(cell.subviews.first { $0.frame.height <= 1 && $0.frame.minY >= cell.bounds.height - 1 })
        XCTAssertEqual(inWindow(separator).minX, 59 + margin, "the table's separator inset counts from the safe area")
        let header = try XCTUnwrap(table.subviews.compactMap { $0 as? UITableViewHeaderFooterView }.first)
        XCTAssertEqual(inWindow(header).minX, 0)
        XCTAssertEqual(inWindow(try XCTUnwrap(header.textLabel)).minX, 59 + margin)
        // The bar: 32 points, its edit item the margin inside the safe area; the toolbar's item likewise.
        let bar = navigation.navigationBar
        XCTAssertEqual(bar.frame.height, 32)
        let edit = try XCTUnwrap(bar.subviews.first { $0 !== bar.subviews.first && $0.frame.maxX > 700 && $0.frame.height > 0 && !($0 is UILabel) })
        XCTAssertEqual(inWindow(edit).maxX, 852 - 59 - margin, accuracy: 1e-9)
        let filter = try XCTUnwrap(navigation.toolbar.subviews.last)
        XCTAssertEqual(inWindow(filter).minX, 59 + margin, accuracy: 1e-9)
        // Pushed: the back chevron after the island; the outgoing list's cells keep their content where it
        // was while the list slides off.
        let detail = UIViewController()
        detail.view.backgroundColor = .systemBackground
        detail.title = "Inbox"
        navigation.pushViewController(detail, animated: true)
        try stage.wait(0.1)
        XCTAssertEqual(cell.contentView.frame.minX, 59, "unchanged while the list slides off")
        try stage.waitUntilIdle()
        let back = try XCTUnwrap(bar.subviews.first { String(describing: type(of: $0)) == "BackChevronView" })
        XCTAssertEqual(inWindow(back).minX, 59 + 8)
        XCTAssertEqual(stage.notDrawn, [])
    }

    /// In portrait nothing moves: the sides have no insets.
    func testPortraitHasNoSideInsets() throws {
        let stage = try Stage(device: .iPhone15, fps: 30, scale: 1, appearance: .light)
        let list = List(style: .plain)
        stage.show(UINavigationController(rootViewController: list))
        try stage.wait(0.1)
        let cell = try XCTUnwrap(list.tableView.cellForRow(at: IndexPath(row: 0, section: 0)))
        XCTAssertEqual(inWindow(cell.contentView).minX, 0)
        XCTAssertEqual(inWindow(try XCTUnwrap(cell.textLabel)).minX, 16)
    }
}
