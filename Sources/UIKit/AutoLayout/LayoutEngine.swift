internal import ConstraintSolver

/// The Auto Layout engine of one view tree, kept by the tree's root view: a ``Solver`` holding, for
/// every view and guide that takes part, four variables (the alignment rectangle's x, y, width and
/// height in its parent's coordinates) and the constraints on them:
///
/// - the active `NSLayoutConstraint`s installed on the tree's views, each expressed in the coordinate
///   space of the view it is installed on (the items' nearest common ancestor): an item below it adds
///   the x (or y) of every view between;
/// - for a view that translates its autoresizing mask (and any view a constraint names), required
///   constraints holding its current frame, as UIKit's `NSAutoresizingMaskLayoutConstraint`s;
/// - for a view that does not, its intrinsic content size at its hugging and compression-resistance
///   priorities;
/// - for the safe area, layout margins and readable content guides, their insets from the view.
///
/// Structural changes (a constraint activated or deactivated, a view added or removed, a priority
/// changed) rebuild the solver at the next layout pass; a constant changed, a frame moved, or a content
/// size changed re-solve incrementally (the dual simplex: microseconds), so a layout animation costs
/// little beyond drawing.
final class LayoutEngine {
    struct FrameVariables {
        let x: Variable, y: Variable, width: Variable, height: Variable
    }

    /// A weakly held item with its variables.
    final class Entry {
        weak var item: AnyObject?
        let frame: FrameVariables
        /// The autoresizing constraints holding a translating view's frame (x, y, width, height), and
        /// the frame they hold.
        var pins: [ConstraintHandle] = []
        var pinned = CGRect.null
        /// Content-size constraints: width hugging, width compression, height hugging, height
        /// compression (absent ones are nil), and the size they hold.
        var content: [ConstraintHandle?] = []
        var contentSize = CGSize.zero
        /// A system guide's constraints (x, y, width, height) and the insets they hold.
        var guide: [ConstraintHandle] = []
        var guideInsets = UIEdgeInsets.zero
        init(item: AnyObject, frame: FrameVariables) {
            self.item = item
            self.frame = frame
        }
    }

    /// A user constraint in the solver: its handle and the part of its expression's constant that does
    /// not come from `constant` (attribute offsets such as margins).
    struct Installed {
        let handle: ConstraintHandle
        let baseConstant: Double
    }

    /// The content size of scroll views whose content constraints decide it.
    var scrollContent: [ObjectIdentifier: (width: Variable, height: Variable, view: Weak<UIScrollView>)] = [:]
    /// Multipliers the engine takes (and 0), and the largest constant (points): within them the solver
    /// keeps every required constraint to 1e-5 of its scale (`RobustnessTests`).
    static let multipliers: ClosedRange<CGFloat> = 0.1...10
    static let maximumConstant: CGFloat = 1_000_000

    var solver = Solver()
    /// Rebuilt at the next layout pass.
    var dirty = true
    var entries: [ObjectIdentifier: Entry] = [:]
    var installed: [ObjectIdentifier: Installed] = [:]
    /// The views whose frames the engine sets (they do not translate their masks), in tree order.
    var laidOut: [Weak<UIView>] = []
    /// Multi-line labels whose content height depends on the width the engine gives them.
    var wrapping: [Weak<UILabel>] = []
    /// The root's own size is free (``UIView/systemLayoutSizeFitting(_:)``) instead of held.
    let freeRoot: Bool
    weak var root: UIView?

    init(root: UIView, freeRoot: Bool = false) {
        self.root = root
        self.freeRoot = freeRoot
    }

    // MARK: Building

    /// Builds the solver from the tree: the views that are laid out by constraints first (with their
    /// content sizes), then the constraints installed on the tree's views, in tree order.
    func rebuild() {
        solver = Solver()
        entries.removeAll(keepingCapacity: true)
        installed.removeAll(keepingCapacity: true)
        laidOut.removeAll(keepingCapacity: true)
        wrapping.removeAll(keepingCapacity: true)
        scrollContent.removeAll()
        dirty = false
        guard let root else { return }
        var constraints: [NSLayoutConstraint] = []
        func visit(_ view: UIView) {
            if !view.translatesAutoresizingMaskIntoConstraints, view !== root { _ = frame(of: view) }
            if let state = view.layoutStateIfPresent { constraints += state.constraints }
            for subview in view.subviews { visit(subview) }
        }
        visit(root)
        for constraint in constraints { install(constraint) }
    }

