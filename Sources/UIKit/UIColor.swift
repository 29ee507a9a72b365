@_exported import QuartzCore
package import RasterCore

/// UIKit's colour: red, green, blue and alpha in 0…1 of sRGB, or a dynamic colour resolved for the
/// trait collection in effect (light or dark, as the stage's device says). The system colours have
/// iOS's light and dark values.
open class UIColor: NSObject, _ExpressibleByColorLiteral, @unchecked Sendable {
    private let fixed: (red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat)?
    private let provider: ((UITraitCollection) -> UIColor)?

    public init(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        func clamp(_ v: CGFloat) -> CGFloat { v.isNaN ? 0 : min(1, max(0, v)) }
        fixed = (clamp(red), clamp(green), clamp(blue), clamp(alpha))
        provider = nil
        super.init()
    }

    /// A colour from an asset catalog: there are none here, so nil (logged), as UIKit returns for a name
    /// it does not find.
    public convenience init?(named name: String) {
        UIKitLog.warn("UIColor(named: \"\(name)\"): there are no asset catalogs here; nil")
        return nil
    }

    public convenience init?(named name: String, in bundle: Bundle?, compatibleWith traitCollection: UITraitCollection?) {
        self.init(named: name)
    }

    public convenience init(white: CGFloat, alpha: CGFloat) { self.init(red: white, green: white, blue: white, alpha: alpha) }

    /// `#colorLiteral(red:green:blue:alpha:)`, as Apple's UIKit takes it.
    public required convenience init(_colorLiteralRed red: Float, green: Float, blue: Float, alpha: Float) {
        self.init(red: CGFloat(red), green: CGFloat(green), blue: CGFloat(blue), alpha: CGFloat(alpha))
    }

    /// sRGB components: the same as ``init(red:green:blue:alpha:)`` here.
    public convenience init(displayP3Red red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        self.init(red: red, green: green, blue: blue, alpha: alpha)
    }

    /// Hue, saturation and brightness in 0…1.
    public convenience init(hue: CGFloat, saturation: CGFloat, brightness: CGFloat, alpha: CGFloat) {
        var h = (hue.truncatingRemainder(dividingBy: 1) + 1).truncatingRemainder(dividingBy: 1) * 6
        // A sixth written as a fraction (1.0 / 3 → 1.9999999999999998 sixths) lands on its sector's edge.
        if abs(h - h.rounded()) < 1e-9 { h = h.rounded() }
        let s = min(1, max(0, saturation)), v = min(1, max(0, brightness))
        let i = Int(h), f = h - CGFloat(i)
        let p = v * (1 - s), q = v * (1 - s * f), t = v * (1 - s * (1 - f))
        let (r, g, b): (CGFloat, CGFloat, CGFloat)
        switch i % 6 {
        case 0: (r, g, b) = (v, t, p)
        case 1: (r, g, b) = (q, v, p)
        case 2: (r, g, b) = (p, v, t)
        case 3: (r, g, b) = (p, q, v)
        case 4: (r, g, b) = (t, p, v)
        default: (r, g, b) = (v, p, q)
        }
        self.init(red: r, green: g, blue: b, alpha: alpha)
    }

    public convenience init(cgColor: CGColor) {
        let c = cgColor.components ?? [0, 0, 0, 1]
        self.init(red: c[0], green: c[1], blue: c[2], alpha: c[3])
    }

    /// A colour that `provider` resolves for each trait collection (light and dark mode).
    public init(dynamicProvider provider: @escaping (UITraitCollection) -> UIColor) {
        fixed = nil
        self.provider = provider
        super.init()
    }

    /// The colour for the trait collection in effect (the stage's), or for `traits`.
    open func resolvedColor(with traits: UITraitCollection) -> UIColor {
        guard let provider else { return self }
        return provider(traits).resolvedColor(with: traits)
    }

    private var components: (red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        if let fixed { return fixed }
        return resolvedColor(with: UITraitCollection.current).components
    }

    /// The components of the colour in effect; always true.
    @discardableResult
    open func getRed(_ red: UnsafeMutablePointer<CGFloat>?, green: UnsafeMutablePointer<CGFloat>?, blue: UnsafeMutablePointer<CGFloat>?,
                     alpha: UnsafeMutablePointer<CGFloat>?) -> Bool {
        let c = components
        red?.pointee = c.red; green?.pointee = c.green; blue?.pointee = c.blue; alpha?.pointee = c.alpha
        return true
    }

    @discardableResult
    open func getWhite(_ white: UnsafeMutablePointer<CGFloat>?, alpha: UnsafeMutablePointer<CGFloat>?) -> Bool {
        let c = components
        white?.pointee = 0.299 * c.red + 0.587 * c.green + 0.114 * c.blue
        alpha?.pointee = c.alpha
        return true
    }

