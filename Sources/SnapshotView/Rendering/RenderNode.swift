import RasterCore

/// A view frozen for drawing: its presentation values, content and visible subviews.
///
/// Freezing happens on the thread that owns the views (``View/renderNode(presentation:)``); the frozen
/// tree is a value that can then be drawn on any thread, any number of times.
public struct RenderNode: Sendable {
    /// The view's name, for debugging.
    public let name: String?
    /// Maps the node's bounds coordinates to its parent's (points). For a node with a ``projection`` it
    /// is the affine part of that projection, kept for readers that cannot draw perspective.
    public let transformToParent: Transform2D
    /// Maps the node's bounds coordinates to its parent's with perspective (a 3-D transform, or a
    /// superview's `sublayerTransform`, seen flat); nil when ``transformToParent`` says it all.
    public let projection: Projective2D?
    /// False when the node is not double-sided and its back faces the viewer (its own 3-D transform and its
    /// superview's sublayer transform turn its normal away): then it is not drawn.
    public let isDoubleSided: Bool
    /// A frozen tree whose alpha masks the node's drawing, in the node's bounds coordinates; nil when none.
    public var mask: RenderNode? { masks.first }
    /// The shadow drawn under the node's body; nil when none.
    public let shadow: Shadow?
    /// The mask, held in an array: a node cannot hold a node of its own type directly.
    private let masks: [RenderNode]
    /// The node's coordinate space (points); the origin is the scroll offset.
    public let bounds: Rect
    /// 0…1, already clamped.
    public let alpha: Double
    /// Nil or fully transparent: no background is drawn.
    public let backgroundColor: Color?
    /// Points; rounds the background, border and clip.
    public let cornerRadius: Double
    /// Which corners ``cornerRadius`` rounds.
    public let roundedCorners: Corners
    /// The corners' shape.
    public let cornerCurve: CornerCurve
    /// The material drawn first, over what is behind (``Backdrop/none``: nothing).
    public let backdrop: Backdrop
    /// How near the viewer the node's centre is (points, towards the viewer), in its parent's space: what a
    /// view that preserves depth orders its children by.
    public var depth = 0.0
    /// Whether this node is a transform layer's (its children in its superlayer's space, each at its own
    /// depth): a transform layer around it joins them with its own sublayers in one depth order.
    public var preservesDepth = false
    /// When set, the children are drawn in this colour through their alpha (``View/vibrancyColor``).
    public var vibrancy: Color?
    /// Whether content and subviews are clipped to the (rounded) bounds.
    public let clipsToBounds: Bool
    /// Points, drawn inside the bounds.
    public let borderWidth: Double
    /// The border's colour.
    public let borderColor: Color
    /// What the view draws itself (text, an image, a drawing), or nil.
    public let content: (any ViewContent)?
    /// Whether ``content`` is rasterized on the node's own pixel grid and then placed, as a UIKit
    /// layer's backing store is (``View/drawsContentIntoBackingStore``).
    public let contentHasBackingStore: Bool
    /// Visible subviews only, back to front.
    public let children: [RenderNode]

    /// What the node and its subtree can touch, in its bounds coordinates (points).
    public let visualBounds: Rect
    /// What ``drawBody(in:)`` can touch, in its bounds coordinates (points): ``visualBounds`` without the
    /// node's own shadow and mask (what a shadow of the content is made of).
    let bodyBounds: Rect
    /// How many separate things the subtree draws, counted up to 2: with alpha below 1, two or more
    /// must be composited as a group so they do not show through each other.
    public let drawCount: Int

