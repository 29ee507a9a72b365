import RasterCore

/// The shadows of layers' content (a shadow with no `shadowPath`: the blurred alpha of everything the
/// layer draws) kept from one frame of a render to the next, so that a still card whose shadow comes from
/// its content is drawn alone and blurred once, not every frame (Core Animation keeps such a shadow while
/// the layer does not change).
///
/// A kept shadow is used again when the node's body draws the same (``RenderNode/drawsTheSameBody(as:)``)
/// through the same transform to device pixels (offset included), over the same device pixels, at the same
/// scale and blur: then it is the same bytes a frame drawn without the cache makes. A layer that moves
/// between frames, or whose body or shadow changes, is drawn alone and blurred anew, as without the cache;
/// so is a body with content that cannot tell whether it draws the same (a custom drawing), which is not
/// kept.
///
/// What is kept is bounded by the canvas the frames are drawn into: at most two bytes per canvas pixel (half
/// the canvas's own memory; a card's shadow covers its reach and the blur's twice over), the least recently
/// used shadows going first; a shadow larger than that is made and not kept. One cache is shared by the threads drawing one render's frames
/// (``FrameSequence`` makes one per render); its shadows go when it does.
public final class ContentShadowCache: Sendable {
    public init() {}

    /// What a shadow's blurred alpha is made from besides the node's body: the device pixels it covers,
    /// the body's transform to them (the shadow's offset included), pixels per point and the blur's
    /// standard deviation in pixels.
    struct Key: Equatable, Sendable {
        var region: PixelRect
        var device: Transform2D
        var scale: Double
        var sigmaPixels: Double
    }

    private let kept = KeptBodyDrawings<Key, BlurredAlpha>()

    /// Shadows used again, and shadows made, since the cache was made.
    public var statistics: (hits: Int, misses: Int) { kept.statistics }
    /// The bytes of the shadows kept now (one per pixel of each shadow's ``BlurredAlpha/box``).
    public var keptBytes: Int { kept.keptCost }

    /// The cache the frame being drawn on this thread uses, and the most bytes it may keep: set by
    /// ``ViewRenderer/draw(_:into:clear:layers:shadows:)`` (two per canvas pixel).
    @TaskLocal static var current: (cache: ContentShadowCache, budgetBytes: Int)?

    /// `node`'s blurred alpha for `key`: a kept one whose node's body draws the same, else `make()`'s
    /// (kept when it fits in `budget` bytes and the body can tell whether it draws the same). What it costs
    /// is the region's bytes while it is made, and the trimmed alpha's once kept: room for the former is
    /// made first.
    func blurredAlpha(for node: RenderNode, key: Key, budget: Int, make: () -> BlurredAlpha?) -> BlurredAlpha? {
        kept.drawing(for: node, key: key, cost: key.region.width * key.region.height, budget: budget, keptCost: \.bytes.count, make: make)
    }
}

extension RenderNode {
    /// Whether the node, a descendant or a mask casts a shadow of its content (one without a path, which a
    /// ``ContentShadowCache`` can keep).
    public var castsContentShadows: Bool {
        (shadow.map { $0.path == nil } ?? false) || mask?.castsContentShadows == true || children.contains { $0.castsContentShadows }
    }
}
