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
    /// Whether the bar shows this item's title large (when the bar ``UINavigationBar/prefersLargeTitles``):
    /// `.automatic` (the default) as the item below it does, the root's large.
    open var largeTitleDisplayMode = LargeTitleDisplayMode.automatic { didSet { itemsDidChange?() } }
    /// The items at the leading end, first outermost; they replace the back button unless
    /// ``leftItemsSupplementBackButton``.
    open var leftBarButtonItems: [UIBarButtonItem]? { didSet { itemsDidChange?() } }
    /// The items at the trailing end, first outermost.
    open var rightBarButtonItems: [UIBarButtonItem]? { didSet { itemsDidChange?() } }
    /// Whether the leading items follow the back button instead of replacing it. Default false.
    open var leftItemsSupplementBackButton = false { didSet { itemsDidChange?() } }
    /// Called when the items change (the bar showing this item shows them again).
    var itemsDidChange: (() -> Void)?
    /// This item's appearances, over the bar's while it is on top; nil (the default): the bar's.
    open var standardAppearance: UINavigationBarAppearance? { didSet { itemsDidChange?() } }
    open var scrollEdgeAppearance: UINavigationBarAppearance? { didSet { itemsDidChange?() } }
    open var compactAppearance: UINavigationBarAppearance? { didSet { itemsDidChange?() } }
    open var compactScrollEdgeAppearance: UINavigationBarAppearance? { didSet { itemsDidChange?() } }

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

/// UIKit's navigation bar as iOS 15 and later draw it: no background while the content is at its top
/// (the scroll-edge appearance), the chrome material with a hairline while content scrolls under it
/// (the standard appearance), or the appearances given; the top item's title centred in semibold 17 pt, and below the root a back button in
/// the tint colour (a chevron and the previous item's back title, "Back" when it has none). 44 points
/// high under the top of the safe area, and up to 52 more for a large title (`prefersLargeTitles`); in a
/// compact height (a phone in landscape) 32 points, with the compact appearances and no large title.
open class UINavigationBar: UIView {
    /// Points.
    static let height: CGFloat = 44
    /// Points: the bar's height in a compact height (a phone in landscape), as UIKit's.
    static let compactHeight: CGFloat = 32
    /// Whether the bar is in a compact height (the vertical size class is compact: a phone in landscape).
    var isCompactHeight: Bool { traitCollection.verticalSizeClass == .compact }
    /// Points: the bar's height without its large-title band (44, or 32 in a compact height).
    var barHeight: CGFloat { isCompactHeight ? Self.compactHeight : Self.height }

    private let titleLabel = UILabel()
    private let backLabel = UILabel()
    /// The views of the shown item's bar button items, leading then trailing, each with its item.
    private var leadingItems: [(UIBarButtonItem, UIView)] = []
    private var trailingItems: [(UIBarButtonItem, UIView)] = []
    private weak var shownController: UIViewController?
    private var shownStack: [UIViewController] = []
    private let chevron = BackChevronView(frame: CGRect(x: 0, y: 0, width: 13, height: 21))
    private var shownTitleView: UIView?
    /// What a title slide left to fade out (the old labels and items), and which slide it is: showing
    /// items again ends it (its ghosts go, and its late end changes nothing).
    private var slideLeftovers: [UIView] = []
    private var slideGeneration = 0

