internal import Motion

/// Told as a scroll view scrolls.
public protocol UIScrollViewDelegate: NSObjectProtocol {
    func scrollViewDidScroll(_ scrollView: UIScrollView)
    func scrollViewWillBeginDragging(_ scrollView: UIScrollView)
    func scrollViewWillEndDragging(_ scrollView: UIScrollView, withVelocity velocity: CGPoint,
                                   targetContentOffset: UnsafeMutablePointer<CGPoint>)
    func scrollViewDidEndDragging(_ scrollView: UIScrollView, willDecelerate decelerate: Bool)
    func scrollViewWillBeginDecelerating(_ scrollView: UIScrollView)
    func scrollViewDidEndDecelerating(_ scrollView: UIScrollView)
    func scrollViewDidEndScrollingAnimation(_ scrollView: UIScrollView)
}

extension UIScrollViewDelegate {
    public func scrollViewDidScroll(_ scrollView: UIScrollView) {}
    public func scrollViewWillBeginDragging(_ scrollView: UIScrollView) {}
    public func scrollViewWillEndDragging(_ scrollView: UIScrollView, withVelocity velocity: CGPoint,
                                          targetContentOffset: UnsafeMutablePointer<CGPoint>) {}
    public func scrollViewDidEndDragging(_ scrollView: UIScrollView, willDecelerate decelerate: Bool) {}
    public func scrollViewWillBeginDecelerating(_ scrollView: UIScrollView) {}
    public func scrollViewDidEndDecelerating(_ scrollView: UIScrollView) {}
    public func scrollViewDidEndScrollingAnimation(_ scrollView: UIScrollView) {}
}

/// UIKit's scroll view: its `contentOffset` is its bounds' origin, so its subviews move as it scrolls;
/// set in an animation block, the offset animates like any bounds. A finger scrolls it through its
/// `panGestureRecognizer` within the content (no rubber band past the edges), and a release with speed
/// decelerates to a stop in the direction of travel (UIKit's projection: the velocity times
/// `decelerationRate / (1 - decelerationRate)` per millisecond), eased out.
open class UIScrollView: UIView {
    /// Told as it scrolls.
    open weak var delegate: UIScrollViewDelegate?
    /// Points: the size of what it scrolls over.
    open var contentSize = CGSize.zero {
        didSet {
            guard contentSize != oldValue else { return }
            adjustedInsetMayHaveChanged()
            barsMayHaveReachedAnEdge()
        }
    }
    /// Kept: touches reach the content at once here.
    open var delaysContentTouches = true
    open var canCancelContentTouches = true
    /// Pull to refresh: kept, not drawn (see `UIRefreshControl`).
    open var refreshControl: UIRefreshControl?

    /// The content area for constraints: its edges and size are the content's (constraints to it decide
    /// ``contentSize``).
    public var contentLayoutGuide: UILayoutGuide { scrollGuide(\.contentGuide, role: .scrollContent, "UIScrollView-contentLayoutGuide") }
    /// The scroll view's visible frame for constraints: what is pinned to it stays put while the content
    /// scrolls.
    public var frameLayoutGuide: UILayoutGuide { scrollGuide(\.frameGuide, role: .scrollFrame, "UIScrollView-frameLayoutGuide") }
    private var contentGuide: UILayoutGuide?
    private var frameGuide: UILayoutGuide?

    private func scrollGuide(_ path: ReferenceWritableKeyPath<UIScrollView, UILayoutGuide?>, role: UILayoutGuide.Role, _ name: String) -> UILayoutGuide {
        if let guide = self[keyPath: path] { return guide }
        let guide = UILayoutGuide(role: role, identifier: name)
        guide.owningView = self
        self[keyPath: path] = guide
        return guide
    }
    /// Points added around the content.
    open var contentInset = UIEdgeInsets.zero { didSet { if contentInset != oldValue { adjustedInsetMayHaveChanged() } } }
    /// The insets in effect: `contentInset` plus the safe area (the bars and the screen's edges the
    /// scroll view is under) as ``contentInsetAdjustmentBehavior`` says: `.always` on every side,
    /// `.scrollableAxes` on the axes it scrolls along (vertically when the content is taller than the
    /// bounds or it always bounces vertically, as a table does), `.automatic` as that and also at the
    /// top and bottom whenever it is in a navigation controller's screen, `.never` not at all.
    open var adjustedContentInset: UIEdgeInsets {
        var inset = contentInset
        let axes = safeAreaAdjustedAxes
        guard axes.vertical || axes.horizontal else { return inset }
        let safe = safeAreaInsets
        if axes.vertical {
            inset.top += safe.top
            inset.bottom += safe.bottom
        }
        if axes.horizontal {
            inset.left += safe.left
            inset.right += safe.right
        }
        return inset
    }

