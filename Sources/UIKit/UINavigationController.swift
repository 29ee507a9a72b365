/// The object told of a navigation controller's moves, and asked for their animators.
public protocol UINavigationControllerDelegate: NSObjectProtocol {
    func navigationController(_ navigationController: UINavigationController, willShow viewController: UIViewController, animated: Bool)
    func navigationController(_ navigationController: UINavigationController, didShow viewController: UIViewController, animated: Bool)
    /// The animator of a push or pop; nil for the built-in slide.
    func navigationController(_ navigationController: UINavigationController, animationControllerFor operation: UINavigationController.Operation,
                              from fromVC: UIViewController, to toVC: UIViewController) -> UIViewControllerAnimatedTransitioning?
    func navigationController(_ navigationController: UINavigationController,
                              interactionControllerFor animationController: UIViewControllerAnimatedTransitioning) -> UIViewControllerInteractiveTransitioning?
}

extension UINavigationControllerDelegate {
    public func navigationController(_ navigationController: UINavigationController, willShow viewController: UIViewController, animated: Bool) {}
    public func navigationController(_ navigationController: UINavigationController, didShow viewController: UIViewController, animated: Bool) {}
    public func navigationController(_ navigationController: UINavigationController, animationControllerFor operation: UINavigationController.Operation,
                                     from fromVC: UIViewController, to toVC: UIViewController) -> UIViewControllerAnimatedTransitioning? { nil }
    public func navigationController(_ navigationController: UINavigationController,
                                     interactionControllerFor animationController: UIViewControllerAnimatedTransitioning) -> UIViewControllerInteractiveTransitioning? { nil }
}

/// UIKit's navigation controller: a stack of controllers, the top one's view shown under a navigation
/// bar, pushes and pops animated by the delegate's animator or the built-in slide (0.35 s).
///
/// As UIKit's: the stack (`viewControllers`, `topViewController`) changes when a push or pop is asked
/// for; the appearance callbacks come as `viewWillDisappear` (old top), `viewWillAppear` (new top), the
/// animation, `viewDidDisappear`, `viewDidAppear`, then `didMove(toParent:)` and the delegate's
/// `didShow`. A push or pop asked for while another runs waits for it to end (UIKit's are undefined
/// then). The transition's container is the view the top controller's view fills; the bar is above it.
open class UINavigationController: UIViewController {
    /// A push or a pop.
    public enum Operation: Int, Sendable {
        case none, push, pop
    }

    /// Seconds a bar takes to hide or show with animation.
    public static let hideShowBarDuration: CGFloat = 0.2

    private var stack: [UIViewController] = []
    private var transitionInProgress: ControllerTransition?
    private var waiting: [() -> Void] = []
    private let containerView = UIView()
    /// The bar at the top: the top controller's title, and a back button below the root.
    public let navigationBar = UINavigationBar(frame: .zero)
    /// Told of moves and asked for their animators.
    open weak var delegate: UINavigationControllerDelegate?
    /// The back swipe: a pan from the left edge pops the top controller following the finger (UIKit's
    /// slide), finishing when released past half way or thrown right, cancelling otherwise. Set its
    /// delegate or turn it off as in UIKit. It drives UIKit's own slide; a delegate's animator with no
    /// interaction controller of its own pops without following the finger.
    open var interactivePopGestureRecognizer: UIGestureRecognizer? { backSwipe }
    private lazy var backSwipe: UIScreenEdgePanGestureRecognizer = {
        let recognizer = UIScreenEdgePanGestureRecognizer(target: self, action: Selector(UINavigationController.handleBackSwipe(_:), name: "handleBackSwipe(_:)"))
        recognizer.edges = .left
        return recognizer
    }()
    /// The back swipe's interaction controller while a finger drives a pop.
    private var backSwipeInteractor: UIPercentDrivenInteractiveTransition?

    /// Points a second: a release faster than this to the right finishes the pop wherever it is.
    static let backSwipeThrowSpeed: CGFloat = 300