    init(name: String?, transformToParent: Transform2D, projection: Projective2D? = nil, isDoubleSided: Bool = true,
         mask: RenderNode? = nil, shadow: Shadow? = nil, roundedCorners: Corners = .all, cornerCurve: CornerCurve = .circular, backdrop: Backdrop = .none, bounds: Rect, alpha: Double, backgroundColor: Color?,
         cornerRadius: Double, clipsToBounds: Bool, borderWidth: Double, borderColor: Color,
         content: (any ViewContent)?, contentHasBackingStore: Bool = false, children: [RenderNode]) {
        self.name = name
        self.transformToParent = transformToParent
        self.projection = projection
        self.isDoubleSided = isDoubleSided
        self.masks = mask.map { [$0] } ?? []
        self.shadow = shadow
        self.roundedCorners = roundedCorners
        self.cornerCurve = cornerCurve
        self.backdrop = backdrop
        self.bounds = bounds.standardized
        self.alpha = alpha
        let background = backgroundColor.flatMap { $0.alpha > 0 ? $0 : nil }
        self.backgroundColor = background
        self.cornerRadius = cornerRadius
        self.clipsToBounds = clipsToBounds
        self.borderWidth = borderWidth
        self.borderColor = borderColor
        self.content = content
        self.contentHasBackingStore = contentHasBackingStore
        self.children = children
        var (box, count) = RenderNode.summarize(bounds: self.bounds, background: background != nil || backdrop.isVisible,
                                                border: borderWidth > 0 && borderColor.alpha > 0,
                                                content: content, children: children, clips: clipsToBounds)
        bodyBounds = box
        // A shadow reaches its shape moved by its offset and grown by three standard deviations.
        if let shadow, shadow.color.alpha > 0, shadow.radius.isFinite, shadow.offset.width.isFinite, shadow.offset.height.isFinite {
            let shape = shadow.path?.controlPointBounds ?? box
            if !shape.isNull, !shape.isEmpty {
                let reach = 3 * max(0, shadow.radius) + 1
                box = box.union(shape.offsetBy(dx: shadow.offset.width, dy: shadow.offset.height).insetBy(dx: -reach, dy: -reach))
                count = 2
            }
        }
        if clipsToBounds, shadow != nil { box = box.intersection(self.bounds) }
        // A mask shows the node only where it draws: nothing at all when it draws nothing.
        if let mask {
            box = mask.drawCount > 0 ? box.intersection(mask.extentInParent) : .null
            if box.isEmpty { count = 0 } else { count = max(count, 2) }
        }
        (visualBounds, drawCount) = (box, count)
    }

    /// Where the node's drawing can land in its parent's bounds coordinates (points): its visual bounds
    /// mapped through its transform; through a projection, the part in front of the eye, within a
    /// window far larger than any screen.
    package var extentInParent: Rect {
        guard let projection else { return transformToParent.apply(to: visualBounds) }
        return projection.boundingBox(of: visualBounds, within: Rect(x: -1e6, y: -1e6, width: 2e6, height: 2e6))
    }

    /// This node with `overlay` as its front-most child (in this node's bounds coordinates): what a window
    /// above the app's (iOS's status bar) adds to every frame.
    public func addingFrontChild(_ overlay: RenderNode) -> RenderNode {
        var node = RenderNode(name: name, transformToParent: transformToParent, projection: projection, isDoubleSided: isDoubleSided,
                              mask: mask, shadow: shadow, roundedCorners: roundedCorners, cornerCurve: cornerCurve, backdrop: backdrop,
                              bounds: bounds, alpha: alpha, backgroundColor: backgroundColor, cornerRadius: cornerRadius,
                              clipsToBounds: clipsToBounds, borderWidth: borderWidth, borderColor: borderColor, content: content,
                              contentHasBackingStore: contentHasBackingStore, children: children + [overlay])
        node.depth = depth
        node.vibrancy = vibrancy
        return node
    }

    /// A node that draws nothing (a mask that hides everything).
    static let nothing = RenderNode(name: nil, transformToParent: .identity, bounds: .zero, alpha: 1, backgroundColor: nil,
                                    cornerRadius: 0, clipsToBounds: false, borderWidth: 0, borderColor: .clear, content: nil, children: [])

    var drawsBorder: Bool { borderWidth > 0 && borderColor.alpha > 0 }

    var radii: CornerRadii {
        guard roundedCorners != .all else { return CornerRadii(all: cornerRadius) }
        func r(_ corner: Corners) -> Double { roundedCorners.contains(corner) ? cornerRadius : 0 }
        return CornerRadii(topLeft: r(.topLeft), topRight: r(.topRight), bottomRight: r(.bottomRight), bottomLeft: r(.bottomLeft))
    }

