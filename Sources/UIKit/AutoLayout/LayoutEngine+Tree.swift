internal import ConstraintSolver

/// How Auto Layout follows the view tree: which engine a view belongs to, what marks it for a rebuild,
/// and the layout pass (update constraints, solve, apply frames) run by `layoutIfNeeded()`.
extension LayoutEngine {
    /// The root of the tree a view is in.
    static func root(of view: UIView) -> UIView {
        var top = view
        while let parent = top.superview { top = parent }
        return top
    }

    /// The engine of a view's tree, when the tree uses Auto Layout.
    static func engine(of view: UIView) -> LayoutEngine? { root(of: view).layoutStateIfPresent?.engine }

    /// Marks a view's tree as using Auto Layout (and its engine for a rebuild).
    static func engage(_ view: UIView) {
        let state = root(of: view).layoutState
        state.engaged = true
        state.pendingConstraintUpdates = true
        state.engine?.dirty = true
    }

    /// Marks the engine of a view's tree for a rebuild at the next pass.
    static func invalidate(_ view: UIView) {
        root(of: view).layoutStateIfPresent?.engine?.dirty = true
    }

    // MARK: Constraints

    static func activate(_ constraint: NSLayoutConstraint) {
        guard constraint.installedOn == nil else { return }
        guard let first = constraint.firstLayoutItem else {
            UIKitLog.warn("Unable to activate constraint \(constraint): its first item is not a view or layout guide.")
            return
        }
        let second = constraint.secondLayoutItem
        if let problem = invalidPairing(constraint) {
            UIKitLog.warn("\(problem) (\(constraint)); the constraint was not activated.")
            return
        }
        guard let space = commonAncestor(first, second) else {
            UIKitLog.warn("Unable to activate constraint with anchors \(constraint.firstAnchor) and \(constraint.secondAnchor.map { "\($0)" } ?? "nil") because they have no common ancestor. Does the constraint or its anchors reference items in different view hierarchies? That's illegal.")
            return
        }
        space.addInstalled(constraint)
    }

    static func deactivate(_ constraint: NSLayoutConstraint) {
        guard let view = constraint.installedOn else { return }
        view.removeInstalled(constraint)
    }

    /// Called by `UIView` when a constraint is installed on it: added incrementally to a clean engine.
    static func didInstall(_ constraint: NSLayoutConstraint, on view: UIView) {
        let root = root(of: view)
        let state = root.layoutState
        state.engaged = true
        guard let engine = state.engine, !engine.dirty else { return }
        engine.install(constraint)
    }

    static func didUninstall(_ constraint: NSLayoutConstraint, from view: UIView) {
        constraint.isBroken = false
        guard let engine = engine(of: view), !engine.dirty else { return }
        engine.uninstall(constraint)
    }

    static func constantDidChange(_ constraint: NSLayoutConstraint) {
        guard let view = constraint.installedOn, let engine = engine(of: view), !engine.dirty else { return }
        if constraint.isBroken { engine.dirty = true; return }
        engine.updateConstant(of: constraint)
    }

    static func constraintsDidChange(of constraint: NSLayoutConstraint) {
        guard let view = constraint.installedOn else { return }
        invalidate(view)
    }

    /// UIKit's rule for the attributes a constraint may relate.
    private static func invalidPairing(_ constraint: NSLayoutConstraint) -> String? {
        let a = constraint.firstAttribute, b = constraint.secondAttribute
        let dimensions: Set<NSLayoutConstraint.Attribute> = [.width, .height]
        guard a != .notAnAttribute else { return "A constraint needs a first attribute" }
        if constraint.secondLayoutItem == nil {
            return dimensions.contains(a) ? nil : "A constraint cannot be made between the \(a.name) attribute and a constant"
        }
        if dimensions.contains(a) != dimensions.contains(b) {
            return "A constraint cannot be made between a \(dimensions.contains(a) ? "dimension" : "position") and a \(dimensions.contains(b) ? "dimension" : "position")"
        }
        if !dimensions.contains(a), a.isVertical != b.isVertical {
            return "Invalid pairing of layout attributes: \(a.name) and \(b.name)"
        }
        let directional: Set<NSLayoutConstraint.Attribute> = [.leading, .trailing, .leadingMargin, .trailingMargin]
        let absolute: Set<NSLayoutConstraint.Attribute> = [.left, .right, .leftMargin, .rightMargin]
        if (directional.contains(a) && absolute.contains(b)) || (absolute.contains(a) && directional.contains(b)) {
            return "A constraint cannot be made between a leading/trailing attribute and a right/left attribute. Use leading/trailing for both or neither"
        }
        return nil
    }

