// UIKit's protocols for custom view controller transitions, with Apple's names and signatures. Apple
// declares their optional members with `@objc optional`; Swift on Linux has no Objective-C, so each
// optional member is a requirement with a default in an extension below: a class that implements it is
// called, one that does not gets UIKit's default.

/// Keys for the controllers of a transition (`viewController(forKey:)`).
public struct UITransitionContextViewControllerKey: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The controller whose view is on screen at the start.
    public static let from = UITransitionContextViewControllerKey(rawValue: "UITransitionContextFromViewControllerKey")
    /// The controller whose view is on screen at the end.
    public static let to = UITransitionContextViewControllerKey(rawValue: "UITransitionContextToViewControllerKey")
}

/// Keys for the views of a transition (`view(forKey:)`).
public struct UITransitionContextViewKey: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let from = UITransitionContextViewKey(rawValue: "UITransitionContextFromViewKey")
    public static let to = UITransitionContextViewKey(rawValue: "UITransitionContextToViewKey")
}

/// How a presented controller's view covers the screen.
public enum UIModalPresentationStyle: Int, Sendable {
    case fullScreen = 0
    case pageSheet = 1
    case formSheet = 2
    case currentContext = 3
    case custom = 4
    case overFullScreen = 5
    case overCurrentContext = 6
    case popover = 7
    case blurOverFullScreen = 8
    case none = -1
    case automatic = -2
}

/// The built-in animation of a presentation without an animation controller.
public enum UIModalTransitionStyle: Int, Sendable {
    case coverVertical = 0
    case flipHorizontal = 1
    case crossDissolve = 2
    case partialCurl = 3
}

/// What a transition's animator is handed: the container its views animate in, the controllers and
/// views on each side, their frames, and ``completeTransition(_:)`` to call when the animation ends.
public protocol UIViewControllerContextTransitioning: NSObjectProtocol {
    /// The view the transition's views animate in.
    var containerView: UIView { get }
    /// Whether the transition was asked for with animation.
    var isAnimated: Bool { get }
    /// Whether an interaction controller drives it.
    var isInteractive: Bool { get }
    /// Whether it ended cancelled (`completeTransition(false)`).
    var transitionWasCancelled: Bool { get }
    /// The presentation's style (`.custom` for a navigation or tab transition).
    var presentationStyle: UIModalPresentationStyle { get }
    func updateInteractiveTransition(_ percentComplete: CGFloat)
    func finishInteractiveTransition()
    func cancelInteractiveTransition()
    func pauseInteractiveTransition()
    /// Ends the transition: `true` when the views are where the transition takes them, `false` when it
    /// was cancelled and they are back where they started. Call it once, when the animation ends.
    func completeTransition(_ didComplete: Bool)
    func viewController(forKey key: UITransitionContextViewControllerKey) -> UIViewController?
    /// The view for `key`; nil for the presenting controller's view when the presentation keeps it in
    /// place (`shouldRemovePresentersView == false`).
    func view(forKey key: UITransitionContextViewKey) -> UIView?
    /// The rotation the transition goes through: identity here (no rotation of the device).
    var targetTransform: CGAffineTransform { get }
    /// Where `vc`'s view starts (points, in the container); `.zero` when it is not on screen at the start.
    func initialFrame(for vc: UIViewController) -> CGRect
    /// Where `vc`'s view ends (points, in the container); `.zero` when it leaves the screen.
    func finalFrame(for vc: UIViewController) -> CGRect
}

/// An object that animates a transition: UIKit asks for its duration and calls ``animateTransition(using:)``
/// once, at the start; the animator calls `completeTransition(_:)` when it ends.
public protocol UIViewControllerAnimatedTransitioning: NSObjectProtocol {
    /// Seconds the transition takes (used for alongside animations, and by the animator itself).
    func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval
    /// Starts the animations; call `transitionContext.completeTransition(_:)` when they end.
    func animateTransition(using transitionContext: UIViewControllerContextTransitioning)
    /// Called after the transition completed (optional in UIKit).
    func animationEnded(_ transitionCompleted: Bool)
    /// The property animator that runs the transition, for an interactive transition to scrub (optional
    /// in UIKit; return the same animator for the whole transition).
    func interruptibleAnimator(using transitionContext: UIViewControllerContextTransitioning) -> UIViewImplicitlyAnimating
}

extension UIViewControllerAnimatedTransitioning {
    public func animationEnded(_ transitionCompleted: Bool) {}
    /// Not implemented: UIKit then scrubs what `animateTransition(using:)` animates.
    public func interruptibleAnimator(using transitionContext: UIViewControllerContextTransitioning) -> UIViewImplicitlyAnimating {
        NoInterruptibleAnimator.shared
    }
}

/// What the default `interruptibleAnimator(using:)` returns: the sign that an animator has none.
final class NoInterruptibleAnimator: UIViewPropertyAnimator, @unchecked Sendable {
    static let shared = NoInterruptibleAnimator(duration: 0, timingParameters: UICubicTimingParameters())
}

