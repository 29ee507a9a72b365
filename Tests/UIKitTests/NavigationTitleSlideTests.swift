import SmokescreenStage
import XCTest

/// The navigation bar's titles over a push and a pop, as iOS moves them: pushing, the old title slides
/// into the back button's place (and becomes the back button) while the new title comes in from the right;
/// popping, the back button slides to the middle and becomes the title.
final class NavigationTitleSlideTests: XCTestCase {
    /// The bar's label showing `text` that is (`back`) or is not the back button (the back button is in the
    /// tint colour).
    private func label(_ bar: UINavigationBar, _ text: String, back: Bool) throws -> UILabel {
        try XCTUnwrap(bar.subviews.compactMap { $0 as? UILabel }.first { $0.text == text && ($0.textColor == bar.tintColor) == back && $0.alpha > 0 },
                      "no \(back ? "back button" : "title") '\(text)'")
    }

    private func shownX(_ view: UIView) -> CGFloat { (view.layer.presentation() ?? view.layer).frame.minX }

    /// A stage on an iPhone SE showing a navigation controller whose root is titled "Root", and a
    /// controller titled "Next" to push.
    private func rootAndNext(fps: Double, next: UIViewController = UIViewController()) throws
        -> (stage: Stage, navigation: UINavigationController, root: UIViewController, next: UIViewController) {
        let stage = try Stage(device: .iPhoneSE, fps: fps, scale: 1)
        let root = UIViewController()
        root.title = "Root"
        next.title = "Next"
        let navigation = UINavigationController(rootViewController: root)
        stage.show(navigation)
        return (stage, navigation, root, next)
    }

    /// The bar's back chevron.
    private func chevron(_ bar: UINavigationBar) throws -> UIView {
        try XCTUnwrap(bar.subviews.first { String(describing: type(of: $0)) == "BackChevronView" })
    }

    func testAPushSlidesTheOldTitleIntoTheBackButtonAndThePopBringsItBack() throws {
        let stage = try Stage(device: .iPhoneSE, fps: 10, scale: 1)
        let root = UIViewController(), next = UIViewController()
        root.title = "Inbox"
        next.title = "Build bot"
        let navigation = UINavigationController(rootViewController: root)
        stage.show(navigation)
        try stage.wait(0.1)
        let bar = navigation.navigationBar
        let oldTitleX = try label(bar, "Inbox", back: false).frame.minX
        navigation.pushViewController(next, animated: true)
        let duration = try XCTUnwrap(navigation.transitionCoordinator?.transitionDuration)
        let title = try label(bar, "Build bot", back: false), back = try label(bar, "Inbox", back: true)
        let ghost = try XCTUnwrap(bar.subviews.compactMap { $0 as? UILabel }.first { $0.text == "Inbox" && $0 !== back })
        let titleX = title.frame.minX, backX = back.frame.minX
        XCTAssertEqual(backX, 26, "after the chevron")
        XCTAssertEqual(shownX(title), titleX + 375 / 3, accuracy: 1e-9, "the new title starts a third of the bar to the right")
        XCTAssertEqual(shownX(back), oldTitleX, accuracy: 1e-9, "the back button starts where the old title was")
        XCTAssertEqual(title.layer.presentation()!.opacity, 0, accuracy: 1e-9)
        try stage.wait(duration / 2)
        // Half way in time is half way in place (eased in and out).
        XCTAssertEqual(shownX(title), titleX + 375 / 6, accuracy: 1e-6)
        XCTAssertEqual(shownX(back), (oldTitleX + backX) / 2, accuracy: 1e-6)
        XCTAssertEqual(shownX(ghost), (oldTitleX + backX) / 2, accuracy: 1e-6, "the old title goes with it")
        XCTAssertEqual(ghost.layer.presentation()!.opacity, 0.5, accuracy: 1e-6)
        try stage.waitUntilIdle()
        XCTAssertNil(ghost.superview, "the old title is gone")
        XCTAssertEqual(bar.subviews.compactMap { $0 as? UILabel }.filter { $0.text == "Inbox" }.count, 1)
        // The pop: the back button slides to the middle and becomes the title.
        navigation.popViewController(animated: true)
        let popped = try label(bar, "Inbox", back: false)
        XCTAssertEqual(shownX(popped), backX, accuracy: 1e-9, "the title starts as the back button")
        try stage.waitUntilIdle()
        XCTAssertEqual(popped.frame.minX, oldTitleX)
        XCTAssertEqual(bar.subviews.compactMap { $0 as? UILabel }.filter { !$0.isHidden && $0.alpha > 0 && $0.text?.isEmpty == false }.map(\.text), ["Inbox"])
        XCTAssertEqual(stage.notDrawn, [])
    }

    /// The labels the bar shows now (not hidden, not transparent), with their text.
    private func shownTexts(_ bar: UINavigationBar) -> [String] {
        bar.subviews.compactMap { $0 as? UILabel }.filter { !$0.isHidden && $0.alpha > 0 && $0.text?.isEmpty == false }.compactMap(\.text).sorted()
    }

    func testAnItemBothControllersShowStaysShownAndTappable() throws {
        let (stage, navigation, root, next) = try rootAndNext(fps: 10)
        let avatar = UIView(frame: CGRect(x: 0, y: 0, width: 28, height: 28))
        avatar.backgroundColor = .systemOrange
        for controller in [root, next] { controller.navigationItem.rightBarButtonItem = UIBarButtonItem(customView: avatar) }
        try stage.wait(0.1)
        navigation.pushViewController(next, animated: true)
        try stage.waitUntilIdle()
        XCTAssertTrue(avatar.superview === navigation.navigationBar)
        XCTAssertEqual(avatar.alpha, 1)
        navigation.popViewController(animated: true)
        try stage.waitUntilIdle()
        XCTAssertTrue(avatar.superview === navigation.navigationBar)
        XCTAssertEqual(avatar.alpha, 1)
    }

