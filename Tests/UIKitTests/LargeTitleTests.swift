import RasterCore
import SmokescreenStage
import SmokescreenStageTesting
import XCTest

/// Large titles: a 52-point band under the bar with the title in 34-pt bold at the leading margin, that
/// collapses into the small title as the content scrolls and grows or shrinks across a push.
final class LargeTitleTests: XCTestCase {
    private func phone(scale: CGFloat = 1) throws -> Stage {
        try Stage(device: Device(name: "phone", size: CGSize(width: 390, height: 600), scale: scale, safeAreaInsets: UIEdgeInsets(top: 47, left: 0, bottom: 34, right: 0)),
                  fps: 30, appearance: .light)
    }

    func testALargeTitleCollapsesAsTheContentScrolls() throws {
        let stage = try phone()
        let list = BarAppearanceTests.List(style: .plain)
        list.title = "Mailboxes"
        let navigation = UINavigationController(rootViewController: list)
        navigation.navigationBar.prefersLargeTitles = true
        stage.show(navigation)
        try stage.wait(0)
        let bar = navigation.navigationBar
        XCTAssertEqual(bar.frame, CGRect(x: 0, y: 47, width: 390, height: 96), "44 points and the 52-point band")
        XCTAssertEqual(list.tableView.adjustedContentInset.top, 47 + 96)
        XCTAssertTrue(bar.isAtScrollEdge)
        let expanded = try stage.bitmap(ofFrame: 0)
        try IOSParityTests.keep(expanded, name: "large-title.png")
        // The large title's ink starts at the leading margin (16 points) in the band, and the small title
        // is not shown (nothing dark in the bar's middle).
        let band = (47 + 44)..<(47 + 96)
        let ink: [Int] = band.flatMap { y -> [Int] in (0..<200).filter { expanded.rgba($0, y)[1] < 100 } }
        XCTAssertEqual(ink.min() ?? 0, 16, accuracy: 2)
        XCTAssertTrue((47..<(47 + 44)).allSatisfy { y in (150..<240).allSatisfy { expanded.rgba($0, y)[1] > 200 } }, "no small title while large")
        // Half collapsed: the band is 22 points; still the scroll-edge appearance.
        list.tableView.contentOffset.y += 30
        XCTAssertEqual(bar.frame.height, 66)
        XCTAssertTrue(bar.isAtScrollEdge)
        // Collapsed: 44 points, the small title, the standard appearance.
        list.tableView.contentOffset.y += 70
        XCTAssertEqual(bar.frame.height, 44)
        XCTAssertFalse(bar.isAtScrollEdge)
        try stage.wait(0.1)
        let collapsed = try stage.bitmap(ofFrame: stage.frameCount - 1)
        XCTAssertTrue((47..<(47 + 44)).contains { y in (150..<240).contains { collapsed.rgba($0, y)[1] < 100 } }, "the small title")
        try IOSParityTests.keep(collapsed, name: "large-title-collapsed.png")
    }

    func testAPushToAControllerWithoutALargeTitleShrinksTheBar() throws {
        let stage = try phone(scale: 2)
        let list = BarAppearanceTests.List(style: .plain)
        list.title = "Mailboxes"
        let navigation = UINavigationController(rootViewController: list)
        navigation.navigationBar.prefersLargeTitles = true
        stage.show(navigation)
        let detail = UIViewController()
        detail.view.backgroundColor = .systemBackground
        detail.title = "Inbox"
        detail.navigationItem.largeTitleDisplayMode = .never
        navigation.pushViewController(detail, animated: true)
        var heights: [CGFloat] = []
        for _ in 0..<12 {
            try stage.wait(1.0 / 30)
            heights.append(navigation.navigationBar.layer.presentation()?.bounds.height ?? navigation.navigationBar.bounds.height)
        }
        try stage.waitUntilIdle()
        XCTAssertEqual(navigation.navigationBar.frame.height, 44)
        XCTAssertEqual(detail.view.safeAreaInsets.top, 47 + 44)
        XCTAssertTrue(heights.contains { $0 > 44 && $0 < 96 }, "it shrinks over the push: \(heights)")
        if let folder = ProcessInfo.processInfo.environment["SMOKESCREEN_PARITY_OUT"] { _ = try stage.write(to: folder + "/large-title-push", force: true) }
        // `.automatic` follows the item below: a controller pushed over the detail has no large title
        // either; `.always` has one.
        let third = UIViewController()
        third.view.backgroundColor = .systemBackground
        navigation.pushViewController(third, animated: false)
        try stage.wait(0.1)
        XCTAssertEqual(navigation.navigationBar.frame.height, 44)
        third.navigationItem.largeTitleDisplayMode = .always
        try stage.wait(0.1)
        XCTAssertEqual(navigation.navigationBar.frame.height, 96)
    }
}
