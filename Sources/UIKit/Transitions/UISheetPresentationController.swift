internal import SnapshotView

/// What a detent's resolver is given: the container's traits and the largest height a detent may have
/// (the large detent's, points).
public protocol UISheetPresentationControllerDetentResolutionContext: NSObjectProtocol {
    var containerTraitCollection: UITraitCollection { get }
    var maximumDetentValue: CGFloat { get }
}

/// Told when the user or the app changes a sheet's detent.
public protocol UISheetPresentationControllerDelegate: UIAdaptivePresentationControllerDelegate {
    func sheetPresentationControllerDidChangeSelectedDetentIdentifier(_ sheetPresentationController: UISheetPresentationController)
}

extension UISheetPresentationControllerDelegate {
    public func sheetPresentationControllerDidChangeSelectedDetentIdentifier(_ sheetPresentationController: UISheetPresentationController) {}
}

/// iOS 15's sheet, the presentation of `.pageSheet`, `.formSheet` and `.automatic`: the
/// presented view slides up from the bottom into a card with rounded top corners that rests at one of its
/// ``detents``; at the large detent the presenting view shrinks back behind it, its corners rounded, over
/// black, and a dimming darkens it.
///
/// Geometry on a phone (points; Apple publishes none of these figures, so they are estimated from how
/// iOS 15–17 show a sheet): the large detent's top is 10 below the top of the safe area; the medium one is
/// half as tall as the large one; corners 10 (continuous); the presenting view is scaled about its centre so its
/// top meets the top of the safe area, with 10-pt corners, and dimmed by black at 30 %; the grabber is a
/// 36 × 5 capsule 5 below the sheet's top in `tertiaryLabel`. The sheet moves on a critically damped
/// spring of 0.5 s, in and out. On a pad (regular width) the sheet is a 540 × 620 card in the middle of
/// the screen (a form sheet's size), its corners 10, over the same dimming.
///
/// A pan on the sheet drags it: between its detents (released, it settles at the detent nearest to where
/// it was heading, a fifth of a second of its speed ahead), rubber-banding past the largest, and below
/// the smallest into an interactive dismissal that finishes past half way or thrown down faster than
/// 300 points a second, and cancels otherwise; the delegate is asked `presentationControllerShouldDismiss`
/// and told `…WillDismiss` and `…DidDismiss`; `isModalInPresentation` (of the presented controller or a
/// child of it on screen) makes the sheet spring back
/// (`…DidAttemptToDismiss`). A scroll view in the sheet hands a pan to the sheet when it begins: down
/// while the content is at its top (the sheet drags down), and up while the sheet is below its largest
/// detent when `prefersScrollingExpandsWhenScrolledToEdge` (the sheet grows first); otherwise the content
/// scrolls; and within one gesture, once the content reaches its top and the finger goes on down.
/// Not modelled: the keyboard.
open class UISheetPresentationController: UIPresentationController {
    /// A height a sheet rests at.
    public final class Detent: NSObject {
        /// A detent's name.
        public struct Identifier: Hashable, RawRepresentable, Sendable {
            public let rawValue: String
            public init(rawValue: String) { self.rawValue = rawValue }
            public init(_ rawValue: String) { self.rawValue = rawValue }
            /// The medium detent's.
            public static let medium = Identifier(rawValue: "com.apple.UIKit.medium")
            /// The large detent's.
            public static let large = Identifier(rawValue: "com.apple.UIKit.large")
        }

        /// Its name.
        public let identifier: Identifier
        private let resolver: (any UISheetPresentationControllerDetentResolutionContext) -> CGFloat?

        private init(identifier: Identifier, resolver: @escaping (any UISheetPresentationControllerDetentResolutionContext) -> CGFloat?) {
            self.identifier = identifier
            self.resolver = resolver
            super.init()
        }

        /// About half the screen: half the large detent's height (estimated; Apple says "approximately half
        /// the height of the screen"). Inactive (left out) in a compact height, as UIKit's.
        public static func medium() -> Detent {
            Detent(identifier: .medium) { context in
                context.containerTraitCollection.verticalSizeClass == .compact ? nil : (context.maximumDetentValue / 2).rounded()
            }
        }

        /// The full sheet: from 10 points below the top of the safe area to the bottom.
        public static func large() -> Detent { Detent(identifier: .large) { $0.maximumDetentValue } }