    /// The axes on which the content is inset by the safe area (``adjustedContentInset``).
    var safeAreaAdjustedAxes: (vertical: Bool, horizontal: Bool) {
        switch contentInsetAdjustmentBehavior {
        case .never: return (false, false)
        case .always: return (true, true)
        case .scrollableAxes: return (scrollsVertically, scrollsHorizontally)
        case .automatic: return (scrollsVertically || isInNavigationController, scrollsHorizontally)
        }
    }
    /// Default `.automatic`.
    open var contentInsetAdjustmentBehavior = ContentInsetAdjustmentBehavior.automatic
    /// The adjusted top inset the offset was last kept at, so that a scroll view resting at the top stays
    /// there when its safe area changes.
    private var restingTopInset: CGFloat = 0
    /// The display link following an animated offset.
    private var offsetFollower: DisplayLink?

    /// Whether a view controller of a navigation or tab bar controller owns this view or one it is in.
    private var isInNavigationController: Bool {
        var view: UIView? = self
        while let v = view {
            if let controller = v.viewController,
               controller.navigationController != nil || controller.tabBarController != nil || controller is UINavigationController { return true }
            view = v.superview
        }
        return false
    }

    /// Called when ``adjustedContentInset`` changes (with the safe area).
    open func adjustedContentInsetDidChange() {}

    open override func safeAreaInsetsDidChange() {
        super.safeAreaInsetsDidChange()
        adjustedInsetMayHaveChanged()
    }

    /// The safe area, the content's size or the content inset changed: a scroll view resting at the top
    /// stays at the top (the content starts under the bars), as UIKit's.
    private func adjustedInsetMayHaveChanged() {
        let top = adjustedContentInset.top
        guard top != restingTopInset else { return }
        if contentOffset.y == -restingTopInset, !isTracking, !isDecelerating {
            UIView.performWithoutAnimation { contentOffset = CGPoint(x: contentOffset.x, y: -top) }
        }
        restingTopInset = top
        adjustedContentInsetDidChange()
    }
    open var isScrollEnabled = true { didSet { scrollPan.isEnabled = isScrollEnabled } }
    open var isPagingEnabled = false
    open var bounces = true
    open var alwaysBounceVertical = false
    open var alwaysBounceHorizontal = false
    open var showsVerticalScrollIndicator = true
    open var showsHorizontalScrollIndicator = true
    open var scrollIndicatorInsets = UIEdgeInsets.zero
    open var decelerationRate = DecelerationRate.normal
    open var keyboardDismissMode = KeyboardDismissMode.none
    open private(set) var isTracking = false
    open private(set) var isDragging = false
    open private(set) var isDecelerating = false
    /// The pan that scrolls it.
    open var panGestureRecognizer: UIPanGestureRecognizer { scrollPan }
    /// The rest of the current pan drags the enclosing sheet (``handOverToSheet(pulledPastTop:translation:)``),
    /// pulled this far (points) below where the content reached its top.
    private var handsPanToSheet = false
    private var sheetPull: CGFloat = 0
    private lazy var scrollPan = UIPanGestureRecognizer(target: self, action: Selector(UIScrollView.handleScrollPan(_:), name: "handleScrollPan(_:)"))
    private var dragStart = CGPoint.zero

    public override init(frame: CGRect) {
        super.init(frame: frame)
        clipsToBounds = true
        addGestureRecognizer(scrollPan)
    }

    public required init?(coder: NSCoder) { nil }

    /// Points: where the content's origin is scrolled to (the bounds' origin).
    open var contentOffset: CGPoint {
        get { bounds.origin }
        set {
            guard newValue.x.isFinite, newValue.y.isFinite, newValue != bounds.origin else { return }
            bounds.origin = newValue
            delegate?.scrollViewDidScroll(self)
            barsMayHaveReachedAnEdge()
        }
    }

    /// Points the content has scrolled up from its top (0 at rest).
    var scrolledFromTop: CGFloat { contentOffset.y + adjustedContentInset.top }

    /// Whether the content's end is in view (where a bottom bar shows its scroll-edge appearance).
    var isAtBottomEdge: Bool { contentOffset.y + bounds.height >= contentSize.height + adjustedContentInset.bottom - 0.5 }

    /// Tells the navigation controller of the controller this scroll view belongs to, if any, that its
    /// bars' scroll edges may have changed.
    private func barsMayHaveReachedAnEdge() {
        let controller = nearestController
        controller?.navigationController?.updateBarScrollEdges()
        controller?.enclosingTabBarController?.updateBarScrollEdges()
    }

