import RasterCore

extension DrawingOperation {
    /// Draws `operations` in order with `painter`, pixel for pixel as drawing each with ``draw(in:)``
    /// would, without drawing what a later operation covers with opaque pixels: an operation wholly under
    /// such a cover is skipped, and a filled rectangle partly under one is filled only around it.
    ///
    /// A cover is the whole device pixels of an opaque rectangle fill drawn by a painter that draws opaque
    /// sources opaquely (alpha 1, source-over, no anti-aliased clip), inside its clip; it may sit inside
    /// clipped, transformed or fully opaque faded groups. Every operation only blends into the pixels it
    /// touches, so what such a fill overwrites later cannot show: a display list that paints a background
    /// and then an opaque panel over most of it costs the panel, not both.
    ///
    /// When the last operation is a translucent rectangle fill over every pixel (a smokescreen), the opaque
    /// rectangle fills under it store their colour with the smokescreen already blended in wherever
    /// nothing between them and it draws, and the smokescreen is not drawn there again
    /// (``SmokescreenFold``): the same pixels, one pass over the frame fewer.
    public static func draw(_ operations: [DrawingOperation], in painter: Painter) {
        let context = OcclusionContext(painter)
        if let fold = SmokescreenFold(operations, in: painter, context: context) {
            drawList(Array(operations.dropLast()), in: painter, context: context, hiddenBy: [], fold: fold)
            fold.drawSmokescreen(in: painter)
        } else {
            drawList(operations, in: painter, context: context, hiddenBy: [])
        }
    }

    /// Draws a list whose operations share `context` (the painter's state before each of them), skipping
    /// what `outer` covers (device pixels of the base bitmap that later operations, outside this list, set
    /// to opaque pixels) or what later operations of the list cover. Returns how many operations, at any
    /// depth, were skipped or drawn only in part (for tests).
    @discardableResult
    package static func drawList(_ operations: [DrawingOperation], in painter: Painter, context: OcclusionContext, hiddenBy outer: [PixelRect],
                         fold: SmokescreenFold? = nil) -> Int {
        // The covers of each operation's successors, found back to front. Most lists have none: then it is
        // the plain loop.
        var covers: [PixelRect?] = []
        var any = false
        if operations.count > 1 {
            covers = operations.map { $0.opaqueCover(in: context) }
            any = covers.dropFirst().contains { $0 != nil }
        }
        guard any || !outer.isEmpty || fold != nil else {
            for operation in operations { operation.draw(in: painter) }
            return 0
        }
        var hidden = outer
        var hiddenBefore = [[PixelRect]](repeating: [], count: operations.count)
        for i in operations.indices.reversed() {
            hiddenBefore[i] = hidden
            if any, let cover = covers[i], !hidden.contains(where: { $0.contains(cover) }) { hidden.append(cover) }
        }
        var saved = 0
        for (i, operation) in operations.enumerated() {
            saved += operation.draw(in: painter, context: context, hiddenBy: hiddenBefore[i], fold: fold)
        }
        return saved
    }

