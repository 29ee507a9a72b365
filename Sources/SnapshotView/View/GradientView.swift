import Foundation
import RasterCore

/// The last bitmap a gradient was drawn into, by gradient and size; shared by a view (or layer) and the
/// contents frozen from it, drawn from any render thread.
public final class GradientCache: @unchecked Sendable {
    public init() {}

    deinit {
        if let last { Self.release(last.bitmap.width * last.bitmap.height * 4) }
    }

    private let lock = NSLock()
    private var last: (shape: Gradient, width: Int, height: Int, bitmap: Bitmap)?

    /// What every cache keeps together is bounded: past this many bytes a gradient is drawn each time it is
    /// asked for and not kept (so ten thousand large gradient views cannot hold memory without end).
    public static let budgetBytes = 256 << 20
    private static let budgetLock = NSLock()
    nonisolated(unsafe) private static var keptBytes = 0

    private static func reserve(_ bytes: Int) -> Bool {
        budgetLock.lock(); defer { budgetLock.unlock() }
        guard keptBytes + bytes <= budgetBytes else { return false }
        keptBytes += bytes
        return true
    }

    private static func release(_ bytes: Int) {
        budgetLock.lock(); defer { budgetLock.unlock() }
        keptBytes -= bytes
    }

    /// The gradient drawn at `width` × `height` pixels: the last one when it is the same, else drawn now
    /// (nil only for a size a bitmap cannot have), and kept while the budget allows.
    public func bitmap(for shape: Gradient, width: Int, height: Int) -> Bitmap? {
        lock.lock()
        if let last, last.shape == shape, last.width == width, last.height == height { lock.unlock(); return last.bitmap }
        lock.unlock()
        guard let bitmap = try? shape.render(width: width, height: height) else { return nil }
        lock.lock()
        if let old = last { Self.release(old.bitmap.width * old.bitmap.height * 4); last = nil }
        if Self.reserve(width * height * 4) { last = (shape, width, height, bitmap) }
        lock.unlock()
        return bitmap
    }
}

/// A gradient drawn at the pixels its bounds cover on the target (so the dither lands on device pixels
/// one for one when the bounds sit on whole pixels), stretched over the bounds.
public struct GradientContent: ViewContent {
    public let shape: Gradient
    let cache: GradientCache

    /// `shape` drawn through `cache`.
    public init(shape: Gradient, cache: GradientCache) { self.shape = shape; self.cache = cache }

    /// The most pixels a side of the gradient's bitmap has.
    static let maxSide = 4096

    /// True: a gradient layer's gradient is rounded by its corner radius, as its background colour is.
    public var roundsWithCorners: Bool { true }

    public func draw(in painter: Painter, bounds: Rect) {
        let t = painter.transform
        let sx = (t.a * t.a + t.b * t.b).squareRoot(), sy = (t.c * t.c + t.d * t.d).squareRoot()
        let w = bounds.width * sx, h = bounds.height * sy
        guard w.isFinite, h.isFinite, w > 0, h > 0 else { return }
        // (Clamped as doubles: a huge scale must not trap converting to Int.)
        let width = Int(min(Double(Self.maxSide), max(1, w.rounded()))), height = Int(min(Double(Self.maxSide), max(1, h.rounded())))
        guard let bitmap = cache.bitmap(for: shape, width: width, height: height) else { return }
        painter.draw(bitmap, in: bounds)
    }
}


/// A view whose content is a gradient over its bounds (`CAGradientLayer`'s drawing, for views and scene
/// files), over its background.
open class GradientView: View {
    /// Nil (the default) draws nothing.
    public var gradient: Gradient?
    private let cache = GradientCache()

    open override func makeContent() -> (any ViewContent)? {
        guard let gradient, !gradient.stops.isEmpty else { return nil }
        return GradientContent(shape: gradient, cache: cache)
    }
}
