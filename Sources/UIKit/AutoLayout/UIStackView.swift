/// A view that lays out a row or column of views with constraints of its own, UIKit's `UIStackView`:
/// ``axis``, every ``Distribution`` and ``Alignment``, ``spacing`` and custom spacing after a view,
/// baseline alignment, arrangement within the layout margins, and hidden arranged views collapsing (inside
/// an animation block, the collapse animates and the view is hidden when it ends).
///
/// The constraints it makes are ordinary active constraints installed on the stack view, named as
/// UIKit names its own (`UISV-canvas-connection`, `UISV-spacing`, `UISV-fill-equally`,
/// `UISV-alignment`, `UISV-hiding`…), so they show in logs. It draws its background colour, as iOS 14's.
open class UIStackView: UIView {
    /// How the views share the length along the axis, with Apple's raw values.
    public enum Distribution: Int, Sendable {
        case fill = 0, fillEqually, fillProportionally, equalSpacing, equalCentering
    }

    /// How the views line up across the axis, with Apple's raw values (`top` is `leading`, `bottom` is
    /// `trailing`).
    public enum Alignment: Int, Sendable {
        case fill = 0, leading, firstBaseline, center, trailing, lastBaseline
        public static let top = Alignment.leading
        public static let bottom = Alignment.trailing
    }

    /// `spacing` or a custom spacing of this value: the default (``spacing``) after that view.
    public static let spacingUseDefault = CGFloat(Float.greatestFiniteMagnitude)
    /// A custom spacing of this value: the system spacing (8 pt here).
    public static let spacingUseSystem = CGFloat(Float.leastNormalMagnitude)

    private var arranged: [UIView] = []
    private var customSpacings: [ObjectIdentifier: CGFloat] = [:]
    private var made: [NSLayoutConstraint] = []
    private var madeGuides: [UILayoutGuide] = []
    private var needsArrangement = true

    /// Default `.horizontal`.
    open var axis: NSLayoutConstraint.Axis = .horizontal { didSet { arrangementDidChange() } }
    /// Default `.fill`.
    open var distribution: Distribution = .fill { didSet { arrangementDidChange() } }
    /// Default `.fill`.
    open var alignment: Alignment = .fill { didSet { arrangementDidChange() } }
    /// Points between adjacent views (the least, for `.equalSpacing` and `.equalCentering`). Default 0.
    open var spacing: CGFloat = 0 { didSet { arrangementDidChange() } }
    /// Vertical spacing measured between baselines (a vertical stack of labels). Default false.
    open var isBaselineRelativeArrangement = false { didSet { arrangementDidChange() } }
    /// The views are laid out within the layout margins rather than the bounds. Default false.
    open var isLayoutMarginsRelativeArrangement = false { didSet { arrangementDidChange() } }

    public override init(frame: CGRect) {
        super.init(frame: frame)
    }

    public convenience init(arrangedSubviews views: [UIView]) {
        self.init(frame: .zero)
        for view in views { addArrangedSubview(view) }
    }

    public required init?(coder: NSCoder) { nil }

    /// The views the stack view lays out, in order (a subset of its subviews).
    open var arrangedSubviews: [UIView] { arranged }

    /// Adds `view` at the end of the arrangement (and as a subview).
    open func addArrangedSubview(_ view: UIView) { insertArrangedSubview(view, at: arranged.count) }

    open func insertArrangedSubview(_ view: UIView, at stackIndex: Int) {
        guard view !== self, !isDescendant(of: view) else {
            UIKitLog.warn("A stack view cannot arrange \(view === self ? "itself" : "its own superview or an ancestor") (\(view)); it was not added")
            return
        }
        arranged.removeAll { $0 === view }
        arranged.insert(view, at: min(max(0, stackIndex), arranged.count))
        view.translatesAutoresizingMaskIntoConstraints = false
        if view.superview !== self { addSubview(view) }
        arrangementDidChange()
    }

    /// Takes `view` out of the arrangement; it stays a subview (UIKit's rule: remove it from the
    /// superview to take it away).
    open func removeArrangedSubview(_ view: UIView) {
        guard arranged.contains(where: { $0 === view }) else { return }
        arranged.removeAll { $0 === view }
        customSpacings[ObjectIdentifier(view)] = nil
        arrangementDidChange()
    }

