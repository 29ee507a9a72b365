import RasterCore
import SmokescreenStage
import SmokescreenStageTesting
import XCTest

/// `UIToolbar` and a navigation controller's toolbar: items placed from the margins with flexible and
/// fixed spaces, the system items drawn as symbols, the toolbar over the safe area's bottom.
final class ToolbarTests: XCTestCase {
    final class Receiver: NSObject {
        var taps = 0
        func tapped() { taps += 1 }
    }

    func testItemsArePlacedFromTheMarginsAndSpacesShareWhatIsLeft() throws {
        let toolbar = UIToolbar(frame: CGRect(x: 0, y: 0, width: 390, height: 44))
        let receiver = Receiver()
        let trash = UIBarButtonItem(barButtonSystemItem: .trash, target: receiver, action: Selector(Receiver.tapped))
        let compose = UIBarButtonItem(barButtonSystemItem: .compose, target: nil, action: nil)
        toolbar.items = [trash, .flexibleSpace(), UIBarButtonItem(title: "Edit", style: .plain, target: nil, action: nil), .flexibleSpace(), compose]
        toolbar.layoutIfNeeded()
        let buttons = toolbar.subviews.compactMap { $0 as? UIButton }
        XCTAssertEqual(buttons.count, 3)
        XCTAssertEqual(buttons[0].frame.minX, 16, "from the system margin")
        XCTAssertEqual(buttons[2].frame.maxX, 390 - 16, accuracy: 0.001)
        XCTAssertEqual(buttons[1].frame.minX - buttons[0].frame.maxX, buttons[2].frame.minX - buttons[1].frame.maxX, accuracy: 0.001,
                       "the two flexible spaces share what is left")
        XCTAssertEqual(buttons[0].currentImage?.symbolName, "trash")
        XCTAssertEqual(buttons[2].currentImage?.symbolName, "square.and.pencil")
        XCTAssertEqual(toolbar.sizeThatFits(CGSize(width: 390, height: 0)).height, 44)
        // A fixed space takes its width.
        toolbar.items = [trash, .fixedSpace(30), compose]
        toolbar.layoutIfNeeded()
        let packed = toolbar.subviews.compactMap { $0 as? UIButton }
        XCTAssertEqual(packed[1].frame.minX, packed[0].frame.maxX + 30, accuracy: 0.001)
        // Pushed to the end by a flexible space, two items 8 points apart end at the margin.
        toolbar.items = [.flexibleSpace(), trash, compose]
        toolbar.layoutIfNeeded()
        let end = toolbar.subviews.compactMap { $0 as? UIButton }
        XCTAssertEqual(end[1].frame.maxX, 390 - 16, accuracy: 0.001)
        XCTAssertEqual(end[1].frame.minX - end[0].frame.maxX, 8, accuracy: 0.001)
    }

    func testANavigationControllersToolbarShowsTheTopControllersItems() throws {
        let stage = try Stage(device: Device(name: "phone", size: CGSize(width: 390, height: 844), scale: 1, safeAreaInsets: UIEdgeInsets(top: 47, left: 0, bottom: 34, right: 0)),
                              fps: 30, appearance: .light)
        let receiver = Receiver()
        let first = UIViewController()
        first.view.backgroundColor = .systemBackground
        first.title = "Notes"
        first.toolbarItems = [.flexibleSpace(), UIBarButtonItem(barButtonSystemItem: .compose, target: receiver, action: Selector(Receiver.tapped))]
        let navigation = UINavigationController(rootViewController: first)
        XCTAssertTrue(navigation.isToolbarHidden, "hidden by default")
        navigation.isToolbarHidden = false
        stage.show(navigation)
        try stage.wait(0)
        let toolbar = try XCTUnwrap(navigation.toolbar)
        XCTAssertEqual(toolbar.frame, CGRect(x: 0, y: 844 - 34 - 44, width: 390, height: 44), "on the safe area's bottom")
        XCTAssertEqual(first.view.safeAreaInsets.bottom, 34 + 44, "the content's safe area above it")
        try IOSParityTests.keep(try stage.bitmap(ofFrame: stage.frameCount - 1), name: "toolbar.png")
        let compose = try XCTUnwrap(toolbar.subviews.compactMap { $0 as? UIButton }.first)
        let centre = compose.convert(CGPoint(x: compose.bounds.midX, y: compose.bounds.midY), to: nil)
        try stage.tap(at: centre)
        XCTAssertEqual(receiver.taps, 1)
        // A pushed controller's items replace them; hiding slides the toolbar away.
        let second = UIViewController()
        second.view.backgroundColor = .systemBackground
        second.toolbarItems = [UIBarButtonItem(barButtonSystemItem: .action, target: nil, action: nil)]
        navigation.pushViewController(second, animated: true)
        try stage.waitUntilIdle()
        XCTAssertEqual(toolbar.subviews.compactMap { ($0 as? UIButton)?.currentImage?.symbolName }, ["square.and.arrow.up"])
        navigation.setToolbarHidden(true, animated: true)
        try stage.waitUntilIdle()
        XCTAssertEqual(toolbar.frame.minY, 844)
        XCTAssertEqual(second.view.safeAreaInsets.bottom, 34)
    }
}
