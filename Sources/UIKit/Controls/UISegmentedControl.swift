/// UIKit's segmented control, as iOS 13 and later draw it: a rounded track in a light fill, the selected
/// segment a white rounded plate with a soft shadow, inset from the track, and thin dividers between the
/// other segments. A tap on a segment selects it (the plate slides there, animated) and sends
/// `.valueChanged`; setting ``selectedSegmentIndex`` does not send it, as UIKit's.
///
/// Segments are titles or images. Widths are equal unless ``apportionsSegmentWidthsByContent`` or
/// ``setWidth(_:forSegmentAt:)`` say otherwise. Title attributes honour `.font` and `.foregroundColor`;
/// background and divider images are kept, not drawn (noted).
open class UISegmentedControl: UIControl {
    /// The index of no segment (``selectedSegmentIndex`` when none is selected).
    public static let noSegment = -1

    /// iOS 13 and later's measurements (points), from iOS's drawing (docs/uikit.md, Controls).
    enum Metrics {
        /// The control's height when sized to fit.
        static let height: CGFloat = 32
        /// The track's corner radius.
        static let cornerRadius: CGFloat = 9
        /// How far the selected plate sits inside the track, and its corner radius.
        static let plateInset: CGFloat = 2
        static let plateCornerRadius: CGFloat = 7
        /// A segment's width past its title when sized to fit (each side).
        static let titlePadding: CGFloat = 10
        /// Dividers: a 1-point slot between two segments, the line 18 points high (centred).
        static let dividerWidth: CGFloat = 1
        static let dividerHeight: CGFloat = 18
        /// Titles: 13-pt system font, regular; the selected title semibold.
        static let fontSize: CGFloat = 13
        /// Seconds the plate takes to slide to a tapped segment (estimated by eye on iOS's animation).
        static let slideDuration: TimeInterval = 0.3
    }

    private struct Segment {
        var title: String?
        var image: UIImage?
        var action: UIAction?
        var width: CGFloat = 0
        var isEnabled = true
        var contentOffset = CGSize.zero
    }

    private var segments: [Segment] = []
    private var selectedIndex = UISegmentedControl.noSegment
    private var titleAttributes: [UInt: [NSAttributedString.Key: Any]] = [:]
    private var givenBackgroundColor: UIColor?

    private let track = UIView()
    private let plate = UIView()
    private var labels: [UILabel] = []
    private var imageViews: [UIImageView] = []
    private var dividers: [UIView] = []

    public override init(frame: CGRect) {
        super.init(frame: frame)
        setUp()
    }

    /// Segments from `items`: strings become titles, images images (anything else an empty segment).
    /// Sized to fit, with no segment selected.
    public convenience init(items: [Any]?) {
        self.init(frame: .zero)
        for (index, item) in (items ?? []).enumerated() {
            if let image = item as? UIImage {
                segments.insert(Segment(image: image), at: index)
            } else {
                segments.insert(Segment(title: item as? String), at: index)
            }
        }
        segmentsDidChange()
        frame.size = sizeThatFits(.zero)
    }

    /// iOS 14's segments from actions: each segment shows its action's title (or image) and runs its
    /// handler when it becomes selected.
    public convenience init(frame: CGRect, actions: [UIAction]) {
        self.init(frame: frame)
        segments = actions.map { Segment(title: $0.title.isEmpty ? nil : $0.title, image: $0.image, action: $0) }
        segmentsDidChange()
    }

    public required init?(coder: NSCoder) { nil }

    private func setUp() {
        isOpaque = false
        track.isUserInteractionEnabled = false
        // The plate's shadow stays inside the track, as iOS's (nothing shows above or below the control).
        track.clipsToBounds = true
        plate.isUserInteractionEnabled = false
        plate.layer.shadowColor = UIColor.black.cgColor
        plate.layer.shadowOpacity = 0.12
        plate.layer.shadowOffset = CGSize(width: 0, height: 3)
        plate.layer.shadowRadius = 5
        addSubview(track)
        track.addSubview(plate)
        applyColors()
    }

    // MARK: Segments

