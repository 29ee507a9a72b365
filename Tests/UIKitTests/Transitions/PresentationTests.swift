import SmokescreenStage
import XCTest

final class PresentationTests: XCTestCase {
    private var stage: Stage!
    private var log: CallLog!
    private var root: LoggedController!

    override func setUpWithError() throws {
        stage = try makeStage(width: 40, height: 60)
        log = CallLog()
        root = LoggedController("a", log: log, color: .systemRed)
        stage.show(root)
        log.entries = []
    }

    func testACustomAnimatorRunsWithUIKitsCallbacksInOrder() throws {
        let transitions = FadeTransitions(log: log)
        let presented = LoggedController("b", log: log)
        presented.modalPresentationStyle = .fullScreen
        presented.transitioningDelegate = transitions
        var completedAt: Double?
        root.present(presented, animated: true) { self.log.add("completion"); completedAt = self.stage.time }
        XCTAssertTrue(root.presentedViewController === presented)
        XCTAssertTrue(presented.presentingViewController === root)
        XCTAssertTrue(presented.isBeingPresented)
        let context = try XCTUnwrap(transitions.presentAnimator?.context)
        XCTAssertTrue(context.view(forKey: .from) === root.view, "full screen: the presenting view takes part")
        XCTAssertTrue(context.view(forKey: .to) === presented.view)
        XCTAssertTrue(context.viewController(forKey: .from) === root)
        XCTAssertEqual(context.finalFrame(for: presented), stage.window.bounds)
        XCTAssertEqual(context.initialFrame(for: root), stage.window.bounds)
        XCTAssertEqual(context.initialFrame(for: presented), .zero)
        XCTAssertTrue(context.isAnimated)
        XCTAssertFalse(context.isInteractive)
        XCTAssertEqual(context.presentationStyle, .fullScreen)
        XCTAssertNotNil(presented.transitionCoordinator)

        try stage.wait(0.2)
        XCTAssertEqual(presented.view.shownAlpha, 0.5, accuracy: 1e-6, "linear fade half way")
        XCTAssertTrue(root.view.superview === stage.window, "the presenting view stays until the end")
        try stage.waitUntilIdle()
        XCTAssertEqual(completedAt, 0.4)
        XCTAssertNil(root.view.superview, "a full-screen presentation takes the presenting view off the screen")
        XCTAssertTrue(presented.view.window === stage.window)
        XCTAssertFalse(presented.isBeingPresented)
        XCTAssertNil(presented.transitionCoordinator)
        XCTAssertEqual(log.withoutLayout, ["b.viewDidLoad", "a.viewWillDisappear(true)", "b.viewWillAppear(true)", "animateTransition",
                                           "a.viewDidDisappear(true)", "b.viewDidAppear(true)", "animationEnded(true)", "completion"])
        XCTAssertEqual(stage.warnings, [])

        // Dismissed from the presented controller: the fade out, the presenting view back beneath.
        log.entries = []
        presented.dismiss(animated: true) { self.log.add("dismissed") }
        XCTAssertTrue(presented.isBeingDismissed)
        XCTAssertTrue(root.view.superview === stage.window, "back beneath the container for the dismissal")
        try stage.wait(0.1)
        XCTAssertEqual(presented.view.shownAlpha, 0.75, accuracy: 1e-6)
        try stage.waitUntilIdle()
        XCTAssertEqual(stage.time, 0.8, accuracy: 1e-9)
        XCTAssertNil(root.presentedViewController)
        XCTAssertNil(presented.presentingViewController)
        XCTAssertNil(presented.view.superview)
        XCTAssertEqual(stage.window.subviews.count, 1, "the container is gone")
        XCTAssertTrue(stage.window.subviews.first === root.view)
        XCTAssertEqual(log.withoutLayout, ["b.viewWillDisappear(true)", "a.viewWillAppear(true)", "animateTransition",
                                           "b.viewDidDisappear(true)", "a.viewDidAppear(true)", "animationEnded(true)", "dismissed"])
    }