    /// Whether items show their titles large (34-pt bold, at the leading margin, in a 52-point band under
    /// the bar's 44 points) while their content is at its top; as the content scrolls the band collapses
    /// into the small title. Default false.
    open var prefersLargeTitles = false { didSet { largeTitlesDidChange?() } }
    /// Called when ``prefersLargeTitles`` or the shown items change (the navigation controller lays its
    /// bar out again).
    var largeTitlesDidChange: (() -> Void)?
    /// Points: the height of the large-title band under the bar's 44 points.
    static let largeTitleHeight: CGFloat = 52
    /// Points of the large-title band shown now (0…52; set by the navigation controller).
    var largeTitleExpansion: CGFloat = 0 { didSet { if largeTitleExpansion != oldValue { setNeedsLayout() } } }
    /// Whether the top item shows a large title (set by the navigation controller).
    var showsLargeTitle = false { didSet { if showsLargeTitle != oldValue { setNeedsLayout() } } }
    private let largeTitleBand = UIView()
    private let largeTitleLabel = UILabel()
    /// Kept; the appearances say what the background is.
    open var isTranslucent = true
    /// Over the standard appearance's background when set (UIKit's legacy customization).
    open var barTintColor: UIColor? { didSet { showAppearance() } }
    /// The appearance while content scrolls under the bar: by default the chrome material with a
    /// hairline.
    open var standardAppearance = UINavigationBarAppearance() {
        didSet { standardAppearance = UINavigationBarAppearance(barAppearance: standardAppearance); showAppearance() }
    }
    /// The appearance while the content is at its top (or does not scroll); nil (the default): the
    /// standard appearance without background or hairline, as iOS 15 and later draw it.
    open var scrollEdgeAppearance: UINavigationBarAppearance? {
        didSet { scrollEdgeAppearance = scrollEdgeAppearance.map(UINavigationBarAppearance.init(barAppearance:)); showAppearance() }
    }
    /// The appearance in a compact height (a phone in landscape) while content scrolls under the bar; nil
    /// (the default): the standard appearance.
    open var compactAppearance: UINavigationBarAppearance? {
        didSet { compactAppearance = compactAppearance.map(UINavigationBarAppearance.init(barAppearance:)); showAppearance() }
    }
    /// The appearance in a compact height while the content is at its top; nil (the default): the
    /// scroll-edge appearance.
    open var compactScrollEdgeAppearance: UINavigationBarAppearance? {
        didSet { compactScrollEdgeAppearance = compactScrollEdgeAppearance.map(UINavigationBarAppearance.init(barAppearance:)); showAppearance() }
    }
    /// Whether the content under the bar is at its scroll edge (set by the navigation controller).
    package var isAtScrollEdge = true { didSet { if isAtScrollEdge != oldValue { showAppearance() } } }
    private let background = BarBackgroundView(shadowAtBottom: true)
    private var titleAttributes: [NSAttributedString.Key: Any] = [:]
    private var titleOffset = UIOffset.zero

    /// The appearance shown now: the top item's, else the bar's, for the scroll edge or not; in a compact
    /// height the compact ones first (UIKit's order: a compact scroll-edge appearance falls back to the
    /// scroll-edge one, a compact one to the standard one).
    var shownAppearance: UINavigationBarAppearance {
        let item = shownController?.navigationItem
        let compact = isCompactHeight
        var standard = item?.standardAppearance ?? standardAppearance
        if compact, let compactStandard = item?.compactAppearance ?? compactAppearance { standard = compactStandard }
        if isAtScrollEdge {
            if compact, let edge = item?.compactScrollEdgeAppearance ?? compactScrollEdgeAppearance { return edge }
            return item?.scrollEdgeAppearance ?? scrollEdgeAppearance ?? standard.transparentCopy()
        }
        guard let barTintColor else { return standard }
        let tinted = UINavigationBarAppearance(barAppearance: standard)
        tinted.backgroundColor = barTintColor
        return tinted
    }

    func showAppearance() {
        let appearance = shownAppearance
        background.show(appearance)
        titleAttributes = appearance.titleTextAttributes
        titleOffset = appearance.titlePositionAdjustment
        titleLabel.font = titleAttributes[.font] as? UIFont ?? .systemFont(ofSize: 17, weight: .semibold)
        titleLabel.textColor = titleAttributes[.foregroundColor] as? UIColor ?? .label
        largeTitleLabel.font = appearance.largeTitleTextAttributes[.font] as? UIFont ?? .systemFont(ofSize: 34, weight: .bold)
        largeTitleLabel.textColor = appearance.largeTitleTextAttributes[.foregroundColor] as? UIColor ?? .label
        setNeedsLayout()
    }

    public override init(frame: CGRect) {
        super.init(frame: frame)
        titleLabel.font = .systemFont(ofSize: 17, weight: .semibold)
        titleLabel.textAlignment = .center
        backLabel.font = .systemFont(ofSize: 17)
        addSubview(background)
        largeTitleBand.clipsToBounds = true
        largeTitleBand.isUserInteractionEnabled = false
        largeTitleLabel.font = .systemFont(ofSize: 34, weight: .bold)
        largeTitleBand.addSubview(largeTitleLabel)
        addSubview(largeTitleBand)
        addSubview(titleLabel)
        addSubview(chevron)
        addSubview(backLabel)
    }

