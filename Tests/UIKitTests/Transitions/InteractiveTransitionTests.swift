import SmokescreenStage
import XCTest

/// Hands out fade animators, and for the dismissal the interactor while `interactive` is set.
final class InteractiveFadeTransitions: NSObject, UIViewControllerTransitioningDelegate {
    let log: CallLog
    let interactor = UIPercentDrivenInteractiveTransition()
    var interactive = false
    var usesPropertyAnimator = false

    init(log: CallLog) { self.log = log }

    func animationController(forPresented presented: UIViewController, presenting: UIViewController,
                             source: UIViewController) -> UIViewControllerAnimatedTransitioning? {
        FadeAnimator(duration: 0.4, presenting: true, log: log)
    }

    func animationController(forDismissed dismissed: UIViewController) -> UIViewControllerAnimatedTransitioning? {
        usesPropertyAnimator ? PropertyAnimatorFade(log: log) : FadeAnimator(duration: 0.4, presenting: false, log: log)
    }

    func interactionControllerForDismissal(using animator: UIViewControllerAnimatedTransitioning) -> UIViewControllerInteractiveTransitioning? {
        interactive ? interactor : nil
    }
}

/// A dismissal that fades out with a property animator it hands out as its interruptible animator.
final class PropertyAnimatorFade: NSObject, UIViewControllerAnimatedTransitioning {
    let log: CallLog
    private var animator: UIViewImplicitlyAnimating?

    init(log: CallLog) { self.log = log }

    func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval { 0.4 }

    func animateTransition(using transitionContext: UIViewControllerContextTransitioning) {
        interruptibleAnimator(using: transitionContext).startAnimation()
    }

    func interruptibleAnimator(using transitionContext: UIViewControllerContextTransitioning) -> UIViewImplicitlyAnimating {
        if let animator { return animator }
        let fromView = transitionContext.view(forKey: .from)!
        let animator = UIViewPropertyAnimator(duration: 0.4, curve: .linear) { fromView.alpha = 0 }
        animator.addCompletion { position in
            self.log.add("property animator ended at \(position == .end ? "end" : "start")")
            transitionContext.completeTransition(!transitionContext.transitionWasCancelled)
        }
        self.animator = animator
        return animator
    }
}

final class InteractiveTransitionTests: XCTestCase {
    private var stage: Stage!
    private var log: CallLog!
    private var root: LoggedController!
    private var presented: LoggedController!
    private var transitions: InteractiveFadeTransitions!

    override func setUpWithError() throws {
        stage = try makeStage(width: 40, height: 60)
        log = CallLog()
        root = LoggedController("a", log: log, color: .systemRed)
        stage.show(root)
        transitions = InteractiveFadeTransitions(log: log)
        presented = LoggedController("b", log: log)
        presented.modalPresentationStyle = .fullScreen
        presented.transitioningDelegate = transitions
        root.present(presented, animated: true)
        try stage.waitUntilIdle()
        log.entries = []
        transitions.interactive = true
    }

    func testAPercentDrivenDismissalFollowsUpdatesThenFinishes() throws {
        presented.dismiss(animated: true) { self.log.add("dismissed") }
        let coordinator = try XCTUnwrap(presented.transitionCoordinator)
        XCTAssertTrue(coordinator.isInteractive)
        XCTAssertEqual(presented.view.shownAlpha, 1, accuracy: 1e-6, "it starts at 0 %")
        transitions.interactor.update(0.5)
        XCTAssertEqual(presented.view.shownAlpha, 0.5, accuracy: 1e-6)
        XCTAssertEqual(coordinator.percentComplete, 0.5)
        try stage.wait(1)
        XCTAssertEqual(presented.view.shownAlpha, 0.5, accuracy: 1e-6, "time does not move an interactive transition")
        XCTAssertEqual(transitions.interactor.duration, 0.4)
        var interactionEnded: Bool?
        coordinator.notifyWhenInteractionChanges { interactionEnded = !$0.isInteractive }
        transitions.interactor.finish()
        XCTAssertEqual(interactionEnded, true)
        XCTAssertFalse(coordinator.isInteractive)
        let finishStart = stage.time
        try stage.wait(0.1)
        XCTAssertEqual(presented.view.shownAlpha, 0.25, accuracy: 1e-6, "half of the remaining 0.2 s, ease in-out: half of the remaining fade")
        try stage.waitUntilIdle()
        XCTAssertNil(presented.view.superview)
        XCTAssertNil(root.presentedViewController)
        XCTAssertEqual(log.withoutLayout, ["b.viewWillDisappear(true)", "a.viewWillAppear(true)", "animateTransition",
                                           "b.viewDidDisappear(true)", "a.viewDidAppear(true)", "animationEnded(true)", "dismissed"])
        XCTAssertGreaterThan(stage.time, finishStart + 0.19)
    }