        /// A height of your own (iOS 16): the resolver's value (points, at most the context's
        /// `maximumDetentValue`), or nil to leave the detent out. Default identifier: a unique one.
        public static func custom(identifier: Identifier? = nil,
                                  resolver: @escaping (any UISheetPresentationControllerDetentResolutionContext) -> CGFloat?) -> Detent {
            Detent(identifier: identifier ?? Identifier(rawValue: "custom.\(UUID().uuidString)"), resolver: resolver)
        }

        /// The height in `context` (points), or nil when the detent is left out.
        public func resolvedValue(in context: any UISheetPresentationControllerDetentResolutionContext) -> CGFloat? {
            resolver(context).map { min(max(0, $0), context.maximumDetentValue) }
        }
    }

    /// 10 pt: from the top of the safe area to the top of a sheet at its large detent.
    static let largeTopGap: CGFloat = 10
    /// 10 pt: a sheet's corners, and the presenting view's behind it.
    static let defaultCornerRadius: CGFloat = 10
    /// Black at this alpha darkens what a dimmed sheet covers (estimated).
    static let dimmingAlpha: CGFloat = 0.3
    /// Seconds: the spring a sheet moves on, in and out and between detents (estimated).
    static let duration: TimeInterval = 0.5
    /// A pad's sheet (a form sheet's size).
    static let padSheetSize = CGSize(width: 540, height: 620)

    /// The heights the sheet may rest at, smallest first as they resolve. Default `[.large()]`.
    open var detents: [Detent] = [.large()] {
        didSet { layOutForDetent(animated: false) }
    }
    /// The detent the sheet rests at; nil (the default) for the smallest. Set inside
    /// ``animateChanges(_:)`` the sheet moves there on its spring; otherwise at once.
    open var selectedDetentIdentifier: Detent.Identifier? {
        didSet {
            guard oldValue != selectedDetentIdentifier else { return }
            layOutForDetent(animated: isAnimatingChanges)
        }
    }
    /// The largest detent at which what is behind is not dimmed (and the presenting view does not shrink);
    /// nil (the default) dims at every detent.
    open var largestUndimmedDetentIdentifier: Detent.Identifier? {
        didSet { layOutForDetent(animated: isAnimatingChanges) }
    }
    /// Shows the grabber at the top of the sheet. Default false.
    open var prefersGrabberVisible = false {
        didSet { updateChrome() }
    }
    /// The sheet's corner radius (points); nil (the default) for the system's 10.
    open var preferredCornerRadius: CGFloat? {
        didSet { applyCorners() }
    }
    /// Whether an upward scroll in the sheet grows it to a larger detent first (a pan on a scroll view in
    /// the sheet that begins upward while the sheet is below its largest detent). Default true.
    open var prefersScrollingExpandsWhenScrolledToEdge = true
    /// In a compact height (a phone in landscape): false, the default, covers the screen; true attaches the
    /// sheet to the bottom edge only, as wide as the container's safe area (or see
    /// ``widthFollowsPreferredContentSizeWhenEdgeAttached``), with its detents (`medium()` is inactive there)
    /// and rounded top corners; what is behind is dimmed but not shrunk back (estimated).
    open var prefersEdgeAttachedInCompactHeight = false {
        didSet {
            updateChrome()
            invalidateDetents()
        }
    }
    /// An edge-attached sheet (see ``prefersEdgeAttachedInCompactHeight``) as wide as the presented
    /// controller's `preferredContentSize.width` (points; at most the safe area's width, centred in it)
    /// instead of the safe area's width. No effect on a sheet that is not edge-attached, or with a
    /// preferred width of 0. Default false.
    open var widthFollowsPreferredContentSizeWhenEdgeAttached = false {
        didSet { invalidateDetents() }
    }
    /// Kept (iOS 17). Default true.
    open var prefersPageSizing = true
    /// Kept (popovers' anchor). Default nil.
    open var sourceView: UIView?