    public required init?(coder: NSCoder) { nil }

    /// The items of `stack`: the top's title, and a back button when there is a controller below it.
    func show(_ stack: [UIViewController]) {
        // A title slide under way ends here: its ghosts go and its labels stop where they belong.
        slideGeneration += 1
        for view in slideLeftovers { view.removeFromSuperview(); view.alpha = 1 }
        slideLeftovers = []
        for view in [titleLabel, backLabel, chevron, largeTitleLabel] as [UIView] { view.layer.removeAllAnimations() }
        if chevron.alpha != 1 { chevron.alpha = 1 }
        // (A slide scrubbed back to its start, a cancelled back swipe's, leaves the back button and a large
        // title transparent, and either grown or shrunk.)
        if backLabel.alpha != 1 { backLabel.alpha = 1 }
        if largeTitleLabel.alpha != 1 { largeTitleLabel.alpha = 1 }
        if backLabel.transform != .identity { backLabel.transform = .identity }
        if largeTitleLabel.transform != .identity { largeTitleLabel.transform = .identity }
        let top = stack.last
        let below = stack.count > 1 ? stack[stack.count - 2] : nil
        shownTitleView?.removeFromSuperview()
        shownTitleView = top?.navigationItem.titleView
        if let titleView = shownTitleView { addSubview(titleView) }
        titleLabel.text = shownTitleView == nil ? top.flatMap { $0.navigationItem.title ?? $0.title } : nil
        largeTitleLabel.text = top.flatMap { $0.navigationItem.title ?? $0.title }
        let item = top?.navigationItem
        let left = item?.leftBarButtonItems ?? [], right = item?.rightBarButtonItems ?? []
        let hasBack = below != nil && item?.hidesBackButton == false && (left.isEmpty || item?.leftItemsSupplementBackButton == true)
        backLabel.text = hasBack ? below.map { $0.navigationItem.backButtonTitle ?? $0.navigationItem.title ?? $0.title ?? "Back" } : nil
        backLabel.isHidden = !hasBack
        chevron.isHidden = !hasBack
        shownStack = stack
        shownController = top
        for (_, view) in leadingItems + trailingItems { view.removeFromSuperview() }
        leadingItems = left.map { ($0, $0.makeBarView { [weak self] in self?.shownController }) }
        trailingItems = right.map { ($0, $0.makeBarView { [weak self] in self?.shownController }) }
        for (_, view) in leadingItems + trailingItems { addSubview(view) }
        item?.itemsDidChange = { [weak self, weak top] in
            guard let self, let top, self.shownController === top else { return }
            self.show(self.shownStack)
        }
        showAppearance()
        largeTitlesDidChange?()
        setNeedsLayout()
        layoutIfNeeded()
    }

    /// Whether the bar shows `controller`'s items now.
    func isShowing(_ controller: UIViewController) -> Bool { shownController === controller }

    /// Whether the bar shows `controller` with a title or items it no longer has (changed while a move
    /// kept the bar from following).
    func showsOutdatedItems(of controller: UIViewController) -> Bool {
        guard shownController === controller else { return false }
        let item = controller.navigationItem
        if item.titleView !== shownTitleView { return true }
        if shownTitleView == nil, titleLabel.text != (item.title ?? controller.title) { return true }
        let shownItems = (leadingItems + trailingItems).map(\.0)
        let items = (item.leftBarButtonItems ?? []) + (item.rightBarButtonItems ?? [])
        return shownItems.count != items.count || zip(shownItems, items).contains { $0 !== $1 }
    }