    private static func summarize(bounds: Rect, background: Bool, border: Bool, content: (any ViewContent)?,
                                  children: [RenderNode], clips: Bool) -> (Rect, Int) {
        var box = Rect.null
        var count = 0
        if background { count += 1; box = box.union(bounds) }
        if border { count += 1; box = box.union(bounds) }
        if let content { count += content.isSingleShape ? 1 : 2; box = box.union(content.extent(in: bounds)) }
        for child in children where child.drawCount > 0 {
            count += child.drawCount
            box = box.union(child.extentInParent)
        }
        if clips { box = box.intersection(bounds) }
        return (box, box.isEmpty ? 0 : min(count, 2))
    }
}

extension ViewContent {
    /// Default: the bounds.
    public func extent(in bounds: Rect) -> Rect { bounds }
    /// Default: false.
    public var isSingleShape: Bool { false }
}

extension View {
    /// Freezes this subtree for drawing, reading every animatable value through `presentation`.
    /// Hidden views and views with alpha 0 are left out with their subviews; nil when this view itself
    /// is one of them.
    public func renderNode(presentation: some PresentationSource = ModelPresentation()) -> RenderNode? {
        renderNode(presentation: presentation, parentSublayer: nil)
    }

    /// `parentSublayer`: the superview's `sublayerTransform` about its centre, in its bounds coordinates,
    /// or nil when it has none.
    func renderNode(presentation: some PresentationSource, parentSublayer: Transform3D?, maskDepth: Int = 0) -> RenderNode? {
        guard !isHidden else { return nil }
        func value(_ p: ViewProperty) -> AnimatableValue {
            presentation.presentationValue(of: p, of: self, model: modelValue(of: p))
        }
        let alpha = value(.alpha).doubleValue ?? self.alpha
        let clamped = alpha.isNaN ? 0 : min(1, max(0, alpha))
        guard clamped > 0 else { return nil }
        return freeze(presentation: presentation, alpha: clamped, parentSublayer: parentSublayer, maskDepth: maskDepth, value: value)
    }

    /// The frozen node of this view drawn as the top of a snapshot: its own alpha and `isHidden` are
    /// how it is placed in its superview, so they are ignored here.
    /// With `clearBackground` the node has no background whatever the presentation says.
    func snapshotNode(presentation: some PresentationSource, clearBackground: Bool) -> RenderNode {
        func value(_ p: ViewProperty) -> AnimatableValue {
            presentation.presentationValue(of: p, of: self, model: modelValue(of: p))
        }
        return freeze(presentation: presentation, alpha: 1, clearBackground: clearBackground, value: value)
    }

    /// `views` in the order they draw: by ``zPosition``, stable (as given where equal).
    private func drawingOrder(of views: [View]) -> [View] {
        guard views.contains(where: { $0.zPosition != 0 }) else { return views }
        return views.enumerated().sorted { ($0.element.zPosition, $0.offset) < ($1.element.zPosition, $1.offset) }.map(\.element)
    }