    open var numberOfSegments: Int { segments.count }

    /// The selected segment, or ``noSegment`` (the default). Setting it moves the plate without
    /// sending `.valueChanged` (inside an animation block, with the block's animation).
    open var selectedSegmentIndex: Int {
        get { selectedIndex }
        set {
            let index = segments.indices.contains(newValue) ? newValue : UISegmentedControl.noSegment
            guard index != selectedIndex else { return }
            selectedIndex = index
            selectionDidChange()
        }
    }

    /// When true, a tap sends `.valueChanged` without keeping the segment selected. Default false.
    open var isMomentary = false

    /// When true, segments are as wide as their content (plus padding) rather than equal. Default false.
    open var apportionsSegmentWidthsByContent = false { didSet { setNeedsLayout() } }

    /// The selected plate's colour; nil is white (a dark grey in dark mode).
    open var selectedSegmentTintColor: UIColor? { didSet { applyColors() } }

    /// The track's colour; nil is iOS's light fill. Drawn rounded, as the track.
    open override var backgroundColor: UIColor? {
        get { givenBackgroundColor }
        set { givenBackgroundColor = newValue; applyColors() }
    }

    open func insertSegment(withTitle title: String?, at segment: Int, animated: Bool) {
        insert(Segment(title: title), at: segment)
    }

    open func insertSegment(with image: UIImage?, at segment: Int, animated: Bool) {
        insert(Segment(image: image), at: segment)
    }

    /// iOS 14: a segment showing the action's title (or image) whose handler runs when it is selected.
    open func insertSegment(action: UIAction, at segment: Int, animated: Bool) {
        insert(Segment(title: action.title.isEmpty ? nil : action.title, image: action.image, action: action), at: segment)
    }

    private func insert(_ segment: Segment, at index: Int) {
        let at = min(max(0, index), segments.count)
        segments.insert(segment, at: at)
        if selectedIndex >= at { selectedIndex += 1 }
        segmentsDidChange()
    }

    open func removeSegment(at segment: Int, animated: Bool) {
        guard segments.indices.contains(segment) else { return }
        segments.remove(at: segment)
        if selectedIndex == segment { selectedIndex = UISegmentedControl.noSegment } else if selectedIndex > segment { selectedIndex -= 1 }
        segmentsDidChange()
    }

    open func removeAllSegments() {
        segments.removeAll()
        selectedIndex = UISegmentedControl.noSegment
        segmentsDidChange()
    }

    open func setTitle(_ title: String?, forSegmentAt segment: Int) {
        guard segments.indices.contains(segment) else { return }
        segments[segment].title = title
        segments[segment].image = nil
        segmentsDidChange()
    }

    open func titleForSegment(at segment: Int) -> String? { segments.indices.contains(segment) ? segments[segment].title : nil }

    open func setImage(_ image: UIImage?, forSegmentAt segment: Int) {
        guard segments.indices.contains(segment) else { return }
        segments[segment].image = image
        segments[segment].title = nil
        segmentsDidChange()
    }

    open func imageForSegment(at segment: Int) -> UIImage? { segments.indices.contains(segment) ? segments[segment].image : nil }

    /// A fixed width for a segment (points); 0 (the default) lets the control choose.
    open func setWidth(_ width: CGFloat, forSegmentAt segment: Int) {
        guard segments.indices.contains(segment), width.isFinite else { return }
        segments[segment].width = max(0, width)
        setNeedsLayout()
    }

    open func widthForSegment(at segment: Int) -> CGFloat { segments.indices.contains(segment) ? segments[segment].width : 0 }

    /// Moves a segment's title or image from its centre (points).
    open func setContentOffset(_ offset: CGSize, forSegmentAt segment: Int) {
        guard segments.indices.contains(segment) else { return }
        segments[segment].contentOffset = offset
        setNeedsLayout()
    }

    open func contentOffsetForSegment(at segment: Int) -> CGSize { segments.indices.contains(segment) ? segments[segment].contentOffset : .zero }

