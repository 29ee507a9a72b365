internal import RasterCore
package import SnapshotView

/// UIKit's responder: the base of views and view controllers.
open class UIResponder: NSObject {
    /// The next responder: a view's superview (or its view controller), a controller's view's superview.
    open var next: UIResponder? { nil }
    open var canBecomeFirstResponder: Bool { false }
    @discardableResult open func becomeFirstResponder() -> Bool { false }
    @discardableResult open func resignFirstResponder() -> Bool { true }
    open var isFirstResponder: Bool { false }
    open func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent?) { next?.touchesBegan(touches, with: event) }
    open func touchesMoved(_ touches: Set<UITouch>, with event: UIEvent?) { next?.touchesMoved(touches, with: event) }
    open func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent?) { next?.touchesEnded(touches, with: event) }
    open func touchesCancelled(_ touches: Set<UITouch>, with event: UIEvent?) { next?.touchesCancelled(touches, with: event) }
    /// Called after a nib loads the object: never here (there are no nibs); kept for code that overrides it.
    open func awakeFromNib() {}
    open func prepareForInterfaceBuilder() {}
}

/// UIKit's view, with Apple's names, signatures and semantics, drawn by Smokescreen: its layer is backed
/// by one of Smokescreen's views (`layer`), and everything a view shows is its layer's. `addSubview` and
/// the other tree calls do not throw (a call UIKit would ignore, such as adding a view to itself, is
/// ignored). Property changes inside `UIView.animate` blocks animate on the stage's virtual clock.
///
/// What differs from UIKit: see docs/uikit.md (drawing through `draw(_:)` fills what it draws; layers
/// draw what their class says it draws).
open class UIView: UIResponder {
    /// The layer class this view makes (`CALayer` unless a subclass says otherwise).
    open class var layerClass: AnyClass { CALayer.self }

    /// The view's layer: everything it draws.
    public let layer: CALayer
    private var _subviews: [UIView] = []
    /// The view this one is a subview of.
    public private(set) weak var superview: UIView?
    /// An integer to find the view by (`viewWithTag(_:)`). Default 0.
    open var tag = 0
    /// Whether touches reach it (and the gesture recognizers on it). Default true.
    open var isUserInteractionEnabled = true
    /// Whether it draws with all its pixels opaque; a hint only here. Default true.
    open var isOpaque = true
    /// How content fills the bounds (an image view's image). Default `.scaleToFill`.
    open var contentMode: ContentMode = .scaleToFill { didSet { contentModeDidChange() } }
    /// How the frame follows the superview's size. Default none.
    open var autoresizingMask: AutoresizingMask = []
    /// Whether subviews' autoresizing masks act when the bounds' size changes. Default true.
    open var autoresizesSubviews = true
    /// Whether the frame is the view's own (true, the default: Auto Layout holds it as it is, as UIKit's
    /// autoresizing-mask constraints do) or what its constraints solve to (false).
    open var translatesAutoresizingMaskIntoConstraints = true {
        didSet {
            guard translatesAutoresizingMaskIntoConstraints != oldValue else { return }
            if translatesAutoresizingMaskIntoConstraints { LayoutEngine.invalidate(self) } else { LayoutEngine.engage(self) }
            superview?.setNeedsLayout()
        }
    }
    /// Auto Layout's state (AutoLayout/UIView+AutoLayout.swift), made on first use.
    var _layoutState: ViewLayoutState?
    /// `updateConstraints` is due before the next layout pass.
    var needsConstraintUpdate = true
    private var _backgroundColor: UIColor?
    private var _tintColor: UIColor?
    package var needsLayout = true
    /// Whether ``draw(_:)`` must run before the next frame: at first, after `setNeedsDisplay()`, and
    /// after a change of size with `contentMode == .redraw`.
    private var needsDisplay = true
    private var displayed: (size: CGSize, content: ContextContent?)?
    private var laidOutSize: CGSize?
    private var laidOutSafeArea: UIEdgeInsets?
    private var isInLayoutSubviews = false
    /// The gesture recognizers attached (UIGestureRecognizer.swift).
    var attachedRecognizers: [UIGestureRecognizer] = []

