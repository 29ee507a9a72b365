/// What a bar's background looks like, as iOS 13's appearance API says: a blur effect, a colour over
/// it and a shadow (the hairline along the bar's content edge). Background and shadow images are kept,
/// not drawn (noted).
open class UIBarAppearance: NSObject, NSCopying {
    /// The blur behind the bar; nil for none.
    open var backgroundEffect: UIBlurEffect?
    /// Drawn over the effect; nil for none.
    open var backgroundColor: UIColor?
    open var backgroundImage: UIImage? { didSet { if backgroundImage != nil { NotDrawn.note("UIBarAppearance background and shadow images") } } }
    open var backgroundImageContentMode = UIView.ContentMode.scaleToFill
    /// The hairline's colour; nil or clear for none.
    open var shadowColor: UIColor?
    open var shadowImage: UIImage? { didSet { if shadowImage != nil { NotDrawn.note("UIBarAppearance background and shadow images") } } }
    public let idiom: UIUserInterfaceIdiom

    /// The default background: the chrome material with a hairline at 30 % black, as UIKit's `init()`.
    public override init() {
        idiom = .phone
        super.init()
        configureWithDefaultBackground()
    }

    public init(idiom: UIUserInterfaceIdiom) {
        self.idiom = idiom
        super.init()
        configureWithDefaultBackground()
    }

    /// A copy of `barAppearance`'s background and shadow.
    public init(barAppearance: UIBarAppearance) {
        idiom = barAppearance.idiom
        super.init()
        take(barAppearance)
    }

    func take(_ other: UIBarAppearance) {
        backgroundEffect = other.backgroundEffect
        backgroundColor = other.backgroundColor
        backgroundImage = other.backgroundImage
        backgroundImageContentMode = other.backgroundImageContentMode
        shadowColor = other.shadowColor
        shadowImage = other.shadowImage
    }

    /// The translucent default: the chrome material and a hairline.
    open func configureWithDefaultBackground() {
        backgroundEffect = UIBlurEffect(style: .systemChromeMaterial)
        backgroundColor = nil
        shadowColor = UIColor(white: 0, alpha: 0.3)
    }

    /// An opaque background in the system background colour, and a hairline.
    open func configureWithOpaqueBackground() {
        backgroundEffect = nil
        backgroundColor = .systemBackground
        shadowColor = UIColor(white: 0, alpha: 0.3)
    }

    /// No background and no hairline.
    open func configureWithTransparentBackground() {
        backgroundEffect = nil
        backgroundColor = nil
        shadowColor = nil
    }

    open func copy(with zone: NSZone? = nil) -> Any { UIBarAppearance(barAppearance: self) }
}

/// A bar button item's look per state (kept; bar buttons draw in the tint colour).
open class UIBarButtonItemStateAppearance: NSObject {
    open var titleTextAttributes: [NSAttributedString.Key: Any] = [:]
    open var titlePositionAdjustment = UIOffset.zero
    open var backgroundImage: UIImage?
    open var backgroundImagePositionAdjustment = UIOffset.zero
}

/// Bar button items' looks (kept; bar buttons draw in the tint colour).
open class UIBarButtonItemAppearance: NSObject, NSCopying {
    public let normal = UIBarButtonItemStateAppearance()
    public let highlighted = UIBarButtonItemStateAppearance()
    public let disabled = UIBarButtonItemStateAppearance()
    public let focused = UIBarButtonItemStateAppearance()
    public init(style: UIBarButtonItem.Style) { super.init() }
    public override convenience init() { self.init(style: .plain) }
    open func configureWithDefault(for style: UIBarButtonItem.Style) {}
    open func copy(with zone: NSZone? = nil) -> Any { UIBarButtonItemAppearance(style: .plain) }
}

/// A navigation bar's appearance: the background and shadow, and the titles' attributes (`.font` and
/// `.foregroundColor` are drawn, for the small and the large title).
open class UINavigationBarAppearance: UIBarAppearance {
    open var titleTextAttributes: [NSAttributedString.Key: Any] = [:]
    /// The large title's attributes (`.font`, `.foregroundColor` drawn).
    open var largeTitleTextAttributes: [NSAttributedString.Key: Any] = [:]
    /// Points the title is moved by.
    open var titlePositionAdjustment = UIOffset.zero
    open var buttonAppearance = UIBarButtonItemAppearance(style: .plain)
    open var doneButtonAppearance = UIBarButtonItemAppearance(style: .done)
    open var backButtonAppearance = UIBarButtonItemAppearance(style: .plain)
    open private(set) var backIndicatorImage: UIImage?
    open private(set) var backIndicatorTransitionMaskImage: UIImage?

    public override init() { super.init() }
    public override init(idiom: UIUserInterfaceIdiom) { super.init(idiom: idiom) }

    public override init(barAppearance: UIBarAppearance) {
        super.init(barAppearance: barAppearance)
        if let other = barAppearance as? UINavigationBarAppearance {
            titleTextAttributes = other.titleTextAttributes
            largeTitleTextAttributes = other.largeTitleTextAttributes
            titlePositionAdjustment = other.titlePositionAdjustment
            buttonAppearance = other.buttonAppearance
            doneButtonAppearance = other.doneButtonAppearance
            backButtonAppearance = other.backButtonAppearance
            backIndicatorImage = other.backIndicatorImage
            backIndicatorTransitionMaskImage = other.backIndicatorTransitionMaskImage
        }
    }

    /// Kept; the chevron is drawn.
    open func setBackIndicatorImage(_ backIndicatorImage: UIImage?, transitionMaskImage backIndicatorTransitionMaskImage: UIImage?) {
        self.backIndicatorImage = backIndicatorImage
        self.backIndicatorTransitionMaskImage = backIndicatorTransitionMaskImage
        if backIndicatorImage != nil { NotDrawn.note("UINavigationBarAppearance back indicator images (the chevron is drawn)") }
    }

