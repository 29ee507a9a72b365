import RasterCore

/// The layers of projected nodes (a view turned in 3-D) kept from one frame of a render to the next, as
/// Core Animation keeps a layer's contents while only its transform changes: a card turning over many
/// frames is drawn into its layer once, and each frame only resamples that layer through the new projection.
///
/// A kept layer is used again when the node's body draws the same (``RenderNode/drawsTheSameBody(as:)``:
/// every property but where the node is placed and how it is composited) into a layer of the same size and
/// pixels per point. A body with content that cannot tell whether it draws the same (a custom drawing) is
/// drawn into a new layer every frame and not kept, as without the cache; so is a layer whose size changes
/// from frame to frame (one shown smaller than its points at the screen's scale, which is drawn at the
/// pixels it covers).
///
/// What is kept is bounded by the canvas the frames are drawn into: at most twice as many pixels as it has
/// (a 4-byte pixel each), so that two full-screen layers (a cube's two faces) are both kept. The least
/// recently used layers go first, before a new one is drawn, so a render holds at most two canvases of
/// layers more than one that draws them anew each frame; a layer larger than that is drawn and not kept.
/// One cache is shared by the threads drawing one render's frames (``FrameSequence`` makes one per render);
/// its layers go when it does. The package's test switches (`RenderNode.drawsBackingStores`,
/// `Painter.usesImageFastPaths`) are not part of what a layer is kept by: a test that changes one draws with
/// a new cache.
public final class ProjectedLayerCache: Sendable {
    public init() {}

    /// How a layer is drawn: its size in pixels, its pixels per point along each side and the node's
    /// box the layer spans (points).
    struct Key: Equatable, Sendable {
        var width: Int, height: Int
        var pixelsPerPoint: Double, scaleX: Double, scaleY: Double
        var box: Rect
    }

    private let kept = KeptBodyDrawings<Key, Bitmap>()

    /// Layers used again, and layers drawn, since the cache was made.
    public var statistics: (hits: Int, misses: Int) { kept.statistics }
    /// The pixels of the layers kept now.
    public var keptPixels: Int { kept.keptCost }

    /// The cache the frame being drawn on this thread uses, and the most pixels it may keep: set by
    /// ``ViewRenderer/draw(_:into:clear:layers:shadows:)`` (twice the canvas's pixels).
    @TaskLocal static var current: (cache: ProjectedLayerCache, budgetPixels: Int)?

    /// `node`'s layer for `key`: a kept one whose node's body draws the same, else `draw()`'s (kept when it
    /// fits in `budget` pixels and its body can tell whether it draws the same; nil from `draw` is passed
    /// on and not kept).
    func layer(for node: RenderNode, key: Key, budget: Int, draw: () -> Bitmap?) -> Bitmap? {
        kept.drawing(for: node, key: key, cost: key.width * key.height, budget: budget, make: draw)
    }
}

extension RenderNode {
    /// Whether the node, a descendant or a mask is drawn through a projection (into a layer a
    /// ``ProjectedLayerCache`` can keep).
    public var drawsProjectedLayers: Bool {
        projection != nil || mask?.drawsProjectedLayers == true || children.contains { $0.drawsProjectedLayers }
    }
}
