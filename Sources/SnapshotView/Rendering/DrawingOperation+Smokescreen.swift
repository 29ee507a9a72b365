import RasterCore

/// A display list whose last operation is a translucent rectangle fill over whole pixels (a smokescreen:
/// the reference scene's 30 % black over the frame), folded into the opaque rectangle fills under it.
///
/// A pixel that an opaque fill sets, at full coverage, and that nothing drawn after that fill touches
/// before the smokescreen, ends as the smokescreen over that fill's colour: one value for all of them. So
/// the fill stores that value there at once (``Painter/store(_:in:)``) and the smokescreen skips those
/// pixels (``Painter/fill(_:color:excluding:)``): the same bytes, without the smokescreen's read and
/// write of most of the frame. What later operations may touch is judged by their boxes
/// (``DrawingOperation/bounds(in:)``), conservatively; each folded region is a fill's whole pixels less
/// those boxes.
///
/// Fills are numbered in drawing order ("leaves": every operation that is not a group, a layer counting
/// as one); drawing asks ``next()`` at each rectangle fill and ``skip(_:)`` for everything else it
/// passes, so the numbers match.
package final class SmokescreenFold {
    /// Per leaf: the pixels it stores folded, and the folded pixel.
    private let regions: [(PixelRegion, UInt32)?]
    private var cursor = 0
    /// Every folded pixel: what the smokescreen leaves alone.
    private let folded: PixelRegion
    private let smokescreen: (rect: Rect, color: Color)

    /// The fold of `operations` drawn with `painter` (state `context`), or nil when the last operation is
    /// not a translucent rectangle fill drawn at full coverage over some whole pixels, or nothing folds.
    package init?(_ operations: [DrawingOperation], in painter: Painter, context: OcclusionContext) {
        guard operations.count > 1, case .rect(let rect, let color)? = operations.last, context.opaque,
              context.transform.preservesAxisAlignment else { return nil }
        let alpha = color.premultiplied.a
        guard alpha > 0, alpha < 255, let inside = PixelRect(inside: context.transform.apply(to: rect)) else { return nil }
        let tinted = inside.intersection(context.clip)
        guard !tinted.isEmpty else { return nil }

        var leaves: [Leaf] = []
        for operation in operations.dropLast() { operation.collectLeaves(in: context, into: &leaves) }
        // Back to front: a fill's folded pixels are its whole pixels under the smokescreen less the box of
        // every leaf drawn after it.
        var regions = [(PixelRegion, UInt32)?](repeating: nil, count: leaves.count)
        var later: [PixelRect] = []
        var all: [PixelRegion] = []
        for i in leaves.indices.reversed() {
            if let (fill, colour) = leaves[i].opaqueFill {
                let region = PixelRegion(fill.intersection(tinted), minus: later)
                if !region.isEmpty {
                    regions[i] = (region, painter.filled(colour.premultiplied.packed, with: color))
                    all.append(region)
                }
            }
            if !leaves[i].bounds.isEmpty { later.append(leaves[i].bounds) }
        }
        guard !all.isEmpty else { return nil }
        self.regions = regions
        folded = PixelRegion(union: all)
        smokescreen = (rect, color)
    }

    /// How many pixels are folded (for tests).
    package var foldedArea: Int { folded.area }

    /// The next leaf, a rectangle fill: its folded pixels and their value, if it has any.
    func next() -> (PixelRegion, UInt32)? {
        defer { cursor += 1 }
        return cursor < regions.count ? regions[cursor] : nil
    }

    /// Passes `operation`'s leaves, drawn or skipped without folding.
    func skip(_ operation: DrawingOperation) { cursor += operation.leafCount }

    /// The smokescreen, everywhere but the folded pixels.
    func drawSmokescreen(in painter: Painter) {
        if !painter.fill(smokescreen.rect, color: smokescreen.color, excluding: folded) {
            painter.fill(smokescreen.rect, color: smokescreen.color)
        }
    }

    /// An operation that is not a group, as the fold sees it.
    struct Leaf {
        /// The device pixels it may change.
        var bounds: PixelRect
        /// For an opaque rectangle fill drawn opaquely: the whole pixels it sets, and its colour.
        var opaqueFill: (PixelRect, Color)?
    }
}

extension DrawingOperation {
    /// This operation's leaves in drawing order, drawn in `context` (see ``SmokescreenFold``).
    func collectLeaves(in context: OcclusionContext, into leaves: inout [SmokescreenFold.Leaf]) {
        switch self {
        case .rect(_, let c):
            // The pixels it sets opaquely are its opaque cover.
            leaves.append(.init(bounds: bounds(in: context), opaqueFill: opaqueCover(in: context).map { ($0, c) }))
        case .roundedRect, .path, .image, .imageOnce, .layer:
            leaves.append(.init(bounds: bounds(in: context), opaqueFill: nil))
        case .clippedToRect(let r, let ops):
            // (An empty or non-finite clip draws nothing, but its operations are still passed in drawing.)
            let inner = context.clipped(toRect: r) ?? OcclusionContext(transform: context.transform, clip: PixelRect(x: 0, y: 0, width: 0, height: 0), opaque: false)
            for op in ops { op.collectLeaves(in: inner, into: &leaves) }
        case .clippedToPath(let p, let ops):
            let inner = context.clipped(toPath: p)
            for op in ops { op.collectLeaves(in: inner, into: &leaves) }
        case .transformed(let t, let ops):
            let inner = context.transformed(by: t)
            for op in ops { op.collectLeaves(in: inner, into: &leaves) }
        case .faded(let factor, let ops):
            guard factor > 0 else { return }
            var inner = context
            if factor < 1 { inner.opaque = false }
            for op in ops { op.collectLeaves(in: inner, into: &leaves) }
        }
    }

    /// How many leaves ``collectLeaves(in:into:)`` finds.
    var leafCount: Int {
        switch self {
        case .rect, .roundedRect, .path, .image, .imageOnce, .layer: return 1
        case .clippedToRect(_, let ops), .clippedToPath(_, let ops), .transformed(_, let ops): return ops.reduce(0) { $0 + $1.leafCount }
        case .faded(let factor, let ops): return factor > 0 ? ops.reduce(0) { $0 + $1.leafCount } : 0
        }
    }
}
