import SmokescreenStage
import XCTest

/// A navigation delegate that logs and hands out fade animators for pushes and pops.
final class LoggingNavigationDelegate: NSObject, UINavigationControllerDelegate {
    let log: CallLog
    var animates = false
    private(set) var operations: [UINavigationController.Operation] = []

    init(log: CallLog) { self.log = log }

    func navigationController(_ navigationController: UINavigationController, willShow viewController: UIViewController, animated: Bool) {
        log.add("willShow \((viewController as? LoggedController)?.name ?? "?") animated: \(animated)")
    }

    func navigationController(_ navigationController: UINavigationController, didShow viewController: UIViewController, animated: Bool) {
        log.add("didShow \((viewController as? LoggedController)?.name ?? "?")")
    }

    func navigationController(_ navigationController: UINavigationController, animationControllerFor operation: UINavigationController.Operation,
                              from fromVC: UIViewController, to toVC: UIViewController) -> UIViewControllerAnimatedTransitioning? {
        operations.append(operation)
        return animates ? FadeAnimator(duration: 0.2, presenting: true, log: log) : nil
    }
}

final class NavigationControllerTests: XCTestCase {
    private var stage: Stage!
    private var log: CallLog!
    private var rootController: LoggedController!
    private var navigation: UINavigationController!

    override func setUpWithError() throws {
        let device = Device(name: "test", size: CGSize(width: 100, height: 120), scale: 1,
                            safeAreaInsets: UIEdgeInsets(top: 20, left: 0, bottom: 0, right: 0))
        stage = try Stage(device: device, fps: 10, scale: 1)
        log = CallLog()
        rootController = LoggedController("a", log: log, color: .systemRed)
        rootController.title = "Inbox"
        navigation = UINavigationController(rootViewController: rootController)
        stage.show(navigation)
    }

    func testTheRootAppearsUnderTheBarWithItsSafeArea() throws {
        XCTAssertEqual(log.withoutLayout, ["a.willMove(toParent: parent)", "a.didMove(toParent: parent)", "a.viewDidLoad",
                                           "a.viewWillAppear(false)", "a.viewDidAppear(false)"])
        XCTAssertTrue(rootController.navigationController === navigation)
        XCTAssertEqual(rootController.view.frame, CGRect(x: 0, y: 0, width: 100, height: 120))
        XCTAssertEqual(navigation.navigationBar.frame, CGRect(x: 0, y: 20, width: 100, height: 44))
        XCTAssertEqual(rootController.view.safeAreaInsets, UIEdgeInsets(top: 64, left: 0, bottom: 0, right: 0), "the device's 20 and the bar's 44")
        navigation.setNavigationBarHidden(true, animated: false)
        stage.layOut()
        XCTAssertEqual(rootController.view.safeAreaInsets.top, 20)
        XCTAssertEqual(navigation.navigationBar.frame.maxY, 0)
        rootController.additionalSafeAreaInsets = UIEdgeInsets(top: 5, left: 0, bottom: 8, right: 0)
        XCTAssertEqual(rootController.view.safeAreaInsets, UIEdgeInsets(top: 25, left: 0, bottom: 8, right: 0))
    }

    func testAPushSlidesInWithUIKitsCallbacksInOrder() throws {
        let delegate = LoggingNavigationDelegate(log: log)
        navigation.delegate = delegate
        let detail = LoggedController("b", log: log)
        log.entries = []
        navigation.pushViewController(detail, animated: true)
        XCTAssertTrue(navigation.topViewController === detail, "the stack changes at once")
        XCTAssertEqual(navigation.viewControllers.count, 2)
        XCTAssertTrue(detail.isMovingToParent)
        XCTAssertEqual(delegate.operations, [.push])
        try stage.wait(0.175)
        XCTAssertEqual(detail.view.shownFrame.minX, 50, accuracy: 1e-9, "half of 0.35 s, ease in-out: half the width")
        XCTAssertEqual(rootController.view.shownFrame.minX, -15, accuracy: 1e-9, "the view underneath moves a third as far")
        try stage.waitUntilIdle()
        XCTAssertEqual(stage.time, 0.4, accuracy: 1e-9, "the first tick of the 10 fps clock after the push ends at 0.35 s")
        XCTAssertNil(rootController.view.superview)
        XCTAssertEqual(detail.view.frame, CGRect(x: 0, y: 0, width: 100, height: 120))
        XCTAssertFalse(detail.isMovingToParent)
        XCTAssertEqual(detail.view.safeAreaInsets.top, 64)
        XCTAssertEqual(log.withoutLayout, ["b.willMove(toParent: parent)", "b.viewDidLoad", "willShow b animated: true",
                                           "a.viewWillDisappear(true)", "b.viewWillAppear(true)",
                                           "a.viewDidDisappear(true)", "b.viewDidAppear(true)", "b.didMove(toParent: parent)", "didShow b"])

        log.entries = []
        let popped = navigation.popViewController(animated: true)
        XCTAssertTrue(popped === detail)
        XCTAssertTrue(detail.isMovingFromParent)
        XCTAssertEqual(delegate.operations, [.push, .pop])
        try stage.wait(0.175)
        XCTAssertEqual(detail.view.shownFrame.minX, 50, accuracy: 1e-9)
        XCTAssertEqual(rootController.view.shownFrame.minX, -15, accuracy: 1e-9)
        try stage.waitUntilIdle()
        XCTAssertNil(detail.parent)
        XCTAssertNil(detail.view.superview)
        XCTAssertEqual(rootController.view.frame.minX, 0)
        XCTAssertEqual(log.withoutLayout, ["b.willMove(toParent: nil)", "willShow a animated: true", "b.viewWillDisappear(true)",
                                           "a.viewWillAppear(true)", "b.viewDidDisappear(true)", "a.viewDidAppear(true)",
                                           "b.didMove(toParent: nil)", "didShow a"])
        XCTAssertEqual(stage.warnings, [])
    }