    /// The same colour with `alpha` (a dynamic colour stays dynamic).
    open func withAlphaComponent(_ alpha: CGFloat) -> UIColor {
        if let provider { return UIColor(dynamicProvider: { provider($0).withAlphaComponent(alpha) }) }
        let c = components
        return UIColor(red: c.red, green: c.green, blue: c.blue, alpha: alpha)
    }

    /// The Core Graphics colour, resolved for the trait collection in effect.
    open var cgColor: CGColor {
        let c = components
        return CGColor(red: c.red, green: c.green, blue: c.blue, alpha: c.alpha)
    }

    /// The colour as Smokescreen draws it (resolved now).
    package var color: Color {
        let c = components
        return Color(red: Double(c.red), green: Double(c.green), blue: Double(c.blue), alpha: Double(c.alpha))
    }

    package convenience init(_ color: Color) { self.init(red: color.red, green: color.green, blue: color.blue, alpha: color.alpha) }

    /// Sets the fill colour of the current drawing context (``UIGraphicsGetCurrentContext()``).
    open func setFill() { UIGraphicsGetCurrentContext()?.setFillColor(cgColor) }
    /// Sets the stroke colour of the current drawing context.
    open func setStroke() { UIGraphicsGetCurrentContext()?.setStrokeColor(cgColor) }
    /// Sets both.
    open func set() { setFill(); setStroke() }

    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? UIColor else { return false }
        let a = components, b = other.components
        return a.red == b.red && a.green == b.green && a.blue == b.blue && a.alpha == b.alpha
    }

    open override var hash: Int {
        let c = components
        var hasher = Hasher()
        hasher.combine(c.red); hasher.combine(c.green); hasher.combine(c.blue); hasher.combine(c.alpha)
        return hasher.finalize()
    }

    open override var description: String {
        let c = components
        return String(format: "UIExtendedSRGBColorSpace %g %g %g %g", Double(c.red), Double(c.green), Double(c.blue), Double(c.alpha))
    }
}

extension UIColor {
    private static func rgb(_ hex: UInt32, _ alpha: CGFloat = 1) -> UIColor {
        UIColor(red: CGFloat(hex >> 16 & 0xFF) / 255, green: CGFloat(hex >> 8 & 0xFF) / 255, blue: CGFloat(hex & 0xFF) / 255, alpha: alpha)
    }

    private static func dynamic(_ light: UIColor, _ dark: UIColor) -> UIColor {
        UIColor(dynamicProvider: { $0.userInterfaceStyle == .dark ? dark : light })
    }

    // Fixed colours, as UIKit's class properties.
    public class var black: UIColor { UIColor(white: 0, alpha: 1) }
    public class var darkGray: UIColor { UIColor(white: 1.0 / 3, alpha: 1) }
    public class var lightGray: UIColor { UIColor(white: 2.0 / 3, alpha: 1) }
    public class var white: UIColor { UIColor(white: 1, alpha: 1) }
    public class var gray: UIColor { UIColor(white: 0.5, alpha: 1) }
    public class var red: UIColor { UIColor(red: 1, green: 0, blue: 0, alpha: 1) }
    public class var green: UIColor { UIColor(red: 0, green: 1, blue: 0, alpha: 1) }
    public class var blue: UIColor { UIColor(red: 0, green: 0, blue: 1, alpha: 1) }
    public class var cyan: UIColor { UIColor(red: 0, green: 1, blue: 1, alpha: 1) }
    public class var yellow: UIColor { UIColor(red: 1, green: 1, blue: 0, alpha: 1) }
    public class var magenta: UIColor { UIColor(red: 1, green: 0, blue: 1, alpha: 1) }
    public class var orange: UIColor { UIColor(red: 1, green: 0.5, blue: 0, alpha: 1) }
    public class var purple: UIColor { UIColor(red: 0.5, green: 0, blue: 0.5, alpha: 1) }
    public class var brown: UIColor { UIColor(red: 0.6, green: 0.4, blue: 0.2, alpha: 1) }
    public class var clear: UIColor { UIColor(white: 0, alpha: 0) }