    private let style: UIModalPresentationStyle
    private var isAnimatingChanges = false
    /// The pan that drags the sheet, on the presented view while it is presented.
    private lazy var sheetPan = UIPanGestureRecognizer(target: self, action: Selector(UISheetPresentationController.handleSheetPan(_:), name: "handleSheetPan(_:)"))
    /// The sheet's frame when the pan began.
    private var dragStart: CGRect?
    /// Whether this pan may dismiss the sheet (asked once, when it first goes below the smallest detent);
    /// nil until then.
    private var dragMayDismiss: Bool?
    /// The interaction controller of a dismissal a swipe down drives, while it does.
    var swipeInteractor: UIPercentDrivenInteractiveTransition?
    /// The dismissal under way started from a swipe (the delegate hears `…DidDismiss` when it ends).
    private var swipeDismissing = false
    /// Points a second: a release faster than this downwards finishes a swipe's dismissal.
    static let throwSpeed: CGFloat = 300
    private let dimmingView = UIView()
    /// Black behind the presenting view while it is shrunk back.
    private let backdropView = UIView()
    private let grabber = UIView()
    /// The presenting view's transform and corners before the sheet changed them.
    private var presentingRestState: (transform: CGAffineTransform, radius: CGFloat, clips: Bool, curve: CALayerCornerCurve)?
    /// The presented view's corners before the sheet rounded them.
    private var presentedRestState: (radius: CGFloat, corners: CACornerMask, clips: Bool, curve: CALayerCornerCurve)?

    /// Whether the sheet lets touches through to what is behind: its current detent is not dimmed, and
    /// what it shows is not modal in presentation (which keeps touches outside it from what is behind).
    var passesTouchesThrough: Bool { !dimsBehind && !presentedViewController.isModalInPresentationWithShownChildren }

    /// The presenting view while the sheet shrinks it back (for the stage's status bar: it reads the view's
    /// presentation, which says how far it has shrunk at a frame's time).
    package var shrinkingView: UIView? { presentingRestState == nil ? nil : presentingViewController?.view }

    /// The sheet of a presentation of `presented`, as `UIViewController.sheetPresentationController` makes it.
    public override init(presentedViewController: UIViewController, presenting presentingViewController: UIViewController?) {
        let style = presentedViewController.modalPresentationStyle
        self.style = style == .formSheet ? .formSheet : .pageSheet
        super.init(presentedViewController: presentedViewController, presenting: presentingViewController)
        dimmingView.backgroundColor = UIColor(white: 0, alpha: 1)
        dimmingView.alpha = 0
        dimmingView.isUserInteractionEnabled = true
        backdropView.backgroundColor = UIColor(white: 0, alpha: 1)
        backdropView.isUserInteractionEnabled = false
        grabber.backgroundColor = .tertiaryLabel
        grabber.layer.cornerRadius = 2.5
        grabber.isHidden = true
        grabber.isUserInteractionEnabled = false
    }

    open override var presentationStyle: UIModalPresentationStyle { style }
    open override var shouldRemovePresentersView: Bool { false }
    open override var shouldPresentInFullscreen: Bool { false }

    /// Changes made in `changes` (the detent, what is dimmed) move on the sheet's spring.
    open func animateChanges(_ changes: () -> Void) {
        isAnimatingChanges = true
        changes()
        isAnimatingChanges = false
    }

    /// Asks the detents' resolvers again (iOS 16).
    open func invalidateDetents() { layOutForDetent(animated: isAnimatingChanges) }

    // MARK: Geometry

    private var containerTraits: UITraitCollection { containerView?.window?.traitCollection ?? traitCollection }

    /// A pad's sheet, a card in the middle: regular both ways (a phone in landscape is compact tall, even
    /// the Max phones that are regular wide there; a pad in a narrow split is compact wide).
    private var isPad: Bool { containerTraits.horizontalSizeClass == .regular && containerTraits.verticalSizeClass == .regular }

    /// In a compact height (a phone in landscape) a sheet covers the whole screen, as UIKit's do unless
    /// ``prefersEdgeAttachedInCompactHeight``: one detent, the screen's height; square corners; what is
    /// behind stays as it is (and unseen).
    private var fillsCompactHeight: Bool { !isPad && containerTraits.verticalSizeClass == .compact && !prefersEdgeAttachedInCompactHeight }

    /// A sheet attached to the bottom edge only: ``prefersEdgeAttachedInCompactHeight`` in a compact height.
    private var isEdgeAttached: Bool { !isPad && containerTraits.verticalSizeClass == .compact && prefersEdgeAttachedInCompactHeight }

    private var safeTop: CGFloat { containerView?.window?.safeAreaInsets.top ?? 0 }