    /// The view a constraint between these items is installed on: the nearest view both can be
    /// expressed in (an item view itself, or an ancestor of an item's parent).
    static func commonAncestor(_ first: LayoutItem, _ second: LayoutItem?) -> UIView? {
        func spaces(_ item: LayoutItem) -> [UIView] {
            var list: [UIView] = []
            if let view = item as? UIView { list.append(view) }
            var parent = item.layoutParent
            while let p = parent { list.append(p); parent = p.superview }
            return list
        }
        let firstSpaces = spaces(first)
        guard let second else { return firstSpaces.first }
        let secondSpaces = Set(spaces(second).map(ObjectIdentifier.init))
        return firstSpaces.first { secondSpaces.contains(ObjectIdentifier($0)) }
    }

    // MARK: Tree changes

    /// Before `view` leaves its superview: the constraints installed above it that name something in its
    /// subtree are deactivated (UIKit removes them), and its old tree is rebuilt.
    static func subtreeWillLeave(_ view: UIView) {
        guard let parent = view.superview else { return }
        let oldRoot = root(of: parent)
        guard let state = oldRoot.layoutStateIfPresent, state.engaged else { return }
        var ancestor: UIView? = parent
        while let a = ancestor {
            if let installed = a.layoutStateIfPresent?.constraints, !installed.isEmpty {
                for constraint in installed where names(constraint, anythingIn: view) { a.removeInstalled(constraint) }
            }
            ancestor = a.superview
        }
        state.engine?.dirty = true
        // The subtree keeps using Auto Layout on its own.
        view.layoutState.engaged = true
        view.layoutState.pendingConstraintUpdates = true
    }

    private static func names(_ constraint: NSLayoutConstraint, anythingIn subtree: UIView) -> Bool {
        func inside(_ item: LayoutItem?) -> Bool {
            guard let item else { return false }
            if let view = item as? UIView { return view.isDescendant(of: subtree) }
            return item.layoutParent?.isDescendant(of: subtree) ?? false
        }
        return inside(constraint.firstLayoutItem) || inside(constraint.secondLayoutItem)
    }

    /// After `view` joined a superview: its tree's engine (if any) is folded into the new tree's.
    static func subtreeDidJoin(_ view: UIView) {
        let joined = view.layoutStateIfPresent
        let wasEngaged = joined?.engaged ?? false
        joined?.engine = nil
        joined?.engaged = false
        let newRoot = root(of: view)
        if wasEngaged || type(of: view).requiresConstraintBasedLayout || !view.translatesAutoresizingMaskIntoConstraints {
            engage(newRoot)
        } else if joined != nil {
            // A view that has taken part in Auto Layout (its guides, margins or constraints): rebuild. A
            // new plain view changes nothing the engine holds.
            newRoot.layoutStateIfPresent?.engine?.dirty = true
        }
    }

    /// A view's frame changed outside the engine: a translating view's pins follow it.
    static func frameDidChange(_ view: UIView) {
        guard view.keepsItsFrameInLayout, view.layoutStateIfPresent?.pinned == true,
              let engine = engine(of: view), !engine.dirty else { return }
        engine.repin(view)
    }

    /// A view's intrinsic content size changed.
    static func contentSizeDidChange(_ view: UIView) {
        guard !view.keepsItsFrameInLayout, let engine = engine(of: view), !engine.dirty,
              engine.entries[ObjectIdentifier(view)] != nil else { return }
        let width = (view as? UILabel)?.wrapsToLayoutWidth == true ? engine.solvedRect(of: view).map { $0.width } : nil
        if !engine.updateContentSize(of: view, to: view.layoutContentSize(forWidth: width)) { engine.dirty = true }
    }