    /// A disabled segment is dimmed and cannot be tapped.
    open func setEnabled(_ enabled: Bool, forSegmentAt segment: Int) {
        guard segments.indices.contains(segment) else { return }
        segments[segment].isEnabled = enabled
        applyColors()
    }

    open func isEnabledForSegment(at segment: Int) -> Bool { segments.indices.contains(segment) ? segments[segment].isEnabled : false }

    open func actionForSegment(at segment: Int) -> UIAction? { segments.indices.contains(segment) ? segments[segment].action : nil }

    open func setAction(_ action: UIAction, forSegmentAt segment: Int) {
        guard segments.indices.contains(segment) else { return }
        segments[segment].action = action
        segments[segment].title = action.title.isEmpty ? nil : action.title
        segments[segment].image = action.image
        segmentsDidChange()
    }

    /// The index of the segment whose action has `identifier`, or ``noSegment``.
    open func segmentIndex(identifiedBy identifier: UIAction.Identifier) -> Int {
        segments.firstIndex { $0.action?.identifier == identifier } ?? UISegmentedControl.noSegment
    }

    /// Text attributes for titles in `state` (`.normal`, `.selected`, `.highlighted`, `.disabled`):
    /// `.font` and `.foregroundColor` are drawn.
    open func setTitleTextAttributes(_ attributes: [NSAttributedString.Key: Any]?, for state: UIControl.State) {
        titleAttributes[state.rawValue] = attributes
        applyColors()
    }

    open func titleTextAttributes(for state: UIControl.State) -> [NSAttributedString.Key: Any]? { titleAttributes[state.rawValue] }

    /// Accepted and kept; not drawn (noted).
    open func setBackgroundImage(_ backgroundImage: UIImage?, for state: UIControl.State, barMetrics: UIBarMetrics) {
        if backgroundImage != nil { NotDrawn.note("UISegmentedControl background images") }
    }

    open func setDividerImage(_ dividerImage: UIImage?, forLeftSegmentState leftState: UIControl.State, rightSegmentState rightState: UIControl.State,
                              barMetrics: UIBarMetrics) {
        if dividerImage != nil { NotDrawn.note("UISegmentedControl divider images") }
    }

    // MARK: Drawing

    private func segmentsDidChange() {
        labels.forEach { $0.removeFromSuperview() }
        imageViews.forEach { $0.removeFromSuperview() }
        dividers.forEach { $0.removeFromSuperview() }
        labels = segments.map { _ in UILabel() }
        imageViews = segments.map { _ in UIImageView() }
        dividers = segments.dropFirst().map { _ in UIView() }
        for divider in dividers { track.insertSubview(divider, belowSubview: plate) }
        for (index, segment) in segments.enumerated() {
            labels[index].text = segment.title
            labels[index].textAlignment = .center
            imageViews[index].image = segment.image
            track.addSubview(imageViews[index])
            track.addSubview(labels[index])
        }
        applyColors()
        invalidateIntrinsicContentSize()
        setNeedsLayout()
    }

    private func selectionDidChange() {
        // A plate that was hidden appears at its segment; one that was shown slides there.
        let appearing = plate.isHidden
        applyColors()
        setNeedsLayout()
        if appearing { UIView.performWithoutAnimation { layoutIfNeeded() } } else { layoutIfNeeded() }
    }

    private func attribute<T>(_ key: NSAttributedString.Key, for state: UIControl.State, as: T.Type) -> T? {
        titleAttributes[state.rawValue]?[key] as? T ?? titleAttributes[UIControl.State.normal.rawValue]?[key] as? T
    }