    /// A view with `frame` in its superview's coordinates (points).
    public init(frame: CGRect) {
        layer = (Self.layerClass as? CALayer.Type ?? CALayer.self).makeForView()
        super.init()
        layer.adopt(makeBacking())
        layer.owningView = self
        layer.contentDelegate = self
        self.frame = frame
        backing.name = String(describing: type(of: self))
    }

    public convenience override init() { self.init(frame: .zero) }

    /// Interface Builder's initializer: nothing is decoded here (no nib or storyboard), so it fails.
    public required init?(coder: NSCoder) { return nil }

    /// The Smokescreen view that draws this one: the layer's backing.
    package var backing: View { layer.backing }

    /// The traits in effect (the stage's).
    open var traitCollection: UITraitCollection { UITraitCollection.current }

    /// Called when the traits this view sees change (see `UIViewController.traitCollectionDidChange(_:)`:
    /// the same moments).
    open func traitCollectionDidChange(_ previousTraitCollection: UITraitCollection?) {}

    /// Tells this view, then its subviews, that the traits changed from `previous`.
    package func traitsDidChange(from previous: UITraitCollection?) {
        resolveColors()
        traitCollectionDidChange(previous)
        for subview in subviews { subview.traitsDidChange(from: previous) }
    }

    /// The kind of Smokescreen view this kind of UIKit view draws with.
    package func makeBacking() -> View { LayerView() }

    /// Called when `contentMode` changes (image views re-place their image).
    package func contentModeDidChange() {}

    // MARK: Geometry (points)

    /// In the superview's coordinates; derived from `center`, `bounds` and `transform`, as UIKit's.
    open var frame: CGRect {
        get { CGRect(backing.frame) }
        set { setGeometry(newValue) { backing.frame = $0 } }
    }

    /// The view's own coordinates: origin (the scroll offset of a scroll view) and size.
    open var bounds: CGRect {
        get { CGRect(backing.bounds) }
        set { setGeometry(newValue) { backing.bounds = $0 } }
    }

    /// Sets a finite `rect` (a non-finite one, which UIKit raises for, is ignored) and lets the
    /// subviews' autoresizing masks act when the bounds' size changed.
    private func setGeometry(_ rect: CGRect, _ apply: (Rect) -> Void) {
        guard rect.origin.x.isFinite, rect.origin.y.isFinite, rect.width.isFinite, rect.height.isFinite else { return }
        let old = backing.bounds.size
        apply(rect.standardized.rect)
        if backing.bounds.size != old { boundsSizeDidChange(from: CGSize(old)) }
        LayoutEngine.frameDidChange(self)
    }

    /// The centre of the frame, in the superview's coordinates.
    open var center: CGPoint {
        get { CGPoint(backing.center) }
        set {
            guard newValue.x.isFinite, newValue.y.isFinite else { return }
            backing.center = newValue.point
            LayoutEngine.frameDidChange(self)
        }
    }

    /// Applied about the layer's anchor point (the centre by default): the layer's transform as an affine
    /// transform, as UIKit's.
    open var transform: CGAffineTransform {
        get { layer.affineTransform() }
        set { if newValue.transform2D.isFinite { layer.setAffineTransform(newValue) } }
    }

    /// The layer's transform, for 3-D (`transform3D` of UIKit's).
    open var transform3D: CATransform3D {
        get { layer.transform }
        set { layer.transform = newValue }
    }

    // MARK: Appearance

    /// A view whose alpha masks this one (UIKit's `mask`: its layer becomes this view's layer's `mask`); its
    /// frame is in this view's bounds coordinates and it has no superview. Default nil.
    open var mask: UIView? {
        didSet { layer.mask = mask?.layer }
    }

    /// 0…1. Default 1.
    open var alpha: CGFloat {
        get { CGFloat(backing.alpha) }
        set { if newValue.isFinite { backing.alpha = Double(min(1, max(0, newValue))) } }
    }

