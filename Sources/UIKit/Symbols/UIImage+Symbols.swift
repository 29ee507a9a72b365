internal import RasterCore

/// SF Symbols' names, drawn here as Smokescreen's own vector artwork in their style (round ends and
/// joins, stroke weights following the symbol weight): never Apple's artwork. ``UIImage/init(systemName:)``
/// returns a template image (tinted by the view that shows it) for every name; a name not among those
/// drawn here gets a placeholder (a rounded square outline, noted in the render's list of what was not
/// drawn) where iOS would return nil for a name it does not know, so that code force-unwrapping a real
/// symbol's name runs.
extension UIImage {
    /// Symbol weights, with Apple's raw values.
    public enum SymbolWeight: Int, Sendable {
        case unspecified = 0, ultraLight, thin, light, regular, medium, semibold, bold, heavy, black
    }

    /// Symbol scales relative to the text beside them, with Apple's raw values.
    public enum SymbolScale: Int, Sendable {
        case `default` = -1, unspecified = 0, small = 1, medium = 2, large = 3
    }

    /// How a symbol image is sized and weighted: a point size or a text style, a weight and a scale.
    /// Unspecified parts take the defaults: the body text style (17 points at the default text size),
    /// regular, medium.
    open class SymbolConfiguration: NSObject, @unchecked Sendable {
        public let pointSize: CGFloat?
        public let weight: SymbolWeight
        public let scale: SymbolScale
        public let textStyle: UIFont.TextStyle?

        init(pointSize: CGFloat?, weight: SymbolWeight, scale: SymbolScale, textStyle: UIFont.TextStyle?) {
            self.pointSize = pointSize.flatMap { $0.isFinite && $0 > 0 ? $0 : nil }
            self.weight = weight
            self.scale = scale
            self.textStyle = textStyle
            super.init()
        }

        public convenience init(pointSize: CGFloat) { self.init(pointSize: pointSize, weight: .unspecified, scale: .unspecified, textStyle: nil) }
        public convenience init(pointSize: CGFloat, weight: SymbolWeight) { self.init(pointSize: pointSize, weight: weight, scale: .unspecified, textStyle: nil) }
        public convenience init(pointSize: CGFloat, weight: SymbolWeight, scale: SymbolScale) {
            self.init(pointSize: pointSize, weight: weight, scale: scale, textStyle: nil)
        }
        public convenience init(textStyle: UIFont.TextStyle) { self.init(pointSize: nil, weight: .unspecified, scale: .unspecified, textStyle: textStyle) }
        public convenience init(textStyle: UIFont.TextStyle, scale: SymbolScale) { self.init(pointSize: nil, weight: .unspecified, scale: scale, textStyle: textStyle) }
        public convenience init(weight: SymbolWeight) { self.init(pointSize: nil, weight: weight, scale: .unspecified, textStyle: nil) }
        public convenience init(scale: SymbolScale) { self.init(pointSize: nil, weight: .unspecified, scale: scale, textStyle: nil) }
        /// The font's size and weight.
        public convenience init(font: UIFont) { self.init(font: font, scale: .unspecified) }
        public convenience init(font: UIFont, scale: SymbolScale) {
            self.init(pointSize: font.pointSize, weight: SymbolConfiguration.weight(of: font), scale: scale, textStyle: nil)
        }
        /// Accepted; symbols are drawn in one colour, the view's tint (noted).
        public convenience init(hierarchicalColor: UIColor) {
            NotDrawn.note("UIImage.SymbolConfiguration colours (symbols are drawn in the tint colour)")
            self.init(pointSize: nil, weight: .unspecified, scale: .unspecified, textStyle: nil)
        }
        public convenience init(paletteColors: [UIColor]) { self.init(hierarchicalColor: paletteColors.first ?? .label) }
        public class func preferringMulticolor() -> SymbolConfiguration { SymbolConfiguration(hierarchicalColor: .label) }

        public static let unspecified = SymbolConfiguration(pointSize: nil, weight: .unspecified, scale: .unspecified, textStyle: nil)

        /// This configuration with `other`'s specified parts winning.
        open func applying(_ other: SymbolConfiguration?) -> SymbolConfiguration {
            guard let other else { return self }
            let size = other.pointSize ?? (other.textStyle == nil ? pointSize : nil)
            return SymbolConfiguration(pointSize: size, weight: other.weight != .unspecified ? other.weight : weight,
                                       scale: other.scale != .unspecified ? other.scale : scale, textStyle: other.textStyle ?? (other.pointSize == nil ? textStyle : nil))
        }