    /// The large detent's height: from 10 below the top of the safe area to the bottom (the whole height
    /// in a compact height).
    var maximumDetentValue: CGFloat {
        let height = containerView?.bounds.height ?? 0
        return fillsCompactHeight ? height : max(0, height - safeTop - Self.largeTopGap)
    }

    private final class ResolutionContext: NSObject, UISheetPresentationControllerDetentResolutionContext {
        let containerTraitCollection: UITraitCollection
        let maximumDetentValue: CGFloat
        init(_ traits: UITraitCollection, _ maximum: CGFloat) {
            containerTraitCollection = traits
            maximumDetentValue = maximum
        }
    }

    /// The detents that resolve, with their heights, smallest first.
    private func resolvedDetents() -> [(identifier: Detent.Identifier, height: CGFloat)] {
        if fillsCompactHeight { return [(.large, maximumDetentValue)] }
        let context = ResolutionContext(containerTraits, maximumDetentValue)
        let resolved = (detents.isEmpty ? [.large()] : detents).compactMap { d in d.resolvedValue(in: context).map { (d.identifier, $0) } }
        return (resolved.isEmpty ? [(.large, maximumDetentValue)] : resolved).sorted { $0.1 < $1.1 }
    }

    /// The detent the sheet rests at: the selected one, or the smallest.
    private var currentDetent: (identifier: Detent.Identifier, height: CGFloat) {
        let all = resolvedDetents()
        return all.first { $0.identifier == selectedDetentIdentifier } ?? all[0]
    }

    /// Whether what is behind is dimmed (and the presenting view shrunk) at the current detent.
    private var dimsBehind: Bool { dims(atHeight: currentDetent.height, detents: resolvedDetents()) }

    /// Whether a sheet `height` points tall dims what is behind: above the largest undimmed detent of
    /// `detents` (resolved), or always when there is none.
    private func dims(atHeight height: CGFloat, detents: [(identifier: Detent.Identifier, height: CGFloat)]) -> Bool {
        guard let undimmed = largestUndimmedDetentIdentifier, let limit = detents.first(where: { $0.identifier == undimmed }) else { return true }
        return height > limit.height
    }

    /// Whether the presenting view shrinks back: dimmed at the large detent, on a phone.
    private var shrinksPresenter: Bool { !isPad && !fillsCompactHeight && !isEdgeAttached && dimsBehind && currentDetent.height >= maximumDetentValue }

    open override var frameOfPresentedViewInContainerView: CGRect {
        guard let bounds = containerView?.bounds else { return .zero }
        if isPad {
            let size = CGSize(width: min(Self.padSheetSize.width, bounds.width), height: min(Self.padSheetSize.height, bounds.height - safeTop))
            return CGRect(x: (bounds.width - size.width) / 2, y: (bounds.height - size.height) / 2, width: size.width, height: size.height)
        }
        let height = currentDetent.height
        if isEdgeAttached {
            let safe = containerView?.window?.safeAreaInsets ?? .zero
            let safeWidth = max(0, bounds.width - safe.left - safe.right)
            let preferred = presentedViewController.preferredContentSize.width
            let width = widthFollowsPreferredContentSizeWhenEdgeAttached && preferred > 0 ? min(preferred, safeWidth) : safeWidth
            return CGRect(x: safe.left + (safeWidth - width) / 2, y: bounds.height - height, width: width, height: height)
        }
        return CGRect(x: 0, y: bounds.height - height, width: bounds.width, height: height)
    }

    /// The presenting view's transform at the large detent, `f` of the way there (0…1): scaled about its
    /// centre as the screen shrinks behind a sheet, its top moved to the top of the safe area. For the
    /// screen the scale alone does that; a sheet presenting another moves up into the place the screen
    /// behind it has, so the sheet just behind the top one is the card that shows above it, as UIKit
    /// stacks them (the screen, the same width and top, is hidden behind it).
    private func shrunkTransform(of presenting: UIView, _ f: CGFloat = 1) -> CGAffineTransform {
        guard let height = containerView?.bounds.height, height > 0 else { return .identity }
        let full = max(0.5, 1 - 2 * safeTop / height)
        // Only a sheet whose own screen has shrunk behind it takes that place (one at a smaller detent
        // shrinks where it is).
        let presenterSheet = presentingViewController?.presentationRecord?.controller as? UISheetPresentationController
        let rise = presenterSheet?.shrinksPresenter == true ? safeTop - (presenting.center.y - presenting.bounds.height * full / 2) : 0
        let scale = 1 + (full - 1) * f
        return CGAffineTransform(a: scale, b: 0, c: 0, d: scale, tx: 0, ty: rise * f)
    }

