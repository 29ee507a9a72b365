import Foundation

/// One running view controller transition (a presentation, a dismissal, a push or a pop): the context
/// its animator is handed and the coordinator the controllers involved return from
/// `transitionCoordinator`. It ends when the animator calls ``completeTransition(_:)``; until then the
/// stage counts it as running (`UIViewController.runningTransitions`), so a transition that is never
/// completed is reported, not waited on for ever.
final class ControllerTransition: NSObject, UIViewControllerContextTransitioning, UIViewControllerTransitionCoordinator {
    enum Kind: String {
        case presentation, dismissal, push, pop, tabSwitch
    }

    let kind: Kind
    let containerView: UIView
    let isAnimated: Bool
    let presentationStyle: UIModalPresentationStyle
    private(set) var transitionDuration: TimeInterval = 0
    /// True once cancelled: by `cancelInteractiveTransition()` while it runs, or by completing with false.
    var transitionWasCancelled: Bool { isCompleted ? completedCancelled : interactionCancelled }
    private var completedCancelled = false
    private let fromController: UIViewController
    private let toController: UIViewController
    private let fromView: UIView?
    private let toView: UIView?
    private let initialFrames: [ObjectIdentifier: CGRect]
    private let finalFrames: [ObjectIdentifier: CGRect]
    /// Dropped once the transition completed and the animator heard `animationEnded` (an animator often
    /// keeps its context).
    private(set) var animator: UIViewControllerAnimatedTransitioning?
    /// Drives the transition instead of time, when the delegate gave one.
    /// Dropped when the transition completes (an interaction controller keeps its context until then).
    private var interactionController: UIViewControllerInteractiveTransitioning?
    private(set) var isInteractive = false
    private var interactionCancelled = false
    private var interactivePercent: CGFloat = 0
    private var interactionHandlers: [(UIViewControllerTransitionCoordinatorContext) -> Void] = []
    /// What the kind of transition does when it ends (views out, callbacks), given whether it completed.
    private let finish: (Bool) -> Void
    private var alongside: [(animation: ((UIViewControllerTransitionCoordinatorContext) -> Void)?,
                             completion: ((UIViewControllerTransitionCoordinatorContext) -> Void)?)] = []
    private var started = false
    private var startTime = 0.0
    private(set) var isCompleted = false
    /// Runs last, after the animator's `animationEnded` (a presentation's completion).
    var ended: (() -> Void)?

    /// Every transition started and not completed, oldest first.
    nonisolated(unsafe) static var running: [ControllerTransition] = []

    /// A transition from `from` to `to`; `animator` nil runs it without animation.
    init(kind: Kind, container: UIView, from: UIViewController, to: UIViewController, fromView: UIView?, toView: UIView?,
         animator: UIViewControllerAnimatedTransitioning?, interactionController: UIViewControllerInteractiveTransitioning? = nil,
         style: UIModalPresentationStyle,
         initialFrames: [(UIViewController, CGRect)], finalFrames: [(UIViewController, CGRect)], finish: @escaping (Bool) -> Void) {
        self.kind = kind
        containerView = container
        fromController = from
        toController = to
        self.fromView = fromView
        self.toView = toView
        self.animator = animator
        self.interactionController = animator == nil ? nil : interactionController
        isAnimated = animator != nil
        presentationStyle = style
        self.initialFrames = Dictionary(initialFrames.map { (ObjectIdentifier($0.0), $0.1) }, uniquingKeysWith: { $1 })
        self.finalFrames = Dictionary(finalFrames.map { (ObjectIdentifier($0.0), $0.1) }, uniquingKeysWith: { $1 })
        self.finish = finish
        super.init()
        // Asked once, as UIKit asks; a NaN, negative or infinite answer counts as 0.
        let asked = animator?.transitionDuration(using: self) ?? 0
        transitionDuration = asked.isFinite && asked > 0 ? asked : 0
        from.activeTransition = self
        to.activeTransition = self
    }

    /// Starts the animator (or, without one, ends at once), then the alongside animations added so far.
    func start() {
        guard !started else { return }
        started = true
        startTime = StageContext.now
        Self.running.append(self)
        if let interactionController {
            isInteractive = interactionController.wantsInteractiveStart
            interactionController.startInteractiveTransition(self)
        } else if animator != nil {
            startAnimator()
        } else {
            for entry in alongside { entry.animation?(self) }
            completeTransition(true)
        }
    }

    /// Calls the animator's `animateTransition(using:)`, then starts the alongside animations added
    /// before (by `presentationTransitionWillBegin`, `viewWillAppear`); those added from now on start at
    /// once. An interaction controller calls it where it wants the animations recorded.
    func startAnimator() {
        guard let animator, !animatorStarted else { return }
        animatorStarted = true
        let addedBefore = alongside.map(\.animation)
        insideAnimateTransition = true
        animator.animateTransition(using: self)
        insideAnimateTransition = false
        let starting = atAnimatorStart
        atAnimatorStart = []
        for block in starting { block() }
        for animation in addedBefore {
            // An animator that completed at once leaves nothing to animate along: the end state, at once.
            if completedInside != nil {
                UIView.performWithoutAnimation { animation?(self) }
            } else {
                runAlongside(animation, elapsed: 0)
            }
        }
        // A completion called inside `animateTransition` takes effect now, after the alongside animations
        // started, as UIKit orders them.
        if let done = completedInside {
            completedInside = nil
            completeTransition(done)
        }
    }

    private var animatorStarted = false
    private var atAnimatorStart: [() -> Void] = []

