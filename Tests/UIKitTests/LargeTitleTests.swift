import RasterCore
import SmokescreenStage
import SmokescreenStageTesting
import XCTest

/// Large titles: a 52-point band under the bar with the title in 34-pt bold at the leading margin, that
/// collapses into the small title as the content scrolls and grows or shrinks across a push.
final class LargeTitleTests: XCTestCase {
    /// A navigation controller with large titles showing a list titled "Mailboxes", shown on `stage`.
    @discardableResult
    private func showMailboxes(on stage: Stage) -> (UINavigationController, BarAppearanceTests.List) {
        let list = BarAppearanceTests.List(style: .plain)
        list.title = "Mailboxes"
        let navigation = UINavigationController(rootViewController: list)
        navigation.navigationBar.prefersLargeTitles = true
        stage.show(navigation)
        return (navigation, list)
    }

    private func phone(scale: CGFloat = 1) throws -> Stage {
        try Stage(device: Device(name: "phone", size: CGSize(width: 390, height: 600), scale: scale, safeAreaInsets: UIEdgeInsets(top: 47, left: 0, bottom: 34, right: 0)),
                  fps: 30, appearance: .light)
    }

    func testALargeTitleCollapsesAsTheContentScrolls() throws {
        let stage = try phone()
        let (navigation, list) = showMailboxes(on: stage)
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

    /// The bar's labels showing `text`, the shown ones first.
    private func labels(_ bar: UINavigationBar, _ text: String) -> [UILabel] {
        func all(_ view: UIView) -> [UILabel] { view.subviews.flatMap { ($0 as? UILabel).map { [$0] } ?? all($0) } }
        return all(bar).filter { $0.text == text }
    }

    private func shownScale(_ view: UIView) -> CGFloat { (view.layer.presentation() ?? view.layer).transform.m11 }

    /// Pushing from a large title, it shrinks into the back button as it moves there (the back button
    /// growing out of it); popping back, the back button grows into the large title.
    func testALargeTitleTurnsIntoTheBackButtonAndBack() throws {
        try largeTitleIntoTheBackButton(scale: 1)
        if let look = ProcessInfo.processInfo.environment["SMOKESCREEN_LOOK"] {
            try largeTitleIntoTheBackButton(scale: 2).write(to: look + "/large-title-back-button")
        }
    }

    @discardableResult
    private func largeTitleIntoTheBackButton(scale: CGFloat) throws -> Stage {
        let stage = try phone(scale: scale)
        let (navigation, _) = showMailboxes(on: stage)
        try stage.wait(0.1)
        let bar = navigation.navigationBar
        let large = try XCTUnwrap(labels(bar, "Mailboxes").first)
        let largeFrame = large.convert(large.bounds, to: bar)
        XCTAssertEqual(large.font.pointSize, 34)
        let detail = UIViewController()
        detail.view.backgroundColor = .systemBackground
        detail.title = "Inbox"
        detail.navigationItem.largeTitleDisplayMode = .never
        navigation.pushViewController(detail, animated: true)
        let duration = try XCTUnwrap(navigation.transitionCoordinator?.transitionDuration)
        // At the start: the old large title where it was, at its size; the back button on it, grown to it.
        let ghost = try XCTUnwrap(labels(bar, "Mailboxes").first { $0.font.pointSize == 34 && $0 !== large }, "the old large title")
        let back = try XCTUnwrap(labels(bar, "Mailboxes").first { $0.font.pointSize == 17 })
        XCTAssertEqual(ghost.layer.presentation()!.frame.minX, largeFrame.minX, accuracy: 1e-9)
        XCTAssertEqual(ghost.layer.presentation()!.frame.midY, largeFrame.midY, accuracy: 1e-9)
        XCTAssertEqual(shownScale(back), 2, accuracy: 1e-9, "17 pt grown to 34")
        XCTAssertEqual((back.layer.presentation() ?? back.layer).frame.minX, largeFrame.minX, accuracy: 1e-6, "the back button starts on the large title")
        try stage.wait(duration / 2)
        XCTAssertEqual(shownScale(ghost), 0.75, accuracy: 1e-6, "half way (eased in and out): half the shrink")
        XCTAssertEqual(shownScale(back), 1.5, accuracy: 1e-6)
        XCTAssertEqual(Double(ghost.layer.presentation()!.opacity), 0.5, accuracy: 1e-6)
        try stage.waitUntilIdle()
        XCTAssertNil(ghost.superview, "gone")
        XCTAssertEqual(back.transform, .identity)
        XCTAssertEqual(back.frame.minX, 26, "after the chevron")
        XCTAssertEqual(bar.frame.height, 44)
        // The pop: the back button grows into the large title.
        navigation.popViewController(animated: true)
        let backGhost = try XCTUnwrap(labels(bar, "Mailboxes").first { $0 !== back && $0.textColor == bar.tintColor }, "the old back button")
        XCTAssertEqual(backGhost.layer.presentation()!.frame.minX, 26, accuracy: 1e-9)
        XCTAssertEqual(shownScale(large), 0.5, accuracy: 1e-9, "the large title starts as the back button, at its size")
        try stage.wait(duration / 2)
        XCTAssertEqual(shownScale(backGhost), 1.5, accuracy: 1e-6)
        XCTAssertEqual(shownScale(large), 0.75, accuracy: 1e-6)
        try stage.waitUntilIdle()
        XCTAssertNil(backGhost.superview)
        XCTAssertEqual(large.transform, .identity)
        XCTAssertEqual(large.convert(large.bounds, to: bar), largeFrame, "back in its place")
        XCTAssertEqual(bar.frame.height, 96)
        XCTAssertEqual(stage.notDrawn, [])
        XCTAssertEqual(stage.warnings, [])
        return stage
    }

    /// A pop without animation asked for during a push: the large title is back, whole and opaque.
    func testAnInterruptedMoveLeavesTheLargeTitleWhole() throws {
        let stage = try phone()
        let (navigation, _) = showMailboxes(on: stage)
        try stage.wait(0.1)
        let detail = UIViewController()
        detail.title = "Inbox"
        detail.navigationItem.largeTitleDisplayMode = .never
        navigation.pushViewController(detail, animated: true)
        try stage.wait(0.1)
        // (A pop asked for during the push runs when the push ends, as UIKit's.)
        navigation.popViewController(animated: false)
        try stage.waitUntilIdle()
        let large = try XCTUnwrap(labels(navigation.navigationBar, "Mailboxes").first { $0.font.pointSize == 34 })
        XCTAssertEqual(large.alpha, 1)
        XCTAssertEqual(large.transform, .identity)
        XCTAssertEqual(Double(large.layer.presentation()?.opacity ?? 1), 1, accuracy: 1e-9)
        XCTAssertEqual(navigation.navigationBar.frame.height, 96)
        // A back swipe let go early (cancelled: its slide scrubbed back to the start), then a pop without
        // animation: the large title shows whole again.
        navigation.pushViewController(detail, animated: true)
        try stage.waitUntilIdle()
        try stage.pan(from: CGPoint(x: 5, y: 300), to: CGPoint(x: 60, y: 300), duration: 0.15, releaseVelocity: CGVector(dx: 20, dy: 0))
        try stage.waitUntilIdle()
        XCTAssertTrue(navigation.topViewController === detail, "cancelled")
        navigation.popViewController(animated: false)
        try stage.waitUntilIdle()
        XCTAssertEqual(large.alpha, 1)
        XCTAssertEqual(large.transform, .identity)
        XCTAssertEqual(navigation.navigationBar.frame.height, 96)
    }

    func testAPushToAControllerWithoutALargeTitleShrinksTheBar() throws {
        let stage = try phone(scale: 2)
        let (navigation, _) = showMailboxes(on: stage)
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
