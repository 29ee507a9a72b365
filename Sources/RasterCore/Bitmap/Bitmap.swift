import BoundedInput

/// A premultiplied RGBA8 image in sRGB-encoded space, rows top to bottom.
///
/// A bitmap can only exist valid: its pixel width and height are at least 1, at most
/// ``maxDimension`` each and ``maxPixelCount`` together, and its `scale` (pixels per point) is finite
/// and positive. Every check happens before memory is allocated.
///
/// `Bitmap` is a value type with copy-on-write storage. Storage is counted exactly by ``MemoryLedger``.
public struct Bitmap: Sendable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// Pixels per point (1 for @1x, 2 for @2x, …).
    public let scale: Double
    @usableFromInline var storage: BitmapStorage

    /// The largest width or height, in pixels.
    public static let maxDimension = Limits.bitmapMaxSide
    /// The largest number of pixels in one bitmap (2^28, 1 GiB of storage).
    public static let maxPixelCount = Limits.bitmapMaxPixels

    /// Creates a bitmap of `width` x `height` pixels filled with `fill` (transparent by default).
    /// - Parameter width: pixels, 1…``maxDimension``.
    /// - Parameter height: pixels, 1…``maxDimension``.
    /// - Parameter fill: every pixel's value; default transparent.
    /// - Parameter scale: pixels per point; default 1.
    /// - Throws: ``BitmapError`` for a size or scale outside the limits, before allocating anything.
    public init(width: Int, height: Int, scale: Double = 1, fill: PremultipliedRGBA8 = .clear) throws(BitmapError) {
        try Bitmap.validate(width: width, height: height, scale: scale)
        self.width = width
        self.height = height
        self.scale = scale
        storage = BitmapStorage(count: width * height)
        storage.pixels.initialize(repeating: fill.packed, count: width * height)
    }

    /// A bitmap over existing storage (shared until written).
    init(width: Int, height: Int, scale: Double, storage: BitmapStorage) {
        self.width = width
        self.height = height
        self.scale = scale
        self.storage = storage
    }

    init(uncountedPlaceholder: Void) {
        width = 1; height = 1; scale = 1
        storage = BitmapStorage(uncounted: ())
    }

    /// Creates a bitmap for `size` points at `scale`: the pixel size is `size * scale` rounded up, so
    /// that fractional point sizes are fully covered.
    public init(pointSize size: Size, scale: Double, fill: PremultipliedRGBA8 = .clear) throws(BitmapError) {
        let (w, h) = try Bitmap.pixelSize(of: size, scale: scale)
        try self.init(width: w, height: h, scale: scale, fill: fill)
    }

    /// The pixel size ``init(pointSize:scale:fill:)`` gives `size` points at `scale`, checked against
    /// the limits without allocating anything.
    package static func pixelSize(of size: Size, scale: Double) throws(BitmapError) -> (width: Int, height: Int) {
        guard size.width.isFinite, size.height.isFinite, scale.isFinite, scale > 0 else {
            throw .invalidGeometry("size \(size) at scale \(scale)")
        }
        // A small tolerance keeps 375.0000000001 * 2 from becoming 751 pixels.
        func pixels(_ v: Double) -> Double { (v * scale - 1e-9).rounded(.up) }
        let w = pixels(size.width), h = pixels(size.height)
        guard w.isFinite, h.isFinite else { throw .invalidGeometry("size \(size) at scale \(scale)") }
        guard w <= Double(Bitmap.maxDimension) * 2, h <= Double(Bitmap.maxDimension) * 2 else {
            throw .tooLarge(width: Int(min(w, 1e9)), height: Int(min(h, 1e9)))
        }
        guard w >= 0, h >= 0 else { throw .emptySize(width: Int(max(w, -1e9)), height: Int(max(h, -1e9))) }
        try validate(width: Int(w), height: Int(h), scale: scale)
        return (Int(w), Int(h))
    }

    /// Checks a size and scale against the limits without allocating.
    public static func validate(width: Int, height: Int, scale: Double = 1) throws(BitmapError) {
        guard width > 0, height > 0 else { throw .emptySize(width: width, height: height) }
        guard width <= maxDimension, height <= maxDimension, width * height <= maxPixelCount else {
            throw .tooLarge(width: width, height: height)
        }
        guard scale.isFinite, scale > 0 else { throw .invalidScale(scale) }
    }

    /// The size in points: pixel size divided by `scale`.
    public var pointSize: Size { Size(width: Double(width) / scale, height: Double(height) / scale) }
    /// The whole bitmap as a pixel rectangle.
    public var bounds: PixelRect { PixelRect(x: 0, y: 0, width: width, height: height) }
    /// Bytes per row (4 per pixel, no padding).
    public var rowBytes: Int { width * 4 }
    /// Bytes of pixel storage.
    public var byteCount: Int { width * height * 4 }

    /// Makes the storage unique before a write.
    @inlinable
    mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
    }
}

