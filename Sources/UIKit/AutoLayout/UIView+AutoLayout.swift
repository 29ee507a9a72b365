internal import ConstraintSolver

/// What a view keeps for Auto Layout, made on first use (views that never meet a constraint pay for none).
final class ViewLayoutState {
    /// The active constraints installed on the view (it is their items' nearest common ancestor).
    var constraints: [NSLayoutConstraint] = []
    var guides: [UILayoutGuide] = []
    var hugging = (horizontal: UILayoutPriority.defaultLow, vertical: UILayoutPriority.defaultLow)
    var resistance = (horizontal: UILayoutPriority.defaultHigh, vertical: UILayoutPriority.defaultHigh)
    var margins: NSDirectionalEdgeInsets?
    var preservesSuperviewLayoutMargins = false
    var insetsLayoutMarginsFromSafeArea = true
    var semanticContentAttribute = UISemanticContentAttribute.unspecified
    /// Which way `exerciseAmbiguityInLayout()` pulled last.
    var exercisedForward = false
    lazy var safeAreaGuide = UILayoutGuide(role: .safeArea, identifier: "UIViewSafeAreaLayoutGuide")
    lazy var marginsGuide = UILayoutGuide(role: .layoutMargins, identifier: "UIViewLayoutMarginsGuide")
    lazy var readableGuide = UILayoutGuide(role: .readableContent, identifier: "UIViewReadableContentGuide")
    // On a tree's root:
    /// The tree uses Auto Layout: a constraint was activated in it, or a view in it does not translate
    /// its autoresizing mask.
    var engaged = false
    /// `updateConstraints` is due for views that asked.
    var pendingConstraintUpdates = false
    /// A constraint pass or a layout pass's engine step is under way in this tree (re-entry waits).
    var updatingConstraints = false
    var preparing = false
    var engine: LayoutEngine?
    /// The view's frame is (or was) held by autoresizing constraints in its tree's engine.
    var pinned = false
}

extension UILayoutGuide {
    convenience init(role: Role, identifier: String) {
        self.init()
        self.role = role
        self.identifier = identifier
    }
}

/// Whether a view's content is laid out left to right or right to left (leading and trailing follow it).
public enum UIUserInterfaceLayoutDirection: Int, Sendable {
    case leftToRight = 0, rightToLeft = 1
}

/// How a view's content flips for right-to-left languages, with Apple's raw values.
public enum UISemanticContentAttribute: Int, Sendable {
    case unspecified = 0, playback, spatial, forceLeftToRight, forceRightToLeft
}

extension UIView: LayoutItem {
    /// A view's frame is in its superview's coordinates.
    var layoutParent: UIView? { superview }

    var layoutStateIfPresent: ViewLayoutState? { _layoutState }
    var layoutState: ViewLayoutState {
        if let state = _layoutState { return state }
        let state = ViewLayoutState()
        _layoutState = state
        return state
    }

    /// The standard spacing between sibling views (points), used by the system-spacing anchors.
    static let systemSpacing: CGFloat = 8

    /// The size that fits nothing: `systemLayoutSizeFitting(UIView.layoutFittingCompressedSize)` is the
    /// smallest size the constraints allow.
    public static let layoutFittingCompressedSize = CGSize.zero
    /// The size that fits everything (points): the largest size the constraints allow.
    public static let layoutFittingExpandedSize = CGSize(width: 100_000, height: 100_000)

    // MARK: Constraints

    /// The active constraints installed on this view (those whose nearest common ancestor it is).
    public var constraints: [NSLayoutConstraint] { _layoutState?.constraints ?? [] }

    /// Activates `constraint` (UIKit's older API; the constraint is installed on the items' nearest common
    /// ancestor, which UIKit requires this view to be).
    public func addConstraint(_ constraint: NSLayoutConstraint) { constraint.isActive = true }
    public func addConstraints(_ constraints: [NSLayoutConstraint]) { NSLayoutConstraint.activate(constraints) }
    public func removeConstraint(_ constraint: NSLayoutConstraint) { if constraint.installedOn === self { constraint.isActive = false } }
    public func removeConstraints(_ constraints: [NSLayoutConstraint]) { for c in constraints { removeConstraint(c) } }

