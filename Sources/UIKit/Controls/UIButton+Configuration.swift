/// Edges of a rectangle in reading order (where an image sits beside a title), with Apple's raw values.
public struct NSDirectionalRectEdge: OptionSet, Hashable, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public static let top = NSDirectionalRectEdge(rawValue: 1 << 0)
    public static let leading = NSDirectionalRectEdge(rawValue: 1 << 1)
    public static let bottom = NSDirectionalRectEdge(rawValue: 1 << 2)
    public static let trailing = NSDirectionalRectEdge(rawValue: 1 << 3)
    public static let all: NSDirectionalRectEdge = [.top, .leading, .bottom, .trailing]
}

/// A background's look, as UIKit's: a colour, corner radius and stroke. Images, custom views and
/// visual effects are kept, not drawn (noted).
public struct UIBackgroundConfiguration: Hashable, @unchecked Sendable {
    /// Nil: the owner's default (a button's style colour).
    public var backgroundColor: UIColor?
    /// Points; nil: the owner's (a button's corner style).
    public var cornerRadius: CGFloat?
    public var strokeColor: UIColor?
    /// Points. Default 0.
    public var strokeWidth: CGFloat = 0
    public var strokeOutset: CGFloat = 0
    public var backgroundInsets = NSDirectionalEdgeInsets.zero
    public var image: UIImage? { didSet { if image != nil { NotDrawn.note("UIBackgroundConfiguration images, custom views and effects") } } }
    public var customView: UIView? { didSet { if customView != nil { NotDrawn.note("UIBackgroundConfiguration images, custom views and effects") } } }

    public init() {}

    /// No colour, no corners.
    public static func clear() -> UIBackgroundConfiguration {
        var background = UIBackgroundConfiguration()
        background.backgroundColor = .clear
        return background
    }

    public static func == (a: Self, b: Self) -> Bool {
        a.backgroundColor == b.backgroundColor && a.cornerRadius == b.cornerRadius && a.strokeColor == b.strokeColor
            && a.strokeWidth == b.strokeWidth && a.strokeOutset == b.strokeOutset && a.backgroundInsets == b.backgroundInsets
            && a.image === b.image && a.customView === b.customView
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(cornerRadius)
        hasher.combine(strokeWidth)
    }
}

extension UIButton {
    /// iOS 15's button configuration: a style (plain, gray, tinted, filled), a title and subtitle, an
    /// image beside them, their insets and paddings, a corner style and a size. The button draws it and
    /// follows its states: pressed, the colours lighten; disabled, they grey.
    ///
    /// Measurements (points) for the default `.medium` size: content insets 7 top and bottom, 12 at the
    /// sides; the title in the body style (17 points); `.dynamic` corners 6 points (8.75 large; capsules
    /// for small and mini). They are estimates from public replicas of iOS 15's buttons, and the pressed
    /// and disabled colours estimates (docs/uikit.md, Controls).
    public struct Configuration: Hashable, @unchecked Sendable {
        public enum CornerStyle: Int, Sendable { case fixed = -1, dynamic = 0, small = 1, medium = 2, large = 3, capsule = 4 }
        public enum Size: Int, Sendable { case mini = 0, small = 1, medium = 2, large = 3 }
        public enum TitleAlignment: Int, Sendable { case automatic = 0, leading = 1, center = 2, trailing = 3 }
        public enum MacIdiomStyle: Int, Sendable { case automatic = 0, bordered = 1, borderless = 2, borderlessTinted = 3 }

        enum Style: Hashable, Sendable { case plain, gray, tinted, filled }
        let style: Style

        public var background = UIBackgroundConfiguration()
        /// Default `.dynamic`: a radius for the size (`.fixed` takes the background's).
        public var cornerStyle = CornerStyle.dynamic
        /// Default `.medium`.
        public var buttonSize = Size.medium {
            didSet {
                guard !insetsGiven else { return }
                contentInsets = Configuration.defaultInsets(buttonSize)
                insetsGiven = false
            }
        }
        public var macIdiomStyle = MacIdiomStyle.automatic
        /// The title's and image's colour; nil: the style's (white on filled, the tint colour otherwise).
        public var baseForegroundColor: UIColor?
        /// The background's colour; nil: the style's (the tint colour on filled and, faint, on tinted).
        public var baseBackgroundColor: UIColor?
        public var image: UIImage?
        public var preferredSymbolConfigurationForImage: UIImage.SymbolConfiguration?
        /// Kept; no indicator is drawn (noted).
        public var showsActivityIndicator = false { didSet { if showsActivityIndicator { NotDrawn.note("UIButton.Configuration.showsActivityIndicator") } } }
        public var title: String?
        /// Drawn as its characters in the configuration's font and colour.
        public var attributedTitle: AttributedString? { didSet { if let attributedTitle { title = String(attributedTitle.characters) } } }
        public var subtitle: String?
        public var attributedSubtitle: AttributedString? { didSet { if let attributedSubtitle { subtitle = String(attributedSubtitle.characters) } } }
        /// Points around the content; the size's default until set.
        public var contentInsets: NSDirectionalEdgeInsets { didSet { insetsGiven = true } }
        private var insetsGiven = false
        /// Where the image sits beside the title. Default `.leading`.
        public var imagePlacement = NSDirectionalRectEdge.leading
        /// Points between the image and the title. Default 0.
        public var imagePadding: CGFloat = 0
        /// Points between the title and the subtitle. Default 0.
        public var titlePadding: CGFloat = 0
        public var titleAlignment = TitleAlignment.automatic
        public var automaticallyUpdateForSelection = true