    func testACancelledBackSwipeLeavesTheBarAsItWas() throws {
        let (stage, navigation, _, next) = try rootAndNext(fps: 30)
        navigation.pushViewController(next, animated: false)
        try stage.wait(0.1)
        // A short, slow swipe from the edge, let go: the pop is cancelled.
        try stage.pan(from: CGPoint(x: 5, y: 300), to: CGPoint(x: 60, y: 300), duration: 0.15, releaseVelocity: CGVector(dx: 20, dy: 0))
        try stage.waitUntilIdle()
        XCTAssertTrue(navigation.topViewController === next)
        XCTAssertEqual(shownTexts(navigation.navigationBar), ["Next", "Root"], "the title and the back button, nothing left over")
        let chevron = try chevron(navigation.navigationBar)
        XCTAssertFalse(chevron.isHidden)
        XCTAssertEqual(chevron.alpha, 1)
    }

    /// Under a finger the bar follows the finger, not the clock: a back swipe held still at a third of the
    /// screen keeps the titles where a third of the pop puts them however long it is held, and lifted
    /// past half the pop ends with the root's bar.
    func testABackSwipeScrubsTheTitlesWithTheViews() throws {
        let (stage, navigation, _, next) = try rootAndNext(fps: 30)
        navigation.pushViewController(next, animated: false)
        try stage.wait(0.1)
        let bar = navigation.navigationBar
        try stage.touchDown(at: CGPoint(x: 5, y: 300))
        try stage.moveTouch(to: CGPoint(x: 5 + 375 / 3, y: 300), duration: 0.2)
        try stage.wait(0.1)
        let title = try label(bar, "Root", back: false)
        let held = shownX(title), opacity = title.layer.presentation()!.opacity
        XCTAssertGreaterThan(opacity, 0.05, "on its way in")
        XCTAssertLessThan(opacity, 0.95, "not there yet: the pop is a third done")
        try stage.wait(1.0)
        XCTAssertEqual(shownX(title), held, accuracy: 1e-9, "held still: the title does not move on")
        XCTAssertEqual(title.layer.presentation()!.opacity, opacity, accuracy: 1e-9)
        try stage.moveTouch(to: CGPoint(x: 260, y: 300), duration: 0.2)
        stage.liftTouch(velocity: CGVector(dx: 300, dy: 0))
        try stage.waitUntilIdle()
        XCTAssertTrue(navigation.topViewController !== next)
        XCTAssertEqual(shownTexts(bar), ["Root"])
        XCTAssertEqual(stage.notDrawn, [])
    }

    /// A delegate's own interaction controller that moves nothing and completes at once.
    final class InstantInteraction: NSObject, UIViewControllerInteractiveTransitioning {
        func startInteractiveTransition(_ transitionContext: UIViewControllerContextTransitioning) {
            transitionContext.finishInteractiveTransition()
            transitionContext.completeTransition(true)
        }
    }

    final class FadeAnimator: NSObject, UIViewControllerAnimatedTransitioning {
        func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval { 0.3 }
        func animateTransition(using transitionContext: UIViewControllerContextTransitioning) {
            transitionContext.completeTransition(true)
        }
    }

    final class InstantDelegate: NSObject, UINavigationControllerDelegate {
        func navigationController(_ navigationController: UINavigationController, animationControllerFor operation: UINavigationController.Operation,
                                  from fromVC: UIViewController, to toVC: UIViewController) -> UIViewControllerAnimatedTransitioning? { FadeAnimator() }
        func navigationController(_ navigationController: UINavigationController,
                                  interactionControllerFor animationController: UIViewControllerAnimatedTransitioning) -> UIViewControllerInteractiveTransitioning? {
            InstantInteraction()
        }
    }

    /// An interaction controller of the app's own that never starts the animator still ends with the bar of
    /// the new top (the slide waits for a scrubbed animator only under a percent-driven one).
    func testAnInteractionOfTheAppsOwnEndsWithTheNewTopsBar() throws {
        let (stage, navigation, _, next) = try rootAndNext(fps: 30)
        let delegate = InstantDelegate()
        navigation.delegate = delegate
        navigation.pushViewController(next, animated: true)
        try stage.waitUntilIdle()
        XCTAssertTrue(navigation.topViewController === next)
        XCTAssertEqual(shownTexts(navigation.navigationBar), ["Next", "Root"])
        navigation.popViewController(animated: true)
        try stage.waitUntilIdle()
        XCTAssertEqual(shownTexts(navigation.navigationBar), ["Root"])
        withExtendedLifetime(delegate) {}
    }

    func testAPopRightAfterAPushEndsWithTheRootsBar() throws {
        let (stage, navigation, _, next) = try rootAndNext(fps: 30)
        try stage.wait(0.1)
        navigation.pushViewController(next, animated: true)
        navigation.popViewController(animated: true)
        try stage.waitUntilIdle()
        XCTAssertEqual(shownTexts(navigation.navigationBar), ["Root"])
        XCTAssertTrue(try chevron(navigation.navigationBar).isHidden)
    }

    func testATitleChangedDuringAMoveIsShownWhenItEnds() throws {
        final class Late: UIViewController {
            override func viewDidAppear(_ animated: Bool) {
                super.viewDidAppear(animated)
                title = "Loaded"
            }
        }
        let (stage, navigation, _, next) = try rootAndNext(fps: 10, next: Late())
        next.title = "Loading"
        try stage.wait(0.1)
        navigation.pushViewController(next, animated: true)
        try stage.waitUntilIdle()
        XCTAssertEqual(shownTexts(navigation.navigationBar), ["Loaded", "Root"])
    }
}