    /// A pan the sheet it is in takes instead (``UISheetPresentationController``: down with the content at
    /// its top, or up while the sheet can grow) does not scroll.
    open override func gestureRecognizerShouldBegin(_ gestureRecognizer: UIGestureRecognizer) -> Bool {
        if gestureRecognizer === scrollPan, let sheet = enclosingSheet, sheet.takesPan(of: self, translation: scrollPan.translation(in: self)) {
            return false
        }
        return super.gestureRecognizerShouldBegin(gestureRecognizer)
    }

    /// The sheet presenting the controller this scroll view belongs to (through its containers), if any.
    private var enclosingSheet: UISheetPresentationController? {
        nearestController?.currentPresentationController as? UISheetPresentationController
    }

    /// Scrolls to `contentOffset`; animated over 0.3 s, ease in and out (then
    /// `scrollViewDidEndScrollingAnimation`).
    open func setContentOffset(_ contentOffset: CGPoint, animated: Bool) {
        guard animated else { self.contentOffset = contentOffset; return }
        UIView.animate(withDuration: 0.3, delay: 0, options: [.curveEaseInOut, .beginFromCurrentState], animations: {
            self.contentOffset = contentOffset
        }, completion: { _ in self.delegate?.scrollViewDidEndScrollingAnimation(self) })
    }

    /// Follows an animated change of the offset frame by frame: inside an animation block the model
    /// offset is already the end while the picture scrolls, so a view that gives content views to what
    /// is in view (a table's rows) is told at each frame what the picture shows, and nil when the
    /// animation is over. Outside an animation block, nothing.
    func followOffsetAnimation(_ show: @escaping (_ shown: CGRect?) -> Void) {
        let duration = UIView.inheritedAnimationDuration
        guard duration > 0, let engine = StageContext.engine else { return }
        offsetFollower?.invalidate()
        let end = engine.currentTime + duration
        offsetFollower = engine.addDisplayLink(duration: duration) { [weak self] time in
            guard let self else { return }
            show(time >= end - 1e-9 ? nil : self.layer.presentation()?.bounds)
        }
        show(layer.presentation()?.bounds)
    }

    /// Stops following an animated offset (a reload replaced what was shown).
    func stopFollowingOffsetAnimation() {
        offsetFollower?.invalidate()
        offsetFollower = nil
    }

    /// Where a flick that would stop at `proposed` stops, before the delegate's say (velocity in points a
    /// millisecond): a collection view asks its layout.
    func targetContentOffset(proposed: CGPoint, velocity: CGPoint) -> CGPoint { proposed }

    /// Scrolls the least that makes `rect` (content coordinates) visible.
    open func scrollRectToVisible(_ rect: CGRect, animated: Bool) {
        var offset = contentOffset
        if rect.maxY > offset.y + bounds.height { offset.y = rect.maxY - bounds.height }
        if rect.minY < offset.y { offset.y = rect.minY }
        if rect.maxX > offset.x + bounds.width { offset.x = rect.maxX - bounds.width }
        if rect.minX < offset.x { offset.x = rect.minX }
        setContentOffset(clamped(offset), animated: animated)
    }

    /// In a sheet, a pan that brought the content to its top and goes on down drags the sheet from
    /// there, as UIKit's sheets take over in the middle of a scroll: the sheet follows by how far the
    /// finger is past the point where the content reached its top (`pulledPastTop`, points), and goes
    /// back to where it was, the content scrolling again, if the finger goes back up past it.
    private func handOverToSheet(pulledPastTop: CGFloat, translation t: CGPoint) {
        guard let sheet = enclosingSheet else { return }
        if !handsPanToSheet {
            // (Only a pan that goes mostly down: a sideways one drifting down keeps to the content.)
            guard pulledPastTop > 0, abs(t.y) > abs(t.x), sheet.takesPanInMidGesture() else { return }
            handsPanToSheet = true
            sheet.beginDrag()
        }
        sheetPull = max(0, pulledPastTop)
        sheet.drag(by: sheetPull)
    }

    /// The offset kept within the content (and its insets).
    func clamped(_ p: CGPoint) -> CGPoint {
        let minX = -adjustedContentInset.left, minY = -adjustedContentInset.top
        let maxX = max(minX, contentSize.width + adjustedContentInset.right - bounds.width)
        let maxY = max(minY, contentSize.height + adjustedContentInset.bottom - bounds.height)
        return CGPoint(x: min(maxX, max(minX, p.x)), y: min(maxY, max(minY, p.y)))
    }