    func handleBackSwipe(_ pan: UIScreenEdgePanGestureRecognizer) {
        let width = max(1, view.bounds.width)
        switch pan.state {
        case .began:
            guard stack.count > 1, backSwipeInteractor == nil else { return }
            let interactor = UIPercentDrivenInteractiveTransition()
            backSwipeInteractor = interactor
            popViewController(animated: true)
        case .changed:
            backSwipeInteractor?.update(min(1, max(0, pan.translation(in: view).x / width)))
        case .ended, .cancelled, .failed:
            guard let interactor = backSwipeInteractor else { return }
            backSwipeInteractor = nil
            let progress = pan.translation(in: view).x / width
            let speed = pan.state == .ended ? pan.velocity(in: view).x : 0
            if pan.state == .ended, speed > Self.backSwipeThrowSpeed || (progress > 0.5 && speed > -Self.backSwipeThrowSpeed) {
                interactor.finish()
            } else {
                interactor.cancel()
            }
        default:
            break
        }
    }

    /// A navigation controller whose stack is `rootViewController`.
    public init(rootViewController: UIViewController) {
        super.init(nibName: nil, bundle: nil)
        setViewControllers([rootViewController], animated: false)
    }

    public override init(nibName nibNameOrNil: String?, bundle nibBundleOrNil: Bundle?) {
        super.init(nibName: nibNameOrNil, bundle: nibBundleOrNil)
    }

    public required init?(coder: NSCoder) { nil }

    // MARK: The stack

    /// The stack, root first. Setting it is ``setViewControllers(_:animated:)`` without animation.
    open var viewControllers: [UIViewController] {
        get { stack }
        set { setViewControllers(newValue, animated: false) }
    }

    /// The controller on top of the stack.
    open var topViewController: UIViewController? { stack.last }

    /// The top controller, or what it presented.
    open var visibleViewController: UIViewController? {
        var visible = presentedViewController ?? topViewController
        while let presented = visible?.presentedViewController { visible = presented }
        return visible
    }

    /// Pushes `viewController` on the stack and shows it. A controller already in the stack is refused
    /// with UIKit's message (UIKit raises).
    open func pushViewController(_ viewController: UIViewController, animated: Bool) {
        if transitionInProgress != nil { waiting.append { self.pushViewController(viewController, animated: animated) }; return }
        guard !stack.contains(where: { $0 === viewController }), !(viewController is UINavigationController) || viewController.parent == nil else {
            UIKitLog.warn("Pushing the same view controller instance (\(viewController)) more than once is not supported")
            return
        }
        guard let from = stack.last else { setViewControllers([viewController], animated: false); return }
        let before = stack
        addChild(viewController)
        stack.append(viewController)
        move(.push, from: from, to: viewController, leaving: [], previousStack: before, animated: animated)
    }

    /// Pops the top controller and shows the one below; nil at the root, or while another move runs
    /// (the pop then waits for it).
    @discardableResult
    open func popViewController(animated: Bool) -> UIViewController? {
        if transitionInProgress != nil { waiting.append { self.popViewController(animated: animated) }; return nil }
        guard stack.count > 1 else { return nil }
        return popTo(stack[stack.count - 2], animated: animated)?.first
    }

    /// Pops every controller above the root; nil when the root is on top already.
    @discardableResult
    open func popToRootViewController(animated: Bool) -> [UIViewController]? {
        if transitionInProgress != nil { waiting.append { self.popToRootViewController(animated: animated) }; return nil }
        guard let root = stack.first, stack.count > 1 else { return nil }
        return popTo(root, animated: animated)
    }

    /// Pops the controllers above `viewController`; nil when it is not in the stack or on top.
    @discardableResult
    open func popToViewController(_ viewController: UIViewController, animated: Bool) -> [UIViewController]? {
        if transitionInProgress != nil { waiting.append { self.popToViewController(viewController, animated: animated) }; return nil }
        return popTo(viewController, animated: animated)
    }

    private func popTo(_ target: UIViewController, animated: Bool) -> [UIViewController]? {
        guard let index = stack.firstIndex(where: { $0 === target }), index < stack.count - 1, let from = stack.last else { return nil }
        let popped = Array(stack[(index + 1)...])
        let before = stack
        stack.removeSubrange((index + 1)...)
        for controller in popped { controller.willMove(toParent: nil) }
        move(.pop, from: from, to: target, leaving: popped, previousStack: before, animated: animated)
        return popped
    }