    /// The variables of a view or guide, made (with the constraints that come with it) on first use.
    func frame(of item: LayoutItem) -> FrameVariables {
        let id = ObjectIdentifier(item)
        if let entry = entries[id] { return entry.frame }
        let frame = FrameVariables(x: solver.makeVariable(), y: solver.makeVariable(), width: solver.makeVariable(), height: solver.makeVariable())
        let entry = Entry(item: item, frame: frame)
        entries[id] = entry
        if let view = item as? UIView {
            if view === root {
                if !freeRoot { pin(entry, to: CGRect(origin: .zero, size: view.alignmentRect(forFrame: view.frame).size)) }
            } else if view.keepsItsFrameInLayout {
                pin(entry, to: view.alignmentRect(forFrame: view.frame))
            } else {
                laidOut.append(Weak(view))
                if let label = view as? UILabel, label.wrapsToLayoutWidth { wrapping.append(Weak(label)) }
                holdContentSize(entry, view: view, size: view.layoutContentSize(forWidth: nil))
            }
        } else if let guide = item as? UILayoutGuide, guide.role == .scrollContent, let scroll = guide.owningView as? UIScrollView {
            // The content area: at the content's origin, as large as the content.
            let content = contentSize(of: scroll)
            add(LinearExpression([Term(frame.x)]), .equal)
            add(LinearExpression([Term(frame.y)]), .equal)
            add(LinearExpression([Term(frame.width), Term(content.width, -1)]), .equal)
            add(LinearExpression([Term(frame.height), Term(content.height, -1)]), .equal)
        } else if let guide = item as? UILayoutGuide, guide.role != .custom, let owner = guide.owningView {
            let parent = self.frame(of: owner)
            let insets = LayoutEngine.insets(of: guide, in: owner)
            entry.guideInsets = insets
            entry.guide = [
                add(LinearExpression([Term(frame.x)], constant: -insets.left), .equal),
                add(LinearExpression([Term(frame.y)], constant: -insets.top), .equal),
                add(LinearExpression([Term(frame.width), Term(parent.width, -1)], constant: insets.left + insets.right), .equal),
                add(LinearExpression([Term(frame.height), Term(parent.height, -1)], constant: insets.top + insets.bottom), .equal),
            ].compactMap { $0 }
        }
        return frame
    }

    /// The variables of a scroll view's content size, made on first use.
    func contentSize(of scroll: UIScrollView) -> (width: Variable, height: Variable) {
        let id = ObjectIdentifier(scroll)
        if let content = scrollContent[id] { return (content.width, content.height) }
        let content = (width: solver.makeVariable(), height: solver.makeVariable(), view: Weak(scroll))
        scrollContent[id] = content
        return (content.width, content.height)
    }

    @discardableResult
    private func add(_ expression: LinearExpression, _ relation: Relation, strength: Double = Strength.required) -> ConstraintHandle? {
        try? solver.addConstraint(expression, relation, strength: strength)
    }

    /// Holds a translating view's alignment rectangle, as its autoresizing-mask constraints do.
    private func pin(_ entry: Entry, to rect: CGRect) {
        (entry.item as? UIView)?.layoutState.pinned = true
        let f = entry.frame
        entry.pinned = rect
        entry.pins = [(f.x, rect.minX), (f.y, rect.minY), (f.width, rect.width), (f.height, rect.height)].compactMap {
            add(LinearExpression([Term($0.0)], constant: -Double($0.1)), .equal)
        }
    }

    /// System guides follow their views' safe areas and margins as they change (incremental).
    func followSystemGuides() {
        for entry in entries.values where !entry.guide.isEmpty {
            guard let guide = entry.item as? UILayoutGuide, let owner = guide.owningView else { continue }
            let insets = LayoutEngine.insets(of: guide, in: owner)
            guard insets != entry.guideInsets, entry.guide.count == 4 else { continue }
            entry.guideInsets = insets
            let constants = [-insets.left, -insets.top, insets.left + insets.right, insets.top + insets.bottom]
            for (handle, constant) in zip(entry.guide, constants) { try? solver.setConstant(Double(constant), of: handle) }
        }
    }

