/// UIKit's page control, as iOS 14 and later draw it: a row of 7.5-point dots 53/3 points apart (centre
/// to centre), centred in the bounds, the current page's in ``currentPageIndicatorTintColor``. A tap on
/// either side of the current page's dot moves one page that way and sends `.valueChanged`; setting
/// ``currentPage`` sends nothing, as UIKit's.
///
/// The dot and its spacing are measured on iOS 17's drawing; the default colours (white, and white at
/// 30 %, made for pages over pictures) and `.prominent`'s capsule are estimates (docs/uikit.md, Controls).
/// Indicator images are kept, not drawn (dots are drawn instead).
open class UIPageControl: UIControl {
    /// The background behind the dots, with Apple's raw values.
    public enum BackgroundStyle: Int, Sendable { case automatic = 0, prominent = 1, minimal = 2 }
    /// Whether the user is tapping (discrete) or scrubbing (continuous), with Apple's raw values.
    public enum InteractionState: Int, Sendable { case none = 0, discrete = 1, continuous = 2 }
    /// iOS 16's layout directions, with Apple's raw values.
    public enum Direction: Int, Sendable { case natural = 0, leftToRight = 1, rightToLeft = 2, topToBottom = 3, bottomToTop = 4 }

    enum Metrics {
        static let dotDiameter: CGFloat = 7.5
        static let pitch: CGFloat = 53.0 / 3
        /// Height, and the room beside the first and last dots, when sized to fit.
        static let height: CGFloat = 26
        static let sidePadding: CGFloat = 11.5
    }

    private let capsule = UIView()
    private var dots: [UIView] = []
    private var images: [Int: UIImage] = [:]
    private var currentImages: [Int: UIImage] = [:]

    public override init(frame: CGRect) {
        super.init(frame: frame)
        isOpaque = false
        capsule.isUserInteractionEnabled = false
        addSubview(capsule)
        refresh()
    }

    public convenience init() { self.init(frame: .zero) }

    public required init?(coder: NSCoder) { nil }

    /// Default 0.
    open var numberOfPages = 0 {
        didSet {
            numberOfPages = max(0, numberOfPages)
            currentPage = min(currentPage, max(0, numberOfPages - 1))
            rebuild()
        }
    }

    /// 0…``numberOfPages`` - 1 (clamped). Default 0.
    open var currentPage = 0 {
        didSet {
            let clamped = min(max(0, currentPage), max(0, numberOfPages - 1))
            if clamped != currentPage { currentPage = clamped }
            refresh()
        }
    }

    /// When true, a control with one page draws nothing (its `isHidden` stays as set). Default false.
    open var hidesForSinglePage = false { didSet { refresh() } }
    /// The other pages' dots; nil is white at 30 %.
    open var pageIndicatorTintColor: UIColor? { didSet { refresh() } }
    /// The current page's dot; nil is white.
    open var currentPageIndicatorTintColor: UIColor? { didSet { refresh() } }
    /// Default `.automatic` (no background while not touched); `.prominent` draws a dark capsule behind
    /// the dots.
    open var backgroundStyle = BackgroundStyle.automatic { didSet { refresh() } }
    /// Default true. Scrubbing is not simulated: a drag over the control is a tap where it ends.
    open var allowsContinuousInteraction = true
    open private(set) var interactionState = InteractionState.none
    /// Default `.natural` (left to right here).
    open var direction = Direction.natural { didSet { setNeedsLayout() } }
    /// Kept; dots are drawn (noted when set).
    open var preferredIndicatorImage: UIImage? { didSet { if preferredIndicatorImage != nil { NotDrawn.note("UIPageControl indicator images (dots drawn)") } } }
    open var preferredCurrentPageIndicatorImage: UIImage? { didSet { if preferredCurrentPageIndicatorImage != nil { NotDrawn.note("UIPageControl indicator images (dots drawn)") } } }
    /// Deprecated in iOS 14 and kept: the dots follow ``currentPage`` at once.
    open var defersCurrentPageDisplay = false

