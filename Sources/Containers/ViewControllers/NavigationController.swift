import Motion
import RasterCore
import SnapshotView
import Typesetting

/// A stack of view controllers with a navigation bar, as `UINavigationController`: push slides the new
/// screen in from the right over the old one, pop slides it away, and a swipe from the left edge pops
/// interactively, following the finger.
///
/// **The standard transition** (push; pop is the same run backwards), over ``transitionDuration``
/// seconds on ``transitionCurve``: the new view slides in from the right edge to 0; the old view moves
/// left by 30% of the width (parallax) and a black dimming view over it goes from alpha 0 to 0.1; the
/// top view casts a soft shadow 10 pt wide on its left edge. In the bar, as iOS 7 and later draw it:
/// pushed, the old bold title moves onto the new back label's place, and the two cross-fade *in
/// register* (the title's weight and colour turn into the back label's on the same glyph positions:
/// both labels' glyph origins and widths interpolate between the same two values, the wider one
/// scaled horizontally to the other's width); the new title slides in from the right and fades in; the
/// old back label slides 100 pt to the left as it fades; the chevron stays at the leading edge and
/// fades in there (or stays, when the old item had one). Popped, the same backwards: the back label
/// turns into the returning title on its glyphs. The figures are those commonly measured on iOS 7 and
/// later; UIKit does not document them.
///
/// Everything runs on a `PercentDrivenTransition` whose cancel keeps what the code set (UIKit's
/// percent-driven rule): on cancel this controller puts its own views back; a change made in
/// `viewWillAppear` stays unless a completion undoes it (seed 003's naive and smart deselection).
open class NavigationController: ViewController {
    /// What kind of transition runs.
    public enum Operation: String, Sendable {
        /// A controller is pushed.
        case push
        /// The top controller is popped.
        case pop
    }

    /// 0.35 s: the duration commonly measured for UINavigationController's push and pop.
    public var transitionDuration = 0.35
    /// Ease-in-ease-out: the push and pop curve (for an animated, non-interactive transition).
    public var transitionCurve = TimingCurve.easeInEaseOut
    /// The parallax: how far the lower view moves left, as a fraction of the width. 0.3.
    public static let parallax = 0.3
    /// The dimming over the lower view at the end of a push (black at this alpha). 0.1.
    public static let maximumDimming = 0.1
    /// The width of the top view's shadow (points). 10.
    public static let shadowWidth = 10.0

    /// The stack, bottom to top.
    public private(set) var viewControllers: [ViewController] = []
    /// The engine transitions run on; nil: they apply at once.
    public weak var engine: AnimationEngine?
    /// The bar at the top.
    public let navigationBar: NavigationBar
    /// Where the controllers' views go: the area under the bar.
    public let containerView: View
    /// The running transition's coordinator, or nil.
    public private(set) var activeCoordinator: TransitionCoordinator?
    /// The running transition, for inspection: its progress 0…1, or nil.
    public var transitionProgress: Double? { activeCoordinator?.percentComplete }

    /// Chooses custom transitions. Not retained. Default nil: the standard ones.
    public weak var delegate: (any NavigationControllerDelegate)?
    /// Hides the bar: the controllers' views fill the whole view (for screens that draw their own
    /// bar). Set it before the view is first shown. Default false.
    public var isNavigationBarHidden = false {
        didSet {
            navigationBar.isHidden = isNavigationBarHidden
            let top = isNavigationBarHidden ? 0 : NavigationBar.height
            ViewChangeObservation.withoutObserver {
                containerView.frame = Rect(x: 0, y: top, width: size.width, height: size.height - top)
                for controller in viewControllers where controller.isViewLoaded && controller.view.superview === containerView {
                    controller.view.frame = contentFrame
                }
            }
        }
    }

    private let size: Size
    private var queued: [() -> Void] = []
    /// The error a custom animator threw, kept for whoever renders (completions cannot throw).
    public private(set) var transitionError: Error?

