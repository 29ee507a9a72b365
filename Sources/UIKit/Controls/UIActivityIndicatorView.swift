/// UIKit's activity indicator, as iOS 13 and later draw it: eight round-ended spokes, the leading one
/// opaque and each one behind it fainter, stepping round once every 0.8 s while animating.
///
/// `.medium` is 20 points across (spokes 2.5 × 7 points), `.large` 37 (5 × 12); the legacy styles draw
/// as `.medium` (`.white`, `.gray`) and `.large` (`.whiteLarge`) in their colours. The spokes' sizes, the
/// fade and the period are estimates (no published figures; docs/uikit.md, Controls). The turn is
/// Core Animation's endless keyframe animation of each spoke's opacity: like any endless layer
/// animation it does not keep the stage from idling, and it turns for as long as time passes.
open class UIActivityIndicatorView: UIView {
    /// The indicator's styles, with Apple's raw values.
    public enum Style: Int, Sendable {
        case whiteLarge = 0, white = 1, gray = 2
        case medium = 100, large = 101
    }

    enum Metrics {
        static let spokes = 8
        /// Seconds per turn (each spoke leads for a `period / spokes` step).
        static let period: TimeInterval = 0.8
        /// The faintest spoke's opacity (the one just behind the leading spoke's turn).
        static let faintest: Float = 0.3
    }

    private var spokeLayers: [CAShapeLayer] = []
    private var animating = false

    public init(style: Style) {
        self.style = style
        super.init(frame: .zero)
        setUp()
    }

    public override init(frame: CGRect) {
        style = .medium
        super.init(frame: frame)
        setUp()
    }

    public convenience init() { self.init(style: .medium) }

    public required init?(coder: NSCoder) { nil }

    private func setUp() {
        isOpaque = false
        isUserInteractionEnabled = false
        if frame.size == .zero { frame.size = intrinsicContentSize }
        rebuild()
        isHidden = hidesWhenStopped
    }

    /// Default `.medium` (UIKit's `init(frame:)` default).
    open var style: Style { didSet { rebuild(); invalidateIntrinsicContentSize() } }

    /// The spokes' colour; nil (the default) is the style's: the secondary label colour for `.medium` and
    /// `.large`, white for `.white` and `.whiteLarge`, grey for `.gray`.
    open var color: UIColor! {
        get { givenColor ?? styleColor }
        set { givenColor = newValue; rebuild() }
    }
    private var givenColor: UIColor?

    private var styleColor: UIColor {
        switch style {
        case .white, .whiteLarge: .white
        case .gray: .gray
        case .medium, .large: .secondaryLabel
        }
    }

    /// When true (the default), the indicator is hidden while stopped.
    open var hidesWhenStopped = true { didSet { if !animating { isHidden = hidesWhenStopped } } }

    open var isAnimating: Bool { animating }

    /// Starts the spokes' turn (and shows the indicator).
    open func startAnimating() {
        guard !animating else { return }
        animating = true
        isHidden = false
        addTurn()
    }

    /// Stops the turn (and hides the indicator when ``hidesWhenStopped``).
    open func stopAnimating() {
        guard animating else { return }
        animating = false
        for spoke in spokeLayers { spoke.removeAnimation(forKey: "turn") }
        if hidesWhenStopped { isHidden = true }
    }

    private var isLarge: Bool { style == .large || style == .whiteLarge }
    private var side: CGFloat { isLarge ? 37 : 20 }

    /// The spokes, drawn again for the style and colour; spoke 0 points up and leads.
    private func rebuild() {
        spokeLayers.forEach { $0.removeFromSuperlayer() }
        let width: CGFloat = isLarge ? 5 : 2.5, length: CGFloat = isLarge ? 12 : 7
        let fill = color.resolvedColor(with: traitCollection).cgColor
        spokeLayers = (0..<Metrics.spokes).map { index in
            let spoke = CAShapeLayer()
            spoke.frame = CGRect(x: (bounds.width - side) / 2, y: (bounds.height - side) / 2, width: side, height: side)
            let path = UIBezierPath(roundedRect: CGRect(x: side / 2 - width / 2, y: 0, width: width, height: length), cornerRadius: width / 2)
            let angle = 2 * CGFloat.pi * CGFloat(index) / CGFloat(Metrics.spokes)
            path.apply(CGAffineTransform(translationX: -side / 2, y: -side / 2).concatenating(CGAffineTransform(rotationAngle: angle))
                .concatenating(CGAffineTransform(translationX: side / 2, y: side / 2)))
            spoke.path = path.cgPath
            spoke.fillColor = fill
            spoke.opacity = opacity(stepsBehind: (Metrics.spokes - index) % Metrics.spokes)
            layer.addSublayer(spoke)
            return spoke
        }
        if animating { addTurn() }
    }

    /// The opacity of the spoke `steps` behind the leading one.
    private func opacity(stepsBehind steps: Int) -> Float {
        1 - (1 - Metrics.faintest) * Float(steps) / Float(Metrics.spokes - 1)
    }

    /// Each spoke steps through the fade, a step after the one before it: the lead goes round clockwise.
    private func addTurn() {
        for (index, spoke) in spokeLayers.enumerated() {
            let turn = CAKeyframeAnimation(keyPath: "opacity")
            // The lead is at spoke s after s steps: spoke `index` is (s - index) steps behind it.
            let values = (0...Metrics.spokes).map { s in opacity(stepsBehind: ((s - index) % Metrics.spokes + Metrics.spokes) % Metrics.spokes) }
            turn.values = values.map { NSNumber(value: $0) }
            // Discrete: each value holds for a step; the ninth (the first again) closes the turn.
            turn.calculationMode = .discrete
            turn.duration = Metrics.period
            turn.keyTimes = (0...Metrics.spokes).map { NSNumber(value: Double($0) / Double(Metrics.spokes)) }
            turn.repeatCount = .infinity
            spoke.add(turn, forKey: "turn")
        }
    }

    open override func layoutSubviews() {
        super.layoutSubviews()
        for spoke in spokeLayers { spoke.frame = CGRect(x: (bounds.width - side) / 2, y: (bounds.height - side) / 2, width: side, height: side) }
    }

    open override func traitCollectionDidChange(_ previousTraitCollection: UITraitCollection?) {
        super.traitCollectionDidChange(previousTraitCollection)
        rebuild()
    }

    /// Points: 20 × 20 for `.medium`, 37 × 37 for `.large`.
    open override var intrinsicContentSize: CGSize { CGSize(width: side, height: side) }
    open override func sizeThatFits(_ size: CGSize) -> CGSize { intrinsicContentSize }
}