    func addInstalled(_ constraint: NSLayoutConstraint) {
        constraint.installedOn = self
        layoutState.constraints.append(constraint)
        LayoutEngine.didInstall(constraint, on: self)
    }

    func removeInstalled(_ constraint: NSLayoutConstraint) {
        layoutState.constraints.removeAll { $0 === constraint }
        constraint.installedOn = nil
        LayoutEngine.didUninstall(constraint, from: self)
    }

    /// The constraints in the view's tree that affect its frame along `axis` (UIKit's debugging aid).
    public func constraintsAffectingLayout(for axis: NSLayoutConstraint.Axis) -> [NSLayoutConstraint] {
        var found: [NSLayoutConstraint] = []
        func visit(_ view: UIView) {
            for c in view.constraints where (c.firstItem === self || c.secondItem === self) && c.firstAttribute.isVertical == (axis == .vertical) {
                found.append(c)
            }
            for subview in view.subviews { visit(subview) }
        }
        visit(LayoutEngine.root(of: self))
        return found
    }

    // MARK: Anchors

    public var leadingAnchor: NSLayoutXAxisAnchor { NSLayoutXAxisAnchor(item: self, attribute: .leading) }
    public var trailingAnchor: NSLayoutXAxisAnchor { NSLayoutXAxisAnchor(item: self, attribute: .trailing) }
    public var leftAnchor: NSLayoutXAxisAnchor { NSLayoutXAxisAnchor(item: self, attribute: .left) }
    public var rightAnchor: NSLayoutXAxisAnchor { NSLayoutXAxisAnchor(item: self, attribute: .right) }
    public var topAnchor: NSLayoutYAxisAnchor { NSLayoutYAxisAnchor(item: self, attribute: .top) }
    public var bottomAnchor: NSLayoutYAxisAnchor { NSLayoutYAxisAnchor(item: self, attribute: .bottom) }
    public var widthAnchor: NSLayoutDimension { NSLayoutDimension(item: self, attribute: .width) }
    public var heightAnchor: NSLayoutDimension { NSLayoutDimension(item: self, attribute: .height) }
    public var centerXAnchor: NSLayoutXAxisAnchor { NSLayoutXAxisAnchor(item: self, attribute: .centerX) }
    public var centerYAnchor: NSLayoutYAxisAnchor { NSLayoutYAxisAnchor(item: self, attribute: .centerY) }
    /// A label's first line's baseline; other views' bottom edge.
    public var firstBaselineAnchor: NSLayoutYAxisAnchor { NSLayoutYAxisAnchor(item: self, attribute: .firstBaseline) }
    /// A label's last line's baseline; other views' bottom edge.
    public var lastBaselineAnchor: NSLayoutYAxisAnchor { NSLayoutYAxisAnchor(item: self, attribute: .lastBaseline) }

    // MARK: Layout guides

    public var layoutGuides: [UILayoutGuide] { _layoutState?.guides ?? [] }

    public func addLayoutGuide(_ guide: UILayoutGuide) {
        guard guide.owningView !== self else { return }
        guide.owningView?.removeLayoutGuide(guide)
        guide.owningView = self
        layoutState.guides.append(guide)
    }

    public func removeLayoutGuide(_ guide: UILayoutGuide) {
        guard guide.owningView === self else { return }
        // Constraints on the guide go with it.
        var ancestor: UIView? = self
        while let a = ancestor {
            for c in a.constraints where c.firstItem === guide || c.secondItem === guide { c.isActive = false }
            ancestor = a.superview
        }
        layoutState.guides.removeAll { $0 === guide }
        guide.owningView = nil
    }

    /// The part of the view not covered by bars and the device's insets (``safeAreaInsets``).
    public var safeAreaLayoutGuide: UILayoutGuide { systemGuide(\.safeAreaGuide) }
    /// The view's bounds inset by its ``layoutMargins``.
    public var layoutMarginsGuide: UILayoutGuide { systemGuide(\.marginsGuide) }
    /// A width of text comfortable to read, centred within the margins: the margins guide here, at most
    /// 672 pt wide (iOS's readable width at the default text size; it grows with Dynamic Type there).
    public var readableContentGuide: UILayoutGuide { systemGuide(\.readableGuide) }