    open var isHidden: Bool {
        get { keepsDrawingWhileHidden ? hiddenModel : backing.isHidden }
        set {
            let old = isHidden
            hiddenModel = newValue
            backing.isHidden = newValue && !keepsDrawingWhileHidden
            if newValue != old, let stack = superview as? UIStackView, stack.arrangedSubviews.contains(where: { $0 === self }) {
                stack.arrangedSubviewHiddenDidChange(self)
            }
        }
    }
    private var hiddenModel = false
    /// A hidden arranged view of a stack view stays drawn while its collapse animates.
    var keepsDrawingWhileHidden = false {
        didSet { backing.isHidden = hiddenModel && !keepsDrawingWhileHidden }
    }

    /// Filled behind the content and subviews, rounded by `layer.cornerRadius`. Resolved for the trait
    /// collection when set (a dynamic colour keeps its value for that appearance).
    open var backgroundColor: UIColor? {
        get { _backgroundColor }
        set {
            _backgroundColor = newValue
            backing.backgroundColor = newValue.flatMap { $0.color.alpha > 0 ? $0.color : nil }
        }
    }

    /// The nearest view controller up the responder chain (the one whose view holds this view), if any.
    var nearestController: UIViewController? {
        var responder: UIResponder? = next
        while let r = responder {
            if let controller = r as? UIViewController { return controller }
            responder = r.next
        }
        return nil
    }

    /// Resolves the view's dynamic colours again for the traits now in effect, as UIKit does when the
    /// traits change (a view made in light mode and drawn in dark mode shows its dark colours). Colours
    /// given to layers as `CGColor` stay as they were, as in UIKit.
    func resolveColors() {
        backing.backgroundColor = _backgroundColor.flatMap { $0.color.alpha > 0 ? $0.color : nil }
    }

    open var clipsToBounds: Bool {
        get { backing.clipsToBounds }
        set { backing.clipsToBounds = newValue }
    }

    /// The colour controls tint with: the superview's when not set, `.systemBlue` at the top.
    open var tintColor: UIColor! {
        get { _tintColor ?? superview?.tintColor ?? .systemBlue }
        set {
            _tintColor = newValue
            tintColorDidChange()
            for subview in subviews { subview.inheritedTintDidChange() }
        }
    }

    /// Tells this view, and its subviews, that the tint they inherit changed (unless they have their own),
    /// as UIKit does when a superview's tint is set or a view moves under another tint.
    func inheritedTintDidChange() {
        guard _tintColor == nil else { return }
        tintColorDidChange()
        for subview in subviews { subview.inheritedTintDidChange() }
    }

    open func tintColorDidChange() {}


    // MARK: Safe area

    /// The part of the view (insets in points) the safe area leaves out: the device's insets where the
    /// view reaches into them, narrowed by the insets view controllers above it add (a navigation bar's,
    /// `additionalSafeAreaInsets`); zero for a view outside any window.
    open var safeAreaInsets: UIEdgeInsets {
        guard let window, window !== self else {
            // A child controller's view about to enter its parent's (a navigation controller's next top,
            // laid out before the animator adds it): the safe area it will have filling the parent's view.
            if let controller = viewController, let parentView = controller.parent?.viewIfLoaded, parentView.window != nil {
                return parentView.safeAreaInsets + controller.additionalSafeAreaInsets + controller.containerSafeAreaInsets
            }
            return .zero
        }
        var safe = window.bounds.inset(by: window.safeAreaInsets)
        var view: UIView? = self
        while let v = view, v !== window {
            if let controller = v.viewController {
                let added = controller.additionalSafeAreaInsets + controller.containerSafeAreaInsets
                if added != .zero {
                    safe = safe.intersection(v.convert(v.bounds, to: window).intersection(safe).inset(by: added))
                }
            }
            view = v.superview
        }
        let inWindow = convert(bounds, to: window)
        guard !safe.isNull else { return UIEdgeInsets(top: inWindow.height, left: 0, bottom: 0, right: 0) }
        var insets = UIEdgeInsets(top: max(0, safe.minY - inWindow.minY), left: max(0, safe.minX - inWindow.minX),
                                  bottom: max(0, inWindow.maxY - safe.maxY), right: max(0, inWindow.maxX - safe.maxX))
        // Inside a scroll view that insets its content for the safe area, the content has none on those
        // axes (a cell scrolled under a bar keeps its own margins), as UIKit's.
        var ancestor = superview
        while let v = ancestor, v !== window {
            if let scroll = v as? UIScrollView {
                let axes = scroll.safeAreaAdjustedAxes
                if axes.vertical { insets.top = 0; insets.bottom = 0 }
                if axes.horizontal { insets.left = 0; insets.right = 0 }
            }
            ancestor = v.superview
        }
        return insets
    }

