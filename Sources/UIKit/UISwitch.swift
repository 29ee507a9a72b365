/// UIKit's switch, as iOS 13 and later draw it: a 51 × 31-point capsule, `onTintColor` (system green) when
/// on and a light fill when off, and a white 27-point thumb with a soft shadow that slides to the side
/// it is on. A tap toggles it (animated) and sends `.valueChanged`; ``setOn(_:animated:)`` does not send
/// it, as UIKit's.
///
/// The size is fixed, as UIKit's: a frame of another size keeps its origin and is drawn at 51 × 31.
open class UISwitch: UIControl {
    /// Points: UIKit's switch size since iOS 7.
    static let size = CGSize(width: 51, height: 31)
    /// Points: the thumb's diameter, and its inset from the track's edge.
    static let thumbDiameter: CGFloat = 27
    static let thumbInset: CGFloat = 2
    /// Seconds a tap's toggle takes (not published; the thumb's slide as measured by eye).
    static let toggleDuration: TimeInterval = 0.25

    private let track = UIView(frame: CGRect(origin: .zero, size: UISwitch.size))
    private let thumb = UIView(frame: CGRect(x: UISwitch.thumbInset, y: UISwitch.thumbInset, width: UISwitch.thumbDiameter, height: UISwitch.thumbDiameter))
    private var on = false

    public override init(frame: CGRect) {
        super.init(frame: CGRect(origin: frame.origin, size: UISwitch.size))
        track.isUserInteractionEnabled = false
        track.layer.cornerRadius = UISwitch.size.height / 2
        thumb.isUserInteractionEnabled = false
        thumb.backgroundColor = .white
        thumb.layer.cornerRadius = UISwitch.thumbDiameter / 2
        thumb.layer.shadowColor = UIColor.black.cgColor
        thumb.layer.shadowOpacity = 0.15
        thumb.layer.shadowOffset = CGSize(width: 0, height: 3)
        thumb.layer.shadowRadius = 4
        addSubview(track)
        addSubview(thumb)
        show()
    }

    public convenience init() { self.init(frame: .zero) }

    public required init?(coder: NSCoder) { nil }

    /// Whether it is on. Setting it is `setOn(_:animated: false)`.
    open var isOn: Bool {
        get { on }
        set { setOn(newValue, animated: false) }
    }

    /// The track's colour when on; nil is system green.
    open var onTintColor: UIColor? { didSet { show() } }
    /// The thumb's colour; nil is white.
    open var thumbTintColor: UIColor? { didSet { show() } }
    /// Accepted; iOS 13 and later draw no images in a switch.
    open var onImage: UIImage?
    open var offImage: UIImage?
    open var title: String?
    /// `.automatic`, `.checkbox` and `.sliding` (Mac styles) all draw the sliding switch.
    open var preferredStyle = Style.automatic
    open var style: Style { .sliding }

    public enum Style: Int, Sendable { case automatic = 0, checkbox, sliding }

    /// Turns it on or off; animated, the thumb slides and the track's colour fades over 0.25 s (or the
    /// enclosing animation block's duration). Does not send `.valueChanged`.
    open func setOn(_ on: Bool, animated: Bool) {
        guard on != self.on else { return }
        self.on = on
        if animated { UIView.animate(withDuration: UISwitch.toggleDuration, delay: 0, options: [.curveEaseInOut, .beginFromCurrentState], animations: show) } else { UIView.performWithoutAnimation(show) }
    }

    private func show() {
        track.backgroundColor = on ? (onTintColor ?? .systemGreen) : .secondarySystemFill
        thumb.backgroundColor = thumbTintColor ?? .white
        let x = on ? UISwitch.size.width - UISwitch.thumbInset - UISwitch.thumbDiameter : UISwitch.thumbInset
        thumb.frame = CGRect(x: x, y: UISwitch.thumbInset, width: UISwitch.thumbDiameter, height: UISwitch.thumbDiameter)
    }

    /// The size is fixed: a new frame keeps its origin at 51 × 31 points.
    open override var frame: CGRect {
        get { super.frame }
        set { super.frame = CGRect(origin: newValue.origin, size: UISwitch.size) }
    }

    open override func sizeThatFits(_ size: CGSize) -> CGSize { UISwitch.size }
    open override var intrinsicContentSize: CGSize { UISwitch.size }

    /// A tap toggles it (animated) and sends `.valueChanged`, then the control's touch-up events.
    open override func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent?) {
        if isEnabled, let touch = touches.first, bounds.insetBy(dx: -70, dy: -70).contains(touch.location(in: self)) {
            setOn(!on, animated: true)
            sendActions(for: .valueChanged)
        }
        super.touchesEnded(touches, with: event)
    }
}