    // System colours: iOS's light and dark values.
    public class var systemRed: UIColor { dynamic(rgb(0xFF3B30), rgb(0xFF453A)) }
    public class var systemGreen: UIColor { dynamic(rgb(0x34C759), rgb(0x30D158)) }
    public class var systemBlue: UIColor { dynamic(rgb(0x007AFF), rgb(0x0A84FF)) }
    public class var systemOrange: UIColor { dynamic(rgb(0xFF9500), rgb(0xFF9F0A)) }
    public class var systemYellow: UIColor { dynamic(rgb(0xFFCC00), rgb(0xFFD60A)) }
    public class var systemPink: UIColor { dynamic(rgb(0xFF2D55), rgb(0xFF375F)) }
    public class var systemPurple: UIColor { dynamic(rgb(0xAF52DE), rgb(0xBF5AF2)) }
    public class var systemTeal: UIColor { dynamic(rgb(0x5AC8FA), rgb(0x64D2FF)) }
    public class var systemIndigo: UIColor { dynamic(rgb(0x5856D6), rgb(0x5E5CE6)) }
    public class var systemBrown: UIColor { dynamic(rgb(0xA2845E), rgb(0xAC8E68)) }
    public class var systemMint: UIColor { dynamic(rgb(0x00C7BE), rgb(0x63E6E2)) }
    public class var systemCyan: UIColor { dynamic(rgb(0x32ADE6), rgb(0x64D2FF)) }
    public class var systemGray: UIColor { dynamic(rgb(0x8E8E93), rgb(0x8E8E93)) }
    public class var systemGray2: UIColor { dynamic(rgb(0xAEAEB2), rgb(0x636366)) }
    public class var systemGray3: UIColor { dynamic(rgb(0xC7C7CC), rgb(0x48484A)) }
    public class var systemGray4: UIColor { dynamic(rgb(0xD1D1D6), rgb(0x3A3A3C)) }
    public class var systemGray5: UIColor { dynamic(rgb(0xE5E5EA), rgb(0x2C2C2E)) }
    public class var systemGray6: UIColor { dynamic(rgb(0xF2F2F7), rgb(0x1C1C1E)) }
    public class var tintColor: UIColor { systemBlue }

    // Semantic colours.
    public class var label: UIColor { dynamic(rgb(0x000000), rgb(0xFFFFFF)) }
    public class var secondaryLabel: UIColor { dynamic(rgb(0x3C3C43, 0.6), rgb(0xEBEBF5, 0.6)) }
    public class var tertiaryLabel: UIColor { dynamic(rgb(0x3C3C43, 0.3), rgb(0xEBEBF5, 0.3)) }
    public class var quaternaryLabel: UIColor { dynamic(rgb(0x3C3C43, 0.18), rgb(0xEBEBF5, 0.16)) }
    public class var placeholderText: UIColor { tertiaryLabel }
    public class var link: UIColor { dynamic(rgb(0x007AFF), rgb(0x0984FF)) }
    public class var separator: UIColor { dynamic(rgb(0x3C3C43, 0.29), rgb(0x545458, 0.6)) }
    public class var opaqueSeparator: UIColor { dynamic(rgb(0xC6C6C8), rgb(0x38383A)) }
    public class var systemBackground: UIColor { dynamic(rgb(0xFFFFFF), rgb(0x000000)) }
    public class var secondarySystemBackground: UIColor { dynamic(rgb(0xF2F2F7), rgb(0x1C1C1E)) }
    public class var tertiarySystemBackground: UIColor { dynamic(rgb(0xFFFFFF), rgb(0x2C2C2E)) }
    public class var systemGroupedBackground: UIColor { dynamic(rgb(0xF2F2F7), rgb(0x000000)) }
    public class var secondarySystemGroupedBackground: UIColor { dynamic(rgb(0xFFFFFF), rgb(0x1C1C1E)) }
    public class var tertiarySystemGroupedBackground: UIColor { dynamic(rgb(0xF2F2F7), rgb(0x2C2C2E)) }
    public class var systemFill: UIColor { dynamic(rgb(0x787880, 0.2), rgb(0x787880, 0.36)) }
    public class var secondarySystemFill: UIColor { dynamic(rgb(0x787880, 0.16), rgb(0x787880, 0.32)) }
    public class var tertiarySystemFill: UIColor { dynamic(rgb(0x767680, 0.12), rgb(0x767680, 0.24)) }
    public class var quaternarySystemFill: UIColor { dynamic(rgb(0x747480, 0.08), rgb(0x767680, 0.18)) }
    public class var darkText: UIColor { UIColor(white: 0, alpha: 1) }
    public class var lightText: UIColor { UIColor(white: 1, alpha: 0.6) }
}