    // MARK: The pass

    /// Runs before a layout pass from `view`: calls `updateConstraints` where needed, brings the tree's
    /// engine up to date, and marks for layout the superviews of views whose frames the engine moved
    /// (`view` itself, when the engine moved it, is set at once).
    static func prepareLayout(from view: UIView) {
        let root = root(of: view)
        // Re-entered from user code it runs (updateConstraints, intrinsicContentSize calling
        // layoutIfNeeded): the pass already under way finishes the work.
        guard let state = root.layoutStateIfPresent, state.engaged, !state.preparing else { return }
        state.preparing = true
        defer { state.preparing = false }
        if state.pendingConstraintUpdates {
            state.pendingConstraintUpdates = false
            updateConstraints(in: root)
        }
        let engine = state.engine ?? LayoutEngine(root: root)
        if state.engine == nil { state.engine = engine }
        engine.update(followingGuides: true)
        let scale = UIScreen.main.scale
        engine.applyContentSizes(scale: scale)
        for weak in engine.laidOut {
            guard let laid = weak.value, let target = engine.engineFrame(of: laid, scale: scale) else { continue }
            guard !laid.hasFrame(target) else { continue }
            if laid === view { laid.applyEngineFrame(target) } else { laid.superview?.setNeedsLayout() }
        }
    }

    /// `updateConstraints` of every view that needs it, leaves first (a view controller's view asks its
    /// controller: `updateViewConstraints`).
    static func updateConstraints(in view: UIView) {
        // One pass a tree at a time: `updateConstraintsIfNeeded()` called from an `updateConstraints`
        // waits for the pass under way.
        let state = root(of: view).layoutState
        guard !state.updatingConstraints else { return }
        state.updatingConstraints = true
        defer { state.updatingConstraints = false }
        updateConstraintsLeavesFirst(in: view)
    }

    private static func updateConstraintsLeavesFirst(in view: UIView) {
        for subview in view.subviews { updateConstraintsLeavesFirst(in: subview) }
        guard view.needsConstraintUpdate else { return }
        view.needsConstraintUpdate = false
        view.runUpdateConstraints()
    }

    /// The frame the engine of the guide's tree solved for it (nil before a pass).
    static func solvedFrame(of guide: UILayoutGuide) -> CGRect? {
        guard let owner = guide.owningView, let engine = engine(of: owner), !engine.dirty else { return nil }
        return engine.solvedRect(of: guide)
    }

    static func isAmbiguous(_ item: LayoutItem, vertical: Bool) -> Bool {
        guard let view = (item as? UIView) ?? item.layoutParent else { return false }
        prepareLayout(from: view)
        guard let engine = engine(of: view) else { return false }
        return engine.isAmbiguous(item, vertical: vertical)
    }

    // MARK: Logs

    /// UIKit's report of a constraint it breaks.
    static func logUnsatisfiable(breaking constraint: NSLayoutConstraint, in root: UIView?) {
        var related: [NSLayoutConstraint] = []
        if let root {
            let items = [constraint.firstItem, constraint.secondItem].compactMap { $0 }.map(ObjectIdentifier.init)
            func visit(_ view: UIView) {
                for c in view.layoutStateIfPresent?.constraints ?? [] where c !== constraint {
                    let cItems = [c.firstItem, c.secondItem].compactMap { $0 }.map(ObjectIdentifier.init)
                    if cItems.contains(where: items.contains) { related.append(c) }
                }
                for subview in view.subviews { visit(subview) }
            }
            visit(root)
        }
        let list = (related.prefix(20) + [constraint]).map { "    \($0)" }.joined(separator: ",\n")
        UIKitLog.warn("""
            Unable to simultaneously satisfy constraints.
            \tProbably at least one of the constraints in the following list is one you don't want.
            (
            \(list)
            )

            Will attempt to recover by breaking constraint
            \(constraint)

            Make a symbolic breakpoint at UIViewAlertForUnsatisfiableConstraints to catch this in the debugger.
            """)
    }
}
