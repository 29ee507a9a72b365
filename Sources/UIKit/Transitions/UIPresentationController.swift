/// The object that manages a presentation: the container view the presented view lives in, where that
/// view goes (``frameOfPresentedViewInContainerView``), extra views such as a dimming view (added in
/// ``presentationTransitionWillBegin()``, usually animated alongside through the presented controller's
/// `transitionCoordinator`), and whether the presenting controller's view leaves the screen.
///
/// A `.custom` presentation uses the one its transitioning delegate returns (this class when it returns
/// none); other styles use the built-in ones. The callbacks come in UIKit's order: `…WillBegin` before
/// the animator starts, `…DidEnd` after it completes; the container's layout calls
/// ``containerViewWillLayoutSubviews()`` and ``containerViewDidLayoutSubviews()``.
open class UIPresentationController: NSObject {
    /// The controller presented.
    public let presentedViewController: UIViewController
    /// The controller presenting it (set when the presentation starts).
    open internal(set) weak var presentingViewController: UIViewController!
    /// The view the presentation happens in: on top of the window, its size, from the start of the
    /// presentation until the dismissal ends; nil before.
    open internal(set) var containerView: UIView?

    /// A presentation controller for `presentedViewController`, presented by `presentingViewController`
    /// (nil: the one `present` is called on).
    public init(presentedViewController: UIViewController, presenting presentingViewController: UIViewController?) {
        self.presentedViewController = presentedViewController
        self.presentingViewController = presentingViewController
        super.init()
    }

    /// The style of the presentation (`.custom`).
    open var presentationStyle: UIModalPresentationStyle { .custom }

    /// The view that animates in: the presented controller's view.
    open var presentedView: UIView? { presentedViewController.view }

    /// Where the presented view sits when presented (points, in the container): the whole container.
    open var frameOfPresentedViewInContainerView: CGRect { containerView?.bounds ?? .zero }

    /// Whether the presentation covers the screen (accepted; the container always covers the window).
    open var shouldPresentInFullscreen: Bool { true }

    /// Whether the presenting controller's view leaves the screen once the presentation ends (and returns
    /// for the dismissal). Default false: it stays beneath, as with a custom presentation in UIKit.
    open var shouldRemovePresentersView: Bool { false }

    open func containerViewWillLayoutSubviews() {}
    open func containerViewDidLayoutSubviews() {}
    open func presentationTransitionWillBegin() {}
    open func presentationTransitionDidEnd(_ completed: Bool) {}
    open func dismissalTransitionWillBegin() {}
    open func dismissalTransitionDidEnd(_ completed: Bool) {}

    /// The traits of the presentation (the stage's).
    open var traitCollection: UITraitCollection { UITraitCollection.current }
}

/// The presentation controller of the styles that are not `.custom`: full screen (the presenting view
/// leaves the screen) or over full screen (it stays).
final class BuiltInPresentationController: UIPresentationController {
    private let style: UIModalPresentationStyle
    private let removesPresentersView: Bool

    init(presented: UIViewController, presenting: UIViewController, style: UIModalPresentationStyle, removesPresentersView: Bool) {
        self.style = style
        self.removesPresentersView = removesPresentersView
        super.init(presentedViewController: presented, presenting: presenting)
    }

    override var presentationStyle: UIModalPresentationStyle { style }
    override var shouldRemovePresentersView: Bool { removesPresentersView }
}

/// The container of a presentation (UIKit's transition view): it fills the window above what is
/// presented from, and lets its presentation controller lay out.
final class UITransitionView: UIView {
    weak var presentationController: UIPresentationController?

    override func layoutSubviews() {
        presentationController?.containerViewWillLayoutSubviews()
        super.layoutSubviews()
        presentationController?.containerViewDidLayoutSubviews()
    }
}