/// The traits colours, fonts and layouts resolve against: light or dark, the display scale, the text
/// size, the size classes, the idiom, the layout direction.
///
/// As UIKit's: a collection made with one trait's initializer (`UITraitCollection(displayScale: 2)`) says
/// only that trait, the others unspecified; `init(traitsFrom:)` combines collections, a later one's
/// specified traits winning. Unspecified traits read as UIKit's unspecified values (`.unspecified`, a
/// scale of 0), except `preferredContentSizeCategory`, which reads `.large` (Dynamic Type's default) where
/// UIKit reads `.unspecified`: fonts resolve against it directly here. The stage's ``current`` collection
/// specifies every trait from its device.
open class UITraitCollection: NSObject, @unchecked Sendable {
    /// The traits a collection specifies; nil: unspecified.
    package struct Values: Sendable {
        var style: UIUserInterfaceStyle?
        var scale: CGFloat?
        var contentSize: UIContentSizeCategory?
        var horizontal: UIUserInterfaceSizeClass?
        var vertical: UIUserInterfaceSizeClass?
        var idiom: UIUserInterfaceIdiom?
        var direction: UITraitEnvironmentLayoutDirection?
        var forceTouch: UIForceTouchCapability?
    }
    package let values: Values

    public var userInterfaceStyle: UIUserInterfaceStyle { values.style ?? .unspecified }
    /// Pixels per point; 0 when unspecified.
    public var displayScale: CGFloat { values.scale ?? 0 }
    /// Dynamic Type's text size; `.large` when unspecified (UIKit: `.unspecified`).
    public var preferredContentSizeCategory: UIContentSizeCategory { values.contentSize ?? .large }
    public var horizontalSizeClass: UIUserInterfaceSizeClass { values.horizontal ?? .unspecified }
    public var verticalSizeClass: UIUserInterfaceSizeClass { values.vertical ?? .unspecified }
    public var userInterfaceIdiom: UIUserInterfaceIdiom { values.idiom ?? .unspecified }
    public var layoutDirection: UITraitEnvironmentLayoutDirection { values.direction ?? .unspecified }
    public var forceTouchCapability: UIForceTouchCapability { values.forceTouch ?? .unknown }

    package init(values: Values) {
        self.values = values
        super.init()
    }

    /// Every trait of a stage on a screen `size` points wide and tall at `scale`, as UIKit gives a full-screen
    /// app: a pad (600 points or more across its shorter side: the iPad mini's is 744, the largest phone's
    /// 440) is regular both ways; a phone is compact wide
    /// and regular tall in portrait, compact tall in landscape, and in landscape regular wide when its
    /// shorter side is 414 points or more (the Plus and Max phones).
    package convenience init(style: UIUserInterfaceStyle, scale: CGFloat, contentSize: UIContentSizeCategory, screen size: CGSize) {
        let shorter = min(size.width, size.height), landscape = size.width > size.height
        let pad = shorter >= 600
        let horizontal: UIUserInterfaceSizeClass = pad || (landscape && shorter >= 414) ? .regular : .compact
        let vertical: UIUserInterfaceSizeClass = pad || !landscape ? .regular : .compact
        self.init(values: Values(style: style, scale: scale, contentSize: contentSize, horizontal: horizontal, vertical: vertical,
                                 idiom: pad ? .pad : .phone, direction: .leftToRight, forceTouch: .unavailable))
    }

    package convenience init(style: UIUserInterfaceStyle, scale: CGFloat, contentSize: UIContentSizeCategory) {
        self.init(style: style, scale: scale, contentSize: contentSize, screen: UIScreen.main.bounds.size)
    }

    public convenience init(userInterfaceStyle: UIUserInterfaceStyle) { self.init(values: Values(style: userInterfaceStyle)) }
    public override convenience init() { self.init(values: Values()) }
    /// Traits that say only a text size.
    public convenience init(preferredContentSizeCategory: UIContentSizeCategory) { self.init(values: Values(contentSize: preferredContentSizeCategory)) }
    public convenience init(displayScale scale: CGFloat) { self.init(values: Values(scale: scale)) }
    public convenience init(horizontalSizeClass: UIUserInterfaceSizeClass) { self.init(values: Values(horizontal: horizontalSizeClass)) }
    public convenience init(verticalSizeClass: UIUserInterfaceSizeClass) { self.init(values: Values(vertical: verticalSizeClass)) }
    public convenience init(userInterfaceIdiom idiom: UIUserInterfaceIdiom) { self.init(values: Values(idiom: idiom)) }
    public convenience init(layoutDirection: UITraitEnvironmentLayoutDirection) { self.init(values: Values(direction: layoutDirection)) }
    public convenience init(forceTouchCapability capability: UIForceTouchCapability) { self.init(values: Values(forceTouch: capability)) }