    // MARK: Presentation

    open override func presentationTransitionWillBegin() {
        super.presentationTransitionWillBegin()
        guard let container = containerView else { return }
        UIView.performWithoutAnimation {
            dimmingView.frame = container.bounds
            dimmingView.autoresizingMask = [.flexibleWidth, .flexibleHeight]
            container.insertSubview(dimmingView, at: 0)
            if let window = container.window, !isPad {
                backdropView.frame = window.bounds
                window.insertSubview(backdropView, at: 0)
            }
            applyCorners()
            if let presented = presentedView {
                grabber.frame = CGRect(x: (presented.bounds.width - 36) / 2, y: 5, width: 36, height: 5)
                grabber.autoresizingMask = [.flexibleLeftMargin, .flexibleRightMargin]
                presented.addSubview(grabber)
            }
        }
        let dims = dimsBehind, shrinks = shrinksPresenter
        presentedViewController.transitionCoordinator?.animate(alongsideTransition: { _ in
            self.showBehind(dimmed: dims, shrunk: shrinks)
        }, completion: { context in
            if context.isCancelled { self.tearDown() }
        })
    }

    open override func presentationTransitionDidEnd(_ completed: Bool) {
        super.presentationTransitionDidEnd(completed)
        guard completed, let presented = presentedView else { return }
        // The grabber over what the controller added since.
        if grabber.superview === presented { UIView.performWithoutAnimation { presented.bringSubviewToFront(grabber) } }
        if !isPad { presented.addGestureRecognizer(sheetPan) }
    }

    open override func dismissalTransitionDidEnd(_ completed: Bool) {
        super.dismissalTransitionDidEnd(completed)
        if completed {
            presentedView?.removeGestureRecognizer(sheetPan)
            if swipeDismissing { delegate?.presentationControllerDidDismiss(self) }
        } else {
            // A cancelled swipe: back to the detent, as it was.
            layOutForDetent(animated: false)
        }
        swipeDismissing = false
    }

    open override func dismissalTransitionWillBegin() {
        super.dismissalTransitionWillBegin()
        // A swipe's dismissal: the delegate hears it with the transition's coordinator in place.
        if swipeDismissing { delegate?.presentationControllerWillDismiss(self) }
        presentedViewController.transitionCoordinator?.animate(alongsideTransition: { _ in
            self.showBehind(dimmed: false, shrunk: false)
        }, completion: { context in
            if !context.isCancelled { self.tearDown() }
        })
    }

    /// The dimming and the presenting view as they are at a detent.
    private func showBehind(dimmed: Bool, shrunk: Bool) {
        dimmingView.alpha = dimmed ? Self.dimmingAlpha : 0
        dimmingView.isUserInteractionEnabled = dimmed
        guard let presenting = presentingViewController?.view else { return }
        if presentingRestState == nil {
            presentingRestState = (presenting.transform, presenting.layer.cornerRadius, presenting.clipsToBounds, presenting.layer.cornerCurve)
            UIView.performWithoutAnimation { presenting.layer.cornerCurve = .continuous }
        }
        let rest = presentingRestState!
        UIView.performWithoutAnimation { presenting.clipsToBounds = shrunk ? true : rest.clips }
        presenting.transform = shrunk ? shrunkTransform(of: presenting) : rest.transform
        presenting.layer.cornerRadius = shrunk ? max(rest.radius, Self.defaultCornerRadius) : rest.radius
    }

    /// Puts the presenting view back as it was and takes the backdrop away.
    private func tearDown() {
        UIView.performWithoutAnimation {
            if let rest = presentingRestState, let presenting = presentingViewController?.view {
                presenting.transform = rest.transform
                presenting.layer.cornerRadius = rest.radius
                presenting.clipsToBounds = rest.clips
                presenting.layer.cornerCurve = rest.curve
            }
            presentingRestState = nil
            if let rest = presentedRestState, let presented = presentedView {
                presented.layer.cornerRadius = rest.radius
                presented.layer.maskedCorners = rest.corners
                presented.clipsToBounds = rest.clips
                presented.layer.cornerCurve = rest.curve
            }
            presentedRestState = nil
            backdropView.removeFromSuperview()
            dimmingView.removeFromSuperview()
            grabber.removeFromSuperview()
        }
    }