        init(style: Style) {
            self.style = style
            contentInsets = Configuration.defaultInsets(.medium)
            insetsGiven = false
        }

        public static func plain() -> Configuration { Configuration(style: .plain) }
        public static func gray() -> Configuration { Configuration(style: .gray) }
        public static func tinted() -> Configuration { Configuration(style: .tinted) }
        public static func filled() -> Configuration { Configuration(style: .filled) }
        public static func borderless() -> Configuration { Configuration(style: .plain) }
        public static func bordered() -> Configuration { Configuration(style: .gray) }
        public static func borderedTinted() -> Configuration { Configuration(style: .tinted) }
        public static func borderedProminent() -> Configuration { Configuration(style: .filled) }

        /// The size's content insets again.
        public mutating func setDefaultContentInsets() {
            contentInsets = Configuration.defaultInsets(buttonSize)
            insetsGiven = false
        }

        /// This configuration as `button`'s state shows it (the configuration itself is what it draws).
        public func updated(for button: UIButton) -> Configuration { self }

        static func defaultInsets(_ size: Size) -> NSDirectionalEdgeInsets {
            switch size {
            case .mini, .small: NSDirectionalEdgeInsets(top: 5, leading: 10, bottom: 5, trailing: 10)
            case .medium: NSDirectionalEdgeInsets(top: 7, leading: 12, bottom: 7, trailing: 12)
            case .large: NSDirectionalEdgeInsets(top: 14, leading: 20, bottom: 14, trailing: 20)
            }
        }

        /// The title's font for the size; the subtitle's.
        var titleFont: UIFont {
            switch buttonSize {
            case .mini: .preferredFont(forTextStyle: .footnote)
            case .small: .preferredFont(forTextStyle: .subheadline)
            case .medium, .large: .preferredFont(forTextStyle: .body)
            }
        }

        var subtitleFont: UIFont { .preferredFont(forTextStyle: buttonSize == .large || buttonSize == .medium ? .subheadline : .caption1) }

        /// Points: the corner radius for a background `height` points high.
        package func cornerRadius(height: CGFloat) -> CGFloat {
            switch cornerStyle {
            case .fixed: background.cornerRadius ?? 0
            case .capsule: height / 2
            case .small: 4
            case .medium: 6
            case .large: 8.75
            case .dynamic:
                switch buttonSize {
                case .mini, .small: height / 2
                case .medium: 6
                case .large: 8.75
                }
            }
        }

        /// The foreground and background colours for a control in `state`, tinted `tint`.
        func colors(tint: UIColor, state: UIControl.State) -> (foreground: UIColor, background: UIColor?) {
            if state.contains(.disabled) {
                return (.tertiaryLabel, style == .plain ? nil : .tertiarySystemFill)
            }
            let base = baseBackgroundColor ?? tint
            var foreground: UIColor, background: UIColor?
            switch style {
            case .plain: (foreground, background) = (baseForegroundColor ?? tint, baseBackgroundColor)
            case .gray: (foreground, background) = (baseForegroundColor ?? tint, baseBackgroundColor ?? .secondarySystemFill)
            case .tinted: (foreground, background) = (baseForegroundColor ?? tint, base.withAlphaComponent(0.15))
            case .filled: (foreground, background) = (baseForegroundColor ?? .white, base)
            }
            if let given = self.background.backgroundColor { background = given }
            if state.contains(.highlighted) {
                // Pressed, iOS lightens the button: here its colours at 70 % (estimated).
                foreground = foreground.withAlphaComponent(0.7 * foreground.color.alpha)
                background = background.map { $0.withAlphaComponent(0.7 * $0.color.alpha) }
            }
            return (foreground, background)
        }

        public static func == (a: Self, b: Self) -> Bool {
            a.style == b.style && a.background == b.background && a.cornerStyle == b.cornerStyle && a.buttonSize == b.buttonSize
                && a.baseForegroundColor == b.baseForegroundColor && a.baseBackgroundColor == b.baseBackgroundColor && a.image === b.image
                && a.title == b.title && a.subtitle == b.subtitle && a.contentInsets == b.contentInsets && a.imagePlacement == b.imagePlacement
                && a.imagePadding == b.imagePadding && a.titlePadding == b.titlePadding && a.titleAlignment == b.titleAlignment
                && a.showsActivityIndicator == b.showsActivityIndicator
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(style)
            hasher.combine(title)
            hasher.combine(subtitle)
        }
    }
}

/// What a configured button draws with: a background, the title, the subtitle and the image.
final class ButtonConfigurationViews {
    let background = UIView()
    let subtitle = UILabel()

    init(in button: UIView) {
        background.isUserInteractionEnabled = false
        subtitle.textAlignment = .center
        button.insertSubview(background, at: 0)
        button.addSubview(subtitle)
    }
}
