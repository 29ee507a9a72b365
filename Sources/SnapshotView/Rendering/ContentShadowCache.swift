import RasterCore

/// The shadows of layers' content (a shadow with no `shadowPath`: the blurred alpha of everything the
/// layer draws) kept from one frame of a render to the next, so that a card whose shadow comes from its
/// content is drawn alone and blurred once, not every frame, still or moving.
///
/// How a content shadow is drawn decides what can be kept (``RenderNode``'s shadow drawing, with or without
/// this cache: the cache never changes a pixel):
/// - From ``Painter/minShiftedBlurSigma`` (3 px) up, and where at least half of what it is made over can
///   reach the clip, the shadow is made on the layer's own pixel grid: the body drawn alone through its
///   transform to device pixels without the translation, blurred, then moved to where it lands, whole pixels
///   and a fraction (``BlurredAlpha/shifted(x:y:)``: the same bytes at whole pixels; between them within 2
///   levels of blurring it there, 4 for text). It is kept while the body draws the same through the same
///   transform but for its translation: a moving card's shadow is made once.
/// - Otherwise it is made where it lands, over what can reach the clip, and kept while the body draws the
///   same in the same place, at the same scale and blur: a still card's shadow is made once.
///
/// The body's sameness is ``RenderNode/drawsTheSameBody(as:)`` without the node's own shadow (its colour and
/// opacity are applied when it is filled, and on the own grid its offset is part of where it lands; a new
/// radius is a new blur). A body with content that cannot tell whether it draws the same (a custom
/// drawing) is drawn alone and blurred every frame, and not kept.
///
/// What is kept is bounded by the canvas the frames are drawn into: at most two bytes per canvas pixel (half
/// the canvas's own memory) of blurred alphas, trimmed to the pixels they cover, and 1,024 of them, the least
/// recently used going first; a shadow whose trimmed alpha is larger than that is made and not kept. One
/// cache is shared by the threads drawing one render's frames (``FrameSequence`` makes one per render); its
/// shadows go when it does.
public final class ContentShadowCache: Sendable {
    public init() {}

    /// What a shadow's blurred alpha is made from besides the node's body: the pixels it is made over, the
    /// body's transform to them (on the layer's own grid, without its translation; else to device pixels,
    /// the shadow's offset included), pixels per point and the blur's standard deviation in pixels.
    struct Key: Equatable, Sendable {
        var region: PixelRect
        var device: Transform2D
        var scale: Double
        var sigmaPixels: Double
    }

    /// (The node's own shadow is left out of the comparison: the blurred alpha is of the body drawn without
    /// it; its radius is in the key, and its offset in the key's transform off the own grid. At most 1,024:
    /// a shadow of nothing costs next to nothing, and each lookup compares keys.)
    private let kept = KeptBodyDrawings<Key, BlurredAlpha>(maxEntries: 1024) { $0.drawsTheSameBody(as: $1, ignoringOwnShadow: true) }

    /// Shadows used again, and shadows made, since the cache was made.
    public var statistics: (hits: Int, misses: Int) { kept.statistics }
    /// The bytes of the shadows kept now (one per pixel of each shadow's ``BlurredAlpha/box``).
    public var keptBytes: Int { kept.keptCost }

    /// The cache the frame being drawn on this thread uses, and the most bytes it may keep: set by
    /// ``ViewRenderer/draw(_:into:clear:layers:shadows:)`` (two per canvas pixel).
    @TaskLocal static var current: (cache: ContentShadowCache, budgetBytes: Int)?

    /// `node`'s blurred alpha for `key`: a kept one whose node's body draws the same (its own shadow apart),
    /// else `make()`'s, kept when its trimmed bytes fit in `budget` and the body can tell whether it draws
    /// the same.
    func blurredAlpha(for node: RenderNode, key: Key, budget: Int, make: () -> BlurredAlpha?) -> BlurredAlpha? {
        kept.drawing(for: node, key: key, budget: budget, measure: \.bytes.count, make: make)
    }
}

extension RenderNode {
    /// Whether the node, a descendant or a mask casts a shadow of its content (one without a path, which a
    /// ``ContentShadowCache`` can keep).
    public var castsContentShadows: Bool {
        (shadow.map { $0.path == nil } ?? false) || mask?.castsContentShadows == true || children.contains { $0.castsContentShadows }
    }
}
