import RasterCore
import SmokescreenStage
import XCTest

/// `UIBarButtonItem` in a navigation bar: placed at the ends from the system margin, the title between,
/// the back button replaced unless supplemented, and a tap running the item's action or primary action.
final class BarButtonItemTests: XCTestCase {
    final class Recorder: NSObject {
        var calls: [String] = []
        func add() { calls.append("add") }
    }

    func testItemsSitAtTheEndsAndActWhenTapped() throws {
        let stage = try Stage(device: .iPhoneSE, fps: 10, scale: 1)
        let recorder = Recorder()
        let root = UIViewController()
        root.title = "Notes"
        root.navigationItem.leftBarButtonItem = UIBarButtonItem(barButtonSystemItem: .add, target: recorder,
                                                                action: Selector(Recorder.add, name: "add"))
        root.navigationItem.rightBarButtonItem = UIBarButtonItem(title: "Done", primaryAction: UIAction { _ in recorder.calls.append("done") })
        let navigation = UINavigationController(rootViewController: root)
        stage.show(navigation)
        let bar = navigation.navigationBar
        // The plus: a 22-pt box from the 16-pt margin, centred down the bar.
        let plus = try XCTUnwrap(bar.subviews.first { $0 is UIButton && $0.frame.minX == 16 })
        XCTAssertEqual(plus.frame, CGRect(x: 16, y: 11, width: 22, height: 22))
        let done = try XCTUnwrap(bar.subviews.compactMap { $0 as? UIButton }.first { $0.currentTitle == "Done" })
        XCTAssertEqual(done.frame.maxX, 375 - 16, accuracy: 0.5)
        XCTAssertEqual(done.titleLabel?.font.pointSize, 17)
        try stage.tap(at: bar.convert(CGPoint(x: plus.frame.midX, y: plus.frame.midY), to: nil))
        try stage.tap(at: bar.convert(CGPoint(x: done.frame.midX, y: done.frame.midY), to: nil))
        try stage.wait(0.5)
        XCTAssertEqual(recorder.calls, ["add", "done"])
    }

    func testLeftItemsReplaceTheBackButtonUnlessTheySupplementIt() throws {
        let stage = try Stage(device: .iPhoneSE, fps: 10, scale: 1)
        let first = UIViewController(), second = UIViewController()
        first.title = "Inbox"
        second.navigationItem.leftBarButtonItem = UIBarButtonItem(title: "Close", style: .plain, target: nil, action: nil)
        let navigation = UINavigationController(rootViewController: first)
        stage.show(navigation)
        navigation.pushViewController(second, animated: false)
        stage.layOut()
        let bar = navigation.navigationBar
        func shown(_ text: String) -> Bool {
            bar.subviews.contains { ($0 as? UILabel)?.text == text && !$0.isHidden } || bar.subviews.contains { ($0 as? UIButton)?.currentTitle == text }
        }
        XCTAssertTrue(shown("Close"))
        XCTAssertFalse(shown("Inbox"), "the back button is replaced")
        second.navigationItem.leftItemsSupplementBackButton = true
        XCTAssertTrue(shown("Inbox"), "and shown again beside the item")
        XCTAssertTrue(shown("Close"))
        let close = try XCTUnwrap(bar.subviews.compactMap { $0 as? UIButton }.first { $0.currentTitle == "Close" })
        XCTAssertGreaterThan(close.frame.minX, 26, "after the back button")
    }

    func testSystemItemsHaveTheirTitlesAndSymbolsTheirShapes() throws {
        XCTAssertEqual(UIBarButtonItem(barButtonSystemItem: .done, target: nil, action: nil).title, "Done")
        XCTAssertEqual(UIBarButtonItem(barButtonSystemItem: .done, target: nil, action: nil).style, .done)
        XCTAssertEqual(UIBarButtonItem(barButtonSystemItem: .cancel, target: nil, action: nil).title, "Cancel")
        XCTAssertEqual(UIBarButtonItem.SystemItem.close.rawValue, 24, "Apple's raw values")
        XCTAssertNotNil(UIBarButtonItem.symbolShape(.add))
        XCTAssertNil(UIBarButtonItem.symbolShape(.camera))
        XCTAssertEqual(UIBarButtonItem.symbolName(.camera), "camera", "drawn as its symbol's name")
        let stage = try Stage(device: .iPhoneSE, fps: 10, scale: 1)
        _ = UIBarButtonItem(barButtonSystemItem: .camera, target: nil, action: nil)
        XCTAssertEqual(stage.notDrawn, [])
        _ = UIBarButtonItem(barButtonSystemItem: .pageCurl, target: nil, action: nil)
        XCTAssertTrue(stage.notDrawn.contains { $0.contains("pageCurl") }, "\(stage.notDrawn)")
    }
}

/// Menus (`UIMenu`, `UIAction`'s menu attributes, `menu:` on buttons and bar items): code that builds them
/// compiles and keeps them; a tap that would show one is noted, not drawn.
final class MenuTests: XCTestCase {
    func testMenusAreKeptAndATapThatWouldShowOneIsNoted() throws {
        let stage = try makeStage(width: 100, height: 60)
        var chose: [String] = []
        let sort = UIMenu(title: "Sort", options: .singleSelection, children: [
            UIAction(title: "Date", state: .on) { _ in chose.append("date") },
            UIAction(title: "Name", image: UIImage(systemName: "textformat")) { _ in chose.append("name") },
        ])
        let menu = UIMenu(title: "Options", children: [sort, UIAction(title: "Delete", attributes: .destructive) { _ in chose.append("delete") }])
        XCTAssertEqual(menu.allActions.map(\.title), ["Date", "Name", "Delete"])
        XCTAssertEqual((menu.children[1] as? UIAction)?.attributes, .destructive)
        XCTAssertEqual(UIMenu.Options.singleSelection.rawValue, 32, "Apple's raw values")
        XCTAssertEqual(menu.replacingChildren([]).children.count, 0)
        let button = UIButton(type: .system)
        button.setTitle("More", for: .normal)
        button.menu = menu
        button.showsMenuAsPrimaryAction = true
        var sent = 0
        button.addAction(UIAction { _ in sent += 1 }, for: .primaryActionTriggered)
        button.frame = CGRect(x: 0, y: 0, width: 100, height: 60)
        stage.window.addSubview(button)
        try stage.tap(at: CGPoint(x: 50, y: 30))
        XCTAssertEqual(sent, 0, "the menu instead of the action")
        XCTAssertTrue(stage.notDrawn.contains { $0.contains("UIMenu \"Options\"") }, "\(stage.notDrawn)")
        let item = UIBarButtonItem(title: "Sort", image: nil, primaryAction: nil, menu: sort)
        XCTAssertTrue(item.menu === sort)
        XCTAssertEqual(chose, [])
        _ = UIDeferredMenuElement.uncached { completion in completion([]) }
    }
}