    /// Moves the pins of a translating view to its new frame (incremental).
    func repin(_ view: UIView) {
        guard let entry = entries[ObjectIdentifier(view)], entry.pins.count == 4 else { return }
        let rect = view === root ? CGRect(origin: .zero, size: view.alignmentRect(forFrame: view.frame).size) : view.alignmentRect(forFrame: view.frame)
        guard rect != entry.pinned else { return }
        entry.pinned = rect
        for (handle, value) in zip(entry.pins, [rect.minX, rect.minY, rect.width, rect.height]) {
            try? solver.setConstant(-Double(value), of: handle)
        }
    }

    /// The content-size constraints of a view laid out by constraints: width ≤ content at its hugging
    /// priority and ≥ content at its compression resistance; the same for the height.
    private func holdContentSize(_ entry: Entry, view: UIView, size: CGSize) {
        entry.contentSize = size
        let f = entry.frame
        var handles: [ConstraintHandle?] = []
        for (variable, value, axis) in [(f.width, size.width, NSLayoutConstraint.Axis.horizontal), (f.height, size.height, .vertical)] {
            guard value != UIView.noIntrinsicMetric, value.isFinite, value >= 0 else { handles += [nil, nil]; continue }
            let hugging = view.contentHuggingPriority(for: axis), resistance = view.contentCompressionResistancePriority(for: axis)
            handles.append(add(LinearExpression([Term(variable)], constant: -Double(value)), .lessThanOrEqual, strength: hugging.weight))
            handles.append(add(LinearExpression([Term(variable)], constant: -Double(value)), .greaterThanOrEqual, strength: resistance.weight))
        }
        entry.content = handles
    }

    /// Moves a view's content-size constraints to a new size (incremental); false when the view has
    /// none yet on an axis that now has a size (then the engine must be rebuilt).
    func updateContentSize(of view: UIView, to size: CGSize) -> Bool {
        guard let entry = entries[ObjectIdentifier(view)], entry.pins.isEmpty else { return true }
        guard size != entry.contentSize else { return true }
        guard entry.content.count == 4 else { return false }
        for (index, value) in [size.width, size.width, size.height, size.height].enumerated() {
            let had = entry.content[index] != nil
            let has = value != UIView.noIntrinsicMetric && value.isFinite && value >= 0
            guard had == has else { return false }
            if let handle = entry.content[index] { try? solver.setConstant(-Double(value), of: handle) }
        }
        entry.contentSize = size
        return true
    }

    /// Adds a user constraint; a required one that contradicts the others is broken, with UIKit's log.
    func install(_ constraint: NSLayoutConstraint) {
        constraint.isBroken = false
        // The range the solver keeps precise through chains of constraints; UIKit takes any number.
        let m = constraint.multiplier
        guard m == 0 || (LayoutEngine.multipliers.contains(abs(m))), abs(constraint.constant) <= LayoutEngine.maximumConstant else {
            constraint.isBroken = true
            UIKitLog.warn("\(constraint) was not installed: Smokescreen's layout engine takes multipliers of 0.1 … 10 (or 0) and constants within ±\(Int(LayoutEngine.maximumConstant)) points")
            return
        }
        guard let space = constraint.installedOn, let first = constraint.firstLayoutItem,
              var expression = attribute(constraint.firstAttribute, of: first, in: space) else { return }
        if let secondItem = constraint.secondLayoutItem {
            guard let second = attribute(constraint.secondAttribute, of: secondItem, in: space) else { return }
            let m = Double(constraint.multiplier)
            expression.terms += second.terms.map { Term($0.variable, -m * $0.coefficient) }
            expression.constant -= m * second.constant
        }
        let base = expression.constant
        expression.constant -= Double(constraint.constant)
        let relation: Relation = switch constraint.relation {
        case .lessThanOrEqual: .lessThanOrEqual
        case .equal: .equal
        case .greaterThanOrEqual: .greaterThanOrEqual
        }
        do {
            let handle = try solver.addConstraint(expression, relation, strength: constraint.priority.weight)
            installed[ObjectIdentifier(constraint)] = Installed(handle: handle, baseConstant: base)
        } catch {
            constraint.isBroken = true
            LayoutEngine.logUnsatisfiable(breaking: constraint, in: root)
        }
    }

