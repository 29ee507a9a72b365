import RasterCore

/// A view that shows a `Bitmap`, placed by ``contentMode`` as UIKit's `UIImageView` does.
///
/// The image's size in points is its pixel size divided by its `scale`, so an @2x image of 200x200
/// pixels is 100x100 points. An image view is not opaque by default and shows nothing without an image.
open class ImageView: View {
    /// Default nil.
    public var image: Bitmap? { didSet { imageIsOpaque = nil } }
    /// Whether every pixel of ``image`` has alpha 255, found once per image (a frame's renderer skips
    /// what an opaque image covers); set by whoever knows it without reading the pixels.
    package var imageIsOpaque: Bool?
    /// Default `.scaleToFill`, as UIKit's.
    public var contentMode: ContentMode = .scaleToFill

    /// An image view with `frame` (points); without a frame it takes the image's size in points.
    public init(image: Bitmap?, frame: Rect? = nil, contentMode: ContentMode = .scaleToFill, name: String? = nil) {
        self.image = image
        self.contentMode = contentMode
        let size = image.map(ImageView.pointSize(of:)) ?? .zero
        super.init(frame: frame ?? Rect(origin: .zero, size: size), name: name)
        isOpaque = false
    }

    /// The image's size in points: pixels divided by its scale.
    public static func pointSize(of image: Bitmap) -> Size {
        Size(width: Double(image.width) / image.scale, height: Double(image.height) / image.scale)
    }

    /// Where the image is drawn in the current bounds (points); nil without an image.
    public var imageRect: Rect? {
        image.map { contentMode.placement(of: ImageView.pointSize(of: $0), in: bounds) }
    }

    /// The image placed by ``contentMode`` in the bounds.
    open override func makeContent() -> (any ViewContent)? {
        guard let image else { return nil }
        let opaque = imageIsOpaque ?? image.isOpaque
        imageIsOpaque = opaque
        return ImageContent(image: image, contentMode: contentMode, isOpaque: opaque)
    }

    /// The view's summary with the image's size and the content mode.
    open override var summary: String {
        var s = super.summary
        if let image { s += " image \(image.width)x\(image.height)@\(image.scale)x \(contentMode)" }
        return s
    }
}

/// An image placed by a content mode in whatever bounds it is drawn with.
struct ImageContent: ViewContent {
    let image: Bitmap
    let contentMode: ContentMode
    /// Every pixel of the image has alpha 255.
    var isOpaque = false

    func draw(in painter: Painter, bounds: Rect) {
        painter.draw(image, in: contentMode.placement(of: ImageView.pointSize(of: image), in: bounds))
    }

    /// Aspect fill and the natural-size modes can spill out of the bounds.
    func extent(in bounds: Rect) -> Rect {
        contentMode.placement(of: ImageView.pointSize(of: image), in: bounds).union(bounds)
    }

    var isSingleShape: Bool { true }

    /// An opaque image whose placement covers the bounds.
    func paintsOpaquely(over bounds: Rect) -> Bool {
        guard isOpaque else { return false }
        let r = contentMode.placement(of: ImageView.pointSize(of: image), in: bounds)
        return r.minX <= bounds.minX && r.minY <= bounds.minY && r.maxX >= bounds.maxX && r.maxY >= bounds.maxY
    }
}
