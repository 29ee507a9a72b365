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

    /// The back swipe follows the finger, pops when released past half way or thrown right, and puts the
    /// detail back when released short.
    func testTheBackSwipeFollowsTheFingerThenPopsOrCancels() throws {
        let detail = LoggedController("b", log: log, color: .systemBlue)
        navigation.pushViewController(detail, animated: false)
        try stage.wait(0.1)
        // Released at a fifth of the width, not thrown: back where it was.
        try stage.pan(from: CGPoint(x: 2, y: 60), to: CGPoint(x: 22, y: 60), duration: 0.3, releaseVelocity: .zero)
        try stage.waitUntilIdle()
        XCTAssertTrue(navigation.topViewController === detail)
        XCTAssertEqual(navigation.viewControllers.count, 2)
        // Followed by the finger, then released past half way: popped.
        try stage.touchDown(at: CGPoint(x: 2, y: 60))
        try stage.moveTouch(to: CGPoint(x: 42, y: 60), duration: 0.3)
        // The slide is scrubbed along its own timing curve (UIKit's percent-driven rule), so the detail is
        // part of the way, and further when the finger is.
        let first = try XCTUnwrap(detail.view.layer.presentation()?.frame.minX)
        XCTAssertGreaterThan(first, 10)
        XCTAssertLessThan(first, 50)
        try stage.moveTouch(to: CGPoint(x: 72, y: 60), duration: 0.2)
        let second = try XCTUnwrap(detail.view.layer.presentation()?.frame.minX)
        XCTAssertGreaterThan(second, first + 20)
        stage.liftTouch(velocity: .zero)
        try stage.waitUntilIdle()
        XCTAssertTrue(navigation.topViewController === rootController)
        XCTAssertFalse(navigation.interactivePopGestureRecognizer?.isEnabled == false)
        // Turned off, the swipe does nothing.
        navigation.pushViewController(LoggedController("c", log: log, color: .systemGreen), animated: false)
        if let look = ProcessInfo.processInfo.environment["SMOKESCREEN_LOOK"] {
            let big = try Stage(device: Device(name: "phone", size: CGSize(width: 180, height: 320), scale: 2,
                                               safeAreaInsets: UIEdgeInsets(top: 20, left: 0, bottom: 0, right: 0)), fps: 30)
            let list = InboxViewController(style: .plain)
            let nav = UINavigationController(rootViewController: list)
            big.show(nav)
            try big.wait(0.1)
            nav.pushViewController(MessageViewController(message: list.messages[0]), animated: false)
            try big.wait(0.1)
            try big.pan(from: CGPoint(x: 2, y: 160), to: CGPoint(x: 120, y: 160), duration: 0.6, releaseVelocity: CGVector(dx: 200, dy: 0))
            try big.waitUntilIdle()
            try big.write(to: look + "/back-swipe")
        }
        navigation.interactivePopGestureRecognizer?.isEnabled = false
        try stage.pan(from: CGPoint(x: 2, y: 60), to: CGPoint(x: 90, y: 60), duration: 0.3, releaseVelocity: CGVector(dx: 800, dy: 0))
        try stage.waitUntilIdle()
        XCTAssertEqual(navigation.viewControllers.count, 2)
    }
}