/// Why a bitmap could not be made.
public enum BitmapError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Width or height below 1.
    case emptySize(width: Int, height: Int)
    /// Over 16384 pixels on a side or 268,435,456 pixels in all.
    case tooLarge(width: Int, height: Int)
    /// A scale that is not finite and positive.
    case invalidScale(Double)
    /// Geometry with NaN or infinite values.
    case invalidGeometry(String)
    /// A region that does not overlap the bitmap.
    case emptyRegion(PixelRect)

    public var description: String {
        switch self {
        case .emptySize(let w, let h): "bitmap size \(w)x\(h) is empty: width and height must be at least 1"
        case .tooLarge(let w, let h):
            "bitmap size \(w)x\(h) is too large: at most \(Bitmap.maxDimension) pixels a side and "
                + "\(Bitmap.maxPixelCount) pixels in all"
        case .invalidScale(let s): "bitmap scale \(s) must be finite and positive"
        case .invalidGeometry(let what): "invalid geometry (NaN or infinite): \(what)"
        case .emptyRegion(let r): "region \(r) does not overlap the bitmap"
        }
    }
}

/// An integer rectangle in pixels: columns `x ..< x + width`, rows `y ..< y + height`.
public struct PixelRect: Hashable, Sendable, CustomStringConvertible {
    /// Left and top edges and size, in pixels.
    public var x: Int, y: Int, width: Int, height: Int

    /// A rectangle of pixels; `x`, `y` may be negative and sizes zero.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }

    /// The left edge, in pixels.
    public var minX: Int { x }
    /// The top edge, in pixels.
    public var minY: Int { y }
    /// `x + width`, saturating at `Int.max` / `Int.min` instead of trapping.
    public var maxX: Int { PixelRect.saturatingAdd(x, width) }
    /// `y + height`, saturating at `Int.max` / `Int.min` instead of trapping.
    public var maxY: Int { PixelRect.saturatingAdd(y, height) }
    /// True when there is no pixel inside.
    public var isEmpty: Bool { width <= 0 || height <= 0 }

    /// The rectangle with `margin` pixels more on every side (saturating).
    public func grown(by margin: Int) -> PixelRect {
        PixelRect(x: x &- margin, y: y &- margin, width: PixelRect.saturatingAdd(width, 2 &* margin), height: PixelRect.saturatingAdd(height, 2 &* margin))
    }

    /// The overlap of two rectangles; an empty rectangle when they do not overlap.
    public func intersection(_ other: PixelRect) -> PixelRect {
        let x0 = max(minX, other.minX), y0 = max(minY, other.minY)
        let x1 = min(maxX, other.maxX), y1 = min(maxY, other.maxY)
        return PixelRect(x: x0, y: y0, width: x1 > x0 ? x1 - x0 : 0, height: y1 > y0 ? y1 - y0 : 0)
    }

    static func saturatingAdd(_ a: Int, _ b: Int) -> Int {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? (b > 0 ? .max : .min) : sum
    }

    public var description: String { "(\(x), \(y), \(width)x\(height) px)" }
}