    private func applyColors() {
        track.backgroundColor = givenBackgroundColor
            ?? UIColor(dynamicProvider: { $0.userInterfaceStyle == .dark
                ? UIColor(red: 118 / 255, green: 118 / 255, blue: 128 / 255, alpha: 0.24)
                : UIColor(red: 118 / 255, green: 118 / 255, blue: 128 / 255, alpha: 0.12) })
        plate.backgroundColor = selectedSegmentTintColor
            ?? UIColor(dynamicProvider: { $0.userInterfaceStyle == .dark ? UIColor(red: 99 / 255, green: 99 / 255, blue: 102 / 255, alpha: 1) : .white })
        plate.isHidden = selectedIndex == UISegmentedControl.noSegment
        for (index, label) in labels.enumerated() {
            let selected = index == selectedIndex
            let state: UIControl.State = selected ? .selected : (isEnabled && segments[index].isEnabled ? .normal : .disabled)
            let font = attribute(.font, for: state, as: UIFont.self)
                ?? .systemFont(ofSize: Metrics.fontSize, weight: selected ? .semibold : .regular)
            label.font = font
            label.textColor = attribute(.foregroundColor, for: state, as: UIColor.self) ?? .label
            let dimmed = !(isEnabled && segments[index].isEnabled)
            label.alpha = dimmed ? 0.35 : 1
            imageViews[index].alpha = label.alpha
        }
        for (index, divider) in dividers.enumerated() {
            divider.backgroundColor = UIColor(dynamicProvider: { $0.userInterfaceStyle == .dark
                ? UIColor(white: 1, alpha: 0.1) : UIColor(white: 0, alpha: 0.1) })
            // The dividers beside the selected plate are hidden, as iOS's.
            divider.alpha = index == selectedIndex || index + 1 == selectedIndex ? 0 : 1
        }
        setNeedsLayout()
    }

    open override func traitCollectionDidChange(_ previousTraitCollection: UITraitCollection?) {
        super.traitCollectionDidChange(previousTraitCollection)
        applyColors()
    }

    override func stateDidChange() { applyColors() }

    /// The width a segment's content needs (points), without padding.
    private func contentWidth(_ index: Int) -> CGFloat {
        let imageWidth = segments[index].image?.size.width ?? 0
        guard segments[index].title != nil else { return imageWidth }
        let label = labels[index]
        // Measured in the selected (semibold) font so that selecting a segment never changes the widths.
        let probe = UILabel()
        probe.font = attribute(.font, for: .selected, as: UIFont.self) ?? .systemFont(ofSize: Metrics.fontSize, weight: .semibold)
        probe.text = label.text
        return probe.sizeThatFits(.zero).width + (imageWidth > 0 ? imageWidth + 4 : 0)
    }

    /// The segments' widths across `width` points less the dividers' slots: fixed widths kept, the rest
    /// shared equally (or by content with ``apportionsSegmentWidthsByContent``).
    private func segmentWidths(in width: CGFloat) -> [CGFloat] {
        guard !segments.isEmpty else { return [] }
        let fixed = segments.map(\.width)
        let free = fixed.indices.filter { fixed[$0] <= 0 }
        let left = max(0, width - CGFloat(segments.count - 1) * Metrics.dividerWidth - fixed.reduce(0, +))
        var widths = fixed
        if apportionsSegmentWidthsByContent {
            let wants = free.map { contentWidth($0) + 2 * Metrics.titlePadding }
            let total = wants.reduce(0, +)
            for (k, index) in free.enumerated() { widths[index] = total > 0 ? left * wants[k] / total : left / CGFloat(free.count) }
        } else {
            for index in free { widths[index] = left / CGFloat(free.count) }
        }
        return widths
    }

    /// The frame of a segment in the control's bounds (points).
    private func segmentFrames() -> [CGRect] {
        var x: CGFloat = 0
        return segmentWidths(in: bounds.width).map { width in
            defer { x += width + Metrics.dividerWidth }
            return CGRect(x: x, y: 0, width: width, height: bounds.height)
        }
    }