    /// Points of the view's left and right sides inside the device's safe-area insets on those sides (a
    /// phone in landscape: the island's side and the other), for content that keeps clear of them (a
    /// cell's, a bar's). Unlike ``safeAreaInsets`` a part of the view beyond the window counts as if it
    /// ended at the window's edge, so a view sliding off the screen (a push's outgoing screen) keeps its
    /// content where it was; zero outside a window.
    final var horizontalSafeSides: (left: CGFloat, right: CGFloat) {
        guard let window, window !== self else { return (0, 0) }
        let device = window.safeAreaInsets
        guard device.left > 0 || device.right > 0 else { return (0, 0) }
        let frame = convert(bounds, to: window), screen = window.bounds
        return (max(0, device.left - max(0, frame.minX - screen.minX)), max(0, device.right - max(0, screen.maxX - frame.maxX)))
    }

    // MARK: Hierarchy

    /// The subviews, back to front.
    open var subviews: [UIView] { _subviews }

    /// The window the view is in, if any.
    open var window: UIWindow? {
        var view: UIView? = self
        while let v = view {
            if let window = v as? UIWindow { return window }
            view = v.superview
        }
        return nil
    }

    open override var next: UIResponder? { viewController ?? superview }
    /// The view controller whose view this is (set by the controller).
    package weak var viewController: UIViewController?

    /// Adds `view` on top of the others, after removing it from its superview. Ignored for the view
    /// itself or one of its ancestors, as UIKit's.
    open func addSubview(_ view: UIView) { insertSubview(view, at: _subviews.count) }

    open func insertSubview(_ view: UIView, at index: Int) {
        guard view !== self, !isDescendant(of: view) else { return }
        let oldWindow = view.window
        let newWindow = window
        let movingWithin = view.superview === self
        if !movingWithin { view.willMove(toSuperview: self) }
        if !movingWithin, view.superview != nil { LayoutEngine.subtreeWillLeave(view) }
        if oldWindow !== newWindow { view.windowWillChange(to: newWindow) }
        if let parent = view.superview {
            parent.willRemoveSubview(view)
            parent._subviews.removeAll { $0 === view }
        }
        let position = min(max(0, index), _subviews.count)
        _subviews.insert(view, at: position)
        view.superview = self
        // Sublayers that are not views' keep their places relative to the views': the layer goes just
        // below the next subview's (found once the layer is out of the list).
        view.layer.removeFromSuperlayer()
        let layerIndex = position < _subviews.count - 1 ? (layer.sublayers ?? []).firstIndex { $0 === _subviews[position + 1].layer } : nil
        if let layerIndex { layer.insertSublayer(view.layer, at: UInt32(layerIndex)) } else { layer.addSublayer(view.layer) }
        // UIKit's order: the window's callbacks inside the superview's, then the superview's own.
        if oldWindow !== newWindow { view.windowDidChange() }
        if !movingWithin {
            LayoutEngine.subtreeDidJoin(view)
            view.inheritedTintDidChange()
            view.didMoveToSuperview()
            didAddSubview(view)
        }
        setNeedsLayout()
    }

    open func insertSubview(_ view: UIView, aboveSubview sibling: UIView) {
        guard let index = _subviews.firstIndex(where: { $0 === sibling }) else { addSubview(view); return }
        let current = _subviews.firstIndex { $0 === view }
        insertSubview(view, at: current.map { $0 < index ? index : index + 1 } ?? index + 1)
    }

