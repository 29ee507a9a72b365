/// How drawn pixels combine with what is already in the bitmap.
public enum BlendMode: Sendable, Hashable {
    /// Porter-Duff source-over on premultiplied values (the default).
    case sourceOver
    /// Replace the destination by the source, in proportion to coverage: `dst = lerp(dst, src, coverage)`.
    case copy
}

/// Draws into a ``Bitmap``: anti-aliased rectangles and paths, images, clipping and transparency layers.
///
/// Coordinates are in points of user space; the initial transform maps them to device pixels by the
/// bitmap's `scale`. A state stack (``save()`` / ``restore()``) holds the transform, clip, alpha and blend
/// mode. Drawing never throws: drawing nothing (an empty shape, a clip that excludes everything, NaN or
/// infinite geometry, alpha 0) is not an error, it just leaves the pixels alone.
///
/// A `Painter` owns its bitmap while it draws; read the result from ``bitmap`` or ``finish()``, or draw
/// in place with `Bitmap.draw(_:)`.
public final class Painter {
    struct State {
        /// User space to device pixels of the current target.
        var transform: Transform2D
        /// Device pixels that may change, within the current target.
        var clipBounds: PixelRect
        /// Anti-aliased clip coverage, when the clip is not a pixel-aligned rectangle.
        var mask: ClipMask?
        var alpha: Double
        var blendMode: BlendMode
    }

    struct Layer {
        var bitmap: Bitmap
        /// Where the layer's top-left pixel lands in the target below it.
        var origin: (x: Int, y: Int)
        /// The state alpha at `beginLayer`, applied when the layer is composited.
        var opacity: Double
        var stateDepth: Int
    }

    var base: Bitmap
    var layers: [Layer] = []
    var state: State
    var savedStates: [State] = []
    let rasterizer = CoverageRasterizer()
    var maskedCoverage: [UInt8] = []
    /// Resampled images, most recent last (see `imageTile(for:placement:)`).
    var imageTiles: [ImageTile] = []
    /// Images drawn with a sub-pixel placement and no tile yet, most recent last: a second draw of one
    /// makes its tile (see `draw(_:transform:opacity:)`).
    var recentDraws: [(source: BitmapStorage, placement: Transform2D)] = []
    /// A row of resampled pixels, reused by every image draw.
    var rowScratch: [UInt32] = []
    /// The largest resampled tile kept, in pixels (16 MiB of storage).
    static let maxTilePixels = 4 * 1024 * 1024
    /// How many resampled tiles one painter keeps.
    static let maxCachedTiles = 8
    /// False only in tests: images take the code the fast paths replaced (a tile per draw, each sample
    /// computed in Swift one pixel at a time), the reference they are checked against byte for byte.
    package nonisolated(unsafe) static var usesImageFastPaths = true

    /// Starts drawing into `bitmap`, with the identity user transform scaled by `bitmap.scale`.
    public init(bitmap: Bitmap) {
        base = bitmap
        state = State(transform: Transform2D(scaleX: bitmap.scale, y: bitmap.scale),
                      clipBounds: bitmap.bounds, mask: nil, alpha: 1, blendMode: .sourceOver)
    }

    /// The bitmap drawn so far, without layers still open.
    public var bitmap: Bitmap { base }

    /// Ends any open layers, releases cached resampled images, and returns the bitmap.
    public func finish() -> Bitmap {
        while !layers.isEmpty { endLayer() }
        imageTiles.removeAll()
        recentDraws.removeAll()
        return base
    }

    // MARK: State

    /// Pushes the transform, clip, alpha and blend mode.
    public func save() { savedStates.append(state) }

    /// Pops the state pushed by the matching ``save()``. Without one it does nothing; it never pops past
    /// the start of the innermost open layer (end the layer for that).
    public func restore() {
        let floor = layers.last?.stateDepth ?? 0
        guard savedStates.count > floor, let last = savedStates.popLast() else { return }
        state = last
    }

    /// Runs `body` between ``save()`` and ``restore()``.
    public func withSavedState<R>(_ body: () throws -> R) rethrows -> R {
        save()
        defer { restore() }
        return try body()
    }

    /// User space to device pixels; starts as a scale by the bitmap's `scale`.
    public var transform: Transform2D {
        // Inside a layer the device is offset; report the transform in the base bitmap's pixels.
        var t = state.transform
        for layer in layers { t = t.concatenating(Transform2D(translationX: Double(layer.origin.x), y: Double(layer.origin.y))) }
        return t
    }

    /// Applies `t` to user space before the current transform (CGContextConcatCTM).
    public func concatenate(_ t: Transform2D) { state.transform = t.concatenating(state.transform) }
    /// Moves user space by `x`, `y` points (prepended to the current transform).
    public func translate(x: Double, y: Double) { concatenate(Transform2D(translationX: x, y: y)) }
    /// Scales user space by `x`, `y` (prepended to the current transform).
    public func scale(x: Double, y: Double) { concatenate(Transform2D(scaleX: x, y: y)) }
    /// Rotates user space by `angle` radians (positive turns +x towards +y).
    public func rotate(by angle: Double) { concatenate(Transform2D(rotationAngle: angle)) }

    /// Multiplies everything drawn, 0…1 (clamped; NaN counts as 0). Default 1.
    public var alpha: Double {
        get { state.alpha }
        set { state.alpha = newValue.isNaN ? 0 : min(1, max(0, newValue)) }
    }

    /// Default `.sourceOver`.
    public var blendMode: BlendMode {
        get { state.blendMode }
        set { state.blendMode = newValue }
    }

    /// Whether drawing now replaces a pixel by an opaque source pixel, whatever was there: alpha 1,
    /// blend mode source-over, and no anti-aliased clip mask (inside ``clipBoundingBox`` every pixel
    /// takes what is drawn at full coverage). Lets a renderer skip what an opaque cover would hide.
    public var drawsOpaqueSourcesOpaquely: Bool { state.mask == nil && alpha8 == 255 && state.blendMode == .sourceOver }

    /// The bounding box of the current clip in device pixels of the base bitmap.
    public var clipBoundingBox: PixelRect {
        var b = state.clipBounds
        for layer in layers { b.x += layer.origin.x; b.y += layer.origin.y }
        return b
    }

    // MARK: Target access

    /// Runs `body` over the pixels of the current target (the innermost layer, or the bitmap).
    func withTargetPixels(_ body: (UnsafeMutablePointer<UInt32>, _ width: Int, _ height: Int) -> Void) {
        if layers.isEmpty {
            let w = base.width, h = base.height
            base.withUnsafeMutablePixels { body($0.baseAddress!, w, h) }
        } else {
            let i = layers.count - 1
            let w = layers[i].bitmap.width, h = layers[i].bitmap.height
            layers[i].bitmap.withUnsafeMutablePixels { body($0.baseAddress!, w, h) }
        }
    }

    var targetScale: Double { layers.last?.bitmap.scale ?? base.scale }

    /// The alpha of the current state as a byte.
    var alpha8: UInt32 { UInt32(PixelMath.coverageByte(state.alpha)) }
}

extension Bitmap {
    /// Draws into this bitmap in place. Layers left open by `body` are ended.
    public mutating func draw(_ body: (Painter) throws -> Void) rethrows {
        // Hand the storage to the painter without leaving a second reference here, so that drawing does
        // not copy it.
        let painter = Painter(bitmap: self)
        self = Bitmap.placeholder
        defer { self = painter.finish() }
        try body(painter)
    }

    /// A 1x1 bitmap that stands in while a painter owns the real one; not charged to any ledger.
    static let placeholder = Bitmap(uncountedPlaceholder: ())
}
