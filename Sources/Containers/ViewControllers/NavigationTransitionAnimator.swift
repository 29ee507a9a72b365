import Motion
import RasterCore
import SnapshotView

/// Replaces a navigation controller's standard push or pop with a transition of its own, as
/// `UIViewControllerAnimatedTransitioning`: it moves the views with animation blocks on the context's
/// engine, with any delays, durations and curves.
///
/// The controller drives that engine by the transition's progress (its time is progress × duration, as
/// Core Animation's time offset): animated, the progress runs linearly, so the animator's own timing
/// shows as written; interactive, it follows the finger and then finishes or cancels as
/// `EdgePanGesture` decides, every phase scrubbed at once.
public protocol NavigationTransitionAnimator: AnyObject {
    /// Sets up and starts the transition: put `context.toView` into `context.containerView` and animate
    /// on `context.engine` (its time 0 is the start). The duration is when the last animation ends.
    func animateTransition(using context: NavigationTransitionContext) throws
    /// The transition ended: `completed` false when it was cancelled (the engine's animations are gone;
    /// put back what `animateTransition` changed in the view tree). The controller then makes sure the
    /// container holds the right view at its frame.
    func animationEnded(_ completed: Bool)
}

extension NavigationTransitionAnimator {
    /// Nothing to do.
    public func animationEnded(_ completed: Bool) {}
}

/// What a custom transition works with, as `UIViewControllerContextTransitioning`.
public struct NavigationTransitionContext {
    /// Push or pop.
    public let operation: NavigationController.Operation
    /// Where the views are (the controller's container, under its bar).
    public let containerView: View
    /// The view leaving.
    public let fromView: View
    /// The view arriving (not yet in the container).
    public let toView: View
    /// The frame both views rest at in the container (points).
    public let finalFrame: Rect
    /// The engine to animate on: its clock is the transition's (progress × duration).
    public let engine: AnimationEngine
    /// Whether a finger drives the transition.
    public let isInteractive: Bool
}

/// Chooses custom transitions, as `UINavigationControllerDelegate`.
public protocol NavigationControllerDelegate: AnyObject {
    /// The animator for a push or pop from `from` to `to`, or nil for the standard one.
    func navigationController(_ navigationController: NavigationController, animatorFor operation: NavigationController.Operation,
                              from: ViewController, to: ViewController) -> (any NavigationTransitionAnimator)?
}