    private func systemGuide(_ path: KeyPath<ViewLayoutState, UILayoutGuide>) -> UILayoutGuide {
        let guide = layoutState[keyPath: path]
        guide.owningView = self
        return guide
    }

    // MARK: Margins

    /// The insets (points) the margins guide keeps from the view's edges, including what the safe area
    /// adds (``insetsLayoutMarginsFromSafeArea``). Default 8 pt each side; a view controller's view has
    /// the system minimum (16 pt at the sides, 20 on wider phones, 0 at top and bottom) inside its safe
    /// area.
    public var layoutMargins: UIEdgeInsets {
        get {
            let direction = effectiveUserInterfaceLayoutDirection
            let own = directionalLayoutMargins
            var margins = UIEdgeInsets(top: own.top, left: direction == .rightToLeft ? own.trailing : own.leading,
                                       bottom: own.bottom, right: direction == .rightToLeft ? own.leading : own.trailing)
            if insetsLayoutMarginsFromSafeArea {
                let safe = safeAreaInsets
                if viewController != nil {
                    margins = margins + safe
                } else {
                    margins = UIEdgeInsets(top: max(margins.top, safe.top), left: max(margins.left, safe.left),
                                           bottom: max(margins.bottom, safe.bottom), right: max(margins.right, safe.right))
                }
            }
            if preservesSuperviewLayoutMargins, let parent = superview {
                let inherited = parent.layoutMargins
                let inParent = convert(bounds, to: parent)
                margins.left = max(margins.left, inherited.left - inParent.minX)
                margins.right = max(margins.right, inParent.maxX - (parent.bounds.width - inherited.right))
                margins.top = max(margins.top, inherited.top - inParent.minY)
                margins.bottom = max(margins.bottom, inParent.maxY - (parent.bounds.height - inherited.bottom))
            }
            return margins
        }
        set {
            let direction = effectiveUserInterfaceLayoutDirection
            directionalLayoutMargins = NSDirectionalEdgeInsets(top: newValue.top, leading: direction == .rightToLeft ? newValue.right : newValue.left,
                                                               bottom: newValue.bottom, trailing: direction == .rightToLeft ? newValue.left : newValue.right)
        }
    }

    /// The margins by leading and trailing edge (points), without what the safe area adds.
    public var directionalLayoutMargins: NSDirectionalEdgeInsets {
        get {
            if let margins = _layoutState?.margins { return margins }
            if viewController != nil {
                let side = UIScreen.systemMargin(forWidth: window?.bounds.width ?? UIScreen.main.bounds.width)
                return NSDirectionalEdgeInsets(top: 0, leading: side, bottom: 0, trailing: side)
            }
            return NSDirectionalEdgeInsets(top: 8, leading: 8, bottom: 8, trailing: 8)
        }
        set {
            guard newValue != _layoutState?.margins else { return }
            layoutState.margins = newValue
            marginsDidChange()
        }
    }

    public var preservesSuperviewLayoutMargins: Bool {
        get { _layoutState?.preservesSuperviewLayoutMargins ?? false }
        set { layoutState.preservesSuperviewLayoutMargins = newValue; marginsDidChange() }
    }

    /// Whether the margins are kept inside the safe area. Default true.
    public var insetsLayoutMarginsFromSafeArea: Bool {
        get { _layoutState?.insetsLayoutMarginsFromSafeArea ?? true }
        set { layoutState.insetsLayoutMarginsFromSafeArea = newValue; marginsDidChange() }
    }

    func marginsDidChange() {
        layoutMarginsDidChange()
        LayoutEngine.invalidate(self)
        setNeedsLayout()
    }

    // MARK: Direction

    public var semanticContentAttribute: UISemanticContentAttribute {
        get { _layoutState?.semanticContentAttribute ?? .unspecified }
        set { layoutState.semanticContentAttribute = newValue; LayoutEngine.invalidate(self); setNeedsLayout() }
    }

    /// Right to left when the view (or the nearest ancestor that says) forces it; left to right
    /// otherwise (the stage's language is left to right).
    public var effectiveUserInterfaceLayoutDirection: UIUserInterfaceLayoutDirection {
        var view: UIView? = self
        while let v = view {
            switch v.semanticContentAttribute {
            case .forceRightToLeft: return .rightToLeft
            case .forceLeftToRight, .playback, .spatial: return .leftToRight
            case .unspecified: view = v.superview
            }
        }
        return .leftToRight
    }