    /// Replaces the stack; the new top is shown with a push (a pop when it was in the old stack).
    open func setViewControllers(_ viewControllers: [UIViewController], animated: Bool) {
        if transitionInProgress != nil { waiting.append { self.setViewControllers(viewControllers, animated: animated) }; return }
        var seen = Set<ObjectIdentifier>()
        let new = viewControllers.filter { seen.insert(ObjectIdentifier($0)).inserted }
        let old = stack
        let leaving = old.filter { c in !new.contains { $0 === c } }
        let arriving = new.filter { c in !old.contains { $0 === c } }
        for controller in leaving { controller.willMove(toParent: nil) }
        for controller in arriving { addChild(controller) }
        stack = new
        guard let to = new.last, let from = old.last, from !== to, isViewLoaded else {
            // Nothing shown changes (or nothing is shown yet): the stack alone.
            if isViewLoaded, let from = old.last, new.last == nil { UIView.performWithoutAnimation { from.viewIfLoaded?.removeFromSuperview() } }
            for controller in leaving { controller.removeFromParent() }
            for controller in arriving { controller.didMove(toParent: self) }
            if isViewLoaded { showTop() }
            return
        }
        let operation: Operation = old.contains { $0 === to } ? .pop : .push
        move(operation, from: from, to: to, leaving: leaving, arriving: arriving, previousStack: old, animated: animated)
    }

    // MARK: Moving

    /// Runs a push or pop from `from` to `to` (already the top of the stack).
    private func move(_ operation: Operation, from: UIViewController, to: UIViewController, leaving: [UIViewController],
                      arriving: [UIViewController]? = nil, previousStack: [UIViewController], animated: Bool) {
        let arriving = arriving ?? (operation == .push ? [to] : [])
        guard isViewLoaded else {
            for controller in leaving { controller.removeFromParent() }
            for controller in arriving { controller.didMove(toParent: self) }
            return
        }
        let onScreen = view.window != nil
        let animator: UIViewControllerAnimatedTransitioning? = animated && onScreen
            ? delegate?.navigationController(self, animationControllerFor: operation, from: from, to: to) ?? NavigationSlideAnimator(operation: operation)
            : nil
        var interaction = animator.flatMap { delegate?.navigationController(self, interactionControllerFor: $0) }
        // A back swipe drives UIKit's own slide.
        if interaction == nil, operation == .pop, animator is NavigationSlideAnimator, let swipe = backSwipeInteractor { interaction = swipe }
        let bounds = containerView.bounds
        let fromView = from.view!, toView = to.view!
        UIView.performWithoutAnimation {
            toView.frame = bounds
            toView.autoresizingMask = [.flexibleWidth, .flexibleHeight]
            to.containerSafeAreaInsets = barInsets(for: to)
            toView.layoutIfNeeded()
        }
        if operation == .push { to.flags.insert(.movingToParent) } else { for c in leaving { c.flags.insert(.movingFromParent) } }
        let transition = ControllerTransition(
            kind: operation == .push ? .push : .pop, container: containerView, from: from, to: to, fromView: fromView, toView: toView,
            animator: animator, interactionController: interaction, style: .custom, initialFrames: [(from, bounds)], finalFrames: [(to, bounds)]
        ) { [self] completed in
            // The navigation controller lives until its transition ends (UIKit keeps it so too).
            from.appearanceManagedByTransition = false
            to.appearanceManagedByTransition = false
            to.flags.remove(.movingToParent)
            for c in leaving { c.flags.remove(.movingFromParent) }
            if completed {
                UIView.performWithoutAnimation {
                    fromView.removeFromSuperview()
                    if toView.superview !== self.containerView { self.containerView.addSubview(toView) }
                    toView.frame = self.containerView.bounds
                }
                if onScreen { from.endAppearanceTransition(); to.endAppearanceTransition() }
                for controller in leaving { controller.removeFromParent() }
                for controller in arriving { controller.didMove(toParent: self) }
                self.delegate?.navigationController(self, didShow: to, animated: animator != nil)
            } else {
                // Back as before: the old top shown, the stack as it was.
                UIView.performWithoutAnimation {
                    toView.removeFromSuperview()
                    if fromView.superview !== self.containerView { self.containerView.addSubview(fromView) }
                    fromView.frame = self.containerView.bounds
                }
                self.stack = previousStack
                for controller in arriving { controller.willMove(toParent: nil); controller.removeFromParent() }
                for controller in leaving { controller.didMove(toParent: self) }
                self.navigationBar.show(self.stack)
                self.showToolbarItems()
                if onScreen {
                    to.beginAppearanceTransition(false, animated: true); to.endAppearanceTransition()
                    from.beginAppearanceTransition(true, animated: true); from.endAppearanceTransition()
                }
            }
            // Only now may another move start: one asked for in a callback above waited for this one.
            self.transitionInProgress = nil
            if self.activeTransition?.isCompleted ?? false { self.activeTransition = nil }
            // A title or items the top changed during the move (its viewDidAppear, the delegate's didShow)
            // were not shown then: the bar shows them now.
            if self.isViewLoaded, let top = self.stack.last, self.navigationBar.showsOutdatedItems(of: top) {
                self.navigationBar.show(self.stack)
            }
            let next = self.waiting
            self.waiting = []
            for action in next { action() }
        }
        transitionInProgress = transition
        // The navigation controller's own coordinator is the transition's, from `willShow` on.
        activeTransition = transition
        delegate?.navigationController(self, willShow: to, animated: animator != nil)
        from.appearanceManagedByTransition = true
        to.appearanceManagedByTransition = true
        if onScreen {
            from.beginAppearanceTransition(false, animated: animator != nil)
            to.beginAppearanceTransition(true, animated: animator != nil)
        }
        // The bar's titles slide (or cross-fade) over the move.
        if let animator {
            let duration = animator.transitionDuration(using: nil)
            let length = duration.isFinite && duration > 0 ? duration : 0
            let animateBar = { [self] in
                navigationBar.slideTitles(to: stack, push: operation == .push, duration: length, largeTitleBand: largeTitleExpansion(for: to))
                // The bar grows or shrinks to the new top's large title over the move.
                UIView.animate(withDuration: length, delay: 0, options: [.curveEaseInOut]) {
                    self.updateBarScrollEdges()
                    self.navigationBar.layoutIfNeeded()
                }
            }
            // Under a finger that scrubs the animator (the back swipe, a delegate's percent-driven interaction)
            // the bar goes with the views: its animations start with the animator's, on the clock the finger
            // scrubs. (An interaction controller of the app's own moves the views itself: the bar runs on the
            // clock, as before.)
            if interaction is UIPercentDrivenInteractiveTransition { transition.whenAnimatorStarts(animateBar) } else { animateBar() }
        } else {
            navigationBar.show(stack)
            UIView.performWithoutAnimation { containerView.addSubview(toView) }
        }
        showToolbarItems()
        updateBarScrollEdges()
        transition.start()
    }