    func uninstall(_ constraint: NSLayoutConstraint) {
        guard let entry = installed.removeValue(forKey: ObjectIdentifier(constraint)) else { return }
        try? solver.removeConstraint(entry.handle)
    }

    /// Moves an installed constraint to its new constant; a required one that no longer fits is broken.
    func updateConstant(of constraint: NSLayoutConstraint) {
        guard let entry = installed[ObjectIdentifier(constraint)] else { return }
        guard abs(constraint.constant) <= LayoutEngine.maximumConstant else {
            uninstall(constraint)
            constraint.isBroken = true
            UIKitLog.warn("\(constraint) was broken: its constant is beyond ±\(Int(LayoutEngine.maximumConstant)) points, which Smokescreen's layout engine does not take")
            return
        }
        do {
            try solver.setConstant(entry.baseConstant - Double(constraint.constant), of: entry.handle)
        } catch {
            installed[ObjectIdentifier(constraint)] = nil
            constraint.isBroken = true
            LayoutEngine.logUnsatisfiable(breaking: constraint, in: root)
        }
    }

    // MARK: Attributes

    /// `attribute` of `item` as an expression in `space`'s coordinates (space is the item itself or an
    /// ancestor of its parent); nil when the item is not in that space's tree.
    func attribute(_ attribute: NSLayoutConstraint.Attribute, of item: LayoutItem, in space: UIView) -> LinearExpression? {
        // Leading and trailing run the way the text does: from right to left they are the right and left
        // edges measured leftwards (negated), so `leading == superview.leading + 10` insets from the right.
        let directional: [NSLayoutConstraint.Attribute: (NSLayoutConstraint.Attribute, NSLayoutConstraint.Attribute)] = [
            .leading: (.left, .right), .trailing: (.right, .left), .leadingMargin: (.leftMargin, .rightMargin), .trailingMargin: (.rightMargin, .leftMargin),
        ]
        if let (leftToRight, rightToLeft) = directional[attribute] {
            let direction = (item as? UIView ?? item.layoutParent)?.effectiveUserInterfaceLayoutDirection ?? .leftToRight
            guard direction == .rightToLeft else { return self.attribute(leftToRight, of: item, in: space) }
            guard let edge = self.attribute(rightToLeft, of: item, in: space) else { return nil }
            return LinearExpression(edge.terms.map { Term($0.variable, -$0.coefficient) }, constant: -edge.constant)
        }
        // The item's box: its own space (x = y = 0) when it is the space, else its variables plus the
        // offsets of the views between its parent and the space.
        let x: [Term], y: [Term], width: Variable, height: Variable
        // A scroll view's right and bottom edges, seen by its content, are the content's (Apple's rule:
        // edges between a scroll view and its content attach to the content area; sizes and centres to
        // the frame).
        var right: Variable, bottom: Variable
        if let view = item as? UIView, view === space {
            let f = frame(of: view)
            (x, y, width, height) = ([], [], f.width, f.height)
            (right, bottom) = (f.width, f.height)
            if let scroll = view as? UIScrollView { (right, bottom) = contentSize(of: scroll) }
        } else {
            let f = frame(of: item)
            var xs = [Term(f.x)], ys = [Term(f.y)]
            var parent = item.layoutParent
            while let p = parent, p !== space {
                let pf = frame(of: p)
                xs.append(Term(pf.x))
                ys.append(Term(pf.y))
                parent = p.superview
            }
            guard parent != nil else { return nil }
            (x, y, width, height) = (xs, ys, f.width, f.height)
            (right, bottom) = (f.width, f.height)
        }
        // Margin attributes are the edges of the view's margins guide (which follows the margins).
        if let view = item as? UIView {
            let edges: [NSLayoutConstraint.Attribute: NSLayoutConstraint.Attribute] = [
                .leftMargin: .left, .rightMargin: .right, .topMargin: .top, .bottomMargin: .bottom,
                .centerXWithinMargins: .centerX, .centerYWithinMargins: .centerY,
            ]
            if let edge = edges[attribute] { return self.attribute(edge, of: view.layoutMarginsGuide, in: space) }
        }
        switch attribute {
        case .left: break
        case .right: return LinearExpression(x + [Term(right)])
        case .top: return LinearExpression(y)
        case .bottom: return LinearExpression(y + [Term(bottom)])
        case .width: return LinearExpression([Term(width)])
        case .height: return LinearExpression([Term(height)])
        case .centerX: return LinearExpression(x + [Term(width, 0.5)])
        case .centerY: return LinearExpression(y + [Term(height, 0.5)])
        case .leftMargin, .rightMargin, .topMargin, .bottomMargin, .centerXWithinMargins, .centerYWithinMargins:
            return nil  // a guide has no margins
        case .firstBaseline, .lastBaseline:
            // From the centre: a label's text is centred vertically in its bounds; other views' baseline
            // is their bottom edge, as UIKit's.
            if let label = item as? UILabel, let offsets = label.baselineOffsetsFromCenter() {
                return LinearExpression(y + [Term(height, 0.5)], constant: attribute == .firstBaseline ? offsets.first : offsets.last)
            }
            return LinearExpression(y + [Term(height)])
        case .leading, .trailing, .leadingMargin, .trailingMargin, .notAnAttribute: return nil
        }
        return LinearExpression(x)
    }