    /// One collection of the traits of `traitCollections`: for each trait, the last collection that
    /// specifies it wins.
    public convenience init(traitsFrom traitCollections: [UITraitCollection]) {
        var merged = Values()
        for traits in traitCollections {
            let v = traits.values
            merged.style = v.style ?? merged.style
            merged.scale = v.scale ?? merged.scale
            merged.contentSize = v.contentSize ?? merged.contentSize
            merged.horizontal = v.horizontal ?? merged.horizontal
            merged.vertical = v.vertical ?? merged.vertical
            merged.idiom = v.idiom ?? merged.idiom
            merged.direction = v.direction ?? merged.direction
            merged.forceTouch = v.forceTouch ?? merged.forceTouch
        }
        self.init(values: merged)
    }

    /// Whether every trait `trait` specifies has the same value here.
    public func containsTraits(in trait: UITraitCollection?) -> Bool {
        guard let trait else { return true }
        let v = trait.values, mine = values
        return (v.style == nil || v.style == mine.style) && (v.scale == nil || v.scale == mine.scale)
            && (v.contentSize == nil || v.contentSize == mine.contentSize) && (v.horizontal == nil || v.horizontal == mine.horizontal)
            && (v.vertical == nil || v.vertical == mine.vertical) && (v.idiom == nil || v.idiom == mine.idiom)
            && (v.direction == nil || v.direction == mine.direction) && (v.forceTouch == nil || v.forceTouch == mine.forceTouch)
    }

    nonisolated(unsafe) private static var _current = UITraitCollection(style: .light, scale: 2, contentSize: .large,
                                                                        screen: CGSize(width: 375, height: 667))

    /// The traits in effect: the stage's (light at @2x unless it says otherwise).
    public class var current: UITraitCollection {
        get { _current }
        set { _current = newValue }
    }
}

/// Which way text and layouts run.
public enum UITraitEnvironmentLayoutDirection: Int, Sendable { case unspecified = -1, leftToRight, rightToLeft }

/// Whether the screen reads pressure (3D Touch); the stage's screen does not.
public enum UIForceTouchCapability: Int, Sendable { case unknown, unavailable, available }

public enum UIUserInterfaceStyle: Int, Sendable {
    case unspecified, light, dark
}

/// Dynamic Type's text sizes.
public struct UIContentSizeCategory: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let extraSmall = UIContentSizeCategory(rawValue: "UICTContentSizeCategoryXS")
    public static let small = UIContentSizeCategory(rawValue: "UICTContentSizeCategoryS")
    public static let medium = UIContentSizeCategory(rawValue: "UICTContentSizeCategoryM")
    public static let large = UIContentSizeCategory(rawValue: "UICTContentSizeCategoryL")
    public static let extraLarge = UIContentSizeCategory(rawValue: "UICTContentSizeCategoryXL")
    public static let extraExtraLarge = UIContentSizeCategory(rawValue: "UICTContentSizeCategoryXXL")
    public static let extraExtraExtraLarge = UIContentSizeCategory(rawValue: "UICTContentSizeCategoryXXXL")
    public static let accessibilityMedium = UIContentSizeCategory(rawValue: "UICTContentSizeCategoryAccessibilityM")
    public static let accessibilityLarge = UIContentSizeCategory(rawValue: "UICTContentSizeCategoryAccessibilityL")
    public static let accessibilityExtraLarge = UIContentSizeCategory(rawValue: "UICTContentSizeCategoryAccessibilityXL")
    public static let accessibilityExtraExtraLarge = UIContentSizeCategory(rawValue: "UICTContentSizeCategoryAccessibilityXXL")
    public static let accessibilityExtraExtraExtraLarge = UIContentSizeCategory(rawValue: "UICTContentSizeCategoryAccessibilityXXXL")
    public static let unspecified = UIContentSizeCategory(rawValue: "_UICTContentSizeCategoryUnspecified")

    /// Smallest first, as Dynamic Type orders them (the unspecified category reads as Large).
    static let ordered: [UIContentSizeCategory] = [.extraSmall, .small, .medium, .large, .extraLarge, .extraExtraLarge, .extraExtraExtraLarge,
                                                   .accessibilityMedium, .accessibilityLarge, .accessibilityExtraLarge,
                                                   .accessibilityExtraExtraLarge, .accessibilityExtraExtraExtraLarge]

    /// One of the five accessibility sizes.
    public var isAccessibilityCategory: Bool { rank >= 7 }

    /// Its place among the sizes (`.large` is 3).
    var rank: Int { UIContentSizeCategory.ordered.firstIndex(of: self) ?? 3 }
}

extension UIContentSizeCategory: Comparable {
    public static func < (a: UIContentSizeCategory, b: UIContentSizeCategory) -> Bool { a.rank < b.rank }
}
