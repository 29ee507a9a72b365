extension View {
    /// Adds `view` on top of the subviews, removing it from its previous superview first.
    /// Throws ``ViewTreeError/cycle(child:parent:)`` when `view` is this view or one of its ancestors.
    public func addSubview(_ view: View) throws {
        try insertSubview(view, at: subviews.count)
    }

    /// Inserts `view` at `index` in the subviews (clamped to 0…count), removing it from its previous
    /// superview first. Moving a view within the same superview counts the index after its removal.
    public func insertSubview(_ view: View, at index: Int) throws {
        try checkAcyclic(view)
        view.removeFromSuperview()
        subviews.insert(view, at: min(max(index, 0), subviews.count))
        view.superview = self
    }

    /// Inserts `view` just above `sibling`, or on top when `sibling` is not a subview.
    public func insertSubview(_ view: View, aboveSubview sibling: View) throws {
        guard view !== sibling else { return }
        try checkAcyclic(view)
        view.removeFromSuperview()
        let index = subviews.firstIndex { $0 === sibling }.map { $0 + 1 } ?? subviews.count
        try insertSubview(view, at: index)
    }

    /// Inserts `view` just below `sibling`, or at the bottom when `sibling` is not a subview.
    public func insertSubview(_ view: View, belowSubview sibling: View) throws {
        guard view !== sibling else { return }
        try checkAcyclic(view)
        view.removeFromSuperview()
        let index = subviews.firstIndex { $0 === sibling } ?? 0
        try insertSubview(view, at: index)
    }

    /// Removes the view from its superview; without one it does nothing.
    public func removeFromSuperview() {
        guard let parent = superview else { return }
        parent.subviews.removeAll { $0 === self }
        superview = nil
    }

    /// Moves a subview to the top of the z-order; other views are left alone.
    public func bringSubviewToFront(_ view: View) {
        guard let i = subviews.firstIndex(where: { $0 === view }) else { return }
        subviews.append(subviews.remove(at: i))
    }

    /// Moves a subview to the bottom of the z-order; other views are left alone.
    public func sendSubviewToBack(_ view: View) {
        guard let i = subviews.firstIndex(where: { $0 === view }) else { return }
        subviews.insert(subviews.remove(at: i), at: 0)
    }

    /// Whether this view is `view` or inside it.
    public func isDescendant(of view: View) -> Bool {
        var node: View? = self
        while let n = node {
            if n === view { return true }
            node = n.superview
        }
        return false
    }

    /// The top of this view's tree (the view itself when it has no superview).
    public var root: View {
        var node = self
        while let parent = node.superview { node = parent }
        return node
    }

    /// The first view named `name` in this subtree, depth first in z-order (the view itself first).
    public func view(named name: String) -> View? {
        if self.name == name { return self }
        for child in subviews {
            if let found = child.view(named: name) { return found }
        }
        return nil
    }

    /// This view and everything below it, depth first in z-order.
    public var subtree: [View] {
        var result: [View] = [self]
        for child in subviews { result += child.subtree }
        return result
    }

    /// An indented dump of the subtree, one ``summary`` a line.
    public func treeDescription() -> String {
        var lines: [String] = []
        func walk(_ v: View, _ depth: Int) {
            lines.append(String(repeating: "  ", count: depth) + v.summary)
            for c in v.subviews { walk(c, depth + 1) }
        }
        walk(self, 0)
        return lines.joined(separator: "\n")
    }

    private func checkAcyclic(_ view: View) throws {
        if view === self || isDescendant(of: view) {
            throw ViewTreeError.cycle(child: view.label, parent: label)
        }
    }
}