    /// Shows `stack` as a push (or a pop) moves to it over `duration` seconds, as iOS's bar does: pushing,
    /// the old title slides to the back button's place and turns into the new back button while the new
    /// title comes in from the right and the old back button goes off to the left; popping, the reverse
    /// (the back button slides to the middle and turns into the title). Items cross-fade; the chevron fades
    /// in or out when only one side has a back button. A large title shown takes the small title's part:
    /// pushing, it shrinks into the back button's place as it moves there (the back button growing out of
    /// it), and the new large title comes in from the right in its band; popping to a large title, the
    /// back button grows into it. Titles that are views cross-fade instead. How far the incoming and
    /// outgoing titles travel (a third of the bar) is estimated.
    /// `largeTitleBand`: points of the new top's large-title band that will show (0: none, or collapsed
    /// by scrolled content).
    func slideTitles(to stack: [UIViewController], push: Bool, duration: TimeInterval, largeTitleBand bandHeight: CGFloat) {
        let largeTitle = bandHeight > 0
        let top = stack.last
        guard duration > 0, shownTitleView == nil, top?.navigationItem.titleView == nil else {
            UIView.transition(with: self, duration: max(0, duration), options: [.transitionCrossDissolve], animations: { self.show(stack) })
            return
        }
        // (Not animated where the slide starts inside an animation: alongside an interactive move's.)
        UIView.performWithoutAnimation { layoutIfNeeded() }
        // The old labels and items, kept to fade out as ghosts once the new ones are shown.
        struct LabelState { var text: String?; var font: UIFont; var color: UIColor; var frame: CGRect; var alignment: NSTextAlignment }
        func state(of label: UILabel) -> LabelState {
            LabelState(text: label.text, font: label.font, color: label.textColor, frame: label.frame, alignment: label.textAlignment)
        }
        // The old top's large title, where it shows (its band not collapsed), in the bar's coordinates.
        let oldLarge = showsLargeTitle && largeTitleBand.bounds.height > 0 && largeTitleLabel.text?.isEmpty == false
        var oldTitleState = state(of: titleLabel)
        if oldLarge {
            oldTitleState = state(of: largeTitleLabel)
            oldTitleState.frame = largeTitleLabel.frame.offsetBy(dx: 0, dy: largeTitleBand.frame.minY)
        }
        let hadBack = !backLabel.isHidden
        let oldBackState = hadBack ? state(of: backLabel) : nil
        let previousItems = (leadingItems + trailingItems).map(\.1)
        UIView.performWithoutAnimation { show(stack) }
        let generation = slideGeneration
        func ghost(_ state: LabelState) -> UILabel {
            let copy = UILabel(frame: state.frame)
            copy.text = state.text
            copy.font = state.font
            copy.textColor = state.color
            copy.textAlignment = state.alignment
            copy.isUserInteractionEnabled = false
            UIView.performWithoutAnimation { addSubview(copy) }
            slideLeftovers.append(copy)
            return copy
        }
        let oldTitle = ghost(oldTitleState)
        let oldBack = oldBackState.map(ghost)
        let newItems = (leadingItems + trailingItems).map(\.1)
        // show(_:) took the old items away: those not shown again come back to fade out where they were.
        let oldItems = previousItems.filter { old in !newItems.contains { $0 === old } }
        UIView.performWithoutAnimation { for view in oldItems { addSubview(view) } }
        slideLeftovers += oldItems
        let hasBack = !backLabel.isHidden
        let shift = bounds.width / 3
        let newTitleFrame = titleLabel.frame, newBackFrame = backLabel.frame
        // The new large title's place once its band is whole (the bar grows or shrinks over the move).
        let largeSize = largeTitleLabel.sizeThatFits(.zero)
        let largeMargin = UIScreen.systemMargin(forWidth: bounds.width)
        let side = horizontalSafeSides
        let newLargeFrame = CGRect(x: side.left + largeMargin, y: bandHeight - 4 - largeSize.height,
                                   width: min(largeSize.width, bounds.width - side.left - side.right - 2 * largeMargin), height: largeSize.height)
        let newLargeInBar = newLargeFrame.offsetBy(dx: 0, dy: barHeight)
        // A large title and the back button turn into each other: the back button's text is this much
        // the size of the large title's.
        let backToLarge = backLabel.font.pointSize / max(1, largeTitleLabel.font.pointSize)
        /// `view` scaled by `scale` with its text's leading edge at `x` and its middle at `midY`.
        func place(_ view: UIView, scale: CGFloat, x: CGFloat, midY: CGFloat) {
            view.transform = CGAffineTransform(scaleX: scale, y: scale)
            view.center = CGPoint(x: x + view.bounds.width * scale / 2, y: midY)
        }
        // Where each thing starts.
        UIView.performWithoutAnimation {
            titleLabel.alpha = 0
            backLabel.alpha = 0
            for view in newItems where !previousItems.contains(where: { $0 === view }) { view.alpha = 0 }
            if push {
                titleLabel.frame = newTitleFrame.offsetBy(dx: shift, dy: 0)
                if largeTitle {
                    largeTitleLabel.frame = newLargeFrame.offsetBy(dx: shift, dy: 0)
                    largeTitleLabel.alpha = 0
                }
                // The new back button starts as the old title, where it was (grown to a large title's size).
                if oldLarge {
                    place(backLabel, scale: 1 / backToLarge, x: oldTitle.frame.minX, midY: oldTitle.frame.midY)
                } else {
                    backLabel.frame = CGRect(x: oldTitle.frame.minX, y: newBackFrame.minY, width: newBackFrame.width, height: newBackFrame.height)
                }
            } else {
                // The new title starts as the old back button, where it was (shrunk to its size when large).
                if let oldBack {
                    titleLabel.frame = CGRect(x: oldBack.frame.minX, y: newTitleFrame.minY, width: newTitleFrame.width, height: newTitleFrame.height)
                    if largeTitle {
                        place(largeTitleLabel, scale: backToLarge, x: oldBack.frame.minX, midY: oldBack.frame.midY - barHeight)
                        largeTitleLabel.alpha = 0
                    }
                }
                backLabel.frame = newBackFrame.offsetBy(dx: -shift, dy: 0)
            }
            if hadBack != hasBack {
                chevron.isHidden = false
                chevron.alpha = hasBack ? 0 : 1
            }
        }
        UIView.animate(withDuration: duration, delay: 0, options: [.curveEaseInOut], animations: {
            self.titleLabel.frame = newTitleFrame
            self.titleLabel.alpha = largeTitle ? 0 : 1
            if largeTitle {
                self.largeTitleLabel.transform = .identity
                self.largeTitleLabel.frame = newLargeFrame
                self.largeTitleLabel.alpha = 1
            }
            self.backLabel.transform = .identity
            self.backLabel.frame = newBackFrame
            self.backLabel.alpha = 1
            for view in newItems { view.alpha = 1 }
            for view in oldItems { view.alpha = 0 }
            if hadBack != hasBack { self.chevron.alpha = hasBack ? 1 : 0 }
            oldTitle.alpha = 0
            oldBack?.alpha = 0
            if push {
                // The old title goes to the back button's place (a large one shrinking to its size); the old
                // back button off to the left.
                if oldLarge {
                    place(oldTitle, scale: backToLarge, x: newBackFrame.minX, midY: newBackFrame.midY)
                } else {
                    oldTitle.frame = CGRect(x: newBackFrame.minX, y: oldTitle.frame.minY, width: oldTitle.frame.width, height: oldTitle.frame.height)
                }
                oldBack?.frame = oldBack!.frame.offsetBy(dx: -shift, dy: 0)
            } else {
                // The old title goes off to the right; the old back button to the title's place (growing to
                // a large title's size there).
                oldTitle.frame = oldTitle.frame.offsetBy(dx: shift, dy: 0)
                if let oldBack {
                    if largeTitle {
                        place(oldBack, scale: 1 / backToLarge, x: newLargeInBar.minX, midY: newLargeInBar.midY)
                    } else {
                        oldBack.frame = CGRect(x: newTitleFrame.minX, y: oldBack.frame.minY, width: oldBack.frame.width, height: oldBack.frame.height)
                    }
                }
            }
        }, completion: { _ in
            // A later show(_:) has ended this slide already.
            guard self.slideGeneration == generation else { return }
            for view in self.slideLeftovers { view.removeFromSuperview(); view.alpha = 1 }
            self.slideLeftovers = []
            UIView.performWithoutAnimation {
                self.backLabel.transform = .identity
                self.largeTitleLabel.transform = .identity
                self.chevron.alpha = 1
                self.chevron.isHidden = !hasBack
            }
        })
    }