    /// A navigation controller `size` points large (default 375x667) showing `root`, in `appearance`
    /// (default light): its bar, its view, and every controller it shows take it, also when it changes
    /// later; the controllers it shows take `textSize` (default `.large`; the bar's title stays
    /// 17 pt, as UIKit's standard bar's does).
    public init(rootViewController root: ViewController, engine: AnimationEngine?, size: Size = Size(width: 375, height: 667),
                appearance: Appearance = .light, textSize: Font.ContentSize = .large) {
        self.engine = engine
        self.size = size
        navigationBar = NavigationBar(width: size.width, appearance: appearance)
        containerView = View(frame: Rect(x: 0, y: NavigationBar.height, width: size.width, height: size.height - NavigationBar.height),
                             name: "navigationContainer")
        containerView.clipsToBounds = true
        super.init()
        self.appearance = appearance
        self.textSize = textSize
        viewControllers = [root]
        root.navigationController = self
        root.appearance = appearance
        root.textSize = textSize
    }

    /// The top of the stack.
    public var topViewController: ViewController? { viewControllers.last }

    /// The bar and the top controller's view.
    open override func loadView() -> View {
        let view = View(frame: Rect(origin: .zero, size: size), name: "navigationController")
        view.backgroundColor = SystemPalette.of(appearance).background
        try? view.addSubview(containerView)
        try? view.addSubview(navigationBar)
        if let top = viewControllers.last {
            place(top.view)
            try? containerView.addSubview(top.view)
            setBarContent(for: viewControllers.count - 1)
        }
        return view
    }

    /// The frame a controller's view gets in the container (points).
    var contentFrame: Rect { containerView.bounds }

    private func place(_ view: View) {
        ViewChangeObservation.withoutObserver { view.frame = contentFrame }
    }

    private func backTitle(below index: Int) -> String? {
        guard index > 0 else { return nil }
        let below = viewControllers[index - 1].navigationItem
        return below.backButtonTitle ?? below.title ?? "Back"
    }

    @discardableResult
    private func setBarContent(for index: Int) -> NavigationBarContent {
        let content = NavigationBarContent(item: viewControllers[index].navigationItem, backTitle: backTitle(below: index), width: size.width, appearance: appearance)
        navigationBar.content?.removeFromSuperview()
        try? navigationBar.addSubview(content)
        navigationBar.content = content
        showScrollEdge(of: viewControllers[index])
        return content
    }

    /// The bar, its items and every controller in the stack take a new appearance (the items are made
    /// again at once once the view has loaded, unless a transition runs: then the next move makes them).
    public override var appearance: Appearance {
        didSet {
            guard oldValue != appearance else { return }
            navigationBar.appearance = appearance
            for controller in viewControllers { controller.appearance = appearance }
            if isViewLoaded, activeCoordinator == nil, !viewControllers.isEmpty {
                ViewChangeObservation.withoutObserver { _ = setBarContent(for: viewControllers.count - 1) }
            }
        }
    }

    /// Every controller in the stack takes a new text size (the bar's title stays 17 pt).
    public override var textSize: Font.ContentSize {
        didSet { if oldValue != textSize { for controller in viewControllers { controller.textSize = textSize } } }
    }

    /// The bar's scroll-edge appearance while `controller` is on top: a table scrolled from its top
    /// shows the standard one; any other view is at its edge.
    func showScrollEdge(of controller: ViewController) {
        let scrolled = (controller as? TableViewController).map { $0.isViewLoaded && $0.tableView.contentOffset.y > 0 } ?? false
        navigationBar.isAtScrollEdge = !scrolled
    }

    // MARK: Stack operations

    /// Pushes `viewController`, as `pushViewController(_:animated:)`. A push or pop asked for while a
    /// transition runs waits for it to end.
    public func pushViewController(_ viewController: ViewController, animated: Bool) {
        guard activeCoordinator == nil else { queued.append { self.pushViewController(viewController, animated: animated) }; return }
        guard let from = topViewController, viewController !== from else { return }
        viewController.navigationController = self
        viewController.appearance = appearance
        viewController.textSize = textSize
        viewControllers.append(viewController)
        run(.push, from: from, to: viewController, animated: animated, gesture: nil, previousStack: Array(viewControllers.dropLast()))
    }