    open override func layoutSubviews() {
        super.layoutSubviews()
        track.frame = bounds
        track.layer.cornerRadius = min(Metrics.cornerRadius, bounds.height / 2)
        let frames = segmentFrames()
        for (index, frame) in frames.enumerated() {
            let offset = segments[index].contentOffset
            let center = CGPoint(x: frame.midX + offset.width, y: frame.midY + offset.height)
            let text = labels[index].text == nil ? .zero : labels[index].sizeThatFits(.zero)
            let image = imageViews[index].image?.size ?? .zero
            // An image and a title sit side by side, 4 points apart, centred together and kept inside
            // the segment (a title too long is cut at its end).
            let gap: CGFloat = image.width > 0 && text.width > 0 ? 4 : 0
            let total = min(image.width + gap + text.width, frame.width)
            let left = max(frame.minX, center.x - total / 2)
            imageViews[index].frame = CGRect(x: left, y: center.y - image.height / 2, width: image.width, height: image.height)
            let textX = left + image.width + gap
            labels[index].frame = CGRect(x: textX, y: center.y - text.height / 2, width: max(0, min(text.width, frame.maxX - textX)), height: text.height)
        }
        for (index, divider) in dividers.enumerated() {
            let height = min(Metrics.dividerHeight, bounds.height)
            divider.frame = CGRect(x: frames[index].maxX, y: (bounds.height - height) / 2, width: Metrics.dividerWidth, height: height)
        }
        if frames.indices.contains(selectedIndex) {
            plate.frame = frames[selectedIndex].insetBy(dx: Metrics.plateInset, dy: Metrics.plateInset)
            plate.layer.cornerRadius = min(Metrics.plateCornerRadius, plate.bounds.height / 2)
        }
    }

    /// Points: each segment as wide as the widest segment's title (in the selected font) plus 10 points
    /// a side, rounded up (or its own with ``apportionsSegmentWidthsByContent``, or its fixed width), and
    /// a 1-point slot between segments; 32 high. (iOS's "Segment A/B/C" control is 3 × 87 + 2 = 263 wide.)
    open override func sizeThatFits(_ size: CGSize) -> CGSize {
        let wants = segments.indices.map { segments[$0].width > 0 ? segments[$0].width : (contentWidth($0) + 2 * Metrics.titlePadding).rounded(.up) }
        // Fixed widths as given; the others each the widest of them (or their own, by content).
        let fixed = segments.indices.filter { segments[$0].width > 0 }.map { wants[$0] }
        let free = segments.indices.filter { segments[$0].width <= 0 }.map { wants[$0] }
        let width = fixed.reduce(0, +) + (apportionsSegmentWidthsByContent ? free.reduce(0, +) : (free.max() ?? 0) * CGFloat(free.count))
        return CGSize(width: width + CGFloat(max(0, segments.count - 1)) * Metrics.dividerWidth, height: Metrics.height)
    }

    open override var intrinsicContentSize: CGSize { sizeThatFits(.zero) }

    // MARK: Touches

    /// The segment under `point` (in the control's coordinates), or ``noSegment``.
    private func segment(at point: CGPoint) -> Int {
        let frames = segmentFrames()
        if let index = frames.firstIndex(where: { $0.minX <= point.x && point.x < $0.maxX }) { return index }
        guard let first = frames.first, let last = frames.last else { return UISegmentedControl.noSegment }
        return point.x < first.minX ? 0 : (point.x >= last.maxX ? frames.count - 1 : UISegmentedControl.noSegment)
    }

    /// A lift on an enabled segment selects it: the plate slides there and `.valueChanged` is sent
    /// (and the segment's action run), then the control's touch-up events.
    open override func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent?) {
        if isEnabled, let touch = touches.first, bounds.insetBy(dx: -70, dy: -70).contains(touch.location(in: self)) {
            let index = segment(at: touch.location(in: self))
            if segments.indices.contains(index), segments[index].isEnabled, index != selectedIndex || isMomentary {
                UIView.animate(withDuration: Metrics.slideDuration, delay: 0, usingSpringWithDamping: 1, initialSpringVelocity: 0,
                               options: [.beginFromCurrentState]) { self.selectedSegmentIndex = index }
                if let action = segments[index].action {
                    action.sender = self
                    action.handler(action)
                    action.sender = nil
                }
                sendActions(for: .valueChanged)
                if isMomentary {
                    UIView.animate(withDuration: Metrics.slideDuration, delay: Metrics.slideDuration, options: []) {
                        self.selectedSegmentIndex = UISegmentedControl.noSegment
                    }
                }
            }
        }
        super.touchesEnded(touches, with: event)
    }
}
