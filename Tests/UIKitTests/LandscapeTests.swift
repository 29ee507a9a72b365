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

    /// Pushed over and popped back: the list's cells keep clear of the island again (the list is laid out
    /// before it returns to the window, where the sides are unknown).
    func testAPoppedBackListKeepsItsInsets() throws {
        let stage = try Stage(device: Device.iPhone15.landscape, fps: 30, scale: 1, appearance: .light)
        let list = List(style: .plain)
        let navigation = UINavigationController(rootViewController: list)
        stage.show(navigation)
        try stage.wait(0.1)
        let detail = UIViewController()
        detail.view.backgroundColor = .systemBackground
        for animated in [true, false] {
            navigation.pushViewController(detail, animated: animated)
            try stage.waitUntilIdle()
            navigation.popViewController(animated: animated)
            try stage.waitUntilIdle()
            let cell = try XCTUnwrap(list.tableView.cellForRow(at: IndexPath(row: 0, section: 0)))
            XCTAssertEqual(inWindow(cell.contentView).minX, 59, "animated: \(animated)")
            let header = try XCTUnwrap(list.tableView.subviews.compactMap { $0 as? UITableViewHeaderFooterView }.first)
            XCTAssertEqual(inWindow(try XCTUnwrap(header.textLabel)).minX, 59 + 20, "animated: \(animated)")
        }
    }

    /// A sheet on a phone in landscape covers the screen (UIKit's, unless
    /// `prefersEdgeAttachedInCompactHeight`): square corners, what is behind left as it is.
    func testASheetInLandscapeCoversTheScreen() throws {
        let stage = try Stage(device: Device.iPhone15ProMax.landscape, fps: 30, scale: 1, appearance: .light)
        let screen = UIViewController()
        screen.view.backgroundColor = .systemBackground
        stage.show(screen)
        let sheet = UIViewController()
        sheet.view.backgroundColor = .secondarySystemBackground
        sheet.sheetPresentationController?.detents = [.medium(), .large()]
        screen.present(sheet, animated: true)
        try stage.waitUntilIdle()
        XCTAssertEqual(sheet.view.frame, CGRect(x: 0, y: 0, width: 932, height: 430), "not the pad's card, though the Max is regular wide here")
        XCTAssertEqual(sheet.view.layer.cornerRadius, 0)
        XCTAssertEqual(screen.view.transform, .identity, "not shrunk back")
        // Still swiped away.
        try stage.pan(from: CGPoint(x: 400, y: 100), to: CGPoint(x: 400, y: 420), duration: 0.3, releaseVelocity: CGVector(dx: 0, dy: 900))
        try stage.waitUntilIdle()
        XCTAssertNil(screen.presentedViewController)
    }

    /// `prefersEdgeAttachedInCompactHeight`: the sheet is attached to the bottom edge only, as wide as the
    /// safe area (the island's sides kept clear) or, with `widthFollowsPreferredContentSizeWhenEdgeAttached`,
    /// as the controller's preferred width, centred; `medium()` is inactive in a compact height, so it
    /// rests at the large detent; what is behind is dimmed, not shrunk back, also while it is dragged.
    func testAnEdgeAttachedSheetInLandscape() throws {
        let stage = try Stage(device: Device.iPhone15ProMax.landscape, fps: 30, scale: 1, appearance: .light)
        XCTAssertEqual(stage.window.safeAreaInsets, UIEdgeInsets(top: 0, left: 59, bottom: 21, right: 59))
        let screen = UIViewController()
        screen.view.backgroundColor = .systemBackground
        stage.show(screen)
        let sheet = UIViewController()
        sheet.view.backgroundColor = .secondarySystemBackground
        let controller = try XCTUnwrap(sheet.sheetPresentationController)
        controller.detents = [.medium(), .large()]
        controller.prefersEdgeAttachedInCompactHeight = true
        controller.prefersGrabberVisible = true
        screen.present(sheet, animated: true)
        try stage.waitUntilIdle()
        XCTAssertEqual(sheet.view.frame, CGRect(x: 59, y: 10, width: 932 - 118, height: 420))
        XCTAssertEqual(sheet.view.layer.cornerRadius, 10)
        XCTAssertEqual(sheet.view.layer.maskedCorners, [.layerMinXMinYCorner, .layerMaxXMinYCorner])
        XCTAssertEqual(screen.view.transform, .identity, "not shrunk back")

        // Dragged down a little and let go: back to its detent, what is behind never shrinking.
        try stage.pan(from: CGPoint(x: 400, y: 40), to: CGPoint(x: 400, y: 120), duration: 0.3)
        XCTAssertEqual(screen.view.transform, .identity)
        XCTAssertEqual(sheet.view.frame.minX, 59, "it moves straight down")
        try stage.waitUntilIdle()
        XCTAssertEqual(sheet.view.frame.minY, 10)

        let grabber = try XCTUnwrap(sheet.view.subviews.last)
        XCTAssertEqual(grabber.frame.size, CGSize(width: 36, height: 5))
        XCTAssertFalse(grabber.isHidden, "the grabber shows")
        let dimmed = try stage.bitmap(ofFrame: stage.frameCount - 1).rgba(20, 200)
        XCTAssertLessThan(dimmed[0], 200, "what is behind, beside the sheet, is dimmed")

        // The preferred width, centred in the safe area; a new preferred width is taken at once.
        sheet.preferredContentSize = CGSize(width: 500, height: 0)
        controller.animateChanges { controller.widthFollowsPreferredContentSizeWhenEdgeAttached = true }
        try stage.waitUntilIdle()
        XCTAssertEqual(sheet.view.frame, CGRect(x: 59 + (814 - 500) / 2, y: 10, width: 500, height: 420))
        sheet.preferredContentSize = CGSize(width: 400, height: 0)
        try stage.waitUntilIdle()
        XCTAssertEqual(sheet.view.frame, CGRect(x: 59 + (814 - 400) / 2, y: 10, width: 400, height: 420))

        // No longer edge-attached while shown: the whole screen, square corners, no grabber; and back.
        controller.prefersEdgeAttachedInCompactHeight = false
        try stage.waitUntilIdle()
        XCTAssertEqual(sheet.view.frame, CGRect(x: 0, y: 0, width: 932, height: 430))
        XCTAssertEqual(sheet.view.layer.cornerRadius, 0)
        XCTAssertTrue(grabber.isHidden)
        controller.prefersEdgeAttachedInCompactHeight = true
        try stage.waitUntilIdle()
        XCTAssertEqual(sheet.view.layer.cornerRadius, 10)
        XCTAssertFalse(grabber.isHidden)

        try stage.pan(from: CGPoint(x: 400, y: 40), to: CGPoint(x: 400, y: 400), duration: 0.3, releaseVelocity: CGVector(dx: 0, dy: 900))
        try stage.waitUntilIdle()
        XCTAssertNil(screen.presentedViewController, "swiped away")

        // The grabber asked for before the sheet is edge-attached shows too (the order does not matter).
        let other = UIViewController()
        other.sheetPresentationController?.prefersGrabberVisible = true
        other.sheetPresentationController?.prefersEdgeAttachedInCompactHeight = true
        screen.present(other, animated: false)
        try stage.waitUntilIdle()
        XCTAssertEqual(other.view.subviews.last?.isHidden, false)
        other.dismiss(animated: false)
        try stage.waitUntilIdle()

        // In portrait the same sheet is the usual one: medium active, full width.
        let portrait = try Stage(device: Device.iPhone15ProMax, fps: 30, scale: 1, appearance: .light)
        let root = UIViewController()
        portrait.show(root)
        let second = UIViewController()
        second.sheetPresentationController?.detents = [.medium(), .large()]
        second.sheetPresentationController?.prefersEdgeAttachedInCompactHeight = true
        second.sheetPresentationController?.widthFollowsPreferredContentSizeWhenEdgeAttached = true
        second.preferredContentSize = CGSize(width: 300, height: 0)
        root.present(second, animated: false)
        try portrait.waitUntilIdle()
        XCTAssertEqual(second.view.frame.width, 430)
        XCTAssertEqual(second.view.frame.height, ((932 - 59 - 10) / 2).rounded())
    }

    /// A pad's shorter side is 600 points or more (the iPad mini's 744): turned, it keeps its insets and
    /// its regular size classes.
    func testAnIPadMiniIsAPadInLandscape() throws {
        let mini = Device(name: "iPad mini", size: CGSize(width: 744, height: 1133), scale: 2, safeAreaInsets: UIEdgeInsets(top: 24, left: 0, bottom: 20, right: 0))
        XCTAssertFalse(mini.isPhone)
        XCTAssertEqual(mini.landscape.safeAreaInsets, mini.safeAreaInsets)
        let stage = try Stage(device: mini.landscape, fps: 30, scale: 1, appearance: .light)
        let screen = UIViewController()
        stage.show(screen)
        XCTAssertEqual(screen.traitCollection.verticalSizeClass, .regular)
        XCTAssertEqual(screen.traitCollection.horizontalSizeClass, .regular)
        XCTAssertEqual(UIDevice.current.userInterfaceIdiom, .pad)
        let phone = try Stage(device: Device.iPhone15ProMax.landscape, fps: 30, scale: 1, appearance: .light)
        phone.show(UIViewController())
        XCTAssertEqual(UIDevice.current.userInterfaceIdiom, .phone, "a phone on its side is still a phone")
    }

    /// An inset-grouped section's card keeps clear of the island besides its own 16 points; its content
    /// is then clear already.
    func testInsetGroupedCardsKeepClearOfTheIsland() throws {
        let stage = try Stage(device: Device.iPhone15.landscape, fps: 30, scale: 1, appearance: .light)
        let list = List(style: .insetGrouped)
        stage.show(UINavigationController(rootViewController: list))
        try stage.wait(0.1)
        let cell = try XCTUnwrap(list.tableView.cellForRow(at: IndexPath(row: 0, section: 0)))
        XCTAssertEqual(inWindow(cell), CGRect(x: 59 + 16, y: inWindow(cell).minY, width: 852 - 2 * (59 + 16), height: cell.frame.height))
        XCTAssertEqual(inWindow(cell.contentView).minX, 59 + 16)
        XCTAssertEqual(inWindow(try XCTUnwrap(cell.textLabel)).minX, 59 + 16 + 20)
    }

    /// A tab bar on a phone in landscape: 32 points over the bottom inset, each tab's image beside its
    /// title in 13-point type, the tabs between the island's sides; a tap still picks its tab.
    func testATabBarInLandscapeIsCompact() throws {
        let stage = try Stage(device: Device.iPhone15.landscape, fps: 30, scale: 1, appearance: .light)
        let first = UIViewController(), second = UIViewController()
        first.tabBarItem = UITabBarItem(title: "Inbox", image: UIImage(systemName: "tray"), tag: 0)
        second.tabBarItem = UITabBarItem(title: "Sent", image: UIImage(systemName: "paperplane"), tag: 1)
        let tabs = UITabBarController()
        tabs.viewControllers = [first, second]
        stage.show(tabs)
        try stage.wait(0.1)
        let bar = tabs.tabBar
        XCTAssertEqual(bar.frame, CGRect(x: 0, y: 393 - 32 - 21, width: 852, height: 32 + 21))
        XCTAssertEqual(first.view.safeAreaInsets.bottom, 32 + 21)
        let label = try XCTUnwrap(bar.subviews.compactMap { $0 as? UILabel }.first { $0.text == "Inbox" })
        let icon = try XCTUnwrap(bar.subviews.compactMap { $0 as? UIImageView }.first)
        XCTAssertEqual(label.font.pointSize, 13)
        XCTAssertEqual(icon.frame.maxX + 6, label.frame.minX, "the image beside the title")
        XCTAssertEqual(label.frame.midY, icon.frame.midY, accuracy: 1e-9)
        let slot = (852 - 2 * 59) / 2.0
        XCTAssertEqual((icon.frame.minX + label.frame.maxX) / 2, 59 + slot / 2, accuracy: 1e-9, "centred in its tab")
        try stage.tap(at: CGPoint(x: 59 + slot * 1.5, y: 393 - 21 - 16))
        try stage.waitUntilIdle()
        XCTAssertEqual(tabs.selectedIndex, 1)
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