    /// Pops the top controller and returns it (nil at the root), as `popViewController(animated:)`.
    @discardableResult
    public func popViewController(animated: Bool) -> ViewController? {
        guard activeCoordinator == nil else { queued.append { self.popViewController(animated: animated) }; return nil }
        guard viewControllers.count > 1, let from = viewControllers.last else { return nil }
        let previous = viewControllers
        viewControllers.removeLast()
        run(.pop, from: from, to: viewControllers.last!, animated: animated, gesture: nil, previousStack: previous)
        return from
    }

    /// Pops everything above the root, as `popToRootViewController(animated:)`; one transition from the
    /// top to the root. Returns the controllers popped.
    @discardableResult
    public func popToRootViewController(animated: Bool) -> [ViewController]? {
        guard viewControllers.count > 1 else { return nil }
        let popped = Array(viewControllers.dropFirst())
        setViewControllers([viewControllers[0]], animated: animated)
        return popped
    }

    /// Replaces the stack, as `setViewControllers(_:animated:)`: animated as a push when the new top was
    /// not in the stack, as a pop when it was.
    public func setViewControllers(_ controllers: [ViewController], animated: Bool) {
        guard activeCoordinator == nil else { queued.append { self.setViewControllers(controllers, animated: animated) }; return }
        guard let newTop = controllers.last, let from = topViewController else { return }
        let previous = viewControllers
        for c in controllers {
            c.navigationController = self
            c.appearance = appearance
            c.textSize = textSize
        }
        viewControllers = controllers
        guard newTop !== from else {
            setBarContent(for: viewControllers.count - 1)
            return
        }
        let operation: Operation = previous.contains { $0 === newTop } ? .pop : .push
        run(operation, from: from, to: newTop, animated: animated, gesture: nil, previousStack: previous)
    }

    /// Pops the top controller following a swipe from the left edge (the interactive back gesture):
    /// the transition follows the finger, then finishes or cancels as `EdgePanGesture` decides and
    /// documents. Returns the coordinator (nil at the root, or while another transition runs).
    @discardableResult
    public func popInteractively(following gesture: EdgePanGesture) -> TransitionCoordinator? {
        guard activeCoordinator == nil, viewControllers.count > 1, let from = viewControllers.last else { return nil }
        let previous = viewControllers
        viewControllers.removeLast()
        return run(.pop, from: from, to: viewControllers.last!, animated: true, gesture: gesture, previousStack: previous)
    }

    // MARK: The transition

    /// Runs a started transition: following the swipe (then finishing or cancelling as it decides, at
    /// the speed it derives), or straight to the end when there is none.
    func drive(_ transition: PercentDrivenTransition, coordinator: TransitionCoordinator, gesture: EdgePanGesture?, width: Double,
               engine: AnimationEngine) {
        guard let gesture else {
            transition.finish()
            coordinator.isInteractive = false
            return
        }
        transition.follow(gesture, width: width)
        // The coordinator stops being interactive when the finger lifts.
        engine.perform(afterDelay: gesture.duration) { coordinator.isInteractive = false }
    }

    /// The back button title for the top of the stack.
    var backTitleBelowTop: String? { backTitle(below: viewControllers.count - 1) }

    /// The appearance calls that end a transition (UIKit's order, see ``ViewController``), then the next
    /// queued push or pop.
    func finishTransition(from: ViewController, to: ViewController, cancelled: Bool, coordinator: TransitionCoordinator) {
        coordinator.isInteractive = false
        ViewChangeObservation.withoutObserver { showScrollEdge(of: cancelled ? from : to) }
        if cancelled {
            to.viewWillDisappear(true)
            to.viewDidDisappear(true)
            from.viewWillAppear(true)
            from.viewDidAppear(true)
        } else {
            from.viewDidDisappear(true)
            to.viewDidAppear(true)
        }
        from.transitionCoordinator = nil
        to.transitionCoordinator = nil
        activeCoordinator = nil
        if !queued.isEmpty { queued.removeFirst()() }
    }

