import RasterCore

extension View {
    /// Maps this view's bounds coordinates to its superview's bounds coordinates (points): move the
    /// bounds' centre (plus ``transformAnchor``) to the origin, apply the transform about it, then move to
    /// `center` (plus the anchor). ``transform3D`` is not included.
    public var transformToSuperview: Transform2D {
        View.transformToSuperview(center: center, bounds: bounds, transform: transform, anchor: transformAnchor)
    }

    static func transformToSuperview(center: Point, bounds: Rect, transform: Transform2D, anchor: Point = .zero) -> Transform2D {
        let toCentre = Transform2D(translationX: -bounds.midX - anchor.x, y: -bounds.midY - anchor.y)
        let placed = transform.isIdentity ? toCentre : toCentre.concatenating(transform)
        return placed.concatenating(Transform2D(translationX: center.x + anchor.x, y: center.y + anchor.y))
    }

    /// Maps this view's bounds coordinates to its root's bounds coordinates.
    public var transformToRoot: Transform2D {
        var t = Transform2D.identity
        var node = self
        while let parent = node.superview {
            t = t.concatenating(node.transformToSuperview)
            node = parent
        }
        return t
    }

    /// Maps this view's bounds coordinates to `view`'s (nil: the root of this view's tree).
    /// Throws ``ViewTreeError/differentTrees(from:to:)`` when the views do not share a root, and the
    /// same error when `view` has a transform that cannot be inverted (a zero scale), because no point
    /// maps into it.
    public func transform(to view: View?) throws -> Transform2D {
        guard let view else { return transformToRoot }
        guard view.root === root else { throw ViewTreeError.differentTrees(from: label, to: view.label) }
        guard let fromRoot = view.transformToRoot.inverted() else {
            throw ViewTreeError.differentTrees(from: label, to: "\(view.label) (its transform is not invertible)")
        }
        return transformToRoot.concatenating(fromRoot)
    }

    /// `point` in this view's bounds coordinates, expressed in `view`'s (nil: the root's).
    public func convert(_ point: Point, to view: View?) throws -> Point {
        try transform(to: view).apply(to: point)
    }

    /// `point` in `view`'s bounds coordinates (nil: the root's), expressed in this view's.
    public func convert(_ point: Point, from view: View?) throws -> Point {
        try (view ?? root).transform(to: self).apply(to: point)
    }

    /// `rect` in this view's bounds coordinates, expressed in `view`'s (nil: the root's). Through a
    /// rotation or skew the result is the bounding box of the transformed rect, as in UIKit.
    public func convert(_ rect: Rect, to view: View?) throws -> Rect {
        try transform(to: view).apply(to: rect)
    }

    /// `rect` in `view`'s bounds coordinates (nil: the root's), expressed in this view's.
    public func convert(_ rect: Rect, from view: View?) throws -> Rect {
        try (view ?? root).transform(to: self).apply(to: rect)
    }
}