    open override func copy(with zone: NSZone? = nil) -> Any { UINavigationBarAppearance(barAppearance: self) }

    /// A copy with no background and no shadow: what a bar shows at its scroll edge when it is given no
    /// scroll-edge appearance (iOS 15's rule).
    func transparentCopy() -> UINavigationBarAppearance {
        let copy = UINavigationBarAppearance(barAppearance: self)
        copy.configureWithTransparentBackground()
        return copy
    }
}

/// A toolbar's appearance: its background and shadow.
open class UIToolbarAppearance: UIBarAppearance {
    open var buttonAppearance = UIBarButtonItemAppearance(style: .plain)
    open var doneButtonAppearance = UIBarButtonItemAppearance(style: .done)

    public override init() { super.init() }
    public override init(idiom: UIUserInterfaceIdiom) { super.init(idiom: idiom) }
    public override init(barAppearance: UIBarAppearance) { super.init(barAppearance: barAppearance) }

    open override func copy(with zone: NSZone? = nil) -> Any { UIToolbarAppearance(barAppearance: self) }
}

/// A tab bar's appearance: its background and shadow; the item appearances are kept (tabs draw in the
/// tint colour and grey).
open class UITabBarAppearance: UIBarAppearance {
    open var stackedLayoutAppearance = UITabBarItemAppearance()
    open var inlineLayoutAppearance = UITabBarItemAppearance()
    open var compactInlineLayoutAppearance = UITabBarItemAppearance()
    open var selectionIndicatorTintColor: UIColor?
    open var selectionIndicatorImage: UIImage?
    open var stackedItemPositioning = UITabBar.ItemPositioning.automatic
    open var stackedItemWidth: CGFloat = 0
    open var stackedItemSpacing: CGFloat = 0

    public override init() { super.init() }
    public override init(idiom: UIUserInterfaceIdiom) { super.init(idiom: idiom) }
    public override init(barAppearance: UIBarAppearance) { super.init(barAppearance: barAppearance) }

    open override func copy(with zone: NSZone? = nil) -> Any { UITabBarAppearance(barAppearance: self) }
}

/// A tab's look per state (kept; tabs draw in the tint colour and grey).
open class UITabBarItemStateAppearance: NSObject {
    open var titleTextAttributes: [NSAttributedString.Key: Any] = [:]
    open var titlePositionAdjustment = UIOffset.zero
    open var iconColor: UIColor?
    open var badgeBackgroundColor: UIColor?
    open var badgeTextAttributes: [NSAttributedString.Key: Any] = [:]
}

/// Tabs' looks (kept).
open class UITabBarItemAppearance: NSObject, NSCopying {
    public let normal = UITabBarItemStateAppearance()
    public let selected = UITabBarItemStateAppearance()
    public let disabled = UITabBarItemStateAppearance()
    public let focused = UITabBarItemStateAppearance()
    public override init() { super.init() }
    public init(style: UITabBarItemAppearance.Style) { super.init() }
    public enum Style: Int, Sendable { case stacked = 0, inline, compactInline }
    open func configureWithDefault(for style: UITabBarItemAppearance.Style) {}
    open func copy(with zone: NSZone? = nil) -> Any { UITabBarItemAppearance() }
}

/// Draws a bar appearance's background and hairline: the effect, the colour over it, the shadow along
/// the content edge (the bottom of a navigation bar, the top of a toolbar).
final class BarBackgroundView: UIView {
    private let effectView = UIVisualEffectView(effect: nil)
    private let colorView = UIView()
    private let shadowView = UIView()
    /// True for a bar whose content is below it (a navigation bar): the hairline is at the bottom.
    let shadowAtBottom: Bool

    init(shadowAtBottom: Bool) {
        self.shadowAtBottom = shadowAtBottom
        super.init(frame: .zero)
        isUserInteractionEnabled = false
        for view in [effectView, colorView, shadowView] as [UIView] {
            view.isUserInteractionEnabled = false
            addSubview(view)
        }
    }

    required init?(coder: NSCoder) { nil }

    /// Shows what a bar at the bottom shows: the scroll-edge appearance (by default the standard one
    /// without background or hairline) at its content's edge, else the standard one, under `barTintColor`
    /// when it is set.
    func show(standard: UIBarAppearance, scrollEdge: UIBarAppearance?, atScrollEdge: Bool, barTintColor: UIColor?) {
        if atScrollEdge {
            if let scrollEdge { return show(scrollEdge) }
            let clear = UIBarAppearance(barAppearance: standard)
            clear.configureWithTransparentBackground()
            show(clear)
        } else if let barTintColor {
            let tinted = UIBarAppearance(barAppearance: standard)
            tinted.backgroundColor = barTintColor
            show(tinted)
        } else {
            show(standard)
        }
    }

    func show(_ appearance: UIBarAppearance) {
        effectView.effect = appearance.backgroundEffect
        effectView.isHidden = appearance.backgroundEffect == nil
        colorView.backgroundColor = appearance.backgroundColor
        shadowView.backgroundColor = appearance.shadowColor
        shadowView.isHidden = appearance.shadowColor == nil
    }

    override func layoutSubviews() {
        super.layoutSubviews()
        effectView.frame = bounds
        colorView.frame = bounds
        let hairline = 1 / max(1, UIScreen.main.scale)
        shadowView.frame = CGRect(x: 0, y: shadowAtBottom ? bounds.height : -hairline, width: bounds.width, height: hairline)
    }
}