    @discardableResult
    private func run(_ operation: Operation, from: ViewController, to: ViewController, animated: Bool,
                     gesture: EdgePanGesture?, previousStack: [ViewController]) -> TransitionCoordinator? {
        _ = view  // the bar and container exist
        let fromView = from.view, toView = to.view
        let width = size.width
        guard animated, let engine else {
            from.viewWillDisappear(false)
            to.viewWillAppear(false)
            ViewChangeObservation.withoutObserver {
                fromView.removeFromSuperview()
                place(toView)
                try? containerView.addSubview(toView)
                setBarContent(for: viewControllers.count - 1)
            }
            from.viewDidDisappear(false)
            to.viewDidAppear(false)
            return nil
        }

        if let animator = delegate?.navigationController(self, animatorFor: operation, from: from, to: to) {
            return runCustom(animator, operation, from: from, to: to, engine: engine, gesture: gesture, previousStack: previousStack)
        }
        let push = operation == .push
        let upper = push ? toView : fromView, lower = push ? fromView : toView
        let dimming = View(frame: contentFrame, name: "dimming")
        dimming.backgroundColor = .black
        let shadow = DrawingView(frame: .zero, drawing: EdgeShadow(), name: "shadow")
        let oldBar = navigationBar.content
        let newBar = NavigationBarContent(item: to.navigationItem, backTitle: backTitle(below: viewControllers.count - 1), width: width, appearance: appearance)
        let rest = contentFrame
        ViewChangeObservation.withoutObserver {
            place(toView)
            if push { try? containerView.insertSubview(toView, aboveSubview: fromView) } else { try? containerView.insertSubview(toView, belowSubview: fromView) }
            try? containerView.insertSubview(dimming, aboveSubview: lower)
            try? containerView.insertSubview(shadow, belowSubview: upper)
            try? navigationBar.addSubview(newBar)
            // Start states.
            upper.frame = push ? rest.offsetBy(dx: width, dy: 0) : rest
            lower.frame = push ? rest : rest.offsetBy(dx: -width * NavigationController.parallax, dy: 0)
            dimming.alpha = push ? 0 : NavigationController.maximumDimming
            shadow.frame = Rect(x: upper.frame.minX - NavigationController.shadowWidth, y: rest.minY, width: NavigationController.shadowWidth, height: rest.height)
            shadow.alpha = push ? 0 : 1
            // Pushed, the new item's title comes from the right and its back label from the old
            // title's glyphs; popped to, its title comes from the old back label's glyphs.
            newBar.arrange(push ? .pushedIn : .poppedIn, other: oldBar, width: width)
        }
        let transition = PercentDrivenTransition(engine: engine, duration: transitionDuration, restoresModelsOnCancel: false) { [unowned self] in
            from.viewWillDisappear(true)
            to.viewWillAppear(true)
            upper.frame = push ? rest : rest.offsetBy(dx: width, dy: 0)
            lower.frame = push ? rest.offsetBy(dx: -width * NavigationController.parallax, dy: 0) : rest
            dimming.alpha = push ? NavigationController.maximumDimming : 0
            shadow.frame = Rect(x: upper.frame.minX - NavigationController.shadowWidth, y: rest.minY, width: NavigationController.shadowWidth, height: rest.height)
            shadow.alpha = push ? 1 : 0
            newBar.arrange(nil, other: nil, width: width)
            oldBar?.arrange(push ? .pushedOut : .poppedOut, other: newBar, width: width)
            _ = self
        }
        let coordinator = TransitionCoordinator(transition: transition, isInteractive: gesture != nil, isAnimated: true)
        activeCoordinator = coordinator
        from.transitionCoordinator = coordinator
        to.transitionCoordinator = coordinator
        transition.completionCurve = transitionCurve
        transition.start()
        transition.addCompletion { [weak self] context in
            guard let self else { return }
            ViewChangeObservation.withoutObserver {
                dimming.removeFromSuperview()
                shadow.removeFromSuperview()
                if context.isCancelled {
                    // Everything back as it was: the code set the final values, the cancel keeps them.
                    toView.removeFromSuperview()
                    self.place(toView)
                    self.place(fromView)
                    newBar.removeFromSuperview()
                    oldBar?.arrange(nil, other: nil, width: width)
                    self.viewControllers = previousStack
                } else {
                    fromView.removeFromSuperview()
                    self.place(fromView)
                    self.place(toView)
                    oldBar?.removeFromSuperview()
                    self.navigationBar.content = newBar
                }
            }
            self.finishTransition(from: from, to: to, cancelled: context.isCancelled, coordinator: coordinator)
        }
        drive(transition, coordinator: coordinator, gesture: gesture, width: width, engine: engine)
        return coordinator
    }
}

