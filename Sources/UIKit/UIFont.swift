package import Typesetting

/// UIKit's font. The system font is Inter (Inter Display from 20 pt) with SF Pro's tracking, or SF Pro
/// itself from a folder of Apple's files a user has (`--system-fonts`, `SMOKESCREEN_SYSTEM_FONTS`), drawn by
/// Smokescreen's typesetter; a named font is looked up among the installed families, and one that is not
/// installed is drawn as the system font at the weight its name says (`Avenir-Heavy` → heavy), noted in
/// the render's list of what was not drawn as asked (UIKit would return nil).
open class UIFont: NSObject, @unchecked Sendable {
    /// The font as Smokescreen's typesetter has it.
    package let font: Font
    /// The name it was asked for by, or the family's.
    public let fontName: String

    package init(font: Font, name: String) {
        self.font = font
        fontName = name
        super.init()
    }

    /// The font named `fontName` (a family, with an optional `-Weight` suffix such as `-Bold`) at
    /// `fontSize` points; the system font at that weight when the family is not installed (see above).
    public convenience init?(name fontName: String, size fontSize: CGFloat) {
        let size = UIFont.checkedSize(fontSize)
        let parts = fontName.split(separator: "-", maxSplits: 1).map(String.init)
        let weight = parts.count > 1 ? UIFont.weight(named: parts[1]) : .regular
        let family = parts.first ?? fontName
        let candidate = Font(family: family, size: Double(size), weight: weight)
        if (try? candidate.resolvedPath()) != nil {
            self.init(font: candidate, name: fontName)
        } else {
            NotDrawn.note("font '\(fontName)' is not installed (drawn with the system font)")
            self.init(font: .system(size: Double(size), weight: weight), name: fontName)
        }
    }

    private static func checkedSize(_ size: CGFloat) -> CGFloat {
        guard size.isFinite, size > 0 else { return 17 }
        return min(max(size, CGFloat(Font.pointSizeRange.lowerBound)), CGFloat(Font.pointSizeRange.upperBound))
    }

    /// The weight's name this font was made with (`regular` when its name says none).
    var weightName: String { UIFont.weight(named: fontName).rawValue }

    private static func weight(named suffix: String) -> Font.Weight {
        let s = suffix.lowercased()
        if s.contains("ultralight") || s.contains("extralight") { return .ultraLight }
        if s.contains("thin") { return .thin }
        if s.contains("light") { return .light }
        if s.contains("semibold") || s.contains("demibold") || s.contains("demi") { return .semibold }
        if s.contains("medium") { return .medium }
        if s.contains("extrabold") || s.contains("heavy") { return .heavy }
        if s.contains("black") { return .black }
        if s.contains("bold") { return .bold }
        return .regular
    }

    // MARK: System fonts

    /// The system font at `fontSize` points, regular.
    open class func systemFont(ofSize fontSize: CGFloat) -> UIFont { systemFont(ofSize: fontSize, weight: .regular) }

    /// The system font at `fontSize` points and `weight`.
    open class func systemFont(ofSize fontSize: CGFloat, weight: Weight) -> UIFont {
        UIFont(font: .system(size: Double(checkedSize(fontSize)), weight: weight.typesetting), name: ".SFUI-\(weight.name)")
    }

    open class func boldSystemFont(ofSize fontSize: CGFloat) -> UIFont { systemFont(ofSize: fontSize, weight: .bold) }

    /// The system font; drawn upright (there is no italic system face here: noted).
    open class func italicSystemFont(ofSize fontSize: CGFloat) -> UIFont {
        NotDrawn.note("italic system font (drawn upright)")
        return systemFont(ofSize: fontSize)
    }

    /// The system font (its digits are drawn as the font has them).
    open class func monospacedDigitSystemFont(ofSize fontSize: CGFloat, weight: Weight) -> UIFont {
        systemFont(ofSize: fontSize, weight: weight)
    }

