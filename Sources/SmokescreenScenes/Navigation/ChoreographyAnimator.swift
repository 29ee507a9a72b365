import Choreography
import Containers
import Motion
import RasterCore
import SnapshotView
import TransitionCompositor

/// A choreography as a navigation controller's custom transition: pushed or popped (and swiped back)
/// with its matched and unmatched elements, phases and smokescreen, instead of the standard slide.
///
/// For a reversed choreography (`Choreography.reversed()`), the view it was written from is the one
/// arriving: a detail-to-timeline pop plays the timeline-to-detail description backwards.
public final class ChoreographyAnimator: NavigationTransitionAnimator {
    /// What moves.
    public let choreography: Choreography
    /// A name for messages.
    public let name: String
    /// Pixels per point of the snapshots.
    public let scale: Double
    private var context: TransitionContext?

    /// An animator playing `choreography` with snapshots at `scale`.
    public init(name: String, choreography: Choreography, scale: Double) {
        self.name = name
        self.choreography = choreography
        self.scale = scale
    }

    /// Snapshots the pieces and starts the phases on the context's engine, in its container.
    public func animateTransition(using transition: NavigationTransitionContext) throws {
        let (from, to) = choreography.isReversed ? (transition.toView, transition.fromView) : (transition.fromView, transition.toView)
        context = try ChoreographyRenderer.perform(name: name, choreography: choreography, from: from, to: to,
                                                   engine: transition.engine, scale: scale, in: transition.containerView)
    }

    /// Cancelled: the view it started from goes back, the smokescreen goes.
    public func animationEnded(_ completed: Bool) {
        if !completed { try? context?.restoreFromView() }
        context = nil
    }
}

/// A navigation delegate that pops (or pushes) with one animator.
final class AnimatorDelegate: NavigationControllerDelegate {
    let animator: any NavigationTransitionAnimator
    let operation: NavigationController.Operation
    init(_ animator: any NavigationTransitionAnimator, for operation: NavigationController.Operation) {
        self.animator = animator
        self.operation = operation
    }
    func navigationController(_ navigationController: NavigationController, animatorFor operation: NavigationController.Operation,
                              from: ViewController, to: ViewController) -> (any NavigationTransitionAnimator)? {
        operation == self.operation ? animator : nil
    }
}

/// A controller showing a view made elsewhere (a Vesper screen, which draws its own bar).
final class ScreenController: ViewController {
    let screen: View
    init(screen: View, title: String) {
        self.screen = screen
        super.init()
        self.title = title
    }
    override func loadView() -> View { screen }
}
