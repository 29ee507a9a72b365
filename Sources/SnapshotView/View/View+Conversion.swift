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

    /// Core Animation's chain from this view's bounds coordinates into its superview's space, in 3-D: to
    /// the anchor (and ``transformAnchorDepth``), ``transform``, ``transform3D``, to `center` (and
    /// ``zPosition``), then the superview's ``sublayerTransform`` about its centre. Model values, as
    /// UIKit's conversions and hit testing use.
    public var chainToSuperview: Transform3D {
        let anchor = transformAnchor
        var m = Transform3D(translationX: -bounds.midX - anchor.x, y: -bounds.midY - anchor.y, z: -transformAnchorDepth)
            .concatenating(Transform3D(transform))
            .concatenating(transform3D)
            .concatenating(Transform3D(translationX: center.x + anchor.x, y: center.y + anchor.y, z: zPosition))
        if let parent = superview, !parent.sublayerTransform.isIdentity {
            let b = parent.bounds
            m = m.concatenating(Transform3D(translationX: -b.midX, y: -b.midY, z: 0).concatenating(parent.sublayerTransform)
                .concatenating(Transform3D(translationX: b.midX, y: b.midY, z: 0)))
        }
        return m
    }

    /// Whether this view's place in its superview is a 2-D affine map (``transformToSuperview``): no
    /// ``transform3D``, no anchor depth, no sublayer transform above it, and no transform layer
    /// (``preservesDepth``) around it.
    var isFlatInSuperview: Bool {
        transform3D.isIdentity && transformAnchorDepth == 0 && !(superview?.preservesDepth ?? false)
            && (superview?.sublayerTransform.isIdentity ?? true)
    }

    /// Maps this view's bounds coordinates to its root's, as they are seen: each view's 3-D chain seen
    /// flat in its superview's plane (a homography), as Core Animation flattens every layer into its
    /// superlayer; inside a transform layer (``preservesDepth``) the chains are joined in 3-D first and
    /// seen flat where the transform layer's own chain ends.
    public var projectionToRoot: Projective2D {
        var result = Projective2D.identity
        var pending: Transform3D?
        var node = self
        while let parent = node.superview {
            if pending == nil, node.isFlatInSuperview {
                result = result.concatenating(node.transformToSuperview)
            } else {
                pending = (pending ?? .identity).concatenating(node.chainToSuperview)
                if !parent.preservesDepth {
                    result = result.concatenating(pending!.flattened)
                    pending = nil
                }
            }
            node = parent
        }
        if let pending { result = result.concatenating(pending.flattened) }
        return result
    }

    /// Maps this view's bounds coordinates to `view`'s (nil: the root of this view's tree), through every
    /// 3-D transform on the way (``projectionToRoot``). Throws ``ViewTreeError/differentTrees(from:to:)``
    /// when the views do not share a root, and the same error when no point maps into `view` (a zero
    /// scale, a plane seen exactly edge on).
    public func projection(to view: View?) throws -> Projective2D {
        guard let view else { return projectionToRoot }
        guard view.root === root else { throw ViewTreeError.differentTrees(from: label, to: view.label) }
        guard let fromRoot = view.projectionToRoot.inverted() else {
            throw ViewTreeError.differentTrees(from: label, to: "\(view.label) (its transform is not invertible)")
        }
        return projectionToRoot.concatenating(fromRoot)
    }

    /// Maps this view's bounds coordinates to `view`'s (nil: the root of this view's tree), when every
    /// view between them is placed by a 2-D transform; ``projection(to:)`` covers 3-D transforms too.
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

    /// ``transformToRoot`` when every view from this one up to its root is placed by a 2-D affine map
    /// (the same product, in the same order), else nil: one walk up for both.
    var flatTransformToRoot: Transform2D? {
        var t = Transform2D.identity
        var node = self
        while let parent = node.superview {
            guard node.isFlatInSuperview else { return nil }
            t = t.concatenating(node.transformToSuperview)
            node = parent
        }
        return t
    }

    /// ``transform(to:)`` when neither chain has a 3-D step (the same numbers), else nil.
    private func flatTransform(to view: View?) throws -> Transform2D? {
        guard let mine = flatTransformToRoot else { return nil }
        guard let view else { return mine }
        guard view.root === root else { throw ViewTreeError.differentTrees(from: label, to: view.label) }
        guard let theirs = view.flatTransformToRoot else { return nil }
        guard let fromRoot = theirs.inverted() else {
            throw ViewTreeError.differentTrees(from: label, to: "\(view.label) (its transform is not invertible)")
        }
        return mine.concatenating(fromRoot)
    }

    /// `point` in this view's bounds coordinates, expressed in `view`'s (nil: the root's), through 3-D
    /// transforms as they are seen (a point that maps behind the eye throws
    /// ``ViewTreeError/differentTrees(from:to:)``, as no point of `view` is there). Between views placed
    /// only by 2-D transforms, the affine map of ``transform(to:)``.
    public func convert(_ point: Point, to view: View?) throws -> Point {
        if let flat = try flatTransform(to: view) { return flat.apply(to: point) }
        return try Self.apply(try projection(to: view), to: point, from: label, to: view?.label ?? root.label)
    }

    /// `point` in `view`'s bounds coordinates (nil: the root's), expressed in this view's.
    public func convert(_ point: Point, from view: View?) throws -> Point {
        try (view ?? root).convert(point, to: self)
    }

    /// `rect` in this view's bounds coordinates, expressed in `view`'s (nil: the root's). Through a
    /// rotation, a skew or a perspective the result is the bounding box of the mapped rect, as in UIKit.
    public func convert(_ rect: Rect, to view: View?) throws -> Rect {
        if let flat = try flatTransform(to: view) { return flat.apply(to: rect) }
        return try Self.apply(try projection(to: view), to: rect)
    }

    /// `rect` in `view`'s bounds coordinates (nil: the root's), expressed in this view's.
    public func convert(_ rect: Rect, from view: View?) throws -> Rect {
        try (view ?? root).convert(rect, to: self)
    }

    private static func apply(_ projection: Projective2D, to point: Point, from: String, to: String) throws -> Point {
        if let affine = projection.affine { return affine.apply(to: point) }
        guard let mapped = projection.apply(to: point) else {
            throw ViewTreeError.differentTrees(from: from, to: "\(to) (the point maps behind the eye)")
        }
        return mapped
    }

    private static func apply(_ projection: Projective2D, to rect: Rect) throws -> Rect {
        if let affine = projection.affine { return affine.apply(to: rect) }
        // Huge but finite: a rect reaching the eye's plane is cut there, as drawing cuts it.
        return projection.boundingBox(of: rect, within: Rect(x: -1e9, y: -1e9, width: 2e9, height: 2e9))
    }
}
