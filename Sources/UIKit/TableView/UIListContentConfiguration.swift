/// What a cell's content view shows, as UIKit's (iOS 14): a configuration makes the view that shows it.
public protocol UIContentConfiguration {
    func makeContentView() -> UIView & UIContentView
    func updated(for state: UIConfigurationState) -> Self
}

/// The state a configuration is updated for.
public protocol UIConfigurationState {}

/// A cell's state: selection, highlight and the rest, as UIKit's.
public struct UICellConfigurationState: UIConfigurationState, Hashable, Sendable {
    public var isSelected = false
    public var isHighlighted = false
    public var isDisabled = false
    public var isFocused = false
    public var isEditing = false
    public var isSwiped = false
    public var isExpanded = false
    public init() {}
}

/// Axes, as UIKit's `UIAxis`.
public struct UIAxis: OptionSet, Hashable, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public static let horizontal = UIAxis(rawValue: 1)
    public static let vertical = UIAxis(rawValue: 2)
    public static let both: UIAxis = [.horizontal, .vertical]
}

/// A view that shows a content configuration.
public protocol UIContentView: NSObjectProtocol {
    var configuration: UIContentConfiguration { get set }
}

/// iOS 14's list content: an image, a text and a secondary text, laid out the way list cells, headers and
/// footers lay them out. `cell()` and `subtitleCell()` stack the texts, `valueCell()` puts the secondary
/// text at the trailing edge; headers and footers use their styles' fonts.
///
/// Values are points. The defaults are UIKit's where it publishes them and Smokescreen's table's metrics
/// otherwise: 11-pt margins above and below and 16 pt at the sides, 16 pt from image to text, 3 pt between
/// the stacked texts, fonts of the body (text) and subheadline (secondary) styles.
public struct UIListContentConfiguration: UIContentConfiguration, Hashable {
    /// How a text is drawn.
    public struct TextProperties: Hashable {
        public enum TextAlignment: Int, Sendable { case natural = 0, center, justified }
        public enum TextTransform: Int, Sendable { case none = 0, capitalized, lowercase, uppercase }
        public var font: UIFont
        public var color: UIColor
        public var alignment = TextAlignment.natural
        public var lineBreakMode = NSLineBreakMode.byTruncatingTail
        /// 0: as many as the text needs.
        public var numberOfLines = 0
        public var transform = TextTransform.none
        public var adjustsFontSizeToFitWidth = false
        public var adjustsFontForContentSizeCategory = true
        public var allowsDefaultTighteningForTruncation = true
        public var minimumScaleFactor: CGFloat = 0
        public var showsExpansionTextWhenTruncated = false

        init(font: UIFont, color: UIColor) {
            self.font = font
            self.color = color
        }

        /// `text` as the transform writes it.
        func transformed(_ text: String) -> String {
            switch transform {
            case .none: return text
            case .capitalized: return text.capitalized
            case .lowercase: return text.lowercased()
            case .uppercase: return text.uppercased()
            }
        }
    }

    /// How the image is drawn.
    public struct ImageProperties: Hashable {
        public var tintColor: UIColor?
        /// Points; zero: the image's own size.
        public var maximumSize = CGSize.zero
        /// Points kept for the image even when it is smaller; zero: none.
        public var reservedLayoutSize = CGSize.zero
        public var cornerRadius: CGFloat = 0
        public var accessibilityIgnoresInvertColors = false
        public init() {}

        public static func == (a: ImageProperties, b: ImageProperties) -> Bool {
            a.tintColor == b.tintColor && a.maximumSize == b.maximumSize && a.reservedLayoutSize == b.reservedLayoutSize && a.cornerRadius == b.cornerRadius
        }
        public func hash(into hasher: inout Hasher) { hasher.combine(cornerRadius) }
    }

    public var text: String?
    public var attributedText: NSAttributedString?
    public var secondaryText: String?
    public var secondaryAttributedText: NSAttributedString?
    public var image: UIImage?
    public var textProperties: TextProperties
    public var secondaryTextProperties: TextProperties
    public var imageProperties = ImageProperties()
    public var directionalLayoutMargins = NSDirectionalEdgeInsets(top: 11, leading: 16, bottom: 11, trailing: 16)
    public var imageToTextPadding: CGFloat = 16
    public var textToSecondaryTextVerticalPadding: CGFloat = 3
    public var textToSecondaryTextHorizontalPadding: CGFloat = 8
    public var prefersSideBySideTextAndSecondaryText = false
    public var axesPreservingSuperviewLayoutMargins: UIAxis = .horizontal

    private init(text: TextProperties, secondary: TextProperties, sideBySide: Bool = false) {
        textProperties = text
        secondaryTextProperties = secondary
        prefersSideBySideTextAndSecondaryText = sideBySide
    }

    /// A cell's: the text over the secondary text.
    public static func cell() -> UIListContentConfiguration {
        UIListContentConfiguration(text: TextProperties(font: .preferredFont(forTextStyle: .body), color: .label),
                                   secondary: TextProperties(font: .preferredFont(forTextStyle: .subheadline), color: .secondaryLabel))
    }