    // MARK: Content size

    /// How much the view resists growing beyond its intrinsic size along `axis`. Default 250.
    public func contentHuggingPriority(for axis: NSLayoutConstraint.Axis) -> UILayoutPriority {
        guard let state = _layoutState else { return .defaultLow }
        return axis == .horizontal ? state.hugging.horizontal : state.hugging.vertical
    }

    public func setContentHuggingPriority(_ priority: UILayoutPriority, for axis: NSLayoutConstraint.Axis) {
        if axis == .horizontal { layoutState.hugging.horizontal = priority } else { layoutState.hugging.vertical = priority }
        LayoutEngine.invalidate(self)
    }

    /// How much the view resists shrinking below its intrinsic size along `axis`. Default 750.
    public func contentCompressionResistancePriority(for axis: NSLayoutConstraint.Axis) -> UILayoutPriority {
        guard let state = _layoutState else { return .defaultHigh }
        return axis == .horizontal ? state.resistance.horizontal : state.resistance.vertical
    }

    public func setContentCompressionResistancePriority(_ priority: UILayoutPriority, for axis: NSLayoutConstraint.Axis) {
        if axis == .horizontal { layoutState.resistance.horizontal = priority } else { layoutState.resistance.vertical = priority }
        LayoutEngine.invalidate(self)
    }

    // MARK: Alignment rectangles

    // MARK: The constraint pass

    /// Asks for ``updateConstraints()`` before the next layout pass.
    public func setNeedsUpdateConstraints() {
        needsConstraintUpdate = true
        LayoutEngine.engage(self)
        setNeedsLayout()
    }

    public func needsUpdateConstraints() -> Bool { needsConstraintUpdate }

    /// Runs `updateConstraints` now for the views of this one's subtree that need it.
    public func updateConstraintsIfNeeded() {
        LayoutEngine.updateConstraints(in: self)
    }

    func runUpdateConstraints() {
        if let controller = viewController { controller.updateViewConstraints() } else { updateConstraints() }
    }

    // MARK: Ambiguity

    /// Whether the view's frame is not fixed by its constraints (its tree's engine could move it without
    /// breaking any).
    public var hasAmbiguousLayout: Bool {
        LayoutEngine.isAmbiguous(self, vertical: false) || LayoutEngine.isAmbiguous(self, vertical: true)
    }

    /// Moves an ambiguous view to another layout its constraints allow (UIKit's debugging aid): its free
    /// variables are nudged 20 pt at the weakest strength, and it is laid out again.
    public func exerciseAmbiguityInLayout() {
        guard hasAmbiguousLayout, let engine = LayoutEngine.engine(of: self), let rect = engine.solvedRect(of: self) else { return }
        let f = engine.frame(of: self)
        // A pull of 20 pt on each free value, alternately one way and the other, at the weakest strength:
        // the solution it gives is shown, and the pulls are taken away again (the view stays ambiguous).
        layoutState.exercisedForward.toggle()
        let step: CGFloat = layoutState.exercisedForward ? 20 : -20
        var pulls: [ConstraintHandle] = []
        for (variable, value) in [(f.x, rect.minX), (f.y, rect.minY), (f.width, rect.width), (f.height, rect.height)] where engine.solver.isAmbiguous(variable) {
            if let pull = try? engine.solver.addConstraint(LinearExpression([Term(variable)], constant: -Double(value + step)), .equal, strength: 0.5) {
                pulls.append(pull)
            }
        }
        if let moved = engine.engineFrame(of: self, scale: UIScreen.main.scale), superview != nil { applyEngineFrame(moved) }
        for pull in pulls { try? engine.solver.removeConstraint(pull) }
    }

    // MARK: Fitting

