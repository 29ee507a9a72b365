internal import RasterCore
import QuartzCore

/// The stack of drawing contexts UIKit keeps: `draw(_:)`, image renderers and
/// `UIGraphicsBeginImageContextWithOptions` push one; drawing calls without a context
/// (``UIBezierPath/fill()``, ``UIColor/setFill()``) draw into the top one.
enum GraphicsStack {
    struct Entry {
        let context: CGContext
        let size: CGSize
        let scale: CGFloat
        let opaque: Bool
    }

    nonisolated(unsafe) static var entries: [Entry] = []

    static func push(_ entry: Entry) { entries.append(entry) }
    static func pop() { _ = entries.popLast() }
    static var top: Entry? { entries.last }

    /// Runs `body` with `context` current.
    static func with<T>(_ context: CGContext, size: CGSize, scale: CGFloat, opaque: Bool = false, _ body: () throws -> T) rethrows -> T {
        push(Entry(context: context, size: size, scale: scale, opaque: opaque))
        defer { pop() }
        return try body()
    }

    /// Draws what `context` recorded into a new bitmap of `size` points at `scale` (the main screen's
    /// for 0); nil when the size is empty or over the bitmap limits.
    static func bitmap(of context: CGContext, size: CGSize, scale: CGFloat, opaque: Bool) -> Bitmap? {
        let scale = scale > 0 ? Double(scale) : Double(UIScreen.main.scale)
        guard size.width > 0, size.height > 0, let bitmap = try? Bitmap(pointSize: size.size, scale: scale, fill: opaque ? .black : .clear) else {
            return nil
        }
        let painter = Painter(bitmap: bitmap)  // already scaled to points by the bitmap's scale
        let bounds = Rect(x: 0, y: 0, width: Double(size.width), height: Double(size.height))
        ContextContent(context, bounds: bounds).draw(in: painter, bounds: bounds)
        return painter.finish()
    }
}

/// The context drawing goes into now: inside a view's `draw(_:)`, an image renderer's block, or between
/// `UIGraphicsBeginImageContextWithOptions` and `UIGraphicsEndImageContext`; nil elsewhere.
public func UIGraphicsGetCurrentContext() -> CGContext? { GraphicsStack.top?.context }

/// Makes `context` the current one until ``UIGraphicsPopContext()``.
public func UIGraphicsPushContext(_ context: CGContext) {
    GraphicsStack.push(GraphicsStack.Entry(context: context, size: context.size, scale: UIScreen.main.scale, opaque: false))
}

public func UIGraphicsPopContext() { GraphicsStack.pop() }

/// Starts drawing an image of `size` points at `scale` (0: the main screen's); end with
/// ``UIGraphicsEndImageContext()``.
public func UIGraphicsBeginImageContextWithOptions(_ size: CGSize, _ opaque: Bool, _ scale: CGFloat) {
    GraphicsStack.push(GraphicsStack.Entry(context: CGContext(size: size), size: size, scale: scale, opaque: opaque))
}

/// The same at scale 1, not opaque.
public func UIGraphicsBeginImageContext(_ size: CGSize) { UIGraphicsBeginImageContextWithOptions(size, false, 1) }

/// The image drawn so far in the context ``UIGraphicsBeginImageContextWithOptions(_:_:_:)`` began.
public func UIGraphicsGetImageFromCurrentImageContext() -> UIImage? {
    guard let top = GraphicsStack.top, let bitmap = GraphicsStack.bitmap(of: top.context, size: top.size, scale: top.scale, opaque: top.opaque) else {
        return nil
    }
    return UIImage(bitmap: bitmap)
}

public func UIGraphicsEndImageContext() { GraphicsStack.pop() }

/// Fills `rect` with the current fill colour.
public func UIRectFill(_ rect: CGRect) { UIGraphicsGetCurrentContext()?.fill(rect) }

/// How an image renderer makes its images.
open class UIGraphicsImageRendererFormat: NSObject {
    /// Pixels per point; the main screen's by default.
    open var scale: CGFloat = UIScreen.main.scale
    /// Whether the image has no transparency (its background is black until drawn over). Default false.
    open var opaque = false

    public override init() { super.init() }

    /// The main screen's scale, not opaque.
    open class func `default`() -> UIGraphicsImageRendererFormat { UIGraphicsImageRendererFormat() }
    open class func preferred() -> UIGraphicsImageRendererFormat { UIGraphicsImageRendererFormat() }
}

/// What an image renderer's drawing block gets: its context and format.
open class UIGraphicsImageRendererContext: NSObject {
    public let cgContext: CGContext
    public let format: UIGraphicsImageRendererFormat
    private let size: CGSize

    init(cgContext: CGContext, format: UIGraphicsImageRendererFormat, size: CGSize) {
        self.cgContext = cgContext
        self.format = format
        self.size = size
        super.init()
    }

    /// What was drawn so far, as an image.
    open var currentImage: UIImage {
        let bitmap = GraphicsStack.bitmap(of: cgContext, size: size, scale: format.scale, opaque: format.opaque)
        return bitmap.map { UIImage(bitmap: $0) } ?? UIImage()
    }

    open func fill(_ rect: CGRect) { cgContext.fill(rect) }
    open func stroke(_ rect: CGRect) { cgContext.stroke(rect) }
}

/// Draws images with a block, as UIKit's: `UIGraphicsImageRenderer(size:).image { context in … }`.
open class UIGraphicsImageRenderer: NSObject {
    public let format: UIGraphicsImageRendererFormat
    private let bounds: CGRect

    /// A renderer of images `size` points big, at the main screen's scale.
    public convenience init(size: CGSize) { self.init(size: size, format: .default()) }
    public convenience init(size: CGSize, format: UIGraphicsImageRendererFormat) {
        self.init(bounds: CGRect(origin: .zero, size: size), format: format)
    }
    public convenience init(bounds: CGRect) { self.init(bounds: bounds, format: .default()) }

    public init(bounds: CGRect, format: UIGraphicsImageRendererFormat) {
        self.bounds = bounds
        self.format = format
        super.init()
    }

    /// The image `actions` draws (points; the context's origin is the bounds' origin).
    open func image(actions: (UIGraphicsImageRendererContext) -> Void) -> UIImage {
        let context = CGContext(size: bounds.size)
        context.translateBy(x: -bounds.minX, y: -bounds.minY)
        let rendererContext = UIGraphicsImageRendererContext(cgContext: context, format: format, size: bounds.size)
        GraphicsStack.with(context, size: bounds.size, scale: format.scale, opaque: format.opaque) { actions(rendererContext) }
        return rendererContext.currentImage
    }

    /// The same image, encoded as PNG.
    open func pngData(actions: (UIGraphicsImageRendererContext) -> Void) -> Data {
        image(actions: actions).pngData() ?? Data()
    }
}
