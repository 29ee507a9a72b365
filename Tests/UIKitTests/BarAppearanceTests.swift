import RasterCore
import SmokescreenStage
import SmokescreenStageTesting
import XCTest

/// iOS 15's bar appearances: a navigation bar with no background while its content is at the top and
/// the chrome material with a hairline once content scrolls under it; appearances given to the bar or
/// to one item; the toolbar's at the bottom edge.
final class BarAppearanceTests: XCTestCase {
    final class List: UITableViewController {
        override func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int { 40 }
        override func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
            let cell = UITableViewCell(style: .default, reuseIdentifier: nil)
            cell.textLabel?.text = "Row \(indexPath.row)"
            cell.backgroundColor = .systemTeal
            return cell
        }
    }

    private func phone() throws -> Stage {
        try Stage(device: Device(name: "phone", size: CGSize(width: 200, height: 400), scale: 1, safeAreaInsets: UIEdgeInsets(top: 20, left: 0, bottom: 20, right: 0)),
                  fps: 10, appearance: .light)
    }

    func testTheBarHasNoBackgroundAtTheTopAndTheMaterialOnceContentScrollsUnder() throws {
        let stage = try phone()
        let list = List(style: .plain)
        list.title = "Inbox"
        let navigation = UINavigationController(rootViewController: list)
        stage.show(navigation)
        try stage.wait(0)
        XCTAssertTrue(navigation.navigationBar.isAtScrollEdge)
        let atTop = try stage.bitmap(ofFrame: 0)
        // At the top: the table's background (white) behind the bar, no hairline under it (y = 64).
        XCTAssertEqual(atTop.rgba(5, 30), [255, 255, 255, 255])
        XCTAssertEqual(atTop.rgba(5, 64), atTop.rgba(5, 66), "no hairline at the scroll edge (the first row's teal on both)")
        list.tableView.contentOffset = CGPoint(x: 0, y: list.tableView.contentOffset.y + 120)
        XCTAssertFalse(navigation.navigationBar.isAtScrollEdge)
        try stage.wait(0.1)
        let scrolled = try stage.bitmap(ofFrame: stage.frameCount - 1)
        // Scrolled: teal rows under the bar, seen through the material (paler than the rows themselves),
        // and the hairline at the bar's bottom edge.
        let underBar = scrolled.rgba(5, 40), row = scrolled.rgba(5, 200)
        XCTAssertNotEqual(underBar, [255, 255, 255, 255], "the material over the rows")
        XCTAssertGreaterThan(Int(underBar[0]), Int(row[0]), "paler than the rows")
        XCTAssertLessThan(Int(scrolled.rgba(5, 64)[1]), Int(scrolled.rgba(5, 66)[1]), "the hairline just under the bar")
        try IOSParityTests.keep(scrolled, name: "bar-standard.png")
        // Back at the top, no background again.
        list.tableView.contentOffset = CGPoint(x: 0, y: -list.tableView.adjustedContentInset.top)
        XCTAssertTrue(navigation.navigationBar.isAtScrollEdge)
    }

    func testAppearancesGivenToTheBarOrAnItemAreDrawn() throws {
        let stage = try phone()
        let first = UIViewController()
        first.view.backgroundColor = .white
        first.title = "Red"
        let navigation = UINavigationController(rootViewController: first)
        let red = UINavigationBarAppearance()
        red.configureWithOpaqueBackground()
        red.backgroundColor = .systemRed
        red.titleTextAttributes = [.foregroundColor: UIColor.white]
        navigation.navigationBar.standardAppearance = red
        navigation.navigationBar.scrollEdgeAppearance = red
        stage.show(navigation)
        try stage.wait(0)
        let frame = try stage.bitmap(ofFrame: 0)
        XCTAssertEqual(frame.rgba(5, 5), [255, 59, 48, 255], "under the status bar too")
        XCTAssertEqual(frame.rgba(5, 40), [255, 59, 48, 255])
        let white = (0..<200).filter { frame.rgba($0, 42)[1] > 200 }
        XCTAssertFalse(white.isEmpty, "the title in white")
        // A pushed controller's own appearance wins while it is on top.
        let second = UIViewController()
        second.view.backgroundColor = .white
        let clear = UINavigationBarAppearance()
        clear.configureWithTransparentBackground()
        second.navigationItem.scrollEdgeAppearance = clear
        navigation.pushViewController(second, animated: false)
        try stage.wait(0.1)
        XCTAssertEqual(try stage.bitmap(ofFrame: stage.frameCount - 1).rgba(5, 40), [255, 255, 255, 255])
        // The appearance API's defaults.
        let fresh = UINavigationBarAppearance()
        XCTAssertNotNil(fresh.backgroundEffect, "the default background: a material")
        fresh.configureWithTransparentBackground()
        XCTAssertNil(fresh.backgroundEffect)
        XCTAssertNil(fresh.shadowColor)
        let copy = fresh.copy() as? UINavigationBarAppearance
        XCTAssertNotNil(copy)
        XCTAssertNil(navigation.navigationBar.compactAppearance)
    }

    /// A phone in landscape (a compact height): a 32-point bar with no large title, the compact
    /// appearances (the compact scroll-edge one falling back to the scroll-edge one), a 32-point toolbar.
    func testACompactHeightBarIsShorterWithTheCompactAppearances() throws {
        let stage = try Stage(device: Device(name: "phone", size: CGSize(width: 400, height: 200), scale: 1,
                                             safeAreaInsets: UIEdgeInsets(top: 0, left: 0, bottom: 0, right: 0)),
                              fps: 10, appearance: .light)
        let list = List(style: .plain)
        list.title = "Inbox"
        list.toolbarItems = [UIBarButtonItem(title: "Edit", style: .plain, target: nil, action: nil)]
        let navigation = UINavigationController(rootViewController: list)
        navigation.navigationBar.prefersLargeTitles = true
        navigation.isToolbarHidden = false
        let red = UINavigationBarAppearance()
        red.configureWithOpaqueBackground()
        red.backgroundColor = .systemRed
        navigation.navigationBar.compactAppearance = red
        let blue = UINavigationBarAppearance()
        blue.configureWithOpaqueBackground()
        blue.backgroundColor = .systemBlue
        navigation.navigationBar.scrollEdgeAppearance = blue
        stage.show(navigation)
        try stage.wait(0)
        let bar = navigation.navigationBar
        XCTAssertEqual(list.traitCollection.verticalSizeClass, .compact)
        XCTAssertEqual(bar.frame, CGRect(x: 0, y: 0, width: 400, height: 32), "32 points, no large-title band")
        XCTAssertEqual(navigation.toolbar.frame, CGRect(x: 0, y: 168, width: 400, height: 32))
        XCTAssertEqual(list.tableView.adjustedContentInset.top, 32)
        XCTAssertEqual(list.tableView.adjustedContentInset.bottom, 32)
        // At the top: no compact scroll-edge appearance, so the scroll-edge one (blue).
        XCTAssertEqual(try stage.bitmap(ofFrame: 0).rgba(5, 16), [0, 122, 255, 255])
        // Scrolled: the compact appearance (red), not the standard material.
        list.tableView.contentOffset.y += 100
        try stage.wait(0.1)
        let scrolled = try stage.bitmap(ofFrame: stage.frameCount - 1)
        XCTAssertEqual(scrolled.rgba(5, 16), [255, 59, 48, 255])
        // The item's compact scroll-edge appearance wins at the top.
        let green = UINavigationBarAppearance()
        green.configureWithOpaqueBackground()
        green.backgroundColor = .systemGreen
        list.navigationItem.compactScrollEdgeAppearance = green
        list.tableView.contentOffset.y = -list.tableView.adjustedContentInset.top
        try stage.wait(0.1)
        XCTAssertEqual(try stage.bitmap(ofFrame: stage.frameCount - 1).rgba(5, 16), [52, 199, 89, 255])
        XCTAssertEqual(stage.notDrawn, [])
    }

    func testANavigationToolbarIsClearAtTheEndOfItsContent() throws {
        let stage = try phone()
        let list = List(style: .plain)
        list.toolbarItems = [.flexibleSpace(), UIBarButtonItem(barButtonSystemItem: .compose, target: nil, action: nil)]
        let navigation = UINavigationController(rootViewController: list)
        navigation.isToolbarHidden = false
        stage.show(navigation)
        try stage.wait(0)
        XCTAssertFalse(navigation.toolbar.isAtScrollEdge, "40 rows go on below")
        list.tableView.contentOffset = CGPoint(x: 0, y: list.tableView.contentSize.height + list.tableView.adjustedContentInset.bottom - list.tableView.bounds.height)
        XCTAssertTrue(navigation.toolbar.isAtScrollEdge, "the end in view")
        let own = UIToolbar(frame: CGRect(x: 0, y: 0, width: 200, height: 44))
        XCTAssertFalse(own.isAtScrollEdge, "a toolbar of one's own shows its standard appearance")
    }
}
