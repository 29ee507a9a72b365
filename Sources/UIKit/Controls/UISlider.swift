/// UIKit's slider, as iOS 14 and later draw it: a 4-point rounded track 3 points in from each end, the
/// part below the value in the tint colour and the rest in the system fill, under a white 27-point thumb
/// with a soft shadow. Dragging the thumb changes the value (`.valueChanged` while it moves, or once at
/// the end when ``isContinuous`` is false); a tap off the thumb does nothing, as UIKit's.
///
/// Measured on iOS 17's drawing (docs/uikit.md, Controls): 34 points high; the thumb's centre runs from
/// 14 points in to 14 points from the end and sits 1.5 points above the track's centre line.
open class UISlider: UIControl {
    enum Metrics {
        static let height: CGFloat = 34
        static let trackHeight: CGFloat = 4
        static let trackInset: CGFloat = 3
        /// The thumb's box (its centre's travel ends half of it from each end) and its visible disc.
        static let thumbBox: CGFloat = 28
        static let thumbDiameter: CGFloat = 27
        static let thumbRise: CGFloat = 1.5
        /// Seconds `setValue(_:animated: true)` takes (estimated).
        static let animationDuration: TimeInterval = 0.25
    }

    private let minimumTrack = UIView()
    private let maximumTrack = UIView()
    private let thumb = UIView()
    /// Under the thumb, casting the tight part of its shadow (the thumb casts the soft part): iOS's thumb
    /// has both, dark just under its edge and fading over some 8 points.
    private let thumbContact = UIView()
    private let minimumImageView = UIImageView()
    private let maximumImageView = UIImageView()
    private var currentValue: Float = 0
    /// While dragging: the touch's x minus the thumb's centre when it began.
    private var grabOffset: CGFloat?

    public override init(frame: CGRect) {
        super.init(frame: frame)
        isOpaque = false
        for view in [maximumTrack, minimumTrack, minimumImageView, maximumImageView, thumbContact, thumb] as [UIView] {
            view.isUserInteractionEnabled = false
            addSubview(view)
        }
        thumb.layer.shadowColor = UIColor.black.cgColor
        thumb.layer.shadowOpacity = 0.15
        thumb.layer.shadowOffset = CGSize(width: 0, height: 3)
        thumb.layer.shadowRadius = 8
        thumb.layer.borderWidth = 0.5
        thumb.layer.borderColor = UIColor.black.withAlphaComponent(0.04).cgColor
        thumbContact.backgroundColor = .white
        thumbContact.layer.shadowColor = UIColor.black.cgColor
        thumbContact.layer.shadowOpacity = 0.12
        thumbContact.layer.shadowOffset = CGSize(width: 0, height: 1.5)
        thumbContact.layer.shadowRadius = 2
        refresh()
    }

    public convenience init() { self.init(frame: .zero) }

    public required init?(coder: NSCoder) { nil }

    /// Within ``minimumValue``…``maximumValue``. Default 0.
    open var value: Float {
        get { currentValue }
        set { setValue(newValue, animated: false) }
    }

    /// Default 0.
    open var minimumValue: Float = 0 {
        didSet {
            if maximumValue < minimumValue { maximumValue = minimumValue }
            setValue(currentValue, animated: false)
        }
    }

    /// Default 1.
    open var maximumValue: Float = 1 {
        didSet {
            if minimumValue > maximumValue { minimumValue = maximumValue }
            setValue(currentValue, animated: false)
        }
    }

    /// When true (the default), `.valueChanged` is sent while the thumb moves; otherwise when it is let go.
    open var isContinuous = true

    /// The track below the value; nil is the tint colour.
    open var minimumTrackTintColor: UIColor? { didSet { refresh() } }
    /// The track above the value; nil is the system fill.
    open var maximumTrackTintColor: UIColor? { didSet { refresh() } }
    /// The thumb; nil is white.
    open var thumbTintColor: UIColor? { didSet { refresh() } }

    /// Images at the ends (the track shortens to make room for them, as UIKit's).
    open var minimumValueImage: UIImage? { didSet { minimumImageView.image = minimumValueImage; setNeedsLayout() } }
    open var maximumValueImage: UIImage? { didSet { maximumImageView.image = maximumValueImage; setNeedsLayout() } }

    /// Accepted and kept; not drawn (noted).
    open func setThumbImage(_ image: UIImage?, for state: UIControl.State) { if image != nil { NotDrawn.note("UISlider thumb images") } }
    open func setMinimumTrackImage(_ image: UIImage?, for state: UIControl.State) { if image != nil { NotDrawn.note("UISlider track images") } }
    open func setMaximumTrackImage(_ image: UIImage?, for state: UIControl.State) { if image != nil { NotDrawn.note("UISlider track images") } }

    /// Sets the value, clamped; animated, the thumb and track move over 0.25 s (or the enclosing
    /// animation block's duration). Sends no event.
    open func setValue(_ value: Float, animated: Bool) {
        guard value.isFinite else { return }
        currentValue = min(max(value, minimumValue), maximumValue)
        setNeedsLayout()
        layOutNow(animatedOver: animated ? Metrics.animationDuration : nil)
    }

    private func refresh() {
        minimumTrack.backgroundColor = minimumTrackTintColor ?? tintColor
        maximumTrack.backgroundColor = maximumTrackTintColor ?? .systemFill
        thumb.backgroundColor = thumbTintColor ?? .white
        let dimmed: CGFloat = isEnabled ? 1 : 0.35
        minimumTrack.alpha = dimmed
        maximumTrack.alpha = dimmed
    }

    override func stateDidChange() { refresh() }
    open override func tintColorDidChange() { refresh() }