    func testACustomPresentationKeepsThePresenterAndAnimatesAlongside() throws {
        let transitions = FadeTransitions(log: log)
        transitions.presentationControllerClass = DimmingPresentationController.self
        let presented = LoggedController("b", log: log)
        presented.modalPresentationStyle = .custom
        presented.transitioningDelegate = transitions
        root.present(presented, animated: true)
        let context = try XCTUnwrap(transitions.presentAnimator?.context)
        XCTAssertNil(context.view(forKey: .from), "a custom presentation that keeps the presenting view does not hand it out")
        XCTAssertEqual(context.finalFrame(for: presented), CGRect(x: 0, y: 30, width: 40, height: 30))
        let dimming = try XCTUnwrap((presented.presentationController as? DimmingPresentationController)?.dimmingView)
        try stage.wait(0.2)
        XCTAssertEqual(dimming.shownAlpha, 0.25, accuracy: 1e-6, "alongside: ease in-out over the transition's 0.4 s, half way")
        try stage.waitUntilIdle()
        XCTAssertTrue(root.view.superview === stage.window, "kept beneath")
        XCTAssertEqual(dimming.alpha, 0.5)
        XCTAssertEqual(log.withoutLayout.filter { !$0.hasPrefix("containerView") },
                       ["b.viewDidLoad", "b.viewWillAppear(true)", "presentationTransitionWillBegin", "animateTransition",
                        "presentationTransitionDidEnd(true)", "b.viewDidAppear(true)", "alongside completion (cancelled: false)",
                        "animationEnded(true)"], "the presenting controller gets no appearance callbacks")
        XCTAssertTrue(log.entries.contains("containerViewWillLayoutSubviews"))
        // A frame shows the red presenter dimmed above and the blue presented view below.
        let last = try stage.bitmap(ofFrame: stage.frameCount - 1)
        let dimmed = last.rgba(20, 10)
        // systemRed (255, 59, 48) under 50 % black: 127.5, 29.5, 24 and opaque, within a level of rounding.
        for (shown, expected) in zip(dimmed, [127.5, 29.5, 24, 255]) { XCTAssertEqual(Double(shown), expected, accuracy: 0.5) }
        XCTAssertEqual(last.rgba(20, 50), [0, 122, 255, 255])

        log.entries = []
        presented.dismiss(animated: true)
        try stage.wait(0.2)
        XCTAssertEqual(dimming.shownAlpha, 0.25, accuracy: 1e-6)
        try stage.waitUntilIdle()
        XCTAssertNil(dimming.superview)
        XCTAssertEqual(log.withoutLayout.filter { !$0.hasPrefix("containerView") },
                       ["b.viewWillDisappear(true)", "dismissalTransitionWillBegin", "animateTransition", "dismissalTransitionDidEnd(true)",
                        "b.viewDidDisappear(true)", "animationEnded(true)"])
    }

    func testTheDefaultCoverVerticalSlidesUpAndBackDown() throws {
        let presented = LoggedController("b", log: log)
        presented.modalPresentationStyle = .fullScreen
        root.present(presented, animated: true)
        try stage.wait(0.25)
        XCTAssertEqual(presented.view.shownFrame.minY, 30, accuracy: 1e-9, "half of 0.5 s, ease in-out: half the height")
        try stage.waitUntilIdle()
        XCTAssertEqual(stage.time, 0.5, accuracy: 1e-9)
        XCTAssertEqual(presented.view.frame, stage.window.bounds)
        presented.dismiss(animated: true)
        try stage.wait(0.25)
        XCTAssertEqual(presented.view.shownFrame.minY, 30, accuracy: 1e-9)
        try stage.waitUntilIdle()
        XCTAssertNil(presented.view.superview)
        XCTAssertEqual(stage.notDrawn, [])
    }

    func testCrossDissolveOfTheAutomaticStyleIsAPageSheetThatFades() throws {
        let presented = LoggedController("b", log: log)
        presented.modalTransitionStyle = .crossDissolve
        root.present(presented, animated: true)
        try stage.wait(0.175)
        XCTAssertEqual(presented.view.shownAlpha, 0.5, accuracy: 1e-6)
        try stage.waitUntilIdle()
        XCTAssertTrue(presented.presentationController is UISheetPresentationController, "a plain controller's .automatic is a page sheet")
        XCTAssertNotNil(root.view.window, "the presenting view stays")
        XCTAssertEqual(stage.notDrawn, [])
    }