    private var scrollsHorizontally: Bool { contentSize.width > bounds.width || alwaysBounceHorizontal }
    private var scrollsVertically: Bool { contentSize.height > bounds.height || alwaysBounceVertical }

    func handleScrollPan(_ pan: UIPanGestureRecognizer) {
        switch pan.state {
        case .began:
            layer.removeAllAnimations()
            isTracking = true
            isDragging = true
            dragStart = contentOffset
            delegate?.scrollViewWillBeginDragging(self)
            fallthrough
        case .changed:
            let t = pan.translation(in: self)
            let wanted = CGPoint(x: scrollsHorizontally ? dragStart.x - t.x : dragStart.x, y: scrollsVertically ? dragStart.y - t.y : dragStart.y)
            contentOffset = clamped(wanted)
            handOverToSheet(pulledPastTop: -adjustedContentInset.top - wanted.y, translation: t)
        case .ended, .cancelled:
            isTracking = false
            if handsPanToSheet, let sheet = enclosingSheet {
                handsPanToSheet = false
                // Back above where the content reached its top, the content has the motion again: the
                // sheet settles where it is, the content decelerates as usual.
                let pulled = sheetPull
                sheet.endDrag(by: pulled, speed: pan.state == .ended && pulled > 0 ? pan.velocity(in: self).y : 0, released: pan.state == .ended)
            }
            let v = pan.state == .ended ? pan.velocity(in: self) : .zero
            let velocity = CGPoint(x: scrollsHorizontally ? -v.x : 0, y: scrollsVertically ? -v.y : 0)
            let rate = decelerationRate.rawValue
            let projection = rate / (1 - rate) / 1000
            var target = clamped(CGPoint(x: contentOffset.x + velocity.x * projection, y: contentOffset.y + velocity.y * projection))
            if isPagingEnabled, bounds.width > 0, bounds.height > 0 {
                target = clamped(CGPoint(x: (target.x / bounds.width).rounded() * bounds.width, y: (target.y / bounds.height).rounded() * bounds.height))
            }
            target = clamped(targetContentOffset(proposed: target, velocity: CGPoint(x: velocity.x / 1000, y: velocity.y / 1000)))
            delegate?.scrollViewWillEndDragging(self, withVelocity: CGPoint(x: velocity.x / 1000, y: velocity.y / 1000), targetContentOffset: &target)
            let decelerates = target != contentOffset
            isDragging = false
            delegate?.scrollViewDidEndDragging(self, willDecelerate: decelerates)
            guard decelerates else { return }
            isDecelerating = true
            delegate?.scrollViewWillBeginDecelerating(self)
            let distance = hypot(target.x - contentOffset.x, target.y - contentOffset.y)
            let speed = max(1, hypot(velocity.x, velocity.y))
            // Eased out so that it starts at the finger's speed: UIKit's ease-out curve starts at 1 / 0.58
            // of the average speed.
            let duration = min(2.5, max(0.2, distance / speed / 0.58))
            UIView.animate(withDuration: duration, delay: 0, options: [.curveEaseOut], animations: {
                self.contentOffset = target
            }, completion: { _ in
                self.isDecelerating = false
                self.delegate?.scrollViewDidEndDecelerating(self)
            })
        default:
            break
        }
    }

    public struct DecelerationRate: RawRepresentable, Hashable, Sendable {
        public let rawValue: CGFloat
        public init(rawValue: CGFloat) { self.rawValue = rawValue }
        public static let normal = DecelerationRate(rawValue: 0.998)
        public static let fast = DecelerationRate(rawValue: 0.99)
    }

    public enum ContentInsetAdjustmentBehavior: Int, Sendable { case automatic, scrollableAxes, never, always }
    public enum KeyboardDismissMode: Int, Sendable { case none, onDrag, interactive }
}

/// UIKit's pull-to-refresh control: kept on its scroll view, and `beginRefreshing`/`endRefreshing` change
/// `isRefreshing`; not drawn (the spinner is noted), and a pull does not trigger it.
open class UIRefreshControl: UIControl {
    open private(set) var isRefreshing = false
    open var attributedTitle: NSAttributedString?

    public override init(frame: CGRect) {
        super.init(frame: frame)
    }

    public convenience init() { self.init(frame: .zero) }

    public required init?(coder: NSCoder) { nil }

    open func beginRefreshing() {
        NotDrawn.note("UIRefreshControl (its spinner)")
        isRefreshing = true
    }

    open func endRefreshing() { isRefreshing = false }
}