    open override func traitCollectionDidChange(_ previousTraitCollection: UITraitCollection?) {
        super.traitCollectionDidChange(previousTraitCollection)
        refresh()
    }

    // MARK: Geometry (points)

    open func minimumValueImageRect(forBounds bounds: CGRect) -> CGRect {
        guard let size = minimumValueImage?.size else { return CGRect(x: bounds.minX, y: bounds.midY, width: 0, height: 0) }
        return CGRect(x: bounds.minX, y: bounds.midY - size.height / 2, width: size.width, height: size.height)
    }

    open func maximumValueImageRect(forBounds bounds: CGRect) -> CGRect {
        guard let size = maximumValueImage?.size else { return CGRect(x: bounds.maxX, y: bounds.midY, width: 0, height: 0) }
        return CGRect(x: bounds.maxX - size.width, y: bounds.midY - size.height / 2, width: size.width, height: size.height)
    }

    /// The track: 4 points high, centred, 3 points in from each end (or from the end images, with a
    /// 5-point gap).
    open func trackRect(forBounds bounds: CGRect) -> CGRect {
        let left = minimumValueImage == nil ? bounds.minX : minimumValueImageRect(forBounds: bounds).maxX + 5
        let right = maximumValueImage == nil ? bounds.maxX : maximumValueImageRect(forBounds: bounds).minX - 5
        return CGRect(x: left + Metrics.trackInset, y: bounds.midY - Metrics.trackHeight / 2,
                      width: max(0, right - left - 2 * Metrics.trackInset), height: Metrics.trackHeight)
    }

    /// The thumb's 28-point box for `value`: its centre runs from 14 points after the bounds' start (less
    /// the track's inset) to 14 points before their end.
    open func thumbRect(forBounds bounds: CGRect, trackRect rect: CGRect, value: Float) -> CGRect {
        let span = maximumValue - minimumValue
        let fraction = span > 0 ? CGFloat((min(max(value, minimumValue), maximumValue) - minimumValue) / span) : 0
        let start = rect.minX - Metrics.trackInset, travel = max(0, rect.width + 2 * Metrics.trackInset - Metrics.thumbBox)
        return CGRect(x: start + fraction * travel, y: rect.midY - Metrics.thumbBox / 2 - Metrics.thumbRise,
                      width: Metrics.thumbBox, height: Metrics.thumbBox)
    }

    open override func layoutSubviews() {
        super.layoutSubviews()
        minimumImageView.frame = minimumValueImageRect(forBounds: bounds)
        maximumImageView.frame = maximumValueImageRect(forBounds: bounds)
        let track = trackRect(forBounds: bounds)
        let box = thumbRect(forBounds: bounds, trackRect: track, value: currentValue)
        let centre = min(max(box.midX, track.minX), track.maxX)
        minimumTrack.frame = CGRect(x: track.minX, y: track.minY, width: centre - track.minX, height: track.height)
        maximumTrack.frame = CGRect(x: centre, y: track.minY, width: track.maxX - centre, height: track.height)
        // Each part keeps round ends: the join sits under the thumb.
        minimumTrack.layer.cornerRadius = min(track.height / 2, minimumTrack.bounds.width / 2)
        maximumTrack.layer.cornerRadius = min(track.height / 2, maximumTrack.bounds.width / 2)
        let inset = (Metrics.thumbBox - Metrics.thumbDiameter) / 2
        thumb.frame = box.insetBy(dx: inset, dy: inset)
        thumb.layer.cornerRadius = Metrics.thumbDiameter / 2
        thumbContact.frame = thumb.frame
        thumbContact.layer.cornerRadius = Metrics.thumbDiameter / 2
    }

    /// Points: 34 high; no width of its own (UIKit's -1, `UIView.noIntrinsicMetric`).
    open override var intrinsicContentSize: CGSize { CGSize(width: UIView.noIntrinsicMetric, height: Metrics.height) }

    open override func sizeThatFits(_ size: CGSize) -> CGSize { CGSize(width: max(size.width, Metrics.thumbBox), height: Metrics.height) }

    // MARK: Touches

    open override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent?) {
        guard isEnabled, let touch = touches.first else { return }
        let point = touch.location(in: self)
        let box = thumbRect(forBounds: bounds, trackRect: trackRect(forBounds: bounds), value: currentValue)
        // Only a touch on the thumb (with UIKit's generous margin) grabs it.
        guard box.insetBy(dx: -10, dy: -10).contains(point) else { return }
        grabOffset = point.x - box.midX
        super.touchesBegan(touches, with: event)
    }

    open override func touchesMoved(_ touches: Set<UITouch>, with event: UIEvent?) {
        guard isEnabled, let grabOffset, let touch = touches.first else { return }
        let track = trackRect(forBounds: bounds)
        let start = track.minX - Metrics.trackInset + Metrics.thumbBox / 2
        let travel = max(0, track.width + 2 * Metrics.trackInset - Metrics.thumbBox)
        let fraction = travel > 0 ? min(max((touch.location(in: self).x - grabOffset - start) / travel, 0), 1) : 0
        let old = currentValue
        setValue(minimumValue + Float(fraction) * (maximumValue - minimumValue), animated: false)
        if isContinuous, currentValue != old { sendActions(for: .valueChanged) }
        super.touchesMoved(touches, with: event)
    }

    open override func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent?) {
        guard grabOffset != nil else { return }
        grabOffset = nil
        if !isContinuous { sendActions(for: .valueChanged) }
        super.touchesEnded(touches, with: event)
    }

    open override func touchesCancelled(_ touches: Set<UITouch>, with event: UIEvent?) {
        grabOffset = nil
        super.touchesCancelled(touches, with: event)
    }
}