extension NavigationController {
    /// A custom transition: the animator animates on an engine of its own, which this controller's
    /// engine shows at progress × duration; the progress is a percent-driven transition (linear when
    /// animated, following the finger when interactive). The bar cross-fades on the progress.
    fileprivate func runCustom(_ animator: any NavigationTransitionAnimator, _ operation: Operation, from: ViewController,
                               to: ViewController, engine: AnimationEngine, gesture: EdgePanGesture?,
                               previousStack: [ViewController]) -> TransitionCoordinator? {
        let width = containerView.bounds.width
        let fromView = from.view, toView = to.view
        let child = AnimationEngine(fps: engine.clock.fps)
        let context = NavigationTransitionContext(operation: operation, containerView: containerView, fromView: fromView, toView: toView,
                                                  finalFrame: contentFrame, engine: child, isInteractive: gesture != nil)
        ViewChangeObservation.withoutObserver { toView.frame = contentFrame }
        do { try animator.animateTransition(using: context) } catch {
            transitionError = transitionError ?? error
        }
        let duration = child.scheduledEndTime ?? 0
        let oldBar = navigationBar.content
        let newBar = NavigationBarContent(item: to.navigationItem, backTitle: backTitleBelowTop, width: width, appearance: appearance)
        ViewChangeObservation.withoutObserver {
            try? navigationBar.addSubview(newBar)
            newBar.alpha = 0
        }
        let transition = PercentDrivenTransition(engine: engine, duration: duration, restoresModelsOnCancel: false) {
            from.viewWillDisappear(true)
            to.viewWillAppear(true)
            newBar.alpha = 1
            oldBar?.alpha = 0
        }
        let coordinator = TransitionCoordinator(transition: transition, isInteractive: gesture != nil, isAnimated: true)
        activeCoordinator = coordinator
        from.transitionCoordinator = coordinator
        to.transitionCoordinator = coordinator
        engine.attachScrubbed(child) { transition.progress * duration }
        transition.completionCurve = .linear
        transition.start()
        transition.addCompletion { [weak self] result in
            guard let self else { return }
            engine.detachScrubbed(child)
            if result.isCancelled { child.removeAllAnimations() } else { child.runUntilIdle() }
            animator.animationEnded(!result.isCancelled)
            ViewChangeObservation.withoutObserver {
                let (shown, gone) = result.isCancelled ? (fromView, toView) : (toView, fromView)
                gone.removeFromSuperview()
                if shown.superview !== self.containerView { try? self.containerView.addSubview(shown) }
                shown.frame = self.contentFrame
                gone.frame = self.contentFrame
                if result.isCancelled {
                    newBar.removeFromSuperview()
                    oldBar?.alpha = 1
                    self.viewControllers = previousStack
                } else {
                    oldBar?.removeFromSuperview()
                    self.navigationBar.content = newBar
                }
            }
            self.finishTransition(from: from, to: to, cancelled: result.isCancelled, coordinator: coordinator)
        }
        drive(transition, coordinator: coordinator, gesture: gesture, width: width, engine: engine)
        return coordinator
    }
}

/// A soft shadow falling to the left: black from alpha 0.15 at the right edge to 0 at the left, in
/// vertical strips of 1 pt.
struct EdgeShadow: OperationContent {
    func operations(in bounds: Rect) -> [DrawingOperation] {
        let strips = max(1, Int(bounds.width.rounded(.up)))
        return (0..<strips).map { i in
            let t = (Double(i) + 0.5) / Double(strips)
            return .rect(Rect(x: bounds.minX + Double(i) * bounds.width / Double(strips), y: bounds.minY,
                              width: bounds.width / Double(strips), height: bounds.height),
                         Color(white: 0, alpha: 0.15 * t * t))
        }
    }
    func extent(in bounds: Rect) -> Rect { bounds }
    var isSingleShape: Bool { false }
}