    /// A cell's with a subtitle: the text over the secondary text in the secondary label colour.
    public static func subtitleCell() -> UIListContentConfiguration { cell() }

    /// A cell's with a value: the secondary text at the trailing edge, in the body font.
    public static func valueCell() -> UIListContentConfiguration {
        UIListContentConfiguration(text: TextProperties(font: .preferredFont(forTextStyle: .body), color: .label),
                                   secondary: TextProperties(font: .preferredFont(forTextStyle: .body), color: .secondaryLabel), sideBySide: true)
    }

    public static func sidebarCell() -> UIListContentConfiguration { cell() }
    public static func sidebarSubtitleCell() -> UIListContentConfiguration { cell() }
    public static func accompaniedSidebarCell() -> UIListContentConfiguration { cell() }

    /// A plain list's header: the headline style.
    public static func plainHeader() -> UIListContentConfiguration {
        var c = UIListContentConfiguration(text: TextProperties(font: .preferredFont(forTextStyle: .headline), color: .label),
                                           secondary: TextProperties(font: .preferredFont(forTextStyle: .subheadline), color: .secondaryLabel))
        c.directionalLayoutMargins = NSDirectionalEdgeInsets(top: 6, leading: 16, bottom: 6, trailing: 16)
        return c
    }

    public static func plainFooter() -> UIListContentConfiguration { groupedFooter() }

    /// A grouped list's header: footnote-sized capitals in the secondary label colour.
    public static func groupedHeader() -> UIListContentConfiguration {
        var c = UIListContentConfiguration(text: TextProperties(font: .preferredFont(forTextStyle: .footnote), color: .secondaryLabel),
                                           secondary: TextProperties(font: .preferredFont(forTextStyle: .footnote), color: .secondaryLabel))
        c.textProperties.transform = .uppercase
        c.directionalLayoutMargins = NSDirectionalEdgeInsets(top: 16, leading: 16, bottom: 7, trailing: 16)
        return c
    }

    /// A grouped list's footer: footnote-sized text in the secondary label colour.
    public static func groupedFooter() -> UIListContentConfiguration {
        var c = UIListContentConfiguration(text: TextProperties(font: .preferredFont(forTextStyle: .footnote), color: .secondaryLabel),
                                           secondary: TextProperties(font: .preferredFont(forTextStyle: .footnote), color: .secondaryLabel))
        c.directionalLayoutMargins = NSDirectionalEdgeInsets(top: 7, leading: 16, bottom: 11, trailing: 16)
        return c
    }

    public static func prominentInsetGroupedHeader() -> UIListContentConfiguration {
        var c = groupedHeader()
        c.textProperties = TextProperties(font: .preferredFont(forTextStyle: .title3), color: .label)
        return c
    }

    public static func extraProminentInsetGroupedHeader() -> UIListContentConfiguration {
        var c = groupedHeader()
        c.textProperties = TextProperties(font: .preferredFont(forTextStyle: .title2), color: .label)
        return c
    }

    public func makeContentView() -> UIView & UIContentView { UIListContentView(configuration: self) }
    public func updated(for state: UIConfigurationState) -> UIListContentConfiguration { self }

    /// The text shown: the attributed text's string (its attributes are not drawn) or the text.
    var shownText: String? { (attributedText?.string ?? text).map(textProperties.transformed) }
    var shownSecondaryText: String? { (secondaryAttributedText?.string ?? secondaryText).map(secondaryTextProperties.transformed) }
}

/// The view a `UIListContentConfiguration` makes: an image view and two labels, laid out by the
/// configuration inside its margins.
open class UIListContentView: UIView, UIContentView {
    private let imageView = UIImageView(frame: .zero)
    private let textLabel = UILabel(frame: .zero)
    private let secondaryLabel = UILabel(frame: .zero)
    private var list: UIListContentConfiguration

    public init(configuration: UIListContentConfiguration) {
        list = configuration
        super.init(frame: .zero)
        isOpaque = false
        for view in [imageView, textLabel, secondaryLabel] as [UIView] { addSubview(view) }
        apply()
    }

    public required init?(coder: NSCoder) { nil }

    public override init(frame: CGRect) {
        list = .cell()
        super.init(frame: frame)
        for view in [imageView, textLabel, secondaryLabel] as [UIView] { addSubview(view) }
        apply()
    }

    /// The configuration shown; a configuration of another kind is ignored.
    open var configuration: UIContentConfiguration {
        get { list }
        set {
            guard let newValue = newValue as? UIListContentConfiguration else { return }
            list = newValue
            apply()
        }
    }