    open func setIndicatorImage(_ image: UIImage?, forPage page: Int) {
        images[page] = image
        if image != nil { NotDrawn.note("UIPageControl indicator images (dots drawn)") }
    }

    open func indicatorImage(forPage page: Int) -> UIImage? { images[page] }
    open func setCurrentPageIndicatorImage(_ image: UIImage?, forPage page: Int) {
        currentImages[page] = image
        if image != nil { NotDrawn.note("UIPageControl indicator images (dots drawn)") }
    }
    open func currentPageIndicatorImage(forPage page: Int) -> UIImage? { currentImages[page] }
    open func updateCurrentPageDisplay() { refresh() }

    /// Points: the dots of `pageCount` pages with room beside them, 26 high.
    open func size(forNumberOfPages pageCount: Int) -> CGSize {
        let count = CGFloat(max(0, pageCount))
        return CGSize(width: count > 0 ? count * Metrics.pitch + 2 * Metrics.sidePadding : 0, height: Metrics.height)
    }

    open override var intrinsicContentSize: CGSize { size(forNumberOfPages: numberOfPages) }
    open override func sizeThatFits(_ size: CGSize) -> CGSize { self.size(forNumberOfPages: numberOfPages) }

    private func rebuild() {
        dots.forEach { $0.removeFromSuperview() }
        dots = (0..<numberOfPages).map { _ in
            let dot = UIView()
            dot.isUserInteractionEnabled = false
            dot.layer.cornerRadius = Metrics.dotDiameter / 2
            addSubview(dot)
            return dot
        }
        invalidateIntrinsicContentSize()
        refresh()
    }

    private func refresh() {
        for (page, dot) in dots.enumerated() {
            dot.backgroundColor = page == currentPage ? currentPageIndicatorTintColor ?? .white
                : pageIndicatorTintColor ?? UIColor(white: 1, alpha: 0.3)
        }
        capsule.backgroundColor = backgroundStyle == .prominent ? UIColor(white: 0, alpha: 0.2) : nil
        // Hidden for a single page by its contents, so that the view's own isHidden stays the user's.
        let single = hidesForSinglePage && numberOfPages <= 1
        for dot in dots { dot.isHidden = single }
        capsule.isHidden = single
        setNeedsLayout()
    }

    open override func traitCollectionDidChange(_ previousTraitCollection: UITraitCollection?) {
        super.traitCollectionDidChange(previousTraitCollection)
        refresh()
    }

    /// The x of page `page`'s dot centre (points).
    private func dotCenterX(_ page: Int) -> CGFloat {
        let first = bounds.midX - CGFloat(numberOfPages - 1) * Metrics.pitch / 2
        let index = direction == .rightToLeft ? numberOfPages - 1 - page : page
        return first + CGFloat(index) * Metrics.pitch
    }

    open override func layoutSubviews() {
        super.layoutSubviews()
        let d = Metrics.dotDiameter
        for (page, dot) in dots.enumerated() {
            dot.frame = CGRect(x: dotCenterX(page) - d / 2, y: bounds.midY - d / 2, width: d, height: d)
        }
        let fitted = size(forNumberOfPages: numberOfPages)
        capsule.frame = CGRect(x: bounds.midX - fitted.width / 2, y: bounds.midY - fitted.height / 2, width: fitted.width, height: fitted.height)
        capsule.layer.cornerRadius = fitted.height / 2
    }

    /// A lift to one side of the current page's dot moves one page that way (`.valueChanged`).
    open override func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent?) {
        if isEnabled, numberOfPages > 1, let touch = touches.first, bounds.insetBy(dx: -70, dy: -70).contains(touch.location(in: self)) {
            let towardEnd = (touch.location(in: self).x > dotCenterX(currentPage)) != (direction == .rightToLeft)
            let next = min(max(0, currentPage + (towardEnd ? 1 : -1)), numberOfPages - 1)
            if next != currentPage {
                interactionState = .discrete
                currentPage = next
                sendActions(for: .valueChanged)
                interactionState = .none
            }
        }
        super.touchesEnded(touches, with: event)
    }
}