    open func insertSubview(_ view: UIView, belowSubview sibling: UIView) {
        guard let index = _subviews.firstIndex(where: { $0 === sibling }) else { addSubview(view); return }
        let current = _subviews.firstIndex { $0 === view }
        insertSubview(view, at: current.map { $0 < index ? index - 1 : index } ?? index)
    }

    open func bringSubviewToFront(_ view: UIView) {
        guard view.superview === self else { return }
        insertSubview(view, at: _subviews.count)
    }

    open func sendSubviewToBack(_ view: UIView) {
        guard view.superview === self else { return }
        insertSubview(view, at: 0)
    }

    /// Swift 4's name of ``bringSubviewToFront(_:)``.
    @available(swift, deprecated: 4.2, renamed: "bringSubviewToFront(_:)")
    open func bringSubview(toFront view: UIView) { bringSubviewToFront(view) }
    /// Swift 4's name of ``sendSubviewToBack(_:)``.
    @available(swift, deprecated: 4.2, renamed: "sendSubviewToBack(_:)")
    open func sendSubview(toBack view: UIView) { sendSubviewToBack(view) }

    open func exchangeSubview(at index1: Int, withSubviewAt index2: Int) {
        guard _subviews.indices.contains(index1), _subviews.indices.contains(index2), index1 != index2 else { return }
        let a = _subviews[index1], b = _subviews[index2]
        let (low, high) = index1 < index2 ? (a, b) : (b, a)
        let lowIndex = min(index1, index2), highIndex = max(index1, index2)
        insertSubview(high, at: lowIndex)
        insertSubview(low, at: highIndex)
    }

    /// Removes the view from its superview (and its window).
    open func removeFromSuperview() {
        guard let parent = superview else { return }
        let oldWindow = window
        willMove(toSuperview: nil)
        LayoutEngine.subtreeWillLeave(self)
        if oldWindow != nil { windowWillChange(to: nil) }
        parent.willRemoveSubview(self)
        parent._subviews.removeAll { $0 === self }
        superview = nil
        layer.removeFromSuperlayer()
        if oldWindow != nil { windowDidChange() }
        didMoveToSuperview()
        parent.setNeedsLayout()
    }

    open func isDescendant(of view: UIView) -> Bool {
        var current: UIView? = self
        while let v = current {
            if v === view { return true }
            current = v.superview
        }
        return false
    }

    /// The first view with `tag`, this one or a descendant, depth first.
    open func viewWithTag(_ tag: Int) -> UIView? {
        if self.tag == tag { return self }
        for view in _subviews { if let found = view.viewWithTag(tag) { return found } }
        return nil
    }

    open func didAddSubview(_ subview: UIView) {}
    open func willRemoveSubview(_ subview: UIView) {}
    open func willMove(toSuperview newSuperview: UIView?) {}
    open func didMoveToSuperview() {}
    open func willMove(toWindow newWindow: UIWindow?) {}
    open func didMoveToWindow() {}

    /// `willMove(toWindow:)` for the whole subtree, top down, and the appearance callbacks of the view
    /// controllers whose views they are.
    private func windowWillChange(to newWindow: UIWindow?) {
        viewController?.viewWindowWillChange(to: newWindow)
        willMove(toWindow: newWindow)
        for view in _subviews { view.windowWillChange(to: newWindow) }
    }

    private func windowDidChange() {
        didMoveToWindow()
        for view in _subviews { view.windowDidChange() }
        viewController?.viewWindowDidChange()
    }

    // MARK: Coordinates

    /// `point` in this view's coordinates, in `view`'s (the window's when nil).
    open func convert(_ point: CGPoint, to view: UIView?) -> CGPoint {
        let target = view?.backing ?? window?.backing
        return CGPoint((try? backing.convert(point.point, to: target)) ?? point.point)
    }

    open func convert(_ point: CGPoint, from view: UIView?) -> CGPoint {
        let source = view?.backing ?? window?.backing
        return CGPoint((try? backing.convert(point.point, from: source)) ?? point.point)
    }