    /// Draws this operation, skipping what `hidden` covers (see ``drawList(_:in:context:hiddenBy:fold:)``);
    /// with a fold, a rectangle fill stores its share of it.
    private func draw(in painter: Painter, context: OcclusionContext, hiddenBy hidden: [PixelRect], fold: SmokescreenFold?) -> Int {
        var visible: PixelRect?
        if !hidden.isEmpty {
            let box = bounds(in: context)
            if box.isEmpty || hidden.contains(where: { $0.contains(box) }) {
                fold?.skip(self)
                return 1
            }
            visible = box
        }
        switch self {
        case .rect(let r, let c):
            let folded = fold?.next()
            guard let box = visible else {
                if let (region, pixel) = folded {
                    // Around the folded pixels, then those at once, the smokescreen already in them.
                    _ = painter.fill(r, color: c, excluding: region)
                    painter.store(pixel, in: region)
                } else {
                    draw(in: painter)
                }
                return 0
            }
            // The fill's pixels that stay visible: its box less the covers it meets. Each piece is filled
            // through a clip on whole pixels, which gives every pixel the coverage it has in one fill of
            // the whole rectangle.
            let pieces = DrawingOperation.pieces(of: box, hiddenBy: hidden)
            if pieces == [box] && folded == nil { draw(in: painter); return 0 }
            for piece in pieces {
                painter.withSavedState {
                    painter.clip(toPixels: piece)
                    if let (region, _) = folded { _ = painter.fill(r, color: c, excluding: region) } else { painter.fill(r, color: c) }
                }
            }
            if let (region, pixel) = folded { painter.store(pixel, in: region) }
            return pieces == [box] ? 0 : 1
        case .clippedToRect(let r, let ops):
            return painter.withSavedState {
                painter.clip(to: r)
                return DrawingOperation.drawList(ops, in: painter, context: OcclusionContext(painter), hiddenBy: hidden, fold: fold)
            }
        case .clippedToPath(let p, let ops):
            return painter.withSavedState {
                painter.clip(to: p)
                return DrawingOperation.drawList(ops, in: painter, context: OcclusionContext(painter), hiddenBy: hidden, fold: fold)
            }
        case .transformed(let t, let ops):
            return painter.withSavedState {
                painter.concatenate(t)
                return DrawingOperation.drawList(ops, in: painter, context: OcclusionContext(painter), hiddenBy: hidden, fold: fold)
            }
        case .faded(let factor, let ops):
            guard factor > 0 else { return 0 }
            return painter.withSavedState {
                painter.alpha *= factor
                return DrawingOperation.drawList(ops, in: painter, context: OcclusionContext(painter), hiddenBy: hidden, fold: fold)
            }
        case .roundedRect, .path, .image, .imageOnce, .layer:
            // Drawn whole when any of it shows (a layer is composited as one). Groups above are drawn
            // through the pass even with nothing hidden from outside: their own operations may hide
            // each other.
            fold?.skip(self)
            draw(in: painter)
            return 0
        }
    }

    /// `box` less the covers it meets (the four largest overlaps), in rectangles that do not overlap.
    static func pieces(of box: PixelRect, hiddenBy hidden: [PixelRect]) -> [PixelRect] {
        var pieces = [box]
        for cover in hidden.sorted(by: { $0.intersection(box).area > $1.intersection(box).area }).prefix(4)
        where cover.intersection(box).area > 0 {
            pieces = pieces.flatMap { $0.subtracting(cover) }
        }
        return pieces
    }

    /// The device pixels (of the base bitmap) this operation leaves opaque whatever was there, drawn with
    /// the painter in `context`; nil when there are none or when unsure. One rectangle: the largest a
    /// group's members give.
    func opaqueCover(in context: OcclusionContext) -> PixelRect? {
        guard context.opaque else { return nil }
        switch self {
        case .rect(let r, let c):
            // Whole pixels inside the rectangle get full coverage; an opaque colour at full coverage is
            // stored as it is.
            guard c.premultiplied.a == 255, context.transform.preservesAxisAlignment,
                  let inside = PixelRect(inside: context.transform.apply(to: r)) else { return nil }
            let cover = inside.intersection(context.clip)
            return cover.isEmpty ? nil : cover
        case .clippedToRect(let r, let ops):
            // A clip on whole pixels only narrows the box; any other makes an anti-aliased mask.
            guard let inner = context.clipped(toRect: r), inner.opaque else { return nil }
            return DrawingOperation.largestCover(of: ops, in: inner)
        case .transformed(let t, let ops):
            return DrawingOperation.largestCover(of: ops, in: context.transformed(by: t))
        case .faded(let factor, let ops):
            return factor >= 1 ? DrawingOperation.largestCover(of: ops, in: context) : nil
        case .roundedRect, .path, .image, .imageOnce, .clippedToPath, .layer:
            return nil
        }
    }

    private static func largestCover(of operations: [DrawingOperation], in context: OcclusionContext) -> PixelRect? {
        var best: PixelRect?
        for operation in operations {
            if let cover = operation.opaqueCover(in: context), cover.area > (best?.area ?? 0) { best = cover }
        }
        return best
    }