    private func freeze(presentation: some PresentationSource, alpha: Double, clearBackground: Bool = false,
                        parentSublayer: Transform3D? = nil, maskDepth: Int = 0, value: (ViewProperty) -> AnimatableValue) -> RenderNode {
        let center = value(.center).pointValue ?? self.center
        let bounds = value(.bounds).rectValue ?? self.bounds
        let transform = value(.transform).transformValue ?? self.transform
        let anchor = transformAnchor
        var toParent = View.transformToSuperview(center: center, bounds: bounds, transform: transform, anchor: anchor)
        var projection: Projective2D?
        var facesAway = false
        var depth = zPosition
        var chain: Transform3D?
        let transform3D = value(.transform3D).transform3DValue ?? self.transform3D
        if !transform3D.isIdentity || parentSublayer != nil || transformAnchorDepth != 0 || preservesDepth {
            // Core Animation's chain: to the anchor point, the transform, to the position (and depth), then
            // the superview's sublayer transform; the result seen flat in the superview's plane.
            var m = Transform3D(translationX: -bounds.midX - anchor.x, y: -bounds.midY - anchor.y, z: -transformAnchorDepth)
                .concatenating(Transform3D(transform))
                .concatenating(transform3D)
                .concatenating(Transform3D(translationX: center.x + anchor.x, y: center.y + anchor.y, z: zPosition))
            if let parentSublayer { m = m.concatenating(parentSublayer) }
            let flat = m.flattened
            if let affine = flat.affine { toParent = affine } else if flat.isFinite { projection = flat; toParent = m.affine }
            // Back-facing when the layer's normal points away from the viewer: the sign of the inverse's m33
            // (as CSS decides backface visibility), so a flat mirror (a scale of −1) still faces the viewer.
            if let inverse = m.inverted() { facesAway = inverse.m33 < 0 }
            let x = bounds.midX, y = bounds.midY
            let z = x * m.m13 + y * m.m23 + m.m43, w = x * m.m14 + y * m.m24 + m.m44
            depth = w > 0 ? z / w : z
            chain = m
        }
        var sublayer: Transform3D?
        if !sublayerTransform.isIdentity {
            sublayer = Transform3D(translationX: -bounds.midX, y: -bounds.midY, z: 0).concatenating(sublayerTransform)
                .concatenating(Transform3D(translationX: bounds.midX, y: bounds.midY, z: 0))
        }
        if preservesDepth, let chain, chain.isFinite {
            // The subviews go straight into the superview's space through this view's whole chain, and the
            // node itself stays put and draws nothing of its own.
            let through = sublayer.map { $0.concatenating(chain) } ?? chain
            var children = subviews.compactMap { $0.renderNode(presentation: presentation, parentSublayer: through, maskDepth: maskDepth) }
            // A transform layer inside this one adds its sublayers to this one's depth order, as Core
            // Animation keeps one 3-D scene through nested transform layers (they are already in this
            // space). One with an opacity below 1 stays one piece, blended as a whole.
            children = children.flatMap { $0.preservesDepth && $0.alpha >= 1 ? $0.children : [$0] }
            children = children.enumerated().sorted { ($0.element.depth, $0.offset) < ($1.element.depth, $1.offset) }.map(\.element)
            var node = RenderNode(name: name, transformToParent: .identity, bounds: bounds, alpha: alpha, backgroundColor: nil,
                                  cornerRadius: 0, clipsToBounds: false, borderWidth: 0, borderColor: .clear, content: nil, children: children)
            node.depth = depth
            node.preservesDepth = true
            return node
        }
        var node = RenderNode(
            name: name,
            transformToParent: toParent,
            projection: projection,
            isDoubleSided: isDoubleSided || !facesAway,
            // (A hidden or transparent mask hides the whole view, as Core Animation's does. Masks of masks
            // stop at a depth of 8, so that a cycle of masks cannot recurse without end.)
            mask: mask.map { maskDepth < 8 ? ($0.renderNode(presentation: presentation, parentSublayer: nil, maskDepth: maskDepth + 1) ?? RenderNode.nothing) : RenderNode.nothing },
            shadow: shadowPresenter.map { $0() } ?? shadow,
            roundedCorners: roundedCorners,
            cornerCurve: cornerCurve,
            backdrop: value(.backdrop).backdropValue ?? backdrop,
            bounds: bounds,
            alpha: alpha,
            backgroundColor: clearBackground ? nil : value(.backgroundColor).colorValue,
            cornerRadius: max(0, value(.cornerRadius).doubleValue ?? cornerRadius),
            clipsToBounds: clipsToBounds,
            borderWidth: max(0, value(.borderWidth).doubleValue ?? borderWidth),
            borderColor: value(.borderColor).colorValue ?? borderColor,
            content: makeContent(),
            contentHasBackingStore: drawsContentIntoBackingStore,
            children: drawingOrder(of: subviews).compactMap { $0.renderNode(presentation: presentation, parentSublayer: sublayer, maskDepth: maskDepth) })
        node.depth = depth
        node.vibrancy = vibrancyColor
        return node
    }
}