    open override func willRemoveSubview(_ subview: UIView) {
        super.willRemoveSubview(subview)
        if arranged.contains(where: { $0 === subview }) { removeArrangedSubview(subview) }
    }

    /// Points after `arrangedSubview` instead of ``spacing``.
    open func setCustomSpacing(_ spacing: CGFloat, after arrangedSubview: UIView) {
        customSpacings[ObjectIdentifier(arrangedSubview)] = spacing
        arrangementDidChange()
    }

    open func customSpacing(after arrangedSubview: UIView) -> CGFloat {
        customSpacings[ObjectIdentifier(arrangedSubview)] ?? UIStackView.spacingUseDefault
    }

    private func spacing(after view: UIView) -> CGFloat {
        switch customSpacing(after: view) {
        case UIStackView.spacingUseDefault: spacing
        case UIStackView.spacingUseSystem: UIView.systemSpacing
        case let custom: custom
        }
    }

    private func arrangementDidChange() {
        needsArrangement = true
        setNeedsUpdateConstraints()
    }

    /// An arranged view was shown or hidden: the arrangement changes; a view hidden inside an animation
    /// block stays drawn while it collapses and is hidden when the block's duration ends.
    func arrangedSubviewHiddenDidChange(_ view: UIView) {
        arrangementDidChange()
        let duration = UIView.inheritedAnimationDuration
        guard view.isHidden, duration > 0, let engine = StageContext.engine else { return }
        view.keepsDrawingWhileHidden = true
        engine.schedule(at: engine.currentTime + duration) { [weak view] in
            guard let view else { return }
            view.keepsDrawingWhileHidden = false
        }
    }

    open override func updateConstraints() {
        if needsArrangement { arrange() }
        super.updateConstraints()
    }

    // MARK: The constraints

