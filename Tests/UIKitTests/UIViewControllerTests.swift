import SmokescreenStage
import XCTest

/// A controller that logs its callbacks.
class LoggingController: UIViewController {
    var log: [String] = []
    let label: String

    init(_ label: String) {
        self.label = label
        super.init(nibName: nil, bundle: nil)
    }

    required init?(coder: NSCoder) { nil }

    override func loadView() { log.append("\(label).loadView"); super.loadView() }
    override func viewDidLoad() { log.append("\(label).viewDidLoad") }
    override func viewWillAppear(_ animated: Bool) { log.append("\(label).viewWillAppear") }
    override func viewDidAppear(_ animated: Bool) { log.append("\(label).viewDidAppear") }
    override func viewWillDisappear(_ animated: Bool) { log.append("\(label).viewWillDisappear") }
    override func viewDidDisappear(_ animated: Bool) { log.append("\(label).viewDidDisappear") }
    override func viewWillLayoutSubviews() { log.append("\(label).viewWillLayoutSubviews") }
    override func viewDidLayoutSubviews() { log.append("\(label).viewDidLayoutSubviews") }
    override func willMove(toParent parent: UIViewController?) { log.append("\(label).willMove(toParent: \(parent == nil ? "nil" : "parent"))") }
    override func didMove(toParent parent: UIViewController?) { log.append("\(label).didMove(toParent: \(parent == nil ? "nil" : "parent"))") }
}

final class UIViewControllerTests: XCTestCase {
    func testTheViewLoadsOnFirstUse() {
        let controller = LoggingController("a")
        XCTAssertFalse(controller.isViewLoaded)
        XCTAssertNil(controller.viewIfLoaded)
        _ = controller.view
        _ = controller.view
        XCTAssertEqual(controller.log, ["a.loadView", "a.viewDidLoad"])
        XCTAssertTrue(controller.view.next === controller)
    }

    func testARootControllerLoadsAppearsAndLaysOutInUIKitsOrder() throws {
        let stage = try makeStage()
        let controller = LoggingController("root")
        stage.show(controller)
        XCTAssertEqual(controller.log, ["root.loadView", "root.viewDidLoad", "root.viewWillAppear", "root.viewWillLayoutSubviews",
                                        "root.viewDidLayoutSubviews", "root.viewDidAppear"])
        XCTAssertEqual(controller.view.frame, stage.window.bounds)
        XCTAssertTrue(controller.view.superview === stage.window)
        // Replacing the root: the old one disappears, the new one appears.
        let next = LoggingController("next")
        controller.log = []
        stage.window.rootViewController = next
        XCTAssertEqual(controller.log, ["root.viewWillDisappear", "root.viewDidDisappear"])
        XCTAssertEqual(next.log, ["next.loadView", "next.viewDidLoad", "next.viewWillAppear"])
        stage.layOut()
        XCTAssertEqual(next.log.last, "next.viewDidAppear")
    }

    func testChildrenAreContainedAndAppearWithTheirParent() throws {
        let stage = try makeStage()
        let parent = LoggingController("parent"), child = LoggingController("child")
        stage.show(parent)
        parent.log = []
        parent.addChild(child)
        parent.view.addSubview(child.view)
        child.didMove(toParent: parent)
        XCTAssertEqual(child.log, ["child.willMove(toParent: parent)", "child.loadView", "child.viewDidLoad", "child.viewWillAppear",
                                   "child.viewDidAppear", "child.didMove(toParent: parent)"])
        XCTAssertTrue(child.parent === parent)
        XCTAssertEqual(parent.children.count, 1)
        // Removing, as UIKit's containment asks: willMove(nil), remove the view, removeFromParent.
        child.log = []
        child.willMove(toParent: nil)
        child.view.removeFromSuperview()
        child.removeFromParent()
        XCTAssertEqual(child.log, ["child.willMove(toParent: nil)", "child.viewWillDisappear", "child.viewDidDisappear",
                                   "child.didMove(toParent: nil)"])
        XCTAssertTrue(parent.children.isEmpty)
        XCTAssertNil(child.parent)
    }

    func testAChildWhoseViewMovesWithItsParentsAppearsOnce() throws {
        let stage = try makeStage()
        let root = LoggingController("root"), parent = LoggingController("parent"), child = LoggingController("child")
        parent.addChild(child)
        parent.view.addSubview(child.view)
        child.didMove(toParent: parent)
        stage.show(root)
        child.log = []
        root.view.addSubview(parent.view)
        XCTAssertEqual(child.log, ["child.viewWillAppear", "child.viewDidAppear"])
        child.log = []
        parent.view.removeFromSuperview()
        XCTAssertEqual(child.log, ["child.viewWillDisappear", "child.viewDidDisappear"])
    }

    func testAppearanceTransitionsThatChangeNothingAreIgnored() {
        let controller = LoggingController("a")
        controller.beginAppearanceTransition(false, animated: true)   // already gone
        controller.endAppearanceTransition()
        XCTAssertEqual(controller.log, [])
        controller.beginAppearanceTransition(true, animated: true)
        controller.beginAppearanceTransition(true, animated: true)
        controller.endAppearanceTransition()
        controller.endAppearanceTransition()
        XCTAssertEqual(controller.log, ["a.viewWillAppear", "a.viewDidAppear"])
    }

    /// Code written for storyboards compiles: a segue asked for is logged with UIKit's message and not
    /// performed; one made in code performs its handler.
    func testSeguesAreLoggedWithoutStoryboardsAndACodeSeguePerforms() throws {
        let stage = try makeStage()
        final class Source: UIViewController {
            var prepared = 0
            override func prepare(for segue: UIStoryboardSegue, sender: Any?) { prepared += 1 }
        }
        let source = Source()
        stage.show(source)
        source.performSegue(withIdentifier: "detail", sender: nil)
        XCTAssertEqual(source.prepared, 0)
        XCTAssertEqual(stage.warnings.count, 1)
        XCTAssertTrue(stage.warnings[0].hasSuffix("has no segue with identifier 'detail' (there are no storyboards here)"), stage.warnings[0])
        var performed = false
        let segue = UIStoryboardSegue(identifier: "code", source: source, destination: UIViewController()) { performed = true }
        segue.perform()
        XCTAssertTrue(performed)
        XCTAssertEqual(segue.identifier, "code")
    }
}
