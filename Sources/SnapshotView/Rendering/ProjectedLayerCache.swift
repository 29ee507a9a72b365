import RasterCore
import Synchronization

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

    private struct Entry: Sendable {
        let id: UInt64
        let node: RenderNode
        let key: Key
        let layer: Bitmap
        var lastUse: UInt64
        var pixels: Int { key.width * key.height }
    }

    private struct State: Sendable {
        var entries: [Entry] = []
        var pixels = 0
        var clock: UInt64 = 0
        var hits = 0, misses = 0

        /// Drops the least recently used entries until `room` more pixels fit in `budget`.
        mutating func makeRoom(for room: Int, within budget: Int) {
            while !entries.isEmpty, pixels + room > budget {
                let oldest = entries.indices.min { entries[$0].lastUse < entries[$1].lastUse }!
                pixels -= entries[oldest].pixels
                entries.remove(at: oldest)
            }
        }
    }

    private let state = Mutex(State())

    /// Layers used again, and layers drawn, since the cache was made.
    public var statistics: (hits: Int, misses: Int) { state.withLock { ($0.hits, $0.misses) } }
    /// The pixels of the layers kept now.
    public var keptPixels: Int { state.withLock { $0.pixels } }

    /// The cache the frame being drawn on this thread uses, and the most pixels it may keep: set by
    /// ``ViewRenderer/draw(_:into:clear:layers:)`` (twice the canvas's pixels).
    @TaskLocal static var current: (cache: ProjectedLayerCache, budgetPixels: Int)?

    /// The kept entry for `key` whose node's body draws as `node`'s. (Trees are compared outside the lock:
    /// the entries of that size are copied out first.)
    private func kept(for node: RenderNode, key: Key) -> Entry? {
        state.withLock { s in s.entries.filter { $0.key == key } }.first { node.drawsTheSameBody(as: $0.node) }
    }

    /// `node`'s layer for `key`: a kept one whose node's body draws the same, else `draw()`'s (kept when it
    /// fits in `budget` pixels and its body can tell whether it draws the same; nil from `draw` is passed
    /// on and not kept).
    func layer(for node: RenderNode, key: Key, budget: Int, draw: () -> Bitmap?) -> Bitmap? {
        if let hit = kept(for: node, key: key) {
            state.withLock { s in
                s.clock += 1
                s.hits += 1
                if let i = s.entries.firstIndex(where: { $0.id == hit.id }) { s.entries[i].lastUse = s.clock }
            }
            return hit.layer
        }
        state.withLock { $0.misses += 1 }
        let pixels = key.width * key.height
        // (Content that cannot tell whether it draws the same never matches, not even itself.)
        let keep = pixels <= budget && node.drawsTheSameBody(as: node)
        // Room first, so that the layers given up are gone before the new one is drawn.
        if keep { state.withLock { $0.makeRoom(for: pixels, within: budget) } }
        guard let layer = draw() else { return nil }
        guard keep else { return layer }
        // (Another thread may have drawn the same layer meanwhile: one is enough.)
        guard kept(for: node, key: key) == nil else { return layer }
        state.withLock { s in
            s.makeRoom(for: pixels, within: budget)
            s.clock += 1
            s.entries.append(Entry(id: s.clock, node: node, key: key, layer: layer, lastUse: s.clock))
            s.pixels += pixels
        }
        return layer
    }
}

extension RenderNode {
    /// Whether the node, a descendant or a mask is drawn through a projection (into a layer a
    /// ``ProjectedLayerCache`` can keep).
    public var drawsProjectedLayers: Bool {
        projection != nil || mask?.drawsProjectedLayers == true || children.contains { $0.drawsProjectedLayers }
    }
}