    private func arrange() {
        needsArrangement = false
        NSLayoutConstraint.deactivate(made)
        for guide in madeGuides { removeLayoutGuide(guide) }
        made.removeAll()
        madeGuides.removeAll()
        let horizontal = axis == .horizontal
        let canvas: LayoutItem = isLayoutMarginsRelativeArrangement ? layoutMarginsGuide : self
        let visible = arranged.filter { !$0.isHidden }
        func make(_ first: LayoutItem, _ a: NSLayoutConstraint.Attribute, _ relation: NSLayoutConstraint.Relation, _ second: LayoutItem?,
                  _ b: NSLayoutConstraint.Attribute, multiplier: CGFloat = 1, constant: CGFloat = 0,
                  priority: UILayoutPriority = .required, _ name: String) {
            let c = NSLayoutConstraint(item: first, attribute: a, relatedBy: relation, toItem: second, attribute: b, multiplier: multiplier, constant: constant)
            c.priority = priority
            c.identifier = name
            made.append(c)
        }
        let (start, end, length): (NSLayoutConstraint.Attribute, NSLayoutConstraint.Attribute, NSLayoutConstraint.Attribute) =
            horizontal ? (.leading, .trailing, .width) : (.top, .bottom, .height)
        let (crossStart, crossEnd, crossLength, crossCenter): (NSLayoutConstraint.Attribute, NSLayoutConstraint.Attribute, NSLayoutConstraint.Attribute, NSLayoutConstraint.Attribute) =
            horizontal ? (.top, .bottom, .height, .centerY) : (.leading, .trailing, .width, .centerX)

        // Hidden views collapse where they are: no length, against the view before them.
        for (index, view) in arranged.enumerated() where view.isHidden {
            make(view, length, .equal, nil, .notAnAttribute, "UISV-hiding")
            let before = arranged[..<index].last { !$0.isHidden }
            if let before { make(view, start, .equal, before, end, "UISV-hiding") } else { make(view, start, .equal, canvas, start, "UISV-hiding") }
            make(view, crossStart, .equal, canvas, crossStart, "UISV-hiding")
        }
        guard let first = visible.first, let last = visible.last else { return }

        // Along the axis: the ends meet the canvas, neighbours are spaced.
        make(first, start, .equal, canvas, start, "UISV-canvas-connection")
        make(canvas, end, .equal, last, end, "UISV-canvas-connection")
        let gapRelation: NSLayoutConstraint.Relation = (distribution == .equalSpacing || distribution == .equalCentering) ? .greaterThanOrEqual : .equal
        var spacers: [UILayoutGuide] = []
        for (previous, next) in zip(visible, visible.dropFirst()) {
            let gap = spacing(after: previous)
            if !horizontal, isBaselineRelativeArrangement {
                make(next, .firstBaseline, gapRelation, previous, .lastBaseline, constant: gap, "UISV-spacing")
            } else {
                make(next, start, gapRelation, previous, end, constant: gap, "UISV-spacing")
            }
            if distribution == .equalSpacing || distribution == .equalCentering {
                let spacer = UILayoutGuide()
                spacer.identifier = "UISV-distributing"
                addLayoutGuide(spacer)
                madeGuides.append(spacer)
                let (from, to) = distribution == .equalSpacing ? (end, start) : (horizontal ? NSLayoutConstraint.Attribute.centerX : .centerY, horizontal ? .centerX : .centerY)
                make(spacer, start, .equal, previous, from, "UISV-distributing-edge")
                make(spacer, end, .equal, next, to, "UISV-distributing-edge")
                make(spacer, crossStart, .equal, canvas, crossStart, "UISV-distributing-edge")
                make(spacer, crossLength, .equal, nil, .notAnAttribute, "UISV-distributing-edge")
                spacers.append(spacer)
            }
        }
        for spacer in spacers.dropFirst() {
            make(spacer, length, .equal, spacers[0], length, priority: distribution == .equalCentering ? UILayoutPriority(150) : .required, "UISV-distributing")
        }
        switch distribution {
        case .fillEqually:
            for view in visible.dropFirst() { make(view, length, .equal, first, length, "UISV-fill-equally") }
        case .fillProportionally:
            let sizes = visible.map { horizontal ? $0.intrinsicContentSize.width : $0.intrinsicContentSize.height }
            let total = sizes.filter { $0 > 0 }.reduce(0, +)
            let gaps = zip(visible, visible.dropFirst()).reduce(CGFloat(0)) { $0 + spacing(after: $1.0) }
            if total > 0 {
                for (view, size) in zip(visible, sizes) where size > 0 {
                    let share = size / total
                    make(view, length, .equal, canvas, length, multiplier: share, constant: -gaps * share, priority: UILayoutPriority(999), "UISV-fill-proportionally")
                }
            }
        default: break
        }

        // Across the axis.
        let low = UILayoutPriority(49)
        for (index, view) in visible.enumerated() {
            switch alignment {
            case .fill:
                make(view, crossStart, .equal, canvas, crossStart, "UISV-alignment")
                make(view, crossEnd, .equal, canvas, crossEnd, "UISV-alignment")
            case .leading:
                make(view, crossStart, .equal, canvas, crossStart, "UISV-alignment")
                make(canvas, crossEnd, .greaterThanOrEqual, view, crossEnd, "UISV-spanning-boundary")
            case .trailing:
                make(view, crossEnd, .equal, canvas, crossEnd, "UISV-alignment")
                make(view, crossStart, .greaterThanOrEqual, canvas, crossStart, "UISV-spanning-boundary")
            case .center:
                make(view, crossCenter, .equal, canvas, crossCenter, "UISV-alignment")
                make(view, crossStart, .greaterThanOrEqual, canvas, crossStart, "UISV-spanning-boundary")
            case .firstBaseline, .lastBaseline:
                let baseline: NSLayoutConstraint.Attribute = alignment == .firstBaseline ? .firstBaseline : .lastBaseline
                if horizontal, index > 0 { make(view, baseline, .equal, first, baseline, "UISV-alignment") }
                if !horizontal { make(view, crossStart, .equal, canvas, crossStart, "UISV-alignment") }
                make(view, crossStart, .greaterThanOrEqual, canvas, crossStart, "UISV-spanning-boundary")
                make(canvas, crossEnd, .greaterThanOrEqual, view, crossEnd, "UISV-spanning-boundary")
                make(view, crossStart, .equal, canvas, crossStart, priority: UILayoutPriority(48), "UISV-spanning-fit")
            }
        }
        // A stack view that is not filled across hugs its largest view.
        if alignment != .fill {
            make(canvas, crossLength, .equal, nil, .notAnAttribute, priority: low, "UISV-canvas-fit")
        }
        NSLayoutConstraint.activate(made)
    }
}
