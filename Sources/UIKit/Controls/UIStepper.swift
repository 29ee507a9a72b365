/// UIKit's stepper, as iOS 13 and later draw it: a fixed 94 × 32-point rounded plate in a light fill,
/// split by an 18-point divider into a minus half and a plus half, each glyph 13.5 points across with
/// 1.5-point strokes in the label colour, dimmed to half at its limit. A touch on a half steps the value
/// at once (`.valueChanged`), as UIKit's; with ``autorepeat`` a held touch repeats it (on the stage's
/// clock, at 0.5 s, then every 0.1 s).
open class UIStepper: UIControl {
    /// iOS 13 and later's measurements (points), from iOS's drawing (docs/uikit.md, Controls).
    enum Metrics {
        static let size = CGSize(width: 94, height: 32)
        static let cornerRadius: CGFloat = 9
        static let dividerHeight: CGFloat = 18
        static let glyphLength: CGFloat = 13.5
        static let glyphStroke: CGFloat = 1.5
        /// Seconds before a held touch repeats, and between repeats (estimated).
        static let repeatDelay: TimeInterval = 0.5
        static let repeatInterval: TimeInterval = 0.1
    }

    private let plate = UIView()
    private let divider = UIView()
    private let minus = StepperGlyph(plus: false)
    private let plus = StepperGlyph(plus: true)
    /// The half a touch is holding: -1 minus, +1 plus, 0 none.
    private var held = 0
    private var repeatTimer: Timer?

    public override init(frame: CGRect) {
        super.init(frame: CGRect(origin: frame.origin, size: Metrics.size))
        isOpaque = false
        for view in [plate, divider, minus, plus] as [UIView] {
            view.isUserInteractionEnabled = false
            addSubview(view)
        }
        plate.frame = CGRect(origin: .zero, size: Metrics.size)
        plate.layer.cornerRadius = Metrics.cornerRadius
        divider.frame = CGRect(x: (Metrics.size.width - 1) / 2, y: (Metrics.size.height - Metrics.dividerHeight) / 2, width: 1, height: Metrics.dividerHeight)
        minus.frame = CGRect(x: 0, y: 0, width: Metrics.size.width / 2, height: Metrics.size.height)
        plus.frame = CGRect(x: Metrics.size.width / 2, y: 0, width: Metrics.size.width / 2, height: Metrics.size.height)
        refresh()
    }

    public convenience init() { self.init(frame: .zero) }

    public required init?(coder: NSCoder) { nil }

    /// The value, kept within ``minimumValue``…``maximumValue``. Default 0. Setting it sends no event.
    open var value: Double = 0 {
        didSet {
            guard value.isFinite else { value = oldValue; return }
            let clamped = min(max(value, minimumValue), maximumValue)
            if clamped != value { value = clamped }
            refresh()
        }
    }

    /// Default 0; a minimum above the maximum is ignored, as UIKit raises for it.
    open var minimumValue: Double = 0 {
        didSet {
            if minimumValue > maximumValue || !minimumValue.isFinite { minimumValue = oldValue }
            value = min(max(value, minimumValue), maximumValue)
        }
    }

    /// Default 100.
    open var maximumValue: Double = 100 {
        didSet {
            if maximumValue < minimumValue || !maximumValue.isFinite { maximumValue = oldValue }
            value = min(max(value, minimumValue), maximumValue)
        }
    }

    /// Default 1; a step of 0 or less is ignored.
    open var stepValue: Double = 1 { didSet { if !(stepValue > 0) || !stepValue.isFinite { stepValue = oldValue } } }
    /// When true, stepping past one end goes to the other. Default false.
    open var wraps = false { didSet { refresh() } }
    /// When true, a held touch repeats the step. Default true.
    open var autorepeat = true
    /// When true, `.valueChanged` is sent at each repeat; otherwise once when the touch ends. Default true.
    open var isContinuous = true

    /// Accepted and kept; not drawn (noted).
    open func setIncrementImage(_ image: UIImage?, for state: UIControl.State) { if image != nil { NotDrawn.note("UIStepper increment and decrement images") } }
    open func setDecrementImage(_ image: UIImage?, for state: UIControl.State) { if image != nil { NotDrawn.note("UIStepper increment and decrement images") } }
    open func setBackgroundImage(_ image: UIImage?, for state: UIControl.State) { if image != nil { NotDrawn.note("UIStepper background images") } }
    open func setDividerImage(_ image: UIImage?, forLeftSegmentState leftState: UIControl.State, rightSegmentState rightState: UIControl.State) {
        if image != nil { NotDrawn.note("UIStepper divider images") }
    }

    private var canDecrement: Bool { wraps || value > minimumValue }
    private var canIncrement: Bool { wraps || value < maximumValue }