    open func convert(_ rect: CGRect, to view: UIView?) -> CGRect {
        let target = view?.backing ?? window?.backing
        return CGRect((try? backing.convert(rect.rect, to: target)) ?? rect.rect)
    }

    open func convert(_ rect: CGRect, from view: UIView?) -> CGRect {
        let source = view?.backing ?? window?.backing
        return CGRect((try? backing.convert(rect.rect, from: source)) ?? rect.rect)
    }

    // MARK: Hit testing

    /// Whether `point` (this view's coordinates) is inside the bounds.
    open func point(inside point: CGPoint, with event: UIEvent?) -> Bool { bounds.contains(point) }

    /// Asked when one of the view's gesture recognizers is about to begin (after its delegate): false
    /// fails it. Default true; a table answers for its scroll and its rows' swipes.
    open func gestureRecognizerShouldBegin(_ gestureRecognizer: UIGestureRecognizer) -> Bool { true }

    /// The deepest visible, interactive descendant (or self) under `point`, front first.
    open func hitTest(_ point: CGPoint, with event: UIEvent?) -> UIView? {
        guard !isHidden, isUserInteractionEnabled, alpha > 0.01, self.point(inside: point, with: event) else { return nil }
        for view in _subviews.reversed() {
            // A point that maps behind the eye, or into a layer seen exactly edge on, is in no point of it.
            guard let local = try? view.backing.convert(point.point, from: backing) else { continue }
            if let hit = view.hitTest(CGPoint(local), with: event) { return hit }
        }
        return self
    }

    // MARK: Layout

    /// Marks the view for layout at the next layout pass (before the next frame), or `layoutIfNeeded()`.
    open func setNeedsLayout() { needsLayout = true }

    /// Runs the layout pass now for this view and its subviews that need it (top down), as UIKit does:
    /// first `updateConstraints` where asked and the Auto Layout engine of the view's tree, then
    /// `layoutSubviews`; inside an animation block, the frames it sets animate.
    open func layoutIfNeeded() {
        LayoutEngine.prepareLayout(from: self)
        layoutSubtreeIfNeeded()
    }

    /// The pass below `layoutIfNeeded`, for this view and its subtree.
    private func layoutSubtreeIfNeeded() {
        // A view whose safe area changed (it entered a window, a bar appeared above it) lays out again,
        // after `safeAreaInsetsDidChange`, as UIKit's.
        let insets = safeAreaInsets
        if insets != laidOutSafeArea {
            let changed = laidOutSafeArea != nil || insets != .zero
            laidOutSafeArea = insets
            if changed {
                needsLayout = true
                safeAreaInsetsDidChange()
                viewController?.viewSafeAreaInsetsDidChange()
            }
        }
        // A `layoutSubviews` that asks for layout of its own view again (setNeedsLayout and
        // layoutIfNeeded inside it) gets it at the next pass, not recursively.
        if (needsLayout || laidOutSize != bounds.size), !isInLayoutSubviews {
            needsLayout = false
            laidOutSize = bounds.size
            isInLayoutSubviews = true
            viewController?.viewWillLayoutSubviews()
            layoutSubviews()
            viewController?.viewDidLayoutSubviews()
            isInLayoutSubviews = false
        }
        for view in _subviews { view.layoutSubtreeIfNeeded() }
    }

    /// Called when ``safeAreaInsets`` changed, before the layout it causes.
    open func safeAreaInsetsDidChange() {}

    /// Lays out the subviews: the default gives the subviews laid out by constraints the frames the
    /// engine solved (autoresizing masks act when the size changes, not here). Call super when you
    /// override it and use constraints.
    open func layoutSubviews() { applyEngineFramesToSubviews() }

    /// The size that fits `size`; the default is the current size.
    open func sizeThatFits(_ size: CGSize) -> CGSize { bounds.size }

    /// Resizes the view to ``sizeThatFits(_:)`` of its current size.
    open func sizeToFit() {
        let fitted = sizeThatFits(bounds.size)
        bounds = CGRect(origin: bounds.origin, size: fitted)
    }