    func testWithoutAnimationEverythingHappensAtOnce() throws {
        let transitions = FadeTransitions(log: log)
        let presented = LoggedController("b", log: log)
        presented.transitioningDelegate = transitions
        presented.modalPresentationStyle = .overFullScreen
        var completed = false
        root.present(presented, animated: false) { completed = true }
        XCTAssertTrue(completed)
        XCTAssertNil(transitions.presentAnimator, "no animator is asked for")
        XCTAssertEqual(presented.view.frame, stage.window.bounds)
        XCTAssertTrue(root.view.superview === stage.window, "over full screen keeps the presenting view")
        XCTAssertEqual(log.withoutLayout, ["b.viewDidLoad", "b.viewWillAppear(false)", "b.viewDidAppear(false)"])
        root.dismiss(animated: false)
        XCTAssertNil(presented.view.superview)
        XCTAssertNil(root.presentedViewController)
        XCTAssertEqual(stage.runningTransitions, [])
    }

    func testWhatUIKitRefusesIsRefusedWithItsMessage() throws {
        let first = LoggedController("b", log: log)
        root.present(first, animated: false)
        root.present(LoggedController("c", log: log), animated: false)
        let outside = LoggedController("d", log: log)
        outside.present(LoggedController("e", log: log), animated: false)
        first.present(root, animated: false)
        XCTAssertEqual(stage.warnings.count, 3, "\(stage.warnings)")
        guard stage.warnings.count == 3 else { return }
        XCTAssertTrue(stage.warnings[0].hasPrefix("Attempt to present <LoggedController> on <LoggedController> which is already presenting"))
        XCTAssertTrue(stage.warnings[1].hasSuffix("whose view is not in the window hierarchy"))
        XCTAssertTrue(stage.warnings[2].contains("already presented"))
        // Dismissing when nothing is presented does nothing.
        LoggedController("f", log: log).dismiss(animated: true)
        XCTAssertEqual(stage.runningTransitions, [])
    }

    func testAnAnimatorThatNeverCompletesIsReportedNotWaitedFor() throws {
        let transitions = FadeTransitions(log: log)
        let presented = LoggedController("b", log: log)
        presented.transitioningDelegate = transitions
        presented.modalPresentationStyle = .fullScreen
        root.present(presented, animated: true)
        transitions.presentAnimator?.completes = false
        XCTAssertThrowsError(try stage.waitUntilIdle()) { error in
            XCTAssertEqual(error as? StageError, .transitionNeverCompleted(["presentation of LoggedController from LoggedController, started at 0.0 s"]))
            XCTAssertTrue("\(error)".contains("never called completeTransition(_:)"))
        }
        XCTAssertEqual(stage.time, 0.4, accuracy: 1e-9, "it waited while the fade ran, and no longer")
    }

    func testACancelledPresentationPutsEverythingBack() throws {
        let transitions = FadeTransitions(log: log)
        let presented = LoggedController("b", log: log)
        presented.transitioningDelegate = transitions
        presented.modalPresentationStyle = .fullScreen
        root.present(presented, animated: true) { self.log.add("completion") }
        transitions.presentAnimator?.cancels = true
        try stage.waitUntilIdle()
        XCTAssertNil(root.presentedViewController)
        XCTAssertNil(presented.view.superview)
        XCTAssertTrue(root.view.superview === stage.window)
        XCTAssertEqual(stage.window.subviews.count, 1)
        XCTAssertEqual(log.withoutLayout, ["b.viewDidLoad", "a.viewWillDisappear(true)", "b.viewWillAppear(true)", "animateTransition",
                                           "b.viewWillDisappear(true)", "b.viewDidDisappear(true)", "a.viewWillAppear(true)", "a.viewDidAppear(true)",
                                           "animationEnded(false)", "completion"])
        XCTAssertTrue(try XCTUnwrap(transitions.presentAnimator?.context).transitionWasCancelled)
    }

    func testDismissingFromTheBottomTakesTheWholeStack() throws {
        let b = LoggedController("b", log: log), c = LoggedController("c", log: log), d = LoggedController("d", log: log)
        root.present(b, animated: false)
        b.present(c, animated: false)
        c.present(d, animated: false)
        root.dismiss(animated: true)
        try stage.waitUntilIdle()
        XCTAssertNil(root.presentedViewController)
        XCTAssertNil(b.presentedViewController)
        XCTAssertNil(c.presentedViewController)
        XCTAssertEqual(stage.window.subviews.count, 1, "every container is gone")
        XCTAssertTrue(stage.window.subviews.first === root.view)
    }
}