    /// Runs `block` when the animator starts (at once if it has), on the clock its animations use (an
    /// interaction controller's scrubbed one) and outside any animation block: animations it makes keep
    /// their own timing and follow the finger with the animator's.
    func whenAnimatorStarts(_ block: @escaping () -> Void) {
        if animatorStarted { block() } else { atAnimatorStart.append(block) }
    }
    private var insideAnimateTransition = false
    private var completedInside: Bool?

    private func runAlongside(_ animation: ((UIViewControllerTransitionCoordinatorContext) -> Void)?, elapsed: Double) {
        guard let animation else { return }
        let remaining = max(0, transitionDuration - elapsed)
        UIView.animate(withDuration: remaining, delay: 0, options: [.curveEaseInOut], animations: { animation(self) })
    }

    // MARK: The context

    var targetTransform: CGAffineTransform { .identity }

    func updateInteractiveTransition(_ percentComplete: CGFloat) {
        guard !isCompleted, percentComplete.isFinite else { return }
        interactivePercent = min(1, max(0, percentComplete))
    }

    func finishInteractiveTransition() { endInteraction(cancelled: false) }
    func cancelInteractiveTransition() { endInteraction(cancelled: true) }

    func pauseInteractiveTransition() {
        guard !isCompleted, !isInteractive else { return }
        isInteractive = true
        for handler in interactionHandlers { handler(self) }
    }

    private func endInteraction(cancelled: Bool) {
        guard !isCompleted else { return }
        interactionCancelled = cancelled
        if isInteractive {
            isInteractive = false
            for handler in interactionHandlers { handler(self) }
        }
    }

    func completeTransition(_ didComplete: Bool) {
        if insideAnimateTransition, completedInside == nil, !isCompleted {
            completedInside = didComplete
            return
        }
        guard !isCompleted else {
            UIKitLog.warn("completeTransition(_:) was called more than once for the \(description); the calls after the first are ignored")
            return
        }
        isCompleted = true
        completedCancelled = !didComplete
        // What waited for an animator the interaction never started ends as it would have: at once.
        let waiting = atAnimatorStart
        atAnimatorStart = []
        if !waiting.isEmpty { UIView.performWithoutAnimation { for block in waiting { block() } } }
        Self.running.removeAll { $0 === self }
        if fromController.activeTransition === self { fromController.activeTransition = nil }
        if toController.activeTransition === self { toController.activeTransition = nil }
        finish(didComplete)
        for entry in alongside { entry.completion?(self) }
        alongside = []
        animator?.animationEnded(didComplete)
        let ended = self.ended
        self.ended = nil
        interactionController = nil
        animator = nil
        ended?()
    }

    func viewController(forKey key: UITransitionContextViewControllerKey) -> UIViewController? {
        switch key {
        case .from: fromController
        case .to: toController
        default: nil
        }
    }

    func view(forKey key: UITransitionContextViewKey) -> UIView? {
        switch key {
        case .from: fromView
        case .to: toView
        default: nil
        }
    }

    func initialFrame(for vc: UIViewController) -> CGRect { initialFrames[ObjectIdentifier(vc)] ?? .zero }
    func finalFrame(for vc: UIViewController) -> CGRect { finalFrames[ObjectIdentifier(vc)] ?? .zero }

    // MARK: The coordinator

    var initiallyInteractive: Bool { interactionController?.wantsInteractiveStart ?? false }
    var isInterruptible: Bool { false }
    var isCancelled: Bool { transitionWasCancelled }
    var percentComplete: CGFloat {
        if interactionController != nil, !isCompleted { return interactivePercent }
        guard started, transitionDuration > 0 else { return isCompleted ? 1 : 0 }
        return isCompleted ? 1 : CGFloat(min(1, max(0, (StageContext.now - startTime) / transitionDuration)))
    }
    var completionVelocity: CGFloat { 1 }
    var completionCurve: UIView.AnimationCurve { .easeInOut }

    @discardableResult
    func animate(alongsideTransition animation: ((UIViewControllerTransitionCoordinatorContext) -> Void)?,
                 completion: ((UIViewControllerTransitionCoordinatorContext) -> Void)?) -> Bool {
        guard !isCompleted else { return false }
        alongside.append((animation, completion))
        // Added once the transition runs: it animates over what is left of it.
        if started {
            if isAnimated { runAlongside(animation, elapsed: StageContext.now - startTime) } else { animation?(self) }
        }
        return true
    }

    @discardableResult
    func animateAlongsideTransition(in view: UIView?, animation: ((UIViewControllerTransitionCoordinatorContext) -> Void)?,
                                    completion: ((UIViewControllerTransitionCoordinatorContext) -> Void)?) -> Bool {
        animate(alongsideTransition: animation, completion: completion)
    }

    func notifyWhenInteractionChanges(_ handler: @escaping (UIViewControllerTransitionCoordinatorContext) -> Void) {
        interactionHandlers.append(handler)
    }

    override var description: String {
        let verb: String
        switch kind {
        case .presentation: verb = "presentation of \(type(of: toController)) from \(type(of: fromController))"
        case .dismissal: verb = "dismissal of \(type(of: fromController))"
        case .push: verb = "push of \(type(of: toController))"
        case .pop: verb = "pop of \(type(of: fromController)) back to \(type(of: toController))"
        case .tabSwitch: verb = "tab switch from \(type(of: fromController)) to \(type(of: toController))"
        }
        return started ? "\(verb), started at \(startTime) s" : verb
    }
}