    // MARK: The view

    open override func loadView() {
        view = BarContainerView(frame: UIScreen.main.bounds) { [weak self] in self?.layOutBar() }
        view.addGestureRecognizer(backSwipe)
    }

    open override func viewDidLoad() {
        super.viewDidLoad()
        navigationBar.largeTitlesDidChange = { [weak self] in
            guard let self, self.isViewLoaded, self.transitionInProgress == nil else { return }
            self.layOutBar()
        }
        BarContainerView.install(container: containerView, bar: navigationBar, in: view)
        if let toolbarIfMade { view.addSubview(toolbarIfMade) }
        showTop()
    }

    /// Puts the top controller's view in the container (no transition: first load, a replaced stack).
    private func showTop() {
        // The top's view first: its `viewDidLoad` may set the title the bar shows.
        _ = stack.last?.view
        navigationBar.show(stack)
        showToolbarItems()
        updateBarScrollEdges()
        guard let top = stack.last else { return }
        BarContainerView.show(top, alone: containerView, insets: barInsets(for: top))
    }

    /// Shows a changed title or navigation item of the top controller.
    func itemDidChange(of controller: UIViewController) {
        // Only for the controller the bar shows: one being pushed (its title set as its view loads, just
        // before the move) gets its items from the move itself, which animates them.
        guard isViewLoaded, controller === stack.last, transitionInProgress == nil, navigationBar.isShowing(controller) else { return }
        navigationBar.show(stack)
    }

