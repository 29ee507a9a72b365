// The animations UIKit runs when no animation controller is given: a presentation's
// `modalTransitionStyle` and a navigation controller's push and pop. Their durations and curves are
// Smokescreen's approximations of iOS's (docs/uikit.md lists them); a custom animator is exact.

/// A presentation or dismissal with a `modalTransitionStyle`.
final class ModalTransitionAnimator: NSObject, UIViewControllerAnimatedTransitioning {
    /// Seconds of each style.
    static let coverVerticalDuration = 0.5
    static let crossDissolveDuration = 0.35
    static let flipDuration = 0.75

    let style: UIModalTransitionStyle
    let isPresenting: Bool

    init(style: UIModalTransitionStyle, isPresenting: Bool) {
        self.style = style
        self.isPresenting = isPresenting
        if style == .partialCurl { NotDrawn.note("UIModalTransitionStyle.partialCurl (drawn as a cross dissolve)") }
    }

    func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval {
        switch style {
        case .coverVertical: Self.coverVerticalDuration
        case .flipHorizontal: Self.flipDuration
        case .crossDissolve, .partialCurl: Self.crossDissolveDuration
        }
    }

    func animateTransition(using context: UIViewControllerContextTransitioning) {
        let container = context.containerView
        let duration = transitionDuration(using: context)
        let presented = context.viewController(forKey: isPresenting ? .to : .from)!
        let view = context.view(forKey: isPresenting ? .to : .from) ?? presented.view!
        let onScreen = isPresenting ? context.finalFrame(for: presented) : context.initialFrame(for: presented)
        let below = onScreen.offsetBy(dx: 0, dy: container.bounds.height)
        if isPresenting {
            container.addSubview(view)
        }
        switch style {
        case .coverVertical:
            view.frame = isPresenting ? below : onScreen
            UIView.animate(withDuration: duration, delay: 0, options: [.curveEaseInOut], animations: {
                view.frame = self.isPresenting ? onScreen : below
            }, completion: { _ in context.completeTransition(!context.transitionWasCancelled) })
        case .crossDissolve, .partialCurl:
            view.frame = onScreen
            view.alpha = isPresenting ? 0 : 1
            UIView.animate(withDuration: duration, delay: 0, options: [.curveEaseInOut], animations: {
                view.alpha = self.isPresenting ? 1 : 0
            }, completion: { _ in
                UIView.performWithoutAnimation { view.alpha = 1 }
                context.completeTransition(!context.transitionWasCancelled)
            })
        case .flipHorizontal:
            // The whole screen turns over: the window, from before the change to after it.
            view.frame = onScreen
            let screen = container.window ?? container
            let side: UIView.AnimationOptions = isPresenting ? .transitionFlipFromRight : .transitionFlipFromLeft
            if isPresenting { UIView.performWithoutAnimation { view.isHidden = true } }
            UIView.transition(with: screen, duration: duration, options: [side, .curveEaseInOut], animations: {
                view.isHidden = !self.isPresenting
            }, completion: { _ in
                view.isHidden = false
                context.completeTransition(!context.transitionWasCancelled)
            })
        }
    }
}

/// A navigation controller's push and pop: the new top slides in from the trailing edge over the old
/// one, which moves a third of the way the other way (and back for a pop).
final class NavigationSlideAnimator: NSObject, UIViewControllerAnimatedTransitioning {
    /// Seconds.
    static let duration = 0.35
    /// How far the view underneath moves, as a fraction of the width.
    static let parallax: CGFloat = 0.3

    let operation: UINavigationController.Operation

    init(operation: UINavigationController.Operation) {
        self.operation = operation
    }

    func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval { Self.duration }

    func animateTransition(using context: UIViewControllerContextTransitioning) {
        guard let fromVC = context.viewController(forKey: .from), let toVC = context.viewController(forKey: .to),
              let fromView = context.view(forKey: .from), let toView = context.view(forKey: .to) else {
            context.completeTransition(true)
            return
        }
        let container = context.containerView
        let width = container.bounds.width
        let start = context.initialFrame(for: fromVC), end = context.finalFrame(for: toVC)
        if operation == .pop {
            container.insertSubview(toView, belowSubview: fromView)
            toView.frame = end.offsetBy(dx: -width * Self.parallax, dy: 0)
        } else {
            container.addSubview(toView)
            toView.frame = end.offsetBy(dx: width, dy: 0)
        }
        UIView.animate(withDuration: Self.duration, delay: 0, options: [.curveEaseInOut], animations: {
            toView.frame = end
            fromView.frame = self.operation == .pop ? start.offsetBy(dx: width, dy: 0) : start.offsetBy(dx: -width * Self.parallax, dy: 0)
        }, completion: { _ in
            let cancelled = context.transitionWasCancelled
            // The view that leaves is put back in place for its next appearance.
            UIView.performWithoutAnimation { (cancelled ? toView : fromView).frame = cancelled ? end : start }
            context.completeTransition(!cancelled)
        })
    }
}
