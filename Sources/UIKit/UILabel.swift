package import SnapshotView
internal import Typesetting

/// How text lines up in its width, with Apple's raw values.
public enum NSTextAlignment: Int, Sendable {
    case left = 0, center = 1, right = 2, justified = 3, natural = 4
}

/// How a label breaks and truncates its lines, with Apple's raw values.
public enum NSLineBreakMode: Int, Sendable {
    case byWordWrapping = 0, byCharWrapping, byClipping, byTruncatingHead, byTruncatingTail, byTruncatingMiddle
}

/// UIKit's label: text in a font and colour, laid out in the bounds and centred vertically, as UIKit's,
/// by Smokescreen's typesetter. `attributedText` is drawn as its string in the label's font and colour
/// (its attributes are not drawn: noted).
open class UILabel: UIView {
    private var label: Label { backing as! Label }

    public override init(frame: CGRect) {
        super.init(frame: frame)
        isUserInteractionEnabled = false
        isOpaque = false
        setDefaults()
    }

    /// Outside the initializer, so that the properties' observers run.
    private func setDefaults() {
        textColor = .label
        font = .systemFont(ofSize: 17)
    }

    public required init?(coder: NSCoder) { nil }

    package override func makeBacking() -> View {
        Label(text: "", style: TextStyle(), frame: .zero, name: nil)
    }

    /// The text; nil shows nothing.
    open var text: String? {
        get { label.text.isEmpty ? nil : label.text }
        set { label.text = newValue ?? ""; invalidateIntrinsicContentSize() }
    }

    /// The text with attributes: its string is drawn in ``font`` and ``textColor``.
    open var attributedText: NSAttributedString? {
        get { text.map { NSAttributedString(string: $0) } }
        set {
            if let newValue, newValue.length > 0 { NotDrawn.note("UILabel.attributedText attributes (drawn in the label's font and colour)") }
            text = newValue?.string
        }
    }

    /// Default the system font at 17 pt.
    open var font: UIFont! {
        didSet {
            if font == nil { font = .systemFont(ofSize: 17) }
            label.font = font.font
            invalidateIntrinsicContentSize()
        }
    }

    /// Default `.label` (resolved for the stage's appearance when set).
    open var textColor: UIColor! {
        didSet {
            if textColor == nil { textColor = .label }
            label.textColor = textColor.color
        }
    }

    /// Default `.natural`; `.justified` lines up as natural (noted).
    open var textAlignment: NSTextAlignment = .natural {
        didSet {
            switch textAlignment {
            case .left: label.textAlignment = .left
            case .center: label.textAlignment = .center
            case .right: label.textAlignment = .right
            case .natural: label.textAlignment = .natural
            case .justified:
                NotDrawn.note("NSTextAlignment.justified (aligned as natural)")
                label.textAlignment = .natural
            }
        }
    }

    /// 0 for as many as fit. Default 1.
    open var numberOfLines: Int {
        get { label.numberOfLines }
        set { label.numberOfLines = max(0, newValue); invalidateIntrinsicContentSize() }
    }

    /// Default `.byTruncatingTail`.
    open var lineBreakMode: NSLineBreakMode = .byTruncatingTail {
        didSet {
            label.lineBreakMode = switch lineBreakMode {
            case .byWordWrapping: .byWordWrapping
            case .byCharWrapping: .byCharWrapping
            case .byClipping: .byClipping
            case .byTruncatingHead: .byTruncatingHead
            case .byTruncatingTail: .byTruncatingTail
            case .byTruncatingMiddle: .byTruncatingMiddle
            }
        }
    }

    /// Kept; the font is not shrunk to fit (noted when set).
    open var adjustsFontSizeToFitWidth = false { didSet { if adjustsFontSizeToFitWidth { NotDrawn.note("UILabel.adjustsFontSizeToFitWidth") } } }
    open var minimumScaleFactor: CGFloat = 0
    open var isEnabled = true
    open var isHighlighted = false
    open var highlightedTextColor: UIColor?
    open var shadowColor: UIColor? { didSet { if shadowColor != nil { NotDrawn.note("UILabel.shadowColor") } } }
    open var shadowOffset = CGSize(width: 0, height: -1)
    open var preferredMaxLayoutWidth: CGFloat = 0
    /// When true, a font from `UIFont.preferredFont(forTextStyle:)` follows the text size when the traits
    /// change (`traitCollectionDidChange(_:)`); other fonts stay as they are, as in UIKit.
    open var adjustsFontForContentSizeCategory = false

    override func resolveColors() {
        super.resolveColors()
        label.textColor = textColor.color
    }

    open override func traitCollectionDidChange(_ previousTraitCollection: UITraitCollection?) {
        super.traitCollectionDidChange(previousTraitCollection)
        // Resolved again whatever the traits were before: the font may have been made under others.
        guard adjustsFontForContentSizeCategory, let style = font?.textStyle else { return }
        font = .preferredFont(forTextStyle: style, compatibleWith: traitCollection)
    }

    /// The size the text takes within `size` (points), rounded up to whole points, as UIKit's.
    open override func sizeThatFits(_ size: CGSize) -> CGSize {
        let limit = CGSize(width: size.width > 0 ? size.width : .greatestFiniteMagnitude, height: size.height > 0 ? size.height : .greatestFiniteMagnitude)
        guard text != nil, let fitted = try? label.sizeThatFits(limit.size) else { return .zero }
        return CGSize(fitted)
    }

    /// The size of the text on one line (or wrapped at ``preferredMaxLayoutWidth``).
    open override var intrinsicContentSize: CGSize {
        sizeThatFits(CGSize(width: numberOfLines == 1 || preferredMaxLayoutWidth <= 0 ? 0 : preferredMaxLayoutWidth, height: 0))
    }

    /// A multi-line label with no ``preferredMaxLayoutWidth`` wraps at the width Auto Layout gives it
    /// (UIKit's automatic preferred width).
    var wrapsToLayoutWidth: Bool { numberOfLines != 1 && preferredMaxLayoutWidth <= 0 }

    package override func layoutContentSize(forWidth width: CGFloat?) -> CGSize {
        guard wrapsToLayoutWidth, let width, width > 0 else { return intrinsicContentSize }
        let oneLine = intrinsicContentSize
        let wrapped = sizeThatFits(CGSize(width: width, height: 0))
        // The width it asks for stays the text's on one line; its height is the wrapped text's.
        return CGSize(width: oneLine.width, height: wrapped.height)
    }

    /// From the label's vertical centre to its first and last baselines (points): the text is centred
    /// vertically in the bounds, so a baseline moves with the centre. Nil without text.
    package func baselineOffsetsFromCenter() -> (first: CGFloat, last: CGFloat)? {
        guard text != nil, let label = backing as? Label else { return nil }
        let width = bounds.width > 0 && numberOfLines != 1 ? Double(bounds.width) : .infinity
        guard let layout = try? TextLayout(label.text, style: label.style, width: width, height: .infinity),
              let first = layout.lines.first, let last = layout.lines.last else { return nil }
        let half = layout.size.height / 2
        return (CGFloat(first.baseline - half), CGFloat(last.baseline - half))
    }
}