    /// The height the bars take from `controller`'s safe area: the bar's 44 points and its large-title
    /// band when the controller shows a large title, the toolbar's.
    private func barInsets(for controller: UIViewController?) -> UIEdgeInsets {
        let large = controller.map(showsLargeTitle) ?? false
        return UIEdgeInsets(top: isNavigationBarHidden ? 0 : navigationBar.barHeight + (large ? UINavigationBar.largeTitleHeight : 0),
                            left: 0, bottom: toolbarHidden ? 0 : UIToolbar.barHeight(compact: navigationBar.isCompactHeight), right: 0)
    }

    /// Whether `controller`'s title shows large: the bar prefers large titles and the item says
    /// `.always`, or `.automatic` as the item below it does (the root's large); never in a compact height.
    func showsLargeTitle(_ controller: UIViewController) -> Bool {
        guard navigationBar.prefersLargeTitles, !navigationBar.isCompactHeight, let index = stack.firstIndex(where: { $0 === controller }) else { return false }
        for item in stack[...index].reversed().map(\.navigationItem) {
            switch item.largeTitleDisplayMode {
            case .always: return true
            case .never: return false
            case .automatic: continue
            }
        }
        return true
    }

    /// Points of `controller`'s large-title band that show: all 52 at rest, less as its content scrolls
    /// up under the bar, 0 without a large title.
    func largeTitleExpansion(for controller: UIViewController) -> CGFloat {
        guard showsLargeTitle(controller) else { return 0 }
        let scrolled = controller.contentScrollView(for: .top)?.scrolledFromTop ?? 0
        return min(UINavigationBar.largeTitleHeight, max(0, UINavigationBar.largeTitleHeight - scrolled))
    }

    /// Places the bar under the top of the safe area (44 points, and the part of its large-title band
    /// still shown), and the toolbar (when shown) on its bottom.
    func layOutBar() {
        let safe = view.window != nil ? view.safeAreaInsetsIgnoringController : .zero
        let barHeight = navigationBar.barHeight + (navigationBar.showsLargeTitle ? navigationBar.largeTitleExpansion : 0)
        navigationBar.frame = CGRect(x: 0, y: isNavigationBarHidden ? -barHeight : safe.top,
                                     width: view.bounds.width, height: barHeight)
        // Its background reaches up to the screen's top from wherever it now sits.
        navigationBar.setNeedsLayout()
        if let toolbar = toolbarIfMade {
            let bottom = view.bounds.height - safe.bottom
            let height = UIToolbar.barHeight(compact: navigationBar.isCompactHeight)
            toolbar.frame = CGRect(x: 0, y: toolbarHidden ? view.bounds.height : bottom - height, width: view.bounds.width, height: height)
        }
        for controller in stack { controller.containerSafeAreaInsets = barInsets(for: controller) }
        updateBarScrollEdges()
    }

    /// Whether the top controller's content is at its top (the bar) and its end (the toolbar): the bars'
    /// appearances follow.
    func updateBarScrollEdges() {
        guard isViewLoaded, let top = stack.last else { return }
        // How far the content has scrolled up from its top (points; 0 at rest or without a scroll view).
        let scrolled = top.contentScrollView(for: .top)?.scrolledFromTop ?? 0
        let large = showsLargeTitle(top)
        navigationBar.showsLargeTitle = large
        let expansion = largeTitleExpansion(for: top)
        if expansion != navigationBar.largeTitleExpansion {
            navigationBar.largeTitleExpansion = expansion
            let safe = view.window != nil ? view.safeAreaInsetsIgnoringController : .zero
            if !isNavigationBarHidden {
                navigationBar.frame = CGRect(x: 0, y: safe.top, width: view.bounds.width, height: navigationBar.barHeight + expansion)
            }
        }
        // A large title keeps the scroll-edge appearance until it has collapsed.
        navigationBar.isAtScrollEdge = scrolled <= (large ? UINavigationBar.largeTitleHeight : 0) + 0.5
        toolbarIfMade?.isAtScrollEdge = top.contentScrollView(for: .bottom)?.isAtBottomEdge ?? true
    }

    // MARK: The toolbar

    private var toolbarIfMade: UIToolbar?
    private var toolbarHidden = true

