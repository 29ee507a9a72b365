import RasterCore
import SmokescreenStage
import SmokescreenStageTesting
import XCTest

/// The tab bar's appearances (iOS 15): none while the selected tab's content has its end in view, the
/// chrome material with a hairline while content goes on under it; symbol icons in their tab's colour.
final class TabBarAppearanceTests: XCTestCase {
    func testTheTabBarFollowsTheSelectedTabsContent() throws {
        let stage = try Stage(device: Device(name: "phone", size: CGSize(width: 200, height: 400), scale: 1, safeAreaInsets: UIEdgeInsets(top: 20, left: 0, bottom: 20, right: 0)),
                              fps: 10, appearance: .light)
        let list = BarAppearanceTests.List(style: .plain)
        list.tabBarItem = UITabBarItem(title: "Mail", image: UIImage(systemName: "envelope"), tag: 0)
        let plain = UIViewController()
        plain.view.backgroundColor = .white
        plain.tabBarItem = UITabBarItem(title: "Settings", image: UIImage(systemName: "gearshape"), tag: 1)
        let tabs = UITabBarController()
        tabs.viewControllers = [list, plain]
        stage.show(tabs)
        try stage.wait(0)
        XCTAssertFalse(tabs.tabBar.isAtScrollEdge, "40 rows go on under the bar")
        let first = try stage.bitmap(ofFrame: 0)
        try IOSParityTests.keep(first, name: "tab-bar-standard.png")
        // The material over the teal rows under the bar, paler than the rows.
        let underBar = first.rgba(100, 400 - 20 - 5), row = first.rgba(100, 200)
        XCTAssertGreaterThan(Int(underBar[0]), Int(row[0]))
        tabs.selectedIndex = 1
        XCTAssertTrue(tabs.tabBar.isAtScrollEdge, "a view that does not scroll")
        try stage.wait(0.1)
        let second = try stage.bitmap(ofFrame: stage.frameCount - 1)
        XCTAssertEqual(second.rgba(100, 400 - 20 - 5), [255, 255, 255, 255], "no background at the scroll edge")
        // The selected tab's symbol in the tint colour, the other's grey.
        let blue = (331..<380).flatMap { y in (100..<200).filter { second.rgba($0, y)[2] > 200 && second.rgba($0, y)[0] < 60 } }
        XCTAssertFalse(blue.isEmpty, "the selected tab's icon is blue")
        let greyIcon = (331..<360).flatMap { y in (0..<100).filter { let p = second.rgba($0, y); return p[0] < 200 && abs(Int(p[0]) - Int(p[2])) < 12 } }
        XCTAssertFalse(greyIcon.isEmpty, "the other tab's icon is grey")
        let appearance = UITabBarAppearance()
        appearance.configureWithOpaqueBackground()
        tabs.tabBar.scrollEdgeAppearance = appearance
        try stage.wait(0.1)
        XCTAssertEqual(try stage.bitmap(ofFrame: stage.frameCount - 1).rgba(100, 400 - 20 - 5), [255, 255, 255, 255], "opaque system background")
    }

