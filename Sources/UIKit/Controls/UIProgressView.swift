/// UIKit's progress view, as iOS 14 and later draw it: a 4-point track with round ends in the system
/// fill, and the progress from its start in the tint colour, round-ended too. The bar is centred
/// vertically in the bounds at that height whatever their height, as UIKit's (scale the view to make it
/// thicker). `.bar` draws square ends.
open class UIProgressView: UIView {
    /// The styles, with Apple's raw values.
    public enum Style: Int, Sendable { case `default` = 0, bar = 1 }

    enum Metrics {
        static let height: CGFloat = 4
        /// Seconds `setProgress(_:animated: true)` takes (estimated).
        static let animationDuration: TimeInterval = 0.25
    }

    private let track = UIView()
    private let fill = UIView()
    private var current: Float = 0

    public init(progressViewStyle style: Style) {
        progressViewStyle = style
        super.init(frame: .zero)
        setUp()
    }

    public override init(frame: CGRect) {
        progressViewStyle = .default
        super.init(frame: frame)
        setUp()
    }

    public required init?(coder: NSCoder) { nil }

    private func setUp() {
        isOpaque = false
        track.isUserInteractionEnabled = false
        track.clipsToBounds = true
        fill.isUserInteractionEnabled = false
        addSubview(track)
        track.addSubview(fill)
        if frame.size.height == 0 { frame.size.height = Metrics.height }
        refresh()
    }

    open var progressViewStyle: Style { didSet { setNeedsLayout() } }

    /// 0…1 (clamped). Default 0.
    open var progress: Float {
        get { current }
        set { setProgress(newValue, animated: false) }
    }

    /// The progress's colour; nil is the tint colour.
    open var progressTintColor: UIColor? { didSet { refresh() } }
    /// The track's colour; nil is the system fill.
    open var trackTintColor: UIColor? { didSet { refresh() } }
    /// Accepted and kept; not drawn (noted).
    open var progressImage: UIImage? { didSet { if progressImage != nil { NotDrawn.note("UIProgressView images") } } }
    open var trackImage: UIImage? { didSet { if trackImage != nil { NotDrawn.note("UIProgressView images") } } }
    /// When set, the bar shows its `fractionCompleted`, read when it is set and at each layout pass.
    open var observedProgress: Progress? { didSet { if let observedProgress { progress = Float(observedProgress.fractionCompleted) } } }

    /// Sets the progress (clamped to 0…1); animated, the bar grows over 0.25 s (or the enclosing
    /// animation block's duration).
    open func setProgress(_ progress: Float, animated: Bool) {
        guard progress.isFinite else { return }
        current = min(max(progress, 0), 1)
        setNeedsLayout()
        layOutNow(animatedOver: animated ? Metrics.animationDuration : nil)
    }

    private func refresh() {
        track.backgroundColor = trackTintColor ?? .systemFill
        fill.backgroundColor = progressTintColor ?? tintColor
    }

    open override func tintColorDidChange() { refresh() }

    open override func traitCollectionDidChange(_ previousTraitCollection: UITraitCollection?) {
        super.traitCollectionDidChange(previousTraitCollection)
        refresh()
    }

    open override func layoutSubviews() {
        super.layoutSubviews()
        if let observedProgress { current = min(max(Float(observedProgress.fractionCompleted), 0), 1) }
        track.frame = CGRect(x: 0, y: (bounds.height - Metrics.height) / 2, width: bounds.width, height: Metrics.height)
        let rounded = progressViewStyle == .default
        track.layer.cornerRadius = rounded ? Metrics.height / 2 : 0
        fill.frame = CGRect(x: 0, y: 0, width: bounds.width * CGFloat(current), height: Metrics.height)
        fill.layer.cornerRadius = rounded ? min(Metrics.height / 2, fill.bounds.width / 2) : 0
    }

    /// Points: 4 high; no width of its own.
    open override var intrinsicContentSize: CGSize { CGSize(width: UIView.noIntrinsicMetric, height: Metrics.height) }
    open override func sizeThatFits(_ size: CGSize) -> CGSize { CGSize(width: size.width, height: Metrics.height) }
}