    private func apply() {
        imageView.image = list.image
        imageView.isHidden = list.image == nil
        imageView.tintColor = list.imageProperties.tintColor
        imageView.layer.cornerRadius = list.imageProperties.cornerRadius
        imageView.clipsToBounds = list.imageProperties.cornerRadius > 0
        imageView.contentMode = .scaleAspectFit
        for (label, text, properties) in [(textLabel, list.shownText, list.textProperties), (secondaryLabel, list.shownSecondaryText, list.secondaryTextProperties)] {
            label.text = text
            label.isHidden = text == nil
            label.font = properties.font
            label.textColor = properties.color
            label.numberOfLines = properties.numberOfLines
            label.lineBreakMode = properties.lineBreakMode
            label.textAlignment = properties.alignment == .center ? .center : .natural
        }
        if list.prefersSideBySideTextAndSecondaryText { secondaryLabel.textAlignment = .right }
        setNeedsLayout()
        superview?.superview?.setNeedsLayout()
    }

    /// Points: the image's size as shown.
    private var imageSize: CGSize {
        guard let image = list.image else { return .zero }
        var size = image.size
        let maximum = list.imageProperties.maximumSize
        if maximum.width > 0, size.width > maximum.width { size = CGSize(width: maximum.width, height: size.height * maximum.width / size.width) }
        if maximum.height > 0, size.height > maximum.height { size = CGSize(width: size.width * maximum.height / size.height, height: maximum.height) }
        let reserved = list.imageProperties.reservedLayoutSize
        return CGSize(width: max(size.width, reserved.width), height: max(size.height, reserved.height))
    }

    private var textX: CGFloat {
        let image = imageSize
        return list.directionalLayoutMargins.leading + (image.width > 0 ? image.width + list.imageToTextPadding : 0)
    }

    /// The texts' frames in a view `width` points wide, from the top margin.
    private func textFrames(width: CGFloat) -> (text: CGRect, secondary: CGRect) {
        let m = list.directionalLayoutMargins
        let x = textX
        let available = max(0, width - x - m.trailing)
        let hasText = list.shownText != nil, hasSecondary = list.shownSecondaryText != nil
        if list.prefersSideBySideTextAndSecondaryText {
            let secondary = hasSecondary ? secondaryLabel.sizeThatFits(CGSize(width: available, height: 0)) : .zero
            let secondaryWidth = min(available, secondary.width)
            let textWidth = max(0, available - secondaryWidth - (secondaryWidth > 0 ? list.textToSecondaryTextHorizontalPadding : 0))
            let text = hasText ? textLabel.sizeThatFits(CGSize(width: textWidth, height: 0)) : .zero
            let height = max(text.height, secondary.height)
            return (CGRect(x: x, y: m.top + (height - text.height) / 2, width: textWidth, height: text.height),
                    CGRect(x: width - m.trailing - secondaryWidth, y: m.top + (height - secondary.height) / 2, width: secondaryWidth, height: secondary.height))
        }
        let text = hasText ? textLabel.sizeThatFits(CGSize(width: available, height: 0)) : .zero
        let secondary = hasSecondary ? secondaryLabel.sizeThatFits(CGSize(width: available, height: 0)) : .zero
        let gap = hasText && hasSecondary ? list.textToSecondaryTextVerticalPadding : 0
        return (CGRect(x: x, y: m.top, width: available, height: text.height),
                CGRect(x: x, y: m.top + text.height + gap, width: available, height: secondary.height))
    }

    /// The content's height at `size.width` (points): the texts (or the image, when taller) inside the
    /// margins.
    open override func sizeThatFits(_ size: CGSize) -> CGSize {
        let frames = textFrames(width: size.width)
        let texts = max(frames.text.maxY, frames.secondary.maxY) - list.directionalLayoutMargins.top
        let content = max(texts, imageSize.height)
        return CGSize(width: size.width, height: (content + list.directionalLayoutMargins.top + list.directionalLayoutMargins.bottom).rounded(.up))
    }

    open override func layoutSubviews() {
        super.layoutSubviews()
        let b = bounds
        let frames = textFrames(width: b.width)
        let m = list.directionalLayoutMargins
        // The content block is centred vertically in the bounds, inside the margins.
        let block = max(frames.text.maxY, frames.secondary.maxY) - m.top
        let dy = max(0, (b.height - m.top - m.bottom - block) / 2)
        textLabel.frame = frames.text.offsetBy(dx: 0, dy: dy)
        secondaryLabel.frame = frames.secondary.offsetBy(dx: 0, dy: dy)
        let image = imageSize
        imageView.frame = CGRect(x: m.leading, y: ((b.height - image.height) / 2).rounded(), width: image.width, height: image.height)
    }
}

extension UIView {
    /// Shows `configuration` in this (content) view: the view already showing a configuration of the
    /// same kind is updated in place, otherwise a new one fills this view. Returns the view showing it
    /// (nil for no configuration).
    func installContent(_ configuration: UIContentConfiguration?, replacing shown: (UIView & UIContentView)?) -> (UIView & UIContentView)? {
        guard let configuration else {
            shown?.removeFromSuperview()
            return nil
        }
        if let shown, type(of: shown.configuration) == type(of: configuration) {
            shown.configuration = configuration
            return shown
        }
        shown?.removeFromSuperview()
        let view = configuration.makeContentView()
        view.frame = bounds
        view.autoresizingMask = [.flexibleWidth, .flexibleHeight]
        addSubview(view)
        return view
    }
}