    /// The grabber and the corners as the sheet's settings and size classes have them now (whatever order
    /// the settings were made in).
    private func updateChrome() {
        grabber.isHidden = !prefersGrabberVisible || fillsCompactHeight
        applyCorners()
    }

    /// A change to the presented controller's `preferredContentSize`: an edge-attached sheet that follows
    /// it takes the new width.
    open override func preferredContentSizeDidChange(forChildContentContainer container: UIContentContainer) {
        super.preferredContentSizeDidChange(forChildContentContainer: container)
        layOutForDetent(animated: isAnimatingChanges)
    }

    private func applyCorners() {
        // Only while presented: before, the settings are kept for the presentation to apply, and the
        // controller's view is not loaded early by asking for it (UIKit loads it when presenting).
        guard containerView != nil, let presented = presentedView else { return }
        if presentedRestState == nil {
            presentedRestState = (presented.layer.cornerRadius, presented.layer.maskedCorners, presented.clipsToBounds, presented.layer.cornerCurve)
        }
        UIView.performWithoutAnimation {
            presented.layer.cornerRadius = fillsCompactHeight ? 0 : preferredCornerRadius ?? Self.defaultCornerRadius
            presented.layer.cornerCurve = .continuous
            presented.layer.maskedCorners = isPad ? [.layerMinXMinYCorner, .layerMaxXMinYCorner, .layerMinXMaxYCorner, .layerMaxXMaxYCorner]
                : [.layerMinXMinYCorner, .layerMaxXMinYCorner]
            presented.clipsToBounds = true
        }
    }

    // MARK: Dragging

    /// Whether the sheet takes a pan that `scrollView` (in the sheet) is about to begin, moved by
    /// `translation` so far: down with the content at its top, or up below the largest detent when
    /// ``prefersScrollingExpandsWhenScrolledToEdge``.
    func takesPan(of scrollView: UIScrollView, translation: CGPoint) -> Bool {
        guard !isPad, presentedView != nil, presentingViewController != nil, abs(translation.y) > abs(translation.x),
              sheetPan.view != nil, sheetPan.isEnabled else { return false }
        // While another transition owns the sheet (its presentation, a push inside it) the sheet does not
        // move, so the content keeps the pan.
        if let transition = presentedViewController.activeTransition ?? presentingViewController?.activeTransition, !transition.isCompleted {
            return false
        }
        if translation.y > 0 { return scrollView.contentOffset.y <= -scrollView.adjustedContentInset.top + 0.5 }
        let detents = resolvedDetents()
        return prefersScrollingExpandsWhenScrolledToEdge && currentDetent.identifier != detents[detents.count - 1].identifier
    }

    func handleSheetPan(_ pan: UIPanGestureRecognizer) {
        guard let container = containerView else { return }
        let dy = pan.translation(in: container).y
        switch pan.state {
        case .began: beginDrag()
        case .changed: drag(by: dy)
        case .ended, .cancelled, .failed:
            endDrag(by: dy, speed: pan.state == .ended ? pan.velocity(in: container).y : 0, released: pan.state == .ended)
        default: break
        }
    }

    /// Whether a scroll view in the sheet, its content at the top and pulled further down in the middle of
    /// a pan, may hand the rest of the pan to the sheet (``beginDrag()``): as ``takesPan(of:translation:)``
    /// without the direction, which the scroll view has seen.
    func takesPanInMidGesture() -> Bool {
        guard !isPad, presentedView != nil, presentingViewController != nil, sheetPan.view != nil, sheetPan.isEnabled else { return false }
        return !isOwnedByAnotherTransition
    }

    /// Another transition (a presentation, a dismissal by code, a push inside it) owns the sheet until it
    /// ends; a swipe's own dismissal does not count.
    private var isOwnedByAnotherTransition: Bool {
        guard swipeInteractor == nil, let transition = presentedViewController.activeTransition ?? presentingViewController?.activeTransition else {
            return false
        }
        return !transition.isCompleted
    }