/// An object that drives a transition (UIKit's interaction controller): `startInteractiveTransition(_:)`
/// gets the context, and the object reports progress with the context's `updateInteractiveTransition`,
/// `finishInteractiveTransition` or `cancelInteractiveTransition`, then `completeTransition` ends it.
/// ``UIPercentDrivenInteractiveTransition`` does all of that for an animator's animations.
public protocol UIViewControllerInteractiveTransitioning: NSObjectProtocol {
    func startInteractiveTransition(_ transitionContext: UIViewControllerContextTransitioning)
    var completionSpeed: CGFloat { get }
    var completionCurve: UIView.AnimationCurve { get }
    var wantsInteractiveStart: Bool { get }
}

extension UIViewControllerInteractiveTransitioning {
    public var completionSpeed: CGFloat { 1 }
    public var completionCurve: UIView.AnimationCurve { .easeInOut }
    public var wantsInteractiveStart: Bool { true }
}

/// The object that supplies a presentation's animators and presentation controller.
public protocol UIViewControllerTransitioningDelegate: NSObjectProtocol {
    func animationController(forPresented presented: UIViewController, presenting: UIViewController,
                             source: UIViewController) -> UIViewControllerAnimatedTransitioning?
    func animationController(forDismissed dismissed: UIViewController) -> UIViewControllerAnimatedTransitioning?
    func interactionControllerForPresentation(using animator: UIViewControllerAnimatedTransitioning) -> UIViewControllerInteractiveTransitioning?
    func interactionControllerForDismissal(using animator: UIViewControllerAnimatedTransitioning) -> UIViewControllerInteractiveTransitioning?
    func presentationController(forPresented presented: UIViewController, presenting: UIViewController?,
                                source: UIViewController) -> UIPresentationController?
}

extension UIViewControllerTransitioningDelegate {
    public func animationController(forPresented presented: UIViewController, presenting: UIViewController,
                                    source: UIViewController) -> UIViewControllerAnimatedTransitioning? { nil }
    public func animationController(forDismissed dismissed: UIViewController) -> UIViewControllerAnimatedTransitioning? { nil }
    public func interactionControllerForPresentation(using animator: UIViewControllerAnimatedTransitioning) -> UIViewControllerInteractiveTransitioning? { nil }
    public func interactionControllerForDismissal(using animator: UIViewControllerAnimatedTransitioning) -> UIViewControllerInteractiveTransitioning? { nil }
    public func presentationController(forPresented presented: UIViewController, presenting: UIViewController?,
                                       source: UIViewController) -> UIPresentationController? { nil }
}

/// What a transition coordinator's blocks are told about the transition.
public protocol UIViewControllerTransitionCoordinatorContext: NSObjectProtocol {
    var isAnimated: Bool { get }
    var presentationStyle: UIModalPresentationStyle { get }
    var initiallyInteractive: Bool { get }
    var isInterruptible: Bool { get }
    var isInteractive: Bool { get }
    /// Whether the transition ended cancelled (meaningful in completion blocks).
    var isCancelled: Bool { get }
    /// Seconds.
    var transitionDuration: TimeInterval { get }
    var percentComplete: CGFloat { get }
    var completionVelocity: CGFloat { get }
    var completionCurve: UIView.AnimationCurve { get }
    func viewController(forKey key: UITransitionContextViewControllerKey) -> UIViewController?
    func view(forKey key: UITransitionContextViewKey) -> UIView?
    var containerView: UIView { get }
    var targetTransform: CGAffineTransform { get }
}

/// A running transition, to animate alongside (`transitionCoordinator` of the controllers involved).
public protocol UIViewControllerTransitionCoordinator: UIViewControllerTransitionCoordinatorContext {
    /// Runs `animation` in an animation block of the transition's duration, started with it, and
    /// `completion` after it completes. Returns true (the transition is running).
    @discardableResult
    func animate(alongsideTransition animation: ((UIViewControllerTransitionCoordinatorContext) -> Void)?,
                 completion: ((UIViewControllerTransitionCoordinatorContext) -> Void)?) -> Bool
    /// The same; `view` is accepted for UIKit's signature (every view here is in the transition's window).
    @discardableResult
    func animateAlongsideTransition(in view: UIView?, animation: ((UIViewControllerTransitionCoordinatorContext) -> Void)?,
                                    completion: ((UIViewControllerTransitionCoordinatorContext) -> Void)?) -> Bool
    /// Called when an interactive transition stops following the finger (finishes or cancels) or
    /// starts following it again (is paused).
    func notifyWhenInteractionChanges(_ handler: @escaping (UIViewControllerTransitionCoordinatorContext) -> Void)
}

extension UIViewControllerTransitionCoordinator {
    @discardableResult
    public func animate(alongsideTransition animation: ((UIViewControllerTransitionCoordinatorContext) -> Void)?) -> Bool {
        animate(alongsideTransition: animation, completion: nil)
    }
}
