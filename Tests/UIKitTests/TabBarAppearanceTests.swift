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
}
