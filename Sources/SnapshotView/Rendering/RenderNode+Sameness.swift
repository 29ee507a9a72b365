import RasterCore
import Typesetting

extension RenderNode {
    /// Whether `other` draws the same pixels as this node into the same canvas: every property drawing
    /// reads is equal, the content draws the same (``ViewContent/drawsTheSame(as:)``) and so do the
    /// children and masks, in order. Conservative: content that cannot tell (a custom drawing, a page
    /// curl) counts as changed. What the live preview uses to keep a frame a reload did not change.
    public func drawsTheSame(as other: RenderNode) -> Bool {
        transformToParent == other.transformToParent && projection == other.projection && isDoubleSided == other.isDoubleSided
            && alpha == other.alpha && depth == other.depth && preservesDepth == other.preservesDepth && drawsTheSameBody(as: other)
    }

    /// Whether `other`'s body (what ``drawMaskedBody(in:part:)`` draws: mask, shadow, backdrop, background,
    /// content, children and border, in the node's own space) draws the same pixels as this node's: every
    /// property but where the node is placed and how it is composited (its transform, projection,
    /// sidedness, alpha and depth), compared as ``drawsTheSame(as:)`` compares them. What a projected
    /// node's kept layer is used again by (``ProjectedLayerCache``).
    public func drawsTheSameBody(as other: RenderNode) -> Bool { drawsTheSameBody(as: other, ignoringOwnShadow: false) }

    /// ``drawsTheSameBody(as:)``, leaving the node's own ``shadow`` out when `ignoringOwnShadow` (what
    /// ``drawBody(in:)`` draws, which a content shadow is made of; children's shadows are compared).
    func drawsTheSameBody(as other: RenderNode, ignoringOwnShadow: Bool) -> Bool {
        guard ignoringOwnShadow || shadow == other.shadow, roundedCorners == other.roundedCorners, cornerCurve == other.cornerCurve,
              backdrop == other.backdrop, bounds == other.bounds, backgroundColor == other.backgroundColor,
              cornerRadius == other.cornerRadius, clipsToBounds == other.clipsToBounds, borderWidth == other.borderWidth,
              borderColor == other.borderColor, contentHasBackingStore == other.contentHasBackingStore, vibrancy == other.vibrancy,
              children.count == other.children.count else { return false }
        switch (content, other.content) {
        case (nil, nil): break
        case let (mine?, theirs?): guard mine.drawsTheSame(as: theirs) else { return false }
        default: return false
        }
        switch (mask, other.mask) {
        case (nil, nil): break
        case let (a?, b?): guard a.drawsTheSame(as: b) else { return false }
        default: return false
        }
        for (a, b) in zip(children, other.children) where !a.drawsTheSame(as: b) { return false }
        return true
    }
}

extension ViewContent {
    /// Default: false (not known to draw the same).
    public func drawsTheSame(as other: any ViewContent) -> Bool { false }
}

extension TextContent {
    /// The same text laid out the same: its style, width, font faces and every line's glyphs and places.
    func drawsTheSame(as other: any ViewContent) -> Bool {
        guard let other = other as? TextContent else { return false }
        let a = layout, b = other.layout
        return a.text == b.text && a.style == b.style && a.width == b.width && a.size == b.size && a.exactSize == b.exactSize
            && a.isTruncated == b.isTruncated && a.lines == b.lines && a.drawsWithTheSameFaces(as: b)
    }
}

extension ImageContent {
    /// The same pixels placed the same way.
    func drawsTheSame(as other: any ViewContent) -> Bool {
        guard let other = other as? ImageContent else { return false }
        return contentMode == other.contentMode && isOpaque == other.isOpaque && image == other.image
    }
}

extension GradientContent {
    /// The same gradient (the cache only keeps its bitmaps).
    public func drawsTheSame(as other: any ViewContent) -> Bool {
        guard let other = other as? GradientContent else { return false }
        return shape == other.shape
    }
}

extension ShapeContent {
    /// The same path, fill, rule and stroke, over the same content.
    public func drawsTheSame(as other: any ViewContent) -> Bool {
        guard let other = other as? ShapeContent, path == other.path, fill == other.fill, rule == other.rule else { return false }
        switch (stroke, other.stroke) {
        case (nil, nil): break
        case let (a?, b?): guard a.color == b.color, a.style == b.style else { return false }
        default: return false
        }
        switch (below, other.below) {
        case (nil, nil): return true
        case let (a?, b?): return a.drawsTheSame(as: b)
        default: return false
        }
    }
}