    // MARK: Reading

    /// The solved alignment rectangle of an item, in its parent's coordinates.
    func solvedRect(of item: LayoutItem) -> CGRect? {
        guard let entry = entries[ObjectIdentifier(item)] else { return nil }
        let f = entry.frame
        return CGRect(x: solver.value(of: f.x), y: solver.value(of: f.y), width: solver.value(of: f.width), height: solver.value(of: f.height))
    }

    /// The frame the engine gives a view it lays out, rounded to device pixels edge by edge (as UIKit
    /// rounds the engine's values), widths and heights at least 0.
    func engineFrame(of view: UIView, scale: CGFloat) -> CGRect? {
        guard let rect = solvedRect(of: view) else { return nil }
        func round(_ value: CGFloat) -> CGFloat { (value * scale).rounded() / scale }
        let minX = round(rect.minX), minY = round(rect.minY)
        let maxX = max(minX, round(rect.minX + max(0, rect.width))), maxY = max(minY, round(rect.minY + max(0, rect.height)))
        return view.frame(forAlignmentRect: CGRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY))
    }

    /// Brings the solver up to date with the tree: rebuilt when marked (otherwise, with
    /// `followingGuides`, the system guides follow their views' insets), wrapping labels settled, and
    /// rebuilt once more when settling found a label that needs new constraints. Clean and not following
    /// the guides (a `layoutSubviews` after the pass's own update), it does nothing.
    func update(followingGuides: Bool) {
        if dirty { rebuild() } else if followingGuides { followSystemGuides() } else { return }
        settleWrappingLabels()
        if dirty {
            rebuild()
            settleWrappingLabels()
        }
    }

    /// Multi-line labels get the height of their text at the width the engine gave them, and the engine
    /// solves again, until the widths settle (at most four rounds).
    func settleWrappingLabels() {
        guard !wrapping.isEmpty else { return }
        for _ in 0..<4 {
            var changed = false
            for weak in wrapping {
                guard let label = weak.value, let rect = solvedRect(of: label) else { continue }
                let size = label.layoutContentSize(forWidth: max(0, rect.width))
                guard let entry = entries[ObjectIdentifier(label)], size != entry.contentSize else { continue }
                if updateContentSize(of: label, to: size) { changed = true } else { dirty = true; return }
            }
            if !changed { return }
        }
    }

    /// Scroll views whose content constraints decide their content size get it (rounded to pixels).
    func applyContentSizes(scale: CGFloat) {
        for content in scrollContent.values {
            guard let scroll = content.view.value else { continue }
            func round(_ v: Double) -> CGFloat { (max(0, CGFloat(v)) * scale).rounded() / scale }
            let size = CGSize(width: round(solver.value(of: content.width)), height: round(solver.value(of: content.height)))
            if scroll.contentSize != size { scroll.contentSize = size }
        }
    }

    func isAmbiguous(_ item: LayoutItem, vertical: Bool) -> Bool {
        guard let entry = entries[ObjectIdentifier(item)] else { return false }
        let f = entry.frame
        return vertical ? solver.isAmbiguous(f.y) || solver.isAmbiguous(f.height) : solver.isAmbiguous(f.x) || solver.isAmbiguous(f.width)
    }
}
