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

    /// Asked how the presentation adapts (the stage's traits never change, so it never does).
    open weak var delegate: UIAdaptivePresentationControllerDelegate?
    /// The presented controller's preferred size.
    open var preferredContentSize: CGSize { presentedViewController.preferredContentSize }
    /// The size of a child container: its parent's size (override to give the presented view its own).
    open func size(forChildContentContainer container: UIContentContainer, withParentContainerSize parentSize: CGSize) -> CGSize { parentSize }
    open func preferredContentSizeDidChange(forChildContentContainer container: UIContentContainer) {}
    open func systemLayoutFittingSizeDidChange(forChildContentContainer container: UIContentContainer) {}
    open func viewWillTransition(to size: CGSize, with coordinator: UIViewControllerTransitionCoordinator) {}
    open func willTransition(to newCollection: UITraitCollection, with coordinator: UIViewControllerTransitionCoordinator) {}
    /// The style it adapts to: its own.
    open var adaptivePresentationStyle: UIModalPresentationStyle { presentationStyle }
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

    /// Touches on the container itself (not on the presented view) go to what is behind when a sheet's
    /// detent leaves it undimmed, as UIKit lets them.
    override func hitTest(_ point: CGPoint, with event: UIEvent?) -> UIView? {
        let hit = super.hitTest(point, with: event)
        if let sheet = presentationController as? UISheetPresentationController, sheet.passesTouchesThrough,
           hit === self || hit?.superview === self && hit !== sheet.presentedView {
            return nil
        }
        return hit
    }

    override func layoutSubviews() {
        presentationController?.containerViewWillLayoutSubviews()
        super.layoutSubviews()
        presentationController?.containerViewDidLayoutSubviews()
    }
}

/// What a container of content answers about sizes and size changes (view controllers and presentation
/// controllers). The stage's screen never changes size, so the change callbacks are never called.
public protocol UIContentContainer: NSObjectProtocol {
    var preferredContentSize: CGSize { get }
    func preferredContentSizeDidChange(forChildContentContainer container: UIContentContainer)
    func systemLayoutFittingSizeDidChange(forChildContentContainer container: UIContentContainer)
    func size(forChildContentContainer container: UIContentContainer, withParentContainerSize parentSize: CGSize) -> CGSize
    func viewWillTransition(to size: CGSize, with coordinator: UIViewControllerTransitionCoordinator)
    func willTransition(to newCollection: UITraitCollection, with coordinator: UIViewControllerTransitionCoordinator)
}

extension UIViewController: UIContentContainer {}

extension UIPresentationController: UIContentContainer {}

/// Asked how a presentation adapts to the traits (a compact width): the stage's never change, so a
/// presentation keeps its style.
public protocol UIAdaptivePresentationControllerDelegate: NSObjectProtocol {
    func adaptivePresentationStyle(for controller: UIPresentationController) -> UIModalPresentationStyle
    func adaptivePresentationStyle(for controller: UIPresentationController, traitCollection: UITraitCollection) -> UIModalPresentationStyle
    func presentationControllerShouldDismiss(_ presentationController: UIPresentationController) -> Bool
    func presentationControllerWillDismiss(_ presentationController: UIPresentationController)
    func presentationControllerDidDismiss(_ presentationController: UIPresentationController)
    func presentationControllerDidAttemptToDismiss(_ presentationController: UIPresentationController)
}

extension UIAdaptivePresentationControllerDelegate {
    public func adaptivePresentationStyle(for controller: UIPresentationController) -> UIModalPresentationStyle { .none }
    public func adaptivePresentationStyle(for controller: UIPresentationController, traitCollection: UITraitCollection) -> UIModalPresentationStyle { .none }
    public func presentationControllerShouldDismiss(_ presentationController: UIPresentationController) -> Bool { true }
    public func presentationControllerWillDismiss(_ presentationController: UIPresentationController) {}
    public func presentationControllerDidDismiss(_ presentationController: UIPresentationController) {}
    public func presentationControllerDidAttemptToDismiss(_ presentationController: UIPresentationController) {}
}

/// Storyboards: there are none on Linux. A controller asked of one is an empty `UIViewController` (or
/// nil), and the stage's `warnings` say so, so that code which names a storyboard still compiles.
open class UIStoryboard: NSObject {
    public let name: String

    public init(name: String, bundle storyboardBundleOrNil: Bundle?) {
        self.name = name
        super.init()
    }

    open func instantiateInitialViewController() -> UIViewController? {
        UIKitLog.warn("UIStoryboard \"\(name)\": there are no storyboards here; no initial controller")
        return nil
    }

    /// iOS 13's spelling.
    open func instantiateViewController(identifier: String) -> UIViewController { instantiateViewController(withIdentifier: identifier) }
    open func instantiateViewController(withIdentifier identifier: String) -> UIViewController {
        UIKitLog.warn("UIStoryboard \"\(name)\": there are no storyboards here; \"\(identifier)\" is an empty UIViewController")
        return UIViewController()
    }
}

/// A storyboard segue: made in code it runs its `perform()` (or its handler) when asked; there are no
/// storyboards to make one from.
open class UIStoryboardSegue: NSObject {
    public let identifier: String?
    public let source: UIViewController
    public let destination: UIViewController
    private let handler: (() -> Void)?

    public init(identifier: String?, source: UIViewController, destination: UIViewController) {
        self.identifier = identifier
        self.source = source
        self.destination = destination
        handler = nil
        super.init()
    }

    public convenience init(identifier: String?, source: UIViewController, destination: UIViewController, performHandler: @escaping () -> Void) {
        self.init(identifier: identifier, source: source, destination: destination, handler: performHandler)
    }

    private init(identifier: String?, source: UIViewController, destination: UIViewController, handler: @escaping () -> Void) {
        self.identifier = identifier
        self.source = source
        self.destination = destination
        self.handler = handler
        super.init()
    }

    /// Runs the handler; subclasses override it to present the destination their way.
    open func perform() { handler?() }
}