    func testTheDelegatesAnimatorRunsPushesAndPops() throws {
        let delegate = LoggingNavigationDelegate(log: log)
        delegate.animates = true
        navigation.delegate = delegate
        let detail = LoggedController("b", log: log)
        navigation.pushViewController(detail, animated: true)
        try stage.wait(0.1)
        XCTAssertEqual(detail.view.shownAlpha, 0.5, accuracy: 1e-6)
        XCTAssertNotNil(detail.transitionCoordinator)
        try stage.waitUntilIdle()
        XCTAssertEqual(stage.time, 0.2, accuracy: 1e-9)
        XCTAssertTrue(log.entries.contains("animationEnded(true)"))
        XCTAssertNil(rootController.view.superview)
    }

    func testMovesAskedForDuringAMoveWaitForIt() throws {
        let b = LoggedController("b", log: log), c = LoggedController("c", log: log)
        navigation.pushViewController(b, animated: true)
        navigation.pushViewController(c, animated: true)
        XCTAssertEqual(navigation.viewControllers.count, 2, "the second push waits")
        try stage.waitUntilIdle()
        XCTAssertEqual(stage.time, 0.7, accuracy: 1e-9)
        XCTAssertTrue(navigation.topViewController === c)
        XCTAssertEqual(navigation.popToRootViewController(animated: false)?.count, 2)
        XCTAssertTrue(navigation.topViewController === rootController)
        XCTAssertTrue(rootController.view.superview != nil)
        XCTAssertNil(b.parent)
        XCTAssertNil(navigation.popViewController(animated: true), "nothing to pop at the root")
        // The same controller twice is refused with UIKit's message.
        navigation.pushViewController(rootController, animated: false)
        XCTAssertEqual(stage.warnings.count, 1)
        XCTAssertTrue(stage.warnings.first?.hasPrefix("Pushing the same view controller instance") == true)
    }

    func testSettingTheStackShowsTheNewTop() throws {
        let b = LoggedController("b", log: log), c = LoggedController("c", log: log)
        navigation.setViewControllers([rootController, b, c], animated: false)
        XCTAssertTrue(c.view.superview != nil)
        XCTAssertNil(rootController.view.superview)
        XCTAssertTrue(b.parent === navigation)
        XCTAssertEqual(navigation.popToViewController(rootController, animated: true)?.count, 2)
        try stage.waitUntilIdle()
        XCTAssertNil(b.parent)
        XCTAssertNil(c.parent)
        XCTAssertTrue(rootController.view.superview != nil)
    }

    func testTheBarShowsTheTitleAndABackButtonInTheTint() throws {
        let detail = LoggedController("b", log: log, color: .white)
        detail.title = "Message"
        navigation.pushViewController(detail, animated: false)
        try stage.wait(0)
        let frame = try stage.bitmap(ofFrame: stage.frameCount - 1)
        // The back chevron (systemBlue) at the bar's left, vertically centred on the bar.
        var blue = 0
        for y in 20..<64 { for x in 0..<30 where frame.rgba(x, y) == [0, 122, 255, 255] { blue += 1 } }
        XCTAssertGreaterThan(blue, 10, "the chevron and the back title in the tint")
        var dark = 0
        for y in 20..<64 { for x in 30..<100 where frame.rgba(x, y)[0] < 100 { dark += 1 } }
        XCTAssertGreaterThan(dark, 10, "the title in the label colour")
    }

    func testTheNavigationControllersOwnCoordinatorAndAPushFromViewDidAppear() throws {
        final class PushingController: LoggedController {
            var following: UIViewController?
            override func viewDidAppear(_ animated: Bool) {
                super.viewDidAppear(animated)
                if let following { self.following = nil; navigationController?.pushViewController(following, animated: true) }
            }
        }
        let delegate = LoggingNavigationDelegate(log: log)
        navigation.delegate = delegate
        let b = PushingController("b", log: log), c = LoggedController("c", log: log)
        b.following = c
        log.entries = []
        navigation.pushViewController(b, animated: true)
        XCTAssertNotNil(navigation.transitionCoordinator, "the navigation controller's own coordinator during its push")
        try stage.waitUntilIdle()
        XCTAssertTrue(navigation.topViewController === c)
        let shows = log.entries.filter { $0.hasPrefix("didShow") || $0.hasSuffix("didMove(toParent: parent)") }
        XCTAssertEqual(shows, ["b.didMove(toParent: parent)", "didShow b", "c.didMove(toParent: parent)", "didShow c"],
                       "the push made in viewDidAppear waits for the first to end")
        XCTAssertTrue(navigation.visibleViewController === c)
    }

    func testAControllerIsFreedAfterItsInteractivePop() throws {
        weak var popped: LoggedController?
        do {
            let detail = LoggedController("b", log: log)
            popped = detail
            navigation.pushViewController(detail, animated: false)
            navigation.popViewController(animated: true)
            try stage.waitUntilIdle()
        }
        XCTAssertNil(popped, "nothing keeps a popped controller")
    }
}
