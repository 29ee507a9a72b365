/// What a controller shows in a navigation bar when it is on top: its title, and what the back button
/// below it says.
open class UINavigationItem: NSObject {
    /// The title; the controller's `title` when nil.
    open var title: String?
    /// What the back button of the controller pushed above this one says; this item's title when nil.
    open var backButtonTitle: String?
    /// Whether this item's bar shows no back button. Default false.
    open var hidesBackButton = false
    /// A view shown in place of the title (centred in the bar, at its own size).
    open var titleView: UIView?
    /// Accepted; large titles are not drawn (listed in the stage's `notDrawn`).
    open var largeTitleDisplayMode = LargeTitleDisplayMode.automatic {
        didSet { if largeTitleDisplayMode == .always { NotDrawn.note("large titles (UINavigationItem.largeTitleDisplayMode .always)") } }
    }

    public init(title: String) {
        self.title = title
        super.init()
    }

    public override init() { super.init() }

    public enum LargeTitleDisplayMode: Int, Sendable {
        case automatic, always, never
    }
}

extension UIViewController {
    var lazyNavigationItem: UINavigationItem {
        if let item = storedNavigationItem { return item }
        let item = UINavigationItem()
        storedNavigationItem = item
        return item
    }
}

/// UIKit's navigation bar as iOS 15 and later draw it over content at rest: no background (the scroll
/// edge appearance), the top item's title centred in semibold 17 pt, and below the root a back button in
/// the tint colour (a chevron and the previous item's back title, "Back" when it has none). 44 points
/// high, under the top of the safe area.
open class UINavigationBar: UIView {
    /// Points.
    static let height: CGFloat = 44

    private let titleLabel = UILabel()
    private let backLabel = UILabel()
    private let chevron = BackChevronView(frame: CGRect(x: 0, y: 0, width: 13, height: 21))
    private var shownTitleView: UIView?

    /// Accepted; large titles are not drawn (listed in the stage's `notDrawn`).
    open var prefersLargeTitles = false { didSet { if prefersLargeTitles { NotDrawn.note("large titles (UINavigationBar.prefersLargeTitles)") } } }
    /// Accepted; the bar draws no background at rest, as iOS 15's scroll-edge appearance.
    open var isTranslucent = true
    open var barTintColor: UIColor?

    public override init(frame: CGRect) {
        super.init(frame: frame)
        titleLabel.font = .systemFont(ofSize: 17, weight: .semibold)
        titleLabel.textAlignment = .center
        backLabel.font = .systemFont(ofSize: 17)
        addSubview(titleLabel)
        addSubview(chevron)
        addSubview(backLabel)
    }

    public required init?(coder: NSCoder) { nil }

    /// The items of `stack`: the top's title, and a back button when there is a controller below it.
    func show(_ stack: [UIViewController]) {
        let top = stack.last
        let below = stack.count > 1 ? stack[stack.count - 2] : nil
        shownTitleView?.removeFromSuperview()
        shownTitleView = top?.navigationItem.titleView
        if let titleView = shownTitleView { addSubview(titleView) }
        titleLabel.text = shownTitleView == nil ? top.flatMap { $0.navigationItem.title ?? $0.title } : nil
        let hasBack = below != nil && top?.navigationItem.hidesBackButton == false
        backLabel.text = hasBack ? below.map { $0.navigationItem.backButtonTitle ?? $0.navigationItem.title ?? $0.title ?? "Back" } : nil
        backLabel.isHidden = !hasBack
        chevron.isHidden = !hasBack
        setNeedsLayout()
        layoutIfNeeded()
    }

    open override func tintColorDidChange() {
        backLabel.textColor = tintColor
        chevron.setNeedsDisplay()
    }

    open override func layoutSubviews() {
        super.layoutSubviews()
        backLabel.textColor = tintColor
        chevron.tint = tintColor
        let height = bounds.height
        chevron.frame = CGRect(x: 8, y: (height - 21) / 2, width: 13, height: 21)
        let backWidth = backLabel.isHidden ? 0 : min(backLabel.sizeThatFits(bounds.size).width, bounds.width / 3)
        backLabel.frame = CGRect(x: 26, y: 0, width: backWidth, height: height)
        // The title is centred on the bar, moved right only as far as the back button needs.
        let leading = backLabel.isHidden ? 16 : 26 + backWidth + 8
        let titleWidth = min(titleLabel.sizeThatFits(bounds.size).width, max(0, bounds.width - leading - 16))
        let titleX = max(leading, (bounds.width - titleWidth) / 2)
        titleLabel.frame = CGRect(x: titleX, y: 0, width: titleWidth, height: height)
        if let titleView = shownTitleView {
            let size = titleView.bounds.size
            titleView.frame = CGRect(x: (bounds.width - size.width) / 2, y: (height - size.height) / 2, width: size.width, height: size.height)
        }
    }
}

/// The back button's chevron: an open angle stroked with round ends, pointing left.
final class BackChevronView: UIView {
    var tint: UIColor = .systemBlue { didSet { setNeedsDisplay() } }

    override init(frame: CGRect) {
        super.init(frame: frame)
        isOpaque = false
    }

    required init?(coder: NSCoder) { nil }

    override func draw(_ rect: CGRect) {
        // Two strokes meeting at the point, with round caps and join, as the SF Symbol back chevron.
        let w = bounds.width, h = bounds.height, stroke: CGFloat = 2.8
        let inset = stroke / 2
        let path = UIBezierPath()
        path.move(to: CGPoint(x: w - inset, y: inset))
        path.addLine(to: CGPoint(x: inset + 1, y: h / 2))
        path.addLine(to: CGPoint(x: w - inset, y: h - inset))
        path.lineWidth = stroke
        path.lineCapStyle = .round
        path.lineJoinStyle = .round
        tint.setStroke()
        path.stroke()
    }
}