        static func weight(of font: UIFont) -> SymbolWeight {
            let names: [String: SymbolWeight] = ["ultraLight": .ultraLight, "thin": .thin, "light": .light, "regular": .regular, "medium": .medium,
                                                 "semibold": .semibold, "bold": .bold, "heavy": .heavy, "black": .black]
            return names[font.weightName] ?? .regular
        }

        /// Points: the size symbols are drawn at (the text style's font size, or the point size).
        var resolvedPointSize: CGFloat {
            if let pointSize { return pointSize }
            return UIFont.preferredFont(forTextStyle: textStyle ?? .body).pointSize
        }

        /// The symbol's size next to text of its point size: small, medium (1) and large (estimated from
        /// SF Symbols' published scale steps).
        var scaleFactor: CGFloat {
            switch scale {
            case .small: 0.8
            case .large: 1.29
            case .default, .unspecified, .medium: 1
            }
        }

        /// Stroke width over point size: regular strokes are 0.094 of the point size (1.6 points at 17),
        /// as iOS's regular symbols measure; the other weights in proportion (estimated).
        var strokeRatio: CGFloat {
            let factor: CGFloat = switch weight {
            case .ultraLight: 0.35
            case .thin: 0.5
            case .light: 0.75
            case .unspecified, .regular: 1
            case .medium: 1.15
            case .semibold: 1.3
            case .bold: 1.5
            case .heavy: 1.75
            case .black: 2
            }
            return 0.094 * factor
        }
    }

    /// An SF Symbol's image for `name`, in the default configuration; a template, tinted by the view
    /// that shows it. Never nil here (see the extension's note).
    public convenience init?(systemName name: String) {
        self.init(systemName: name, withConfiguration: nil)
    }

    public convenience init?(systemName name: String, withConfiguration configuration: SymbolConfiguration?) {
        let configuration = configuration ?? .unspecified
        self.init(bitmap: SymbolArtwork.draw(name, configuration), symbolName: name, configuration: configuration)
    }

    public convenience init?(systemName name: String, compatibleWith traitCollection: UITraitCollection?) {
        self.init(systemName: name, withConfiguration: nil)
    }

    /// Whether `name` is among the symbols drawn here (others are placeholders).
    package static func isDrawnSymbol(_ name: String) -> Bool { SymbolArtwork.glyph(name) != nil }

    /// True for images made from a symbol's name.
    public var isSymbolImage: Bool { symbolName != nil }

    /// The symbol configuration of a symbol image; nil for other images.
    public var symbolConfiguration: SymbolConfiguration? { symbolName == nil ? nil : configuration }

    /// The same symbol drawn with `configuration` applied over this one's; other images are returned as
    /// they are.
    public func withConfiguration(_ configuration: SymbolConfiguration) -> UIImage {
        guard let symbolName else { return self }
        let merged = (self.configuration ?? .unspecified).applying(configuration)
        let image = UIImage(bitmap: SymbolArtwork.draw(symbolName, merged), symbolName: symbolName, configuration: merged)
        image.renderingMode = renderingMode
        return image
    }

    public func applyingSymbolConfiguration(_ configuration: SymbolConfiguration) -> UIImage? { withConfiguration(configuration) }

    /// Whether a view showing this image tints it: templates and symbols (unless made `.alwaysOriginal`).
    var isTemplate: Bool {
        renderingMode == .alwaysTemplate || (renderingMode == .automatic && isSymbolImage)
    }

    /// The image's pixels in `color`, its alpha kept: how a tinting view shows a template.
    func tinted(_ color: UIColor) -> Bitmap? {
        guard var tinted = bitmap else { return nil }
        let c = color.color
        let r = c.red * 255, g = c.green * 255, b = c.blue * 255, alpha = c.alpha
        tinted.withUnsafeMutablePixels { pixels in
            for i in pixels.indices {
                let a = Double(PremultipliedRGBA8(packed: pixels[i]).a) * alpha
                pixels[i] = PremultipliedRGBA8(r: UInt8((r * a / 255).rounded()), g: UInt8((g * a / 255).rounded()),
                                               b: UInt8((b * a / 255).rounded()), a: UInt8(a.rounded())).packed
            }
        }
        return tinted
    }
}