    /// A monospaced font (DejaVu Sans Mono) at `fontSize` points and `weight`.
    open class func monospacedSystemFont(ofSize fontSize: CGFloat, weight: Weight) -> UIFont {
        UIFont(font: Font(family: "DejaVu Sans Mono", size: Double(checkedSize(fontSize)), weight: weight.typesetting), name: "Menlo")
    }

    /// The font of a Dynamic Type text style at the stage's text size (`UITraitCollection.current`;
    /// `.large` unless the stage says otherwise), at Apple's published size for it.
    open class func preferredFont(forTextStyle style: TextStyle) -> UIFont {
        preferredFont(forTextStyle: style, compatibleWith: nil)
    }

    /// The font of a text style at the text size of `traitCollection` (the current traits when nil).
    open class func preferredFont(forTextStyle style: TextStyle, compatibleWith traitCollection: UITraitCollection?) -> UIFont {
        let category = (traitCollection ?? UITraitCollection.current).preferredContentSizeCategory
        return UIFont(font: .preferredFont(forTextStyle: style.typesetting, contentSize: category.typesetting), name: ".SFUI-\(style.rawValue)")
    }

    /// The text style a font from ``preferredFont(forTextStyle:compatibleWith:)`` was made for (nil for
    /// any other font): what `adjustsFontForContentSizeCategory` resolves again.
    package var textStyle: TextStyle? {
        fontName.hasPrefix(".SFUI-") ? TextStyle(rawValue: String(fontName.dropFirst(".SFUI-".count))) : nil
    }

    /// The size of the system font UIKit uses for labels (17 pt).
    open class var labelFontSize: CGFloat { 17 }
    open class var buttonFontSize: CGFloat { 18 }
    open class var smallSystemFontSize: CGFloat { 12 }
    open class var systemFontSize: CGFloat { 14 }

    // MARK: Properties (points)

    open var pointSize: CGFloat { CGFloat(font.pointSize) }
    open var familyName: String {
        if case .family(let name, _) = font.source { return name }
        return fontName
    }
    private var metrics: FontMetrics? { try? font.metrics() }
    /// Above the baseline.
    open var ascender: CGFloat { CGFloat(metrics?.ascender ?? font.pointSize * 0.8) }
    /// Below the baseline: negative.
    open var descender: CGFloat { CGFloat(metrics?.descender ?? -font.pointSize * 0.2) }
    open var leading: CGFloat { CGFloat(metrics?.leading ?? 0) }
    open var lineHeight: CGFloat { CGFloat(metrics?.lineHeight ?? font.pointSize * 1.2) }

    /// The same font at `fontSize` points.
    open func withSize(_ fontSize: CGFloat) -> UIFont { UIFont(font: font.withSize(Double(UIFont.checkedSize(fontSize))), name: fontName) }

    open override func isEqual(_ object: Any?) -> Bool { (object as? UIFont)?.font == font }
    open override var hash: Int { font.hashValue }
    open override var description: String { "<UIFont: \(fontName) \(pointSize)pt>" }

    // MARK: Weights and styles

    /// A font weight, with Apple's values (-0.8 ultra light … 0.62 black).
    public struct Weight: RawRepresentable, Hashable, Sendable {
        public let rawValue: CGFloat
        public init(rawValue: CGFloat) { self.rawValue = rawValue }
        public init(_ rawValue: CGFloat) { self.rawValue = rawValue }

        public static let ultraLight = Weight(-0.8)
        public static let thin = Weight(-0.6)
        public static let light = Weight(-0.4)
        public static let regular = Weight(0)
        public static let medium = Weight(0.23)
        public static let semibold = Weight(0.3)
        public static let bold = Weight(0.4)
        public static let heavy = Weight(0.56)
        public static let black = Weight(0.62)