    /// The toolbar along the bottom, showing the top controller's `toolbarItems`; hidden by default.
    open var toolbar: UIToolbar! {
        if let toolbarIfMade { return toolbarIfMade }
        let toolbar = UIToolbar(frame: CGRect(x: 0, y: 0, width: 320, height: UIToolbar.height))
        toolbarIfMade = toolbar
        if isViewLoaded { view.addSubview(toolbar) }
        showToolbarItems()
        return toolbar
    }

    /// Whether the toolbar is hidden. Default true.
    open var isToolbarHidden: Bool {
        get { toolbarHidden }
        set { setToolbarHidden(newValue, animated: false) }
    }

    /// Shows or hides the toolbar, sliding it up from the bottom or down out of the screen over
    /// ``hideShowBarDuration``.
    open func setToolbarHidden(_ hidden: Bool, animated: Bool) {
        guard hidden != toolbarHidden else { return }
        toolbarHidden = hidden
        _ = toolbar
        guard isViewLoaded else { return }
        if animated {
            UIView.animate(withDuration: TimeInterval(Self.hideShowBarDuration)) { self.layOutBar() }
        } else {
            UIView.performWithoutAnimation { layOutBar() }
        }
    }

    /// Shows the top controller's toolbar items.
    func showToolbarItems() {
        toolbarIfMade?.items = stack.last?.toolbarItems
    }

    // MARK: The bar

    /// Whether the bar is hidden. Default false.
    open var isNavigationBarHidden: Bool {
        get { barHidden }
        set { setNavigationBarHidden(newValue, animated: false) }
    }

    private var barHidden = false

    /// Hides or shows the bar, sliding it up out of the screen or back over ``hideShowBarDuration``.
    open func setNavigationBarHidden(_ hidden: Bool, animated: Bool) {
        guard hidden != barHidden else { return }
        barHidden = hidden
        guard isViewLoaded else { return }
        if animated {
            UIView.animate(withDuration: TimeInterval(Self.hideShowBarDuration)) { self.layOutBar() }
        } else {
            UIView.performWithoutAnimation { layOutBar() }
        }
    }
}

/// The view of a container controller with a bar (navigation, tab bar): it fills the screen, holds the
/// content's container and the bar, and lays the bar out at each layout pass.
final class BarContainerView: UIView {
    private let layOutBar: () -> Void

    init(frame: CGRect, layOutBar: @escaping () -> Void) {
        self.layOutBar = layOutBar
        super.init(frame: frame)
    }

    required init?(coder: NSCoder) { nil }

    override func layoutSubviews() {
        super.layoutSubviews()
        layOutBar()
    }

    /// Makes `controller`'s view the only one in `container`, filling it, its safe area less `insets`
    /// (no transition: a first load, a replaced stack or set of tabs).
    static func show(_ controller: UIViewController, alone container: UIView, insets: UIEdgeInsets) {
        let shown = controller.view!
        UIView.performWithoutAnimation {
            for view in container.subviews where view !== shown { view.removeFromSuperview() }
            shown.frame = container.bounds
            shown.autoresizingMask = [.flexibleWidth, .flexibleHeight]
            controller.containerSafeAreaInsets = insets
            if shown.superview !== container { container.addSubview(shown) }
        }
    }

    /// Fills `controller`'s view with `container` (flexible) and puts `bar` above it.
    static func install(container: UIView, bar: UIView, in view: UIView) {
        container.frame = view.bounds
        container.autoresizingMask = [.flexibleWidth, .flexibleHeight]
        view.addSubview(container)
        view.addSubview(bar)
    }
}

extension UIView {
    /// The safe-area insets from the window alone, without those controllers add (for a bar's place).
    var safeAreaInsetsIgnoringController: UIEdgeInsets {
        guard let window, window !== self else { return .zero }
        let inWindow = convert(bounds, to: window)
        let safe = window.bounds.inset(by: window.safeAreaInsets)
        return UIEdgeInsets(top: max(0, safe.minY - inWindow.minY), left: max(0, safe.minX - inWindow.minX),
                            bottom: max(0, inWindow.maxY - safe.maxY), right: max(0, inWindow.maxX - safe.maxX))
    }
}