    /// The device pixels (of the base bitmap) this operation may change when drawn with the painter in
    /// `context`: within the clip's box always, narrower where the geometry says so. Images get a pixel's
    /// margin for their filtering.
    func bounds(in context: OcclusionContext) -> PixelRect {
        let t = context.transform, clip = context.clip
        func box(_ rect: Rect, margin: Int = 0) -> PixelRect {
            guard var pixels = PixelRect(enclosing: t.apply(to: rect)) else { return clip }
            if margin > 0 {
                pixels = PixelRect(x: pixels.x &- margin, y: pixels.y &- margin, width: pixels.width &+ 2 &* margin,
                                   height: pixels.height &+ 2 &* margin)
            }
            return pixels.intersection(clip)
        }
        switch self {
        case .rect(let r, _), .roundedRect(let r, _, _):
            return box(r)
        case .path(let p, _):
            return box(p.controlPointBounds)
        case .image(_, let r):
            return box(r, margin: 1)
        case .imageOnce(let image, let placement):
            let rect = placement.apply(to: Rect(origin: .zero, size: image.pointSize))
            return box(rect, margin: 1)
        case .clippedToRect(let r, let ops):
            var inner = context
            inner.clip = box(r)
            return DrawingOperation.bounds(of: ops, in: inner)
        case .clippedToPath(let p, let ops):
            return DrawingOperation.bounds(of: ops, in: context.clipped(toPath: p))
        case .transformed(let m, let ops):
            return DrawingOperation.bounds(of: ops, in: context.transformed(by: m))
        case .faded(let factor, let ops):
            return factor > 0 ? DrawingOperation.bounds(of: ops, in: context) : PixelRect(x: clip.x, y: clip.y, width: 0, height: 0)
        case .layer(let ops):
            // A layer's transparent pixels leave what is under them as it was.
            return DrawingOperation.bounds(of: ops, in: context)
        }
    }

    private static func bounds(of operations: [DrawingOperation], in context: OcclusionContext) -> PixelRect {
        var box = PixelRect(x: context.clip.x, y: context.clip.y, width: 0, height: 0)
        for operation in operations { box = box.union(operation.bounds(in: context)) }
        return box
    }
}

/// What the occlusion pass knows of the painter before an operation: its transform (user space to device
/// pixels of the base bitmap), its clip's bounding box (those pixels), and whether it draws opaque
/// sources opaquely.
package struct OcclusionContext {
    var transform: Transform2D
    var clip: PixelRect
    var opaque: Bool

    package init(_ painter: Painter) {
        transform = painter.transform
        clip = painter.clipBoundingBox
        opaque = painter.drawsOpaqueSourcesOpaquely
    }

    init(transform: Transform2D, clip: PixelRect, opaque: Bool) {
        self.transform = transform
        self.clip = clip
        self.opaque = opaque
    }

    /// After `Painter.clip(to:)` with a rectangle: nil when the clip is empty or not finite.
    func clipped(toRect rect: Rect) -> OcclusionContext? {
        guard transform.preservesAxisAlignment else {
            var inner = self
            inner.opaque = false
            if let box = PixelRect(enclosing: transform.apply(to: rect)) { inner.clip = clip.intersection(box) }
            return inner
        }
        let device = transform.apply(to: rect)
        guard device.isFinite, !device.isEmpty, let box = PixelRect(enclosing: device) else { return nil }
        var inner = self
        inner.clip = clip.intersection(box)
        if device.integral != device.standardized { inner.opaque = false }
        return inner
    }

    /// After `Painter.clip(to:)` with a path: an anti-aliased mask inside the path's box.
    func clipped(toPath path: Path) -> OcclusionContext {
        var inner = self
        inner.opaque = false
        if let box = PixelRect(enclosing: transform.apply(to: path.controlPointBounds)) { inner.clip = clip.intersection(box) }
        return inner
    }

    /// After `Painter.concatenate(_:)`.
    func transformed(by t: Transform2D) -> OcclusionContext {
        var inner = self
        inner.transform = t.concatenating(transform)
        return inner
    }
}
