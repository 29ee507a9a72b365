import SmokescreenStage
import XCTest

/// A tab bar delegate that logs, refuses tab `refused`, and fades between tabs when `animates`.
final class LoggingTabDelegate: NSObject, UITabBarControllerDelegate {
    let log: CallLog
    var animates = false
    var refused: UIViewController?

    init(log: CallLog) { self.log = log }

    func tabBarController(_ tabBarController: UITabBarController, shouldSelect viewController: UIViewController) -> Bool {
        log.add("shouldSelect \((viewController as? LoggedController)?.name ?? "?")")
        return viewController !== refused
    }

    func tabBarController(_ tabBarController: UITabBarController, didSelect viewController: UIViewController) {
        log.add("didSelect \((viewController as? LoggedController)?.name ?? "?")")
    }

    func tabBarController(_ tabBarController: UITabBarController, animationControllerForTransitionFrom fromVC: UIViewController,
                          to toVC: UIViewController) -> UIViewControllerAnimatedTransitioning? {
        animates ? FadeAnimator(duration: 0.2, presenting: true, log: log) : nil
    }
}

final class TabBarControllerTests: XCTestCase {
    private var stage: Stage!
    private var log: CallLog!
    private var tabs: UITabBarController!
    private var first: LoggedController!
    private var second: LoggedController!

    override func setUpWithError() throws {
        let device = Device(name: "test", size: CGSize(width: 100, height: 120), scale: 1,
                            safeAreaInsets: UIEdgeInsets(top: 20, left: 0, bottom: 10, right: 0))
        stage = try Stage(device: device, fps: 10, scale: 1)
        log = CallLog()
        first = LoggedController("a", log: log, color: .systemRed)
        first.title = "Inbox"
        second = LoggedController("b", log: log, color: .systemGreen)
        second.tabBarItem = UITabBarItem(title: "Sent", image: nil, tag: 2)
        tabs = UITabBarController()
        tabs.viewControllers = [first, second]
        stage.show(tabs)
        log.entries = []
    }

    func testTheSelectedTabShowsAboveTheBar() throws {
        XCTAssertTrue(first.tabBarController === tabs)
        XCTAssertTrue(tabs.selectedViewController === first)
        XCTAssertEqual(tabs.tabBar.frame, CGRect(x: 0, y: 61, width: 100, height: 59), "49 points above the 10-point safe area")
        XCTAssertEqual(first.view.safeAreaInsets, UIEdgeInsets(top: 20, left: 0, bottom: 59, right: 0))
        XCTAssertNil(second.viewIfLoaded, "a tab's view loads when it is first shown")
        XCTAssertEqual(second.tabBarItem.tag, 2)
    }

    func testSelectingSwitchesAtOnceWithUIKitsCallbacks() throws {
        tabs.selectedIndex = 1
        XCTAssertTrue(second.view.superview != nil)
        XCTAssertNil(first.view.superview)
        XCTAssertEqual(log.withoutLayout, ["b.viewDidLoad", "a.viewWillDisappear(false)", "b.viewWillAppear(false)",
                                           "a.viewDidDisappear(false)", "b.viewDidAppear(false)"])
        tabs.selectedViewController = first
        XCTAssertEqual(tabs.selectedIndex, 0)
    }

    func testATapOnATabAsksTheDelegateAndItsAnimatorRuns() throws {
        let delegate = LoggingTabDelegate(log: log)
        delegate.animates = true
        tabs.delegate = delegate
        try stage.tap(at: CGPoint(x: 75, y: 90))
        XCTAssertEqual(tabs.selectedIndex, 1)
        try stage.wait(0.1)
        XCTAssertEqual(second.view.shownAlpha, 0.25, accuracy: 0.26, "fading in")
        try stage.waitUntilIdle()
        XCTAssertNil(first.view.superview)
        XCTAssertEqual(log.withoutLayout.filter { !$0.hasPrefix("b.viewDidLoad") },
                       ["shouldSelect b", "a.viewWillDisappear(true)", "b.viewWillAppear(true)", "animateTransition", "didSelect b",
                        "a.viewDidDisappear(true)", "b.viewDidAppear(true)", "animationEnded(true)"])
        // A refused tab stays unselected.
        log.entries = []
        delegate.refused = first
        try stage.tap(at: CGPoint(x: 25, y: 90))
        XCTAssertEqual(tabs.selectedIndex, 1)
        XCTAssertEqual(log.entries, ["shouldSelect a"])
    }
}