    func testACancelledDismissalRunsBackAndPutsTheViewsBack() throws {
        var cancelledInCompletion: Bool?
        presented.dismiss(animated: true)
        presented.transitionCoordinator?.animate(alongsideTransition: nil) { cancelledInCompletion = $0.isCancelled }
        transitions.interactor.completionSpeed = 2
        transitions.interactor.update(0.5)
        transitions.interactor.cancel()
        XCTAssertTrue(try XCTUnwrap(presented.transitionCoordinator).isCancelled)
        try stage.wait(0.05)
        XCTAssertEqual(presented.view.shownAlpha, 0.75, accuracy: 1e-6, "back over 0.2 s / 2, ease in-out: half way back")
        try stage.waitUntilIdle()
        XCTAssertEqual(cancelledInCompletion, true)
        XCTAssertTrue(root.presentedViewController === presented, "still presented")
        XCTAssertTrue(presented.view.window === stage.window)
        XCTAssertEqual(presented.view.alpha, 1, "the fade's model value is put back")
        XCTAssertNil(root.view.superview, "the presenting view leaves the screen again")
        XCTAssertEqual(log.withoutLayout, ["b.viewWillDisappear(true)", "a.viewWillAppear(true)", "animateTransition",
                                           "b.viewWillAppear(true)", "b.viewDidAppear(true)", "a.viewWillDisappear(true)",
                                           "a.viewDidDisappear(true)", "animationEnded(false)"])
        // It can be dismissed again, without interaction this time.
        transitions.interactive = false
        presented.dismiss(animated: true)
        try stage.waitUntilIdle()
        XCTAssertNil(root.presentedViewController)
    }

    func testAnInterruptibleAnimatorIsScrubbedAndContinued() throws {
        transitions.usesPropertyAnimator = true
        presented.dismiss(animated: true)
        transitions.interactor.update(0.25)
        XCTAssertEqual(presented.view.shownAlpha, 0.75, accuracy: 1e-6)
        XCTAssertEqual(transitions.interactor.percentComplete, 0.25, accuracy: 1e-9)
        transitions.interactor.finish()
        try stage.waitUntilIdle()
        XCTAssertNil(root.presentedViewController)
        XCTAssertTrue(log.entries.contains("property animator ended at end"))
    }

    func testWithoutAnInteractiveStartItRunsByItself() throws {
        transitions.interactor.wantsInteractiveStart = false
        presented.dismiss(animated: true)
        XCTAssertFalse(try XCTUnwrap(presented.transitionCoordinator).initiallyInteractive)
        try stage.waitUntilIdle()
        XCTAssertNil(root.presentedViewController)
    }

    func testAnInteractorDrivesTheNextTransitionAfreshAndKeepsNoController() throws {
        weak var gone: LoggedController?
        do {
            presented.dismiss(animated: true)
            transitions.interactor.update(0.6)
            transitions.interactor.finish()
            try stage.waitUntilIdle()
            gone = presented
            presented = nil
        }
        XCTAssertNil(gone, "the dismissed controller is freed (the interactor keeps nothing of the run)")
        XCTAssertEqual(transitions.interactor.percentComplete, 0)
        // Present again and dismiss with the same interactor: it starts at 0 %.
        let again = LoggedController("c", log: log)
        again.modalPresentationStyle = .fullScreen
        again.transitioningDelegate = transitions
        transitions.interactive = false
        root.present(again, animated: true)
        try stage.waitUntilIdle()
        transitions.interactive = true
        again.dismiss(animated: true)
        XCTAssertEqual(again.view.shownAlpha, 1, accuracy: 1e-6)
        transitions.interactor.cancel()
        try stage.waitUntilIdle()
        XCTAssertTrue(root.presentedViewController === again)
    }
}