    /// A drag of the sheet begins (its pan, or a scroll view handing over the rest of its own).
    func beginDrag() {
        guard let view = presentedView, !isOwnedByAnotherTransition else { dragStart = nil; return }
        dragStart = view.frame
        dragMayDismiss = nil
    }

    /// The sheet `dy` points below where the drag began (negative: above), rubber-banded past its largest
    /// detent, and past its smallest dismissing interactively when it may.
    func drag(by dy: CGFloat) {
        guard let container = containerView, !isOwnedByAnotherTransition else { dragStart = nil; return }
        guard let start = dragStart else { return }
        let height = container.bounds.height
        let detents = resolvedDetents()
        let smallestTop = height - detents[0].height, largestTop = height - detents[detents.count - 1].height
        if let interactor = swipeInteractor {
            interactor.update(min(1, max(0, (start.minY + dy - smallestTop) / max(1, height - smallestTop))))
            return
        }
        var top = start.minY + dy
        if top < largestTop { top = largestTop - ScrollView.rubberBand(largestTop - top, dimension: height) }
        if top > smallestTop {
            if dragMayDismiss == nil {
                dragMayDismiss = !presentedViewController.isModalInPresentationWithShownChildren && (delegate?.presentationControllerShouldDismiss(self) ?? true)
            }
            if dragMayDismiss == true {
                // The dismissal starts from the smallest detent; cancelled, the sheet rests there.
                if currentDetent.identifier != detents[0].identifier { selectedDetentIdentifier = detents[0].identifier }
                beginSwipeDismissal(from: smallestTop, height: detents[0].height, progress: (top - smallestTop) / max(1, height - smallestTop))
                if swipeInteractor != nil { return }
            }
            top = smallestTop + ScrollView.rubberBand(top - smallestTop, dimension: height)
        }
        follow(top: top)
    }

    /// The drag ends `dy` points below where it began, the finger moving down at `speed` points a second
    /// when `released` (0 when cancelled): the dismissal finishes or is cancelled, or the sheet settles at
    /// the detent nearest to where it was heading.
    func endDrag(by dy: CGFloat, speed: CGFloat, released: Bool) {
        guard let container = containerView, let view = presentedView, !isOwnedByAnotherTransition else { dragStart = nil; return }
        defer { dragStart = nil }
        let height = container.bounds.height
        let detents = resolvedDetents()
        let smallestTop = height - detents[0].height
        if let interactor = swipeInteractor {
            swipeInteractor = nil
            let progress = ((dragStart?.minY ?? smallestTop) + dy - smallestTop) / max(1, height - smallestTop)
            if released, speed > Self.throwSpeed || (progress > 0.5 && speed > -Self.throwSpeed) {
                interactor.finish()
            } else {
                swipeDismissing = false
                interactor.cancel()
            }
            return
        }
        if dragMayDismiss == false, view.frame.minY > smallestTop + 1 {
            delegate?.presentationControllerDidAttemptToDismiss(self)
        }
        // The detent nearest to where the sheet was heading.
        let heading = view.frame.minY + speed * 0.2
        let nearest = detents.min { abs((height - $0.height) - heading) < abs((height - $1.height) - heading) }!
        if nearest.identifier == currentDetent.identifier {
            layOutForDetent(animated: true)
        } else {
            animateChanges { selectedDetentIdentifier = nearest.identifier }
            (delegate as? UISheetPresentationControllerDelegate)?.sheetPresentationControllerDidChangeSelectedDetentIdentifier(self)
        }
    }

    /// The sheet under the finger with its top at `top`, and what is behind in step: shrinking back and
    /// dimming as it nears the large detent from the one below.
    private func follow(top: CGFloat) {
        guard let container = containerView, let view = presentedView else { return }
        let height = container.bounds.height
        UIView.performWithoutAnimation {
            view.frame = CGRect(x: view.frame.minX, y: top, width: view.frame.width, height: max(view.frame.height, height - top))
            // Between the detent below the largest and the largest, what is behind moves toward how the
            // largest shows it (shrunk and dimmed, or not), in step with the sheet.
            let detents = resolvedDetents()
            let below = detents.dropLast().last?.height ?? 0
            let f = min(1, max(0, ((height - top) - below) / max(1, maximumDetentValue - below)))
            let largeDims = dims(atHeight: maximumDetentValue, detents: detents)
            let dimBelow: CGFloat = detents.count > 1 && dims(atHeight: below, detents: detents) ? Self.dimmingAlpha : 0
            let dimLarge: CGFloat = largeDims ? Self.dimmingAlpha : 0
            dimmingView.alpha = dimBelow + (dimLarge - dimBelow) * f
            guard !isPad, !isEdgeAttached, largeDims, let presenting = presentingViewController?.view, let rest = presentingRestState else { return }
            presenting.clipsToBounds = f > 0 ? true : rest.clips
            presenting.transform = f > 0 ? shrunkTransform(of: presenting, f) : rest.transform
            presenting.layer.cornerRadius = f > 0 ? rest.radius + (max(rest.radius, Self.defaultCornerRadius) - rest.radius) * f : rest.radius
        }
    }