    open override func tintColorDidChange() {
        backLabel.textColor = tintColor
        chevron.setNeedsDisplay()
    }

    open override func layoutSubviews() {
        super.layoutSubviews()
        // The background reaches up under the status bar to the top of the screen.
        let above = window.map { convert(CGPoint.zero, to: $0).y } ?? 0
        background.frame = CGRect(x: 0, y: -max(0, above), width: bounds.width, height: bounds.height + max(0, above))
        backLabel.textColor = tintColor
        chevron.tint = tintColor
        // The items and the small title sit in the top 44 points; the large title in the band below, its
        // line's foot 4 points above the bar's bottom (estimated), clipped as the band collapses.
        let height = min(bounds.height, barHeight)
        let band = max(0, bounds.height - barHeight)
        largeTitleBand.isHidden = !showsLargeTitle
        largeTitleBand.frame = CGRect(x: 0, y: barHeight, width: bounds.width, height: band)
        // The content keeps out of the safe area's sides (a phone in landscape: the island's), as UIKit's.
        let side = horizontalSafeSides
        let large = largeTitleLabel.sizeThatFits(.zero)
        let largeMargin = UIScreen.systemMargin(forWidth: bounds.width)
        largeTitleLabel.frame = CGRect(x: side.left + largeMargin, y: band - 4 - large.height,
                                       width: min(large.width, bounds.width - side.left - side.right - 2 * largeMargin), height: large.height)
        // The small title shows once the large one has collapsed.
        titleLabel.alpha = showsLargeTitle && band > 0 ? 0 : 1
        chevron.frame = CGRect(x: side.left + 8, y: (height - 21) / 2, width: 13, height: 21)
        let backWidth = backLabel.isHidden ? 0 : min(backLabel.sizeThatFits(bounds.size).width, bounds.width / 3)
        backLabel.frame = CGRect(x: side.left + 26, y: 0, width: backWidth, height: height)
        // Bar button items from the system margin inwards, 8 points apart (after the back button when
        // they supplement it); a view of its own at its height, centred.
        let margin = UIScreen.systemMargin(forWidth: bounds.width), gap: CGFloat = 8
        func place(_ item: UIBarButtonItem, _ view: UIView, x: CGFloat, width: CGFloat) {
            let h = item.barHeight(of: view, barHeight: height)
            view.frame = CGRect(x: x, y: (height - h) / 2, width: width, height: h)
        }
        var x = side.left + (backLabel.isHidden ? margin : 26 + backWidth + gap)
        for (item, view) in leadingItems {
            let w = item.barWidth(of: view, in: bounds.size)
            place(item, view, x: x, width: w)
            x += w + gap
        }
        var right = bounds.width - side.right - margin
        for (item, view) in trailingItems {
            let w = item.barWidth(of: view, in: bounds.size)
            right -= w
            place(item, view, x: right, width: w)
            right -= gap
        }
        // The title is centred on the bar, moved only as far as the items beside it need.
        let leading = backLabel.isHidden && leadingItems.isEmpty ? side.left + margin : x
        let trailing = trailingItems.isEmpty ? bounds.width - side.right - margin : right
        let titleWidth = min(titleLabel.sizeThatFits(bounds.size).width, max(0, trailing - leading))
        let titleX = min(max(leading, (bounds.width - titleWidth) / 2), max(leading, trailing - titleWidth))
        titleLabel.frame = CGRect(x: titleX + titleOffset.horizontal, y: titleOffset.vertical, width: titleWidth, height: height)
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

/// A bar button item's system symbol, drawn in the tint colour in SF Symbols' style (strokes with
/// round ends): add's plus 17.7 points across with 1.7-point strokes, centred in a 22-point box, as
/// iOS draws it (measured on iOS's own picture, docs/ios-parity.md); stop's and close's crosses and
/// play's and pause's shapes the same size. Fades to 20 % while highlighted, as system buttons do.
final class BarSymbolButton: UIButton {
    /// The box the symbol is centred in (points).
    static let side: CGFloat = 22
    private let symbolView: BarSymbolView

    init(symbol: UIBarButtonItem.Symbol) {
        symbolView = BarSymbolView(symbol: symbol)
        super.init(type: .system)
        symbolView.isUserInteractionEnabled = false
        addSubview(symbolView)
    }

    required init?(coder: NSCoder) { nil }

    override func stateDidChange() {
        super.stateDidChange()
        symbolView.alpha = isHighlighted ? 0.2 : (isEnabled ? 1 : 0.35)
    }

    override func tintColorDidChange() {
        super.tintColorDidChange()
        symbolView.setNeedsDisplay()
    }

    override func layoutSubviews() {
        super.layoutSubviews()
        symbolView.frame = bounds
        symbolView.tint = tintColor
    }
}

final class BarSymbolView: UIView {
    let symbol: UIBarButtonItem.Symbol
    var tint: UIColor = .systemBlue { didSet { setNeedsDisplay() } }

    init(symbol: UIBarButtonItem.Symbol) {
        self.symbol = symbol
        super.init(frame: .zero)
        isOpaque = false
    }

    required init?(coder: NSCoder) { nil }

    override func draw(_ rect: CGRect) {
        let c = CGPoint(x: bounds.midX, y: bounds.midY)
        let stroke: CGFloat = 1.7, half: CGFloat = 17.7 / 2 - stroke / 2
        let path = UIBezierPath()
        path.lineWidth = stroke
        path.lineCapStyle = .round
        path.lineJoinStyle = .round
        switch symbol {
        case .plus:
            path.move(to: CGPoint(x: c.x - half, y: c.y)); path.addLine(to: CGPoint(x: c.x + half, y: c.y))
            path.move(to: CGPoint(x: c.x, y: c.y - half)); path.addLine(to: CGPoint(x: c.x, y: c.y + half))
            tint.setStroke()
            path.stroke()
        case .xmark:
            let d = half * 0.8
            path.move(to: CGPoint(x: c.x - d, y: c.y - d)); path.addLine(to: CGPoint(x: c.x + d, y: c.y + d))
            path.move(to: CGPoint(x: c.x + d, y: c.y - d)); path.addLine(to: CGPoint(x: c.x - d, y: c.y + d))
            tint.setStroke()
            path.stroke()
        case .xmarkCircle:
            // A filled grey circle with a darker cross, as iOS 13's close button.
            UIColor.systemGray5.setFill()
            UIBezierPath(ovalIn: CGRect(x: c.x - 11, y: c.y - 11, width: 22, height: 22)).fill()
            let d: CGFloat = 4
            path.lineWidth = 2
            path.move(to: CGPoint(x: c.x - d, y: c.y - d)); path.addLine(to: CGPoint(x: c.x + d, y: c.y + d))
            path.move(to: CGPoint(x: c.x + d, y: c.y - d)); path.addLine(to: CGPoint(x: c.x - d, y: c.y + d))
            UIColor.secondaryLabel.setStroke()
            path.stroke()
        case .play:
            let triangle = UIBezierPath()
            triangle.move(to: CGPoint(x: c.x - 6, y: c.y - 8))
            triangle.addLine(to: CGPoint(x: c.x + 8, y: c.y))
            triangle.addLine(to: CGPoint(x: c.x - 6, y: c.y + 8))
            triangle.close()
            tint.setFill()
            triangle.fill()
        case .plusCircle:
            // `UIButton(type: .contactAdd)`'s glyph as iOS draws it (measured on its picture at @3x): a ring
            // 21.7 points across with a 1.57-point stroke, a plus 10.4 points across with 1.53-point strokes.
            let ring = UIBezierPath(ovalIn: CGRect(x: c.x - 10.05, y: c.y - 10.05, width: 20.1, height: 20.1))
            ring.lineWidth = 1.57
            tint.setStroke()
            ring.stroke()
            let arm: CGFloat = 5.2 - 1.53 / 2
            path.lineWidth = 1.53
            path.move(to: CGPoint(x: c.x - arm, y: c.y)); path.addLine(to: CGPoint(x: c.x + arm, y: c.y))
            path.move(to: CGPoint(x: c.x, y: c.y - arm)); path.addLine(to: CGPoint(x: c.x, y: c.y + arm))
            path.stroke()
        case .pause:
            tint.setFill()
            UIBezierPath(roundedRect: CGRect(x: c.x - 6, y: c.y - 8, width: 4, height: 16), cornerRadius: 1).fill()
            UIBezierPath(roundedRect: CGRect(x: c.x + 2, y: c.y - 8, width: 4, height: 16), cornerRadius: 1).fill()
        }
    }
}
