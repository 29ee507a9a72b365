package import RasterCore
import PNGIO

/// UIKit's image: pixels and the scale they were made for (`size` is in points). PNG files are read;
/// other formats are not (``init(named:)`` and ``init(contentsOfFile:)`` return nil for them).
open class UIImage: NSObject, _ExpressibleByImageLiteral, @unchecked Sendable {
    /// The pixels (premultiplied RGBA8, with their scale); nil for an empty image.
    package let bitmap: Bitmap?
    /// How views that tint draw the image: a template (`.alwaysTemplate`, or a symbol image left
    /// `.automatic`) is drawn in the view's tint colour, its alpha kept.
    open internal(set) var renderingMode = RenderingMode.automatic
    /// The SF Symbol's name of a symbol image (``init(systemName:)``), and its configuration.
    package let symbolName: String?
    let configuration: SymbolConfiguration?

    package init(bitmap: Bitmap) {
        self.bitmap = bitmap
        symbolName = nil
        configuration = nil
        super.init()
    }

    init(bitmap: Bitmap?, symbolName: String?, configuration: SymbolConfiguration?) {
        self.bitmap = bitmap
        self.symbolName = symbolName
        self.configuration = configuration
        super.init()
    }

    /// An empty image (size zero).
    public override init() {
        bitmap = nil
        symbolName = nil
        configuration = nil
        super.init()
    }

    /// The image of a Core Graphics image at scale 1.
    public convenience init(cgImage: CGImage) { self.init(cgImage: cgImage, scale: 1, orientation: .up) }

    /// The image of a Core Graphics image at `scale` pixels per point; orientations other than `.up` are
    /// kept but drawn upright.
    public init(cgImage: CGImage, scale: CGFloat, orientation: Orientation) {
        let s = scale > 0 && scale.isFinite ? Double(scale) : 1
        bitmap = (try? cgImage.bitmap.withScale(s)) ?? cgImage.bitmap
        imageOrientation = orientation
        symbolName = nil
        configuration = nil
        super.init()
    }

    /// A PNG file's image, its scale from the name's `@2x`/`@3x` suffix; nil when it cannot be read.
    public convenience init?(contentsOfFile path: String) {
        guard let bitmap = try? PNGCodec.read(contentsOf: path) else { return nil }
        self.init(bitmap: bitmap)
    }

    /// PNG bytes' image at scale 1.
    public convenience init?(data: Data) { self.init(data: data, scale: 1) }

    /// PNG bytes' image at `scale` pixels per point.
    public convenience init?(data: Data, scale: CGFloat) {
        let s = scale > 0 && scale.isFinite ? Double(scale) : 1
        guard let bitmap = try? PNGCodec.decode([UInt8](data), scale: s) else { return nil }
        self.init(bitmap: bitmap)
    }

    /// The image named `name` in the stage's image folders: `name@3x.png`, `name@2x.png` or
    /// `name.png` (the main screen's scale first, then the others from the largest), as an asset
    /// catalog's variants; nil when there is none.
    public convenience init?(named name: String) {
        guard let bitmap = UIImage.findNamed(name) else { return nil }
        self.init(bitmap: bitmap)
    }

    /// `#imageLiteral(resourceName:)`: the named image, or an empty one (listed in the stage's warnings)
    /// when there is none, where UIKit would trap.
    public required convenience init(imageLiteralResourceName path: String) {
        if let bitmap = UIImage.findNamed(path) { self.init(bitmap: bitmap) } else {
            UIKitLog.warn("#imageLiteral(resourceName: \"\(path)\"): no such image in the stage's image folders; an empty image is used")
            self.init()
        }
    }

    /// The same as ``init(named:)``; the bundle and traits are not consulted.
    public convenience init?(named name: String, in bundle: Bundle?, compatibleWith traitCollection: UITraitCollection?) {
        self.init(named: name)
    }

    /// The folders ``init(named:)`` looks in, in order: the stage's.
    nonisolated(unsafe) package static var searchFolders: [String] = []

    private static func findNamed(_ name: String) -> Bitmap? {
        guard !name.isEmpty, !name.contains("/"), !name.hasPrefix(".") else { return nil }
        var base = name
        if base.lowercased().hasSuffix(".png") { base = String(base.dropLast(4)) }
        let screen = Int(UIScreen.main.scale.rounded())
        let scales = [screen] + [3, 2, 1].filter { $0 != screen }
        for folder in searchFolders {
            for scale in scales {
                let file = scale == 1 ? "\(base).png" : "\(base)@\(scale)x.png"
                let path = (folder as NSString).appendingPathComponent(file)
                if FileManager.default.fileExists(atPath: path), let bitmap = try? PNGCodec.read(contentsOf: path) { return bitmap }
            }
        }
        return nil
    }

    // MARK: Properties

    /// Points: pixels over scale.
    open var size: CGSize { bitmap.map { CGSize($0.pointSize) } ?? .zero }
    /// Pixels per point.
    open var scale: CGFloat { CGFloat(bitmap?.scale ?? 1) }
    /// The pixels as a Core Graphics image.
    open var cgImage: CGImage? { bitmap.map { CGImage(bitmap: $0) } }
    open private(set) var imageOrientation = Orientation.up
    /// Insets of a resizable image (kept; the image is drawn stretched whole).
    open private(set) var capInsets = UIEdgeInsets.zero

    /// The image encoded as PNG.
    open func pngData() -> Data? {
        guard let bitmap, let bytes = try? PNGCodec.encode(bitmap) else { return nil }
        return Data(bytes)
    }

    /// The same image with `renderingMode`: `.alwaysTemplate` is drawn in the tint colour of the image
    /// view or button showing it, `.alwaysOriginal` in its own colours (a symbol's are black).
    open func withRenderingMode(_ renderingMode: RenderingMode) -> UIImage {
        let image = UIImage(bitmap: bitmap, symbolName: symbolName, configuration: configuration)
        image.renderingMode = renderingMode
        return image
    }

    /// The same image with cap insets: drawn stretched whole (noted).
    open func resizableImage(withCapInsets capInsets: UIEdgeInsets) -> UIImage {
        NotDrawn.note("UIImage.resizableImage(withCapInsets:) (stretched whole)")
        let image = bitmap.map { UIImage(bitmap: $0) } ?? UIImage()
        image.capInsets = capInsets
        return image
    }

    /// Draws the image into the current context at `rect` (points).
    open func draw(in rect: CGRect) {
        guard let context = UIGraphicsGetCurrentContext(), let cgImage else { return }
        context.draw(cgImage, in: rect)
    }

    /// Draws the image at its size with its top-left at `point`.
    open func draw(at point: CGPoint) { draw(in: CGRect(origin: point, size: size)) }

    /// How an image is turned; drawn upright here whatever it says.
    public enum Orientation: Int, Sendable {
        case up, down, left, right, upMirrored, downMirrored, leftMirrored, rightMirrored
    }

    /// Whether an image draws with its own colours or as a template tinted by its view.
    public enum RenderingMode: Int, Sendable {
        case automatic, alwaysOriginal, alwaysTemplate
    }
}