    /// A swipe below the smallest detent: the sheet dismisses, following the finger from there.
    private func beginSwipeDismissal(from smallestTop: CGFloat, height: CGFloat, progress: CGFloat) {
        guard let view = presentedView else { return }
        UIView.performWithoutAnimation { view.frame = CGRect(x: view.frame.minX, y: smallestTop, width: view.frame.width, height: height) }
        let interactor = UIPercentDrivenInteractiveTransition()
        swipeInteractor = interactor
        swipeDismissing = true
        presentedViewController.dismiss(animated: true)
        guard presentedViewController.isBeingDismissed else {
            // Refused (a transition runs): the drag goes on as a drag.
            swipeInteractor = nil
            swipeDismissing = false
            return
        }
        interactor.update(min(1, max(0, progress)))
    }

    /// Moves the sheet to its current detent (on the spring when `animated`), and what is behind with it.
    private func layOutForDetent(animated: Bool) {
        guard containerView != nil, let presented = presentedView, presented.superview != nil,
              presentedViewController.presentationRecord?.controller === self else { return }
        let frame = frameOfPresentedViewInContainerView, dims = dimsBehind, shrinks = shrinksPresenter
        UIView.performWithoutAnimation { updateChrome() }
        if grabber.superview === presented { presented.bringSubviewToFront(grabber) }
        let changes = {
            presented.frame = frame
            presented.layoutIfNeeded()
            self.showBehind(dimmed: dims, shrunk: shrinks)
        }
        if animated {
            UIView.animate(withDuration: Self.duration, delay: 0, usingSpringWithDamping: 1, initialSpringVelocity: 0, options: [],
                           animations: changes, completion: nil)
        } else {
            UIView.performWithoutAnimation(changes)
        }
    }
}

/// A sheet's presentation and dismissal with the default `.coverVertical`: the sheet slides up from below
/// the screen to its detent (and back down) on a critically damped spring; what is behind moves alongside
/// (``UISheetPresentationController``).
final class SheetSlideAnimator: NSObject, UIViewControllerAnimatedTransitioning {
    let isPresenting: Bool

    init(isPresenting: Bool) {
        self.isPresenting = isPresenting
        super.init()
    }

    func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval {
        UISheetPresentationController.duration
    }

    func animateTransition(using context: UIViewControllerContextTransitioning) {
        let container = context.containerView
        guard let controller = context.viewController(forKey: isPresenting ? .to : .from),
              let view = context.view(forKey: isPresenting ? .to : .from) ?? controller.view else {
            context.completeTransition(true)
            return
        }
        let onScreen = isPresenting ? context.finalFrame(for: controller) : context.initialFrame(for: controller)
        let below = CGRect(x: onScreen.minX, y: container.bounds.height, width: onScreen.width, height: onScreen.height)
        UIView.performWithoutAnimation {
            if isPresenting { container.addSubview(view) }
            view.frame = isPresenting ? below : onScreen
        }
        let slide = { view.frame = self.isPresenting ? onScreen : below }
        let done: (Bool) -> Void = { _ in context.completeTransition(!context.transitionWasCancelled) }
        if context.isInteractive {
            // Under a finger: linear in the progress, so the sheet stays under it.
            UIView.animate(withDuration: UISheetPresentationController.duration, delay: 0, options: [.curveLinear], animations: slide, completion: done)
        } else {
            UIView.animate(withDuration: UISheetPresentationController.duration, delay: 0, usingSpringWithDamping: 1, initialSpringVelocity: 0,
                           options: [], animations: slide, completion: done)
        }
    }
}