        /// The nearest of the named weights.
        var typesetting: Font.Weight {
            let table: [(CGFloat, Font.Weight)] = [(-0.8, .ultraLight), (-0.6, .thin), (-0.4, .light), (0, .regular), (0.23, .medium),
                                                   (0.3, .semibold), (0.4, .bold), (0.56, .heavy), (0.62, .black)]
            return table.min { abs($0.0 - rawValue) < abs($1.0 - rawValue) }!.1
        }

        var name: String { typesetting.rawValue.prefix(1).uppercased() + typesetting.rawValue.dropFirst() }
    }

    /// A Dynamic Type text style, with Apple's raw values.
    public struct TextStyle: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        public static let largeTitle = TextStyle(rawValue: "UICTFontTextStyleTitle0")
        public static let title1 = TextStyle(rawValue: "UICTFontTextStyleTitle1")
        public static let title2 = TextStyle(rawValue: "UICTFontTextStyleTitle2")
        public static let title3 = TextStyle(rawValue: "UICTFontTextStyleTitle3")
        public static let headline = TextStyle(rawValue: "UICTFontTextStyleHeadline")
        public static let subheadline = TextStyle(rawValue: "UICTFontTextStyleSubhead")
        public static let body = TextStyle(rawValue: "UICTFontTextStyleBody")
        public static let callout = TextStyle(rawValue: "UICTFontTextStyleCallout")
        public static let footnote = TextStyle(rawValue: "UICTFontTextStyleFootnote")
        public static let caption1 = TextStyle(rawValue: "UICTFontTextStyleCaption1")
        public static let caption2 = TextStyle(rawValue: "UICTFontTextStyleCaption2")

        var typesetting: Font.TextStyle {
            switch self {
            case .largeTitle: .largeTitle
            case .title1: .title1
            case .title2: .title2
            case .title3: .title3
            case .headline: .headline
            case .subheadline: .subheadline
            case .callout: .callout
            case .footnote: .footnote
            case .caption1: .caption1
            case .caption2: .caption2
            default: .body
            }
        }
    }
}


extension UIContentSizeCategory {
    /// The typesetter's size for this category.
    var typesetting: Font.ContentSize { Font.ContentSize(rawValue: rank) ?? .large }
}

/// Scales custom fonts and values with Dynamic Type as a text style scales: by the style's size at the
/// current text size over its size at Large.
public final class UIFontMetrics: NSObject, Sendable {
    private let style: UIFont.TextStyle

    /// The metrics of the body style.
    public static let `default` = UIFontMetrics(forTextStyle: .body)

    public init(forTextStyle textStyle: UIFont.TextStyle) {
        style = textStyle
        super.init()
    }

    private func ratio(_ traits: UITraitCollection?) -> CGFloat {
        let category = (traits ?? UITraitCollection.current).preferredContentSizeCategory.typesetting
        let text = style.typesetting
        return CGFloat(text.pointSize(at: category) / text.pointSize(at: .large))
    }

    public func scaledFont(for font: UIFont) -> UIFont { scaledFont(for: font, compatibleWith: nil) }

    public func scaledFont(for font: UIFont, compatibleWith traitCollection: UITraitCollection?) -> UIFont {
        font.withSize(font.pointSize * ratio(traitCollection))
    }

    /// Scaled, at most `maximumPointSize` points.
    public func scaledFont(for font: UIFont, maximumPointSize: CGFloat) -> UIFont {
        font.withSize(min(maximumPointSize, font.pointSize * ratio(nil)))
    }

    public func scaledFont(for font: UIFont, maximumPointSize: CGFloat, compatibleWith traitCollection: UITraitCollection?) -> UIFont {
        font.withSize(min(maximumPointSize, font.pointSize * ratio(traitCollection)))
    }

    /// A length (points) scaled as the style's font is.
    public func scaledValue(for value: CGFloat) -> CGFloat { value * ratio(nil) }

    public func scaledValue(for value: CGFloat, compatibleWith traitCollection: UITraitCollection?) -> CGFloat { value * ratio(traitCollection) }
}