    private func refresh() {
        plate.backgroundColor = .tertiarySystemFill
        divider.backgroundColor = UIColor(dynamicProvider: { $0.userInterfaceStyle == .dark ? UIColor(white: 1, alpha: 0.1) : UIColor(white: 0, alpha: 0.1) })
        // A half at its limit is dimmed to half; a held half darkens behind its glyph.
        minus.alpha = isEnabled && canDecrement ? 1 : 0.5
        plus.alpha = isEnabled && canIncrement ? 1 : 0.5
        minus.isPressed = held < 0
        plus.isPressed = held > 0
    }

    override func stateDidChange() { refresh() }

    open override func traitCollectionDidChange(_ previousTraitCollection: UITraitCollection?) {
        super.traitCollectionDidChange(previousTraitCollection)
        refresh()
        minus.setNeedsDisplay()
        plus.setNeedsDisplay()
    }

    /// The size is fixed: a new frame keeps its origin at 94 × 32 points.
    open override var frame: CGRect {
        get { super.frame }
        set { super.frame = CGRect(origin: newValue.origin, size: Metrics.size) }
    }

    open override func sizeThatFits(_ size: CGSize) -> CGSize { Metrics.size }
    open override var intrinsicContentSize: CGSize { Metrics.size }

    /// Steps once towards `direction` (-1 or +1); true when the value changed.
    @discardableResult
    private func step(_ direction: Int) -> Bool {
        let old = value
        var next = value + Double(direction) * stepValue
        if next > maximumValue { next = wraps ? minimumValue : maximumValue }
        if next < minimumValue { next = wraps ? maximumValue : minimumValue }
        value = next
        return value != old
    }

    // MARK: Touches

    open override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent?) {
        super.touchesBegan(touches, with: event)
        guard isEnabled, let touch = touches.first else { return }
        let direction = touch.location(in: self).x < bounds.midX ? -1 : 1
        guard direction < 0 ? canDecrement : canIncrement else { return }
        held = direction
        if step(direction), isContinuous { sendActions(for: .valueChanged) }
        refresh()
        guard autorepeat else { return }
        // Held, it steps again at 0.5 s and then every 0.1 s.
        repeatTimer = Timer.scheduledTimer(withTimeInterval: Metrics.repeatDelay, repeats: false) { [weak self] _ in
            self?.repeatStep()
            self?.repeatTimer = Timer.scheduledTimer(withTimeInterval: Metrics.repeatInterval, repeats: true) { [weak self] _ in self?.repeatStep() }
        }
    }

    private func repeatStep() {
        guard held != 0 else { return }
        if step(held), isContinuous { sendActions(for: .valueChanged) }
    }

    open override func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent?) {
        endHold(sendingChange: !isContinuous && held != 0)
        super.touchesEnded(touches, with: event)
    }

    open override func touchesCancelled(_ touches: Set<UITouch>, with event: UIEvent?) {
        endHold(sendingChange: false)
        super.touchesCancelled(touches, with: event)
    }

    private func endHold(sendingChange: Bool) {
        repeatTimer?.invalidate()
        repeatTimer = nil
        held = 0
        refresh()
        if sendingChange { sendActions(for: .valueChanged) }
    }
}

/// One half of a stepper: its minus or plus in the label colour, on a darker fill while held.
final class StepperGlyph: UIView {
    let isPlus: Bool
    var isPressed = false { didSet { if isPressed != oldValue { setNeedsDisplay() } } }

    init(plus: Bool) {
        isPlus = plus
        super.init(frame: .zero)
        isOpaque = false
    }

    required init?(coder: NSCoder) { nil }

    override func draw(_ rect: CGRect) {
        if isPressed {
            UIColor.tertiarySystemFill.setFill()
            let corners: UIRectCorner = isPlus ? [.topRight, .bottomRight] : [.topLeft, .bottomLeft]
            UIBezierPath(roundedRect: bounds, byRoundingCorners: corners,
                         cornerRadii: CGSize(width: UIStepper.Metrics.cornerRadius, height: UIStepper.Metrics.cornerRadius)).fill()
        }
        let c = CGPoint(x: bounds.midX, y: bounds.midY)
        let half = UIStepper.Metrics.glyphLength / 2, stroke = UIStepper.Metrics.glyphStroke
        // One path, filled once (non-zero), so the plus's crossing is not covered twice at its edges.
        let glyph = UIBezierPath(rect: CGRect(x: c.x - half, y: c.y - stroke / 2, width: 2 * half, height: stroke))
        if isPlus { glyph.append(UIBezierPath(rect: CGRect(x: c.x - stroke / 2, y: c.y - half, width: stroke, height: 2 * half))) }
        UIColor.label.setFill()
        glyph.fill()
    }
}