    /// `systemLayoutSizeFitting(_:withHorizontalFittingPriority:verticalFittingPriority:)`'s work.
    func fittingSize(_ targetSize: CGSize, horizontal: UILayoutPriority, vertical: UILayoutPriority) -> CGSize {
        LayoutEngine.updateConstraints(in: self)
        let engine = LayoutEngine(root: self, freeRoot: true)
        engine.rebuild()
        let f = engine.frame(of: self)
        for (variable, value, priority) in [(f.width, targetSize.width, horizontal), (f.height, targetSize.height, vertical)] {
            _ = try? engine.solver.addConstraint(LinearExpression([Term(variable)], constant: -Double(max(0, min(value, 1e8)))), .equal,
                                                 strength: priority.weight)
        }
        // The view's own content size, when it has one and no subviews decide it.
        let own = intrinsicContentSize
        if own.width != UIView.noIntrinsicMetric, own.width >= 0 {
            _ = try? engine.solver.addConstraint(LinearExpression([Term(f.width)], constant: -Double(own.width)), .greaterThanOrEqual,
                                                 strength: contentCompressionResistancePriority(for: .horizontal).weight)
        }
        if own.height != UIView.noIntrinsicMetric, own.height >= 0 {
            _ = try? engine.solver.addConstraint(LinearExpression([Term(f.height)], constant: -Double(own.height)), .greaterThanOrEqual,
                                                 strength: contentCompressionResistancePriority(for: .vertical).weight)
        }
        engine.settleWrappingLabels()
        guard let rect = engine.solvedRect(of: self) else { return .zero }
        let scale = UIScreen.main.scale
        return frame(forAlignmentRect: CGRect(x: 0, y: 0, width: (max(0, rect.width) * scale).rounded(.up) / scale,
                                              height: (max(0, rect.height) * scale).rounded(.up) / scale)).size
    }

    // MARK: Applying

    /// Whether constraints leave the view's frame as it is set: a view that translates its autoresizing
    /// mask, and a window's root view controller's view even when it does not (UIKit holds that view at the
    /// window's bounds with its `UIView-Encapsulated-Layout` constraints).
    var keepsItsFrameInLayout: Bool {
        translatesAutoresizingMaskIntoConstraints || (viewController != nil && superview is UIWindow)
    }

    /// Whether the view already shows `frame` (its centre and size; a transform is kept).
    func hasFrame(_ frame: CGRect) -> Bool {
        center == CGPoint(x: frame.midX, y: frame.midY) && bounds.size == frame.size
    }

    /// Sets the frame the engine solved, as UIKit does: the centre and the bounds' size, so a transform
    /// is kept (inside an animation block, both animate).
    func applyEngineFrame(_ frame: CGRect) {
        if bounds.size != frame.size { bounds = CGRect(origin: bounds.origin, size: frame.size) }
        let middle = CGPoint(x: frame.midX, y: frame.midY)
        if center != middle { center = middle }
    }

    /// The default `layoutSubviews`: the subviews laid out by constraints get the frames their tree's
    /// engine solved.
    func applyEngineFramesToSubviews() {
        guard let engine = LayoutEngine.engine(of: self) else { return }
        engine.update(followingGuides: false)
        let scale = UIScreen.main.scale
        for view in subviews where !view.translatesAutoresizingMaskIntoConstraints {
            if let frame = engine.engineFrame(of: view, scale: scale), !view.hasFrame(frame) { view.applyEngineFrame(frame) }
        }
    }
}

extension LayoutEngine {
    /// The safe area, margins or readable insets of a system guide from its view's edges (points).
    static func insets(of guide: UILayoutGuide, in view: UIView) -> UIEdgeInsets {
        switch guide.role {
        case .custom, .scrollContent: return .zero
        case .scrollFrame:
            // What is visible: the bounds' origin is the content offset.
            let offset = view.bounds.origin
            return UIEdgeInsets(top: offset.y, left: offset.x, bottom: -offset.y, right: -offset.x)
        case .safeArea: return view.safeAreaInsets
        case .layoutMargins: return view.layoutMargins
        case .readableContent:
            var margins = view.layoutMargins
            let width = view.bounds.width - margins.left - margins.right
            let extra = max(0, (width - 672) / 2)
            margins.left += extra
            margins.right += extra
            return margins
        }
    }

    /// A system guide's frame from its view's current bounds (before the engine has solved it).
    static func systemGuideFrame(_ guide: UILayoutGuide, in view: UIView) -> CGRect? {
        guard guide.role != .custom, guide.role != .scrollContent else { return nil }
        return CGRect(origin: .zero, size: view.bounds.size).inset(by: insets(of: guide, in: view))
    }
}