    /// The size the view's content wants; `UIView.noIntrinsicMetric` both ways by default.
    open var intrinsicContentSize: CGSize { CGSize(width: UIView.noIntrinsicMetric, height: UIView.noIntrinsicMetric) }
    public static let noIntrinsicMetric: CGFloat = -1

    /// Tells Auto Layout the intrinsic size changed: the engine holds the new size at the next pass.
    open func invalidateIntrinsicContentSize() {
        guard !translatesAutoresizingMaskIntoConstraints else { return }
        LayoutEngine.contentSizeDidChange(self)
        superview?.setNeedsLayout()
    }

    // MARK: Auto Layout (what subclasses override; the rest is in AutoLayout/UIView+AutoLayout.swift)

    /// Whether this kind of view needs constraints to lay out (`updateConstraints` is then called even in
    /// a tree with no constraint yet). Default false.
    open class var requiresConstraintBasedLayout: Bool { false }

    /// Adds or changes the view's constraints; called before layout when `setNeedsUpdateConstraints()`
    /// asked (and once when the tree first uses Auto Layout), leaves first. Call super last, as UIKit asks.
    open func updateConstraints() {}

    /// Called when the layout margins change.
    open func layoutMarginsDidChange() {}

    /// The insets from the frame to the rectangle constraints align (points). Default zero.
    open var alignmentRectInsets: UIEdgeInsets { .zero }

    open func alignmentRect(forFrame frame: CGRect) -> CGRect { frame.inset(by: alignmentRectInsets) }

    open func frame(forAlignmentRect alignmentRect: CGRect) -> CGRect {
        let i = alignmentRectInsets
        return CGRect(x: alignmentRect.minX - i.left, y: alignmentRect.minY - i.top,
                      width: alignmentRect.width + i.left + i.right, height: alignmentRect.height + i.top + i.bottom)
    }

    /// The smallest (`UIView.layoutFittingCompressedSize`) or largest (`…ExpandedSize`) size the view's
    /// constraints give it, or the one closest to `targetSize` (points).
    open func systemLayoutSizeFitting(_ targetSize: CGSize) -> CGSize {
        systemLayoutSizeFitting(targetSize, withHorizontalFittingPriority: .fittingSizeLevel, verticalFittingPriority: .fittingSizeLevel)
    }

    /// The size the view's constraints (those within its subtree, and its subviews' content sizes) give
    /// it when its width and height are pulled towards `targetSize` (points) at these priorities; the view
    /// is not changed.
    open func systemLayoutSizeFitting(_ targetSize: CGSize, withHorizontalFittingPriority horizontalFittingPriority: UILayoutPriority,
                                      verticalFittingPriority: UILayoutPriority) -> CGSize {
        fittingSize(targetSize, horizontal: horizontalFittingPriority, vertical: verticalFittingPriority)
    }

    /// The content size the engine holds: ``intrinsicContentSize`` (a wrapping label's at the width the
    /// engine gives it, `width`).
    package func layoutContentSize(forWidth width: CGFloat?) -> CGSize { intrinsicContentSize }

    // MARK: Drawing

    /// Draws the view's content into the current context (``UIGraphicsGetCurrentContext()``); called
    /// each frame for a view whose class overrides it. The default draws nothing.
    open func draw(_ rect: CGRect) {}

    /// Marks the content for drawing again (``draw(_:)`` is called before the next frame).
    open func setNeedsDisplay() { needsDisplay = true }
    open func setNeedsDisplay(_ rect: CGRect) { needsDisplay = true }

    // MARK: Snapshots

    /// A new view showing what this view shows now (its presentation at the stage's current time, its
    /// subtree included), placed as this view is; not in any tree. `afterScreenUpdates` is accepted: the
    /// tree is drawn as it is, pending layout first when true.
    open func snapshotView(afterScreenUpdates afterUpdates: Bool) -> UIView? {
        if afterUpdates { layoutIfNeeded() }
        let scale = Double(UIScreen.main.scale)
        let presentation = StageContext.presentation
        guard let image = try? backing.snapshot(scale: scale, presentation: presentation) else { return nil }
        let snapshot = UISnapshotView(frame: frame, image: image)
        snapshot.transform = transform
        snapshot.center = center
        return snapshot
    }