    /// On a pad (regular both ways) the bar is 50 points; each tab's image is beside its title, and the tabs
    /// are a group in the middle (`.automatic` is `.centered` there), `itemWidth` wide and `itemSpacing`
    /// apart when set; `.fill` shares the width; a tap between tabs selects the nearer, one beside the group
    /// none.
    func testAPadsTabsAreAnInlineGroupInTheMiddle() throws {
        let stage = try Stage(device: Device.iPadAir, fps: 30, scale: 1, appearance: .light)
        let first = UIViewController(), second = UIViewController(), third = UIViewController()
        first.tabBarItem = UITabBarItem(title: "Inbox", image: UIImage(systemName: "envelope"), tag: 0)
        second.tabBarItem = UITabBarItem(title: "Sent", image: UIImage(systemName: "paperplane"), tag: 1)
        third.tabBarItem = UITabBarItem(title: "Settings", image: UIImage(systemName: "gearshape"), tag: 2)
        let tabs = UITabBarController()
        tabs.viewControllers = [first, second, third]
        stage.show(tabs)
        try stage.wait(0.1)
        let bar = tabs.tabBar
        XCTAssertEqual(bar.frame, CGRect(x: 0, y: 1180 - 50 - 20, width: 820, height: 50 + 20))
        XCTAssertEqual(first.view.safeAreaInsets.bottom, 50 + 20)
        func label(_ title: String) throws -> UILabel { try XCTUnwrap(bar.subviews.compactMap { $0 as? UILabel }.first { $0.text == title }) }
        // (The tabs' views are made again when the selection changes: found afresh each time.)
        var icons: [UIImageView] { bar.subviews.compactMap { $0 as? UIImageView }.filter { $0.image != nil } }
        XCTAssertEqual(icons.count, 3)
        let inbox = try label("Inbox"), settings = try label("Settings")
        XCTAssertEqual(inbox.font.pointSize, 13)
        XCTAssertEqual(icons[0].frame.maxX + 6, inbox.frame.minX, "the image beside the title")
        XCTAssertEqual(inbox.frame.midY, 25, accuracy: 1e-9)
        XCTAssertEqual(icons[0].frame.midY, 25, accuracy: 1e-9)
        // A group in the middle: the first image's left edge and the last title's right edge are as far
        // from the bar's sides, and the group is much narrower than the bar.
        let groupStart = icons[0].frame.minX, groupEnd = settings.frame.maxX
        XCTAssertLessThan(groupEnd - groupStart, 500)
        XCTAssertEqual(groupStart - 0, 820 - groupEnd, accuracy: 40, "centred (each tab's content centred in its slot)")

        // Another tab selected: the tabs are made again, their titles still whole.
        let sent = try label("Sent")
        try stage.tap(at: sent.convert(CGPoint(x: sent.bounds.midX, y: sent.bounds.midY), to: nil))
        try stage.waitUntilIdle()
        XCTAssertEqual(tabs.selectedIndex, 1)
        let settingsAgain = try label("Settings")
        XCTAssertEqual(settingsAgain.frame.width, settingsAgain.sizeThatFits(.zero).width, accuracy: 1e-9, "not cut short")

        // Set widths and spacing: 100-point tabs 10 apart, 320 points in all, centred.
        bar.itemWidth = 100
        bar.itemSpacing = 10
        bar.layoutIfNeeded()
        let start = (820 - 320) / 2.0
        XCTAssertEqual((icons[1].frame.minX + (try label("Sent")).frame.maxX) / 2, start + 110 + 50, accuracy: 1e-9)
        try stage.tap(at: CGPoint(x: start + 110 + 50, y: 1180 - 20 - 25))
        try stage.waitUntilIdle()
        XCTAssertEqual(tabs.selectedIndex, 1)
        try stage.tap(at: CGPoint(x: start + 210 + 7, y: 1180 - 20 - 25))
        try stage.waitUntilIdle()
        XCTAssertEqual(tabs.selectedIndex, 2, "between two tabs: the nearer")
        try stage.tap(at: CGPoint(x: 5, y: 1180 - 20 - 25))
        try stage.waitUntilIdle()
        XCTAssertEqual(tabs.selectedIndex, 2, "beside the group: no tab")
        try stage.tap(at: CGPoint(x: start - 4, y: 1180 - 20 - 25))
        try stage.waitUntilIdle()
        XCTAssertEqual(tabs.selectedIndex, 0, "within half the spacing of the first tab")

        // .fill shares the width, as on a phone.
        bar.itemPositioning = .fill
        bar.layoutIfNeeded()
        XCTAssertEqual((icons[1].frame.minX + (try label("Sent")).frame.maxX) / 2, 820 / 2, accuracy: 1e-9)
    }
}
