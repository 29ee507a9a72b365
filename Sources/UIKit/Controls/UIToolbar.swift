/// UIKit's toolbar: a 44-point bar of bar button items along the bottom of a screen, drawn as iOS 15 and
/// later draw a toolbar's standard appearance (the chrome material with a hairline along its top edge),
/// or, in a navigation controller whose content's end is in view, its scroll-edge appearance (none).
/// Items sit from the system margin at each end, 8 points apart; flexible spaces share what is left
/// between them and fixed spaces take their width. A tap runs an item's action.
open class UIToolbar: UIView {
    /// Points: a toolbar's height (its background reaches into the safe area below it when it sits at
    /// the bottom of the screen, as UIKit's).
    static let height: CGFloat = 44
    /// Points: a toolbar's height in a compact height (a phone in landscape), as UIKit's.
    static let compactHeight: CGFloat = 32
    /// Points: a toolbar's height, compact (`compact`) or not.
    static func barHeight(compact: Bool) -> CGFloat { compact ? compactHeight : height }
    /// Points: this toolbar's height for the vertical size class it is in.
    var barHeight: CGFloat { Self.barHeight(compact: traitCollection.verticalSizeClass == .compact) }

    private let background = BarBackgroundView(shadowAtBottom: false)
    private var itemViews: [(UIBarButtonItem, UIView)] = []

    public override init(frame: CGRect) {
        super.init(frame: frame)
        addSubview(background)
        showAppearance()
    }

    public convenience init() { self.init(frame: CGRect(x: 0, y: 0, width: 320, height: UIToolbar.height)) }

    public required init?(coder: NSCoder) { nil }

    /// The items, leading to trailing. Default nil.
    open var items: [UIBarButtonItem]? {
        didSet {
            for (_, view) in itemViews { view.removeFromSuperview() }
            itemViews = (items ?? []).map { item in (item, item.makeBarView { [weak self] in self?.nearestController }) }
            for (_, view) in itemViews { addSubview(view) }
            setNeedsLayout()
        }
    }

    open func setItems(_ items: [UIBarButtonItem]?, animated: Bool) { self.items = items }

    /// Kept; the appearances say what the background is.
    open var barStyle = UIBarStyle.default
    open var isTranslucent = true
    /// Over the standard appearance's background when set (UIKit's legacy customization).
    open var barTintColor: UIColor? { didSet { showAppearance() } }
    /// The appearance while content scrolls under the bar: the chrome material with a hairline.
    open var standardAppearance = UIToolbarAppearance() {
        didSet { standardAppearance = UIToolbarAppearance(barAppearance: standardAppearance); showAppearance() }
    }
    /// A navigation controller's toolbar shows this while its content's end is in view (or it does not
    /// scroll); nil (the default): the standard appearance without background or hairline.
    open var scrollEdgeAppearance: UIToolbarAppearance? {
        didSet { scrollEdgeAppearance = scrollEdgeAppearance.map(UIToolbarAppearance.init(barAppearance:)); showAppearance() }
    }
    /// The appearance in a compact height (a phone in landscape); nil (the default): the standard one.
    open var compactAppearance: UIToolbarAppearance? {
        didSet { compactAppearance = compactAppearance.map(UIToolbarAppearance.init(barAppearance:)); showAppearance() }
    }
    /// The appearance in a compact height while the content's end is in view; nil (the default): the
    /// scroll-edge appearance.
    open var compactScrollEdgeAppearance: UIToolbarAppearance? {
        didSet { compactScrollEdgeAppearance = compactScrollEdgeAppearance.map(UIToolbarAppearance.init(barAppearance:)); showAppearance() }
    }
    /// Whether the content above is at its bottom edge: set by a navigation controller for its toolbar;
    /// a toolbar of one's own shows its standard appearance.
    package var isAtScrollEdge = false { didSet { if isAtScrollEdge != oldValue { showAppearance() } } }

    private func showAppearance() {
        // In a compact height the compact appearances first, falling back as UIKit's do.
        let compact = traitCollection.verticalSizeClass == .compact
        let standard = compact ? compactAppearance ?? standardAppearance : standardAppearance
        let edge = compact ? compactScrollEdgeAppearance ?? scrollEdgeAppearance : scrollEdgeAppearance
        background.show(standard: standard, scrollEdge: edge, atScrollEdge: isAtScrollEdge, barTintColor: barTintColor)
    }

    open override func sizeThatFits(_ size: CGSize) -> CGSize { CGSize(width: size.width, height: barHeight) }
    open override var intrinsicContentSize: CGSize { CGSize(width: UIView.noIntrinsicMetric, height: barHeight) }

    open override func layoutSubviews() {
        super.layoutSubviews()
        // The background reaches down through the safe area when the bar sits on it.
        var below: CGFloat = 0
        if let window, abs(convert(bounds, to: window).maxY - (window.bounds.height - window.safeAreaInsets.bottom)) < 0.5 {
            below = window.safeAreaInsets.bottom
        }
        background.frame = CGRect(x: 0, y: 0, width: bounds.width, height: bounds.height + below)
        let margin = UIScreen.systemMargin(forWidth: bounds.width), gap: CGFloat = 8
        // The items keep out of the safe area's sides (a phone in landscape), as UIKit's.
        let safe = horizontalSafeSides
        let inner = max(0, bounds.width - safe.left - safe.right)
        let widths = itemViews.map { $0.0.systemItem == .flexibleSpace ? 0 : $0.0.barWidth(of: $0.1, in: bounds.size) }
        let flexible = itemViews.filter { $0.0.systemItem == .flexibleSpace }.count
        // A gap between two neighbours that are items (not spaces), as they are placed below.
        let isSpace = itemViews.map { [.flexibleSpace, .fixedSpace].contains($0.0.systemItem) }
        let gaps = zip(isSpace, isSpace.dropFirst()).filter { !$0 && !$1 }.count
        let used = widths.reduce(0, +) + gap * CGFloat(gaps)
        let share = flexible > 0 ? max(0, inner - 2 * margin - used) / CGFloat(flexible) : 0
        var x = safe.left + margin
        for (index, (item, view)) in itemViews.enumerated() {
            if item.systemItem == .flexibleSpace {
                view.frame = CGRect(x: x, y: 0, width: share, height: bounds.height)
                x += share
                continue
            }
            let w = widths[index]
            let h = item.barHeight(of: view, barHeight: bounds.height)
            view.frame = CGRect(x: x, y: (bounds.height - h) / 2, width: w, height: h)
            x += w
            if index + 1 < itemViews.count, !isSpace[index], !isSpace[index + 1] { x += gap }
        }
    }
}

/// Bar styles, with Apple's raw values (kept).
public enum UIBarStyle: Int, Sendable { case `default` = 0, black = 1 }