    /// A new view showing the part `rect` (the view's coordinates, points) of what this view shows now,
    /// `rect`'s size, not in any tree. Cap insets are kept for the signature: the snapshot is not
    /// stretched here.
    open func resizableSnapshotView(from rect: CGRect, afterScreenUpdates afterUpdates: Bool, withCapInsets capInsets: UIEdgeInsets) -> UIView? {
        if afterUpdates { layoutIfNeeded() }
        let scale = Double(UIScreen.main.scale)
        guard rect.width.isFinite, rect.height.isFinite, rect.origin.x.isFinite, rect.origin.y.isFinite,
              let image = try? backing.snapshot(scale: scale, presentation: StageContext.presentation) else { return nil }
        let b = bounds
        let limit = 1e9
        guard [(rect.minX - b.minX) * scale, (rect.minY - b.minY) * scale, rect.width * scale, rect.height * scale].allSatisfy({ abs($0) < limit }) else { return nil }
        let x = Int(((rect.minX - b.minX) * scale).rounded()), y = Int(((rect.minY - b.minY) * scale).rounded())
        let w = Int((rect.width * scale).rounded()), h = Int((rect.height * scale).rounded())
        let x0 = max(0, x), y0 = max(0, y), x1 = min(image.width, x + w), y1 = min(image.height, y + h)
        guard x1 > x0, y1 > y0, let part = try? image.cropped(to: PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)) else { return nil }
        return UISnapshotView(frame: CGRect(origin: .zero, size: rect.size), image: part)
    }

    /// Draws the view's hierarchy into the current context at `rect`; true when it drew.
    @discardableResult
    open func drawHierarchy(in rect: CGRect, afterScreenUpdates afterUpdates: Bool) -> Bool {
        guard let context = UIGraphicsGetCurrentContext(), let image = try? backing.snapshot(scale: Double(UIScreen.main.scale), presentation: StageContext.presentation) else {
            return false
        }
        context.draw(CGImage(bitmap: image), in: rect)
        return true
    }

    open override var description: String {
        "<\(type(of: self)): frame = \(frame)\(isHidden ? "; hidden = YES" : "")\(alpha < 1 ? "; alpha = \(alpha)" : "")>"
    }
}

extension UIView {
    /// How a view's content (an image view's image) fills its bounds.
    public enum ContentMode: Int, Sendable {
        case scaleToFill, scaleAspectFit, scaleAspectFill, redraw, center, top, bottom, left, right
        case topLeft, topRight, bottomLeft, bottomRight
    }
}

/// What `snapshotView(afterScreenUpdates:)` returns: a view showing a picture of another.
final class UISnapshotView: UIView {
    private var image: Bitmap?

    init(frame: CGRect, image: Bitmap) {
        self.image = image
        super.init(frame: frame)
        (backing as? ImageView)?.image = image
    }

    required init?(coder: NSCoder) { nil }

    override func makeBacking() -> View {
        let view = ImageView(image: nil, frame: .zero, contentMode: .scaleToFill, name: "snapshot")
        view.isOpaque = false
        return view
    }
}

extension UIView: LayerContentDelegate {
    /// What ``draw(_:)`` drew, drawn again only when needed (UIKit's backing store): at the model bounds,
    /// stretched to the bounds shown while they animate.
    package func drawnContent(of layer: CALayer) -> (any ViewContent)? {
        let b = bounds
        if needsDisplay || (contentMode == .redraw && displayed?.size != b.size) || displayed == nil {
            needsDisplay = false
            let context = CGContext(size: b.size)
            GraphicsStack.with(context, size: b.size, scale: UIScreen.main.scale) { draw(b) }
            displayed = (b.size, context.isEmpty ? nil : ContextContent(context, bounds: b.rect))
        }
        return displayed?.content
    }
}
