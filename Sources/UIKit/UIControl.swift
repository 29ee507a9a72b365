/// What menus hold: actions, submenus and deferred elements, each with a title and an image.
open class UIMenuElement: NSObject {
    open var title: String
    open var subtitle: String?
    open var image: UIImage?

    init(title: String, subtitle: String? = nil, image: UIImage?) {
        self.title = title
        self.subtitle = subtitle
        self.image = image
        super.init()
    }

    /// How an element is shown, with Apple's raw values.
    public struct Attributes: OptionSet, Hashable, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        public static let disabled = Attributes(rawValue: 1 << 0)
        public static let destructive = Attributes(rawValue: 1 << 1)
        public static let hidden = Attributes(rawValue: 1 << 2)
        public static let keepsMenuPresented = Attributes(rawValue: 1 << 3)
    }

    /// An element's check state, with Apple's raw values.
    public enum State: Int, Sendable { case mixed = -1, off = 0, on = 1 }
}

/// An action with a handler (iOS 14's closure-based target–action), also a menu's item.
open class UIAction: UIMenuElement {
    public let identifier: Identifier
    let handler: (UIAction) -> Void
    /// Shown in menus (kept).
    open var discoverabilityTitle: String?
    open var attributes: UIMenuElement.Attributes = []
    open var state: UIMenuElement.State = .off
    /// The control that sent the action, while its handler runs.
    open internal(set) var sender: Any?

    public init(title: String = "", subtitle: String? = nil, image: UIImage? = nil, identifier: Identifier? = nil, discoverabilityTitle: String? = nil,
                attributes: UIMenuElement.Attributes = [], state: UIMenuElement.State = .off, handler: @escaping (UIAction) -> Void) {
        self.identifier = identifier ?? Identifier(rawValue: UUID().uuidString)
        self.handler = handler
        self.discoverabilityTitle = discoverabilityTitle
        self.attributes = attributes
        self.state = state
        super.init(title: title, subtitle: subtitle, image: image)
    }

    public struct Identifier: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public init(_ rawValue: String) { self.rawValue = rawValue }
    }
}

/// A menu: a title and its children (actions, submenus). Menus are kept on the buttons and bar items
/// given them, not drawn: a control showing its menu as its primary action notes it when tapped.
open class UIMenu: UIMenuElement {
    public struct Identifier: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public init(_ rawValue: String) { self.rawValue = rawValue }
    }

    /// How a menu shows, with Apple's raw values.
    public struct Options: OptionSet, Hashable, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        public static let displayInline = Options(rawValue: 1 << 0)
        public static let destructive = Options(rawValue: 1 << 1)
        public static let singleSelection = Options(rawValue: 1 << 5)
        public static let displayAsPalette = Options(rawValue: 1 << 7)
    }

    /// The size of the menu's elements, with Apple's raw values.
    public enum ElementSize: Int, Sendable { case small = 0, medium = 1, large = 2 }

    public let identifier: Identifier
    public let options: Options
    public let children: [UIMenuElement]
    open var preferredElementSize = ElementSize.large

    public init(title: String = "", subtitle: String? = nil, image: UIImage? = nil, identifier: Identifier? = nil, options: Options = [],
                preferredElementSize: ElementSize = .large, children: [UIMenuElement] = []) {
        self.identifier = identifier ?? Identifier(rawValue: UUID().uuidString)
        self.options = options
        self.children = children
        self.preferredElementSize = preferredElementSize
        super.init(title: title, subtitle: subtitle, image: image)
    }

    /// The same menu with `newChildren`.
    open func replacingChildren(_ newChildren: [UIMenuElement]) -> UIMenu {
        UIMenu(title: title, subtitle: subtitle, image: image, identifier: identifier, options: options, preferredElementSize: preferredElementSize,
               children: newChildren)
    }

    /// The actions in the menu and its submenus, in order (what a menu would offer).
    package var allActions: [UIAction] {
        children.flatMap { element -> [UIAction] in
            if let action = element as? UIAction { return [action] }
            return (element as? UIMenu)?.allActions ?? []
        }
    }
}

/// A menu element whose children a provider gives when the menu opens (kept: menus are not drawn).
open class UIDeferredMenuElement: UIMenuElement {
    let provider: (@escaping ([UIMenuElement]) -> Void) -> Void
    public init(_ elementProvider: @escaping (@escaping ([UIMenuElement]) -> Void) -> Void) {
        provider = elementProvider
        super.init(title: "", image: nil)
    }
    open class func uncached(_ elementProvider: @escaping (@escaping ([UIMenuElement]) -> Void) -> Void) -> UIDeferredMenuElement {
        UIDeferredMenuElement(elementProvider)
    }
}

/// UIKit's control: targets and actions by event, highlighted while a finger is down on it, and the
/// touch events UIKit sends (`.touchDown`, `.touchUpInside`, `.touchUpOutside`, `.touchCancel`).
open class UIControl: UIView {
    /// The events a control sends, with Apple's raw values.
    public struct Event: OptionSet, Hashable, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        public static let touchDown = Event(rawValue: 1 << 0)
        public static let touchDownRepeat = Event(rawValue: 1 << 1)
        public static let touchDragInside = Event(rawValue: 1 << 2)
        public static let touchDragOutside = Event(rawValue: 1 << 3)
        public static let touchDragEnter = Event(rawValue: 1 << 4)
        public static let touchDragExit = Event(rawValue: 1 << 5)
        public static let touchUpInside = Event(rawValue: 1 << 6)
        public static let touchUpOutside = Event(rawValue: 1 << 7)
        public static let touchCancel = Event(rawValue: 1 << 8)
        public static let valueChanged = Event(rawValue: 1 << 12)
        public static let primaryActionTriggered = Event(rawValue: 1 << 13)
        public static let menuActionTriggered = Event(rawValue: 1 << 14)
        public static let editingDidBegin = Event(rawValue: 1 << 16)
        public static let editingChanged = Event(rawValue: 1 << 17)
        public static let editingDidEnd = Event(rawValue: 1 << 18)
        public static let editingDidEndOnExit = Event(rawValue: 1 << 19)
        public static let allTouchEvents = Event(rawValue: 0x0000_0FFF)
        public static let allEditingEvents = Event(rawValue: 0x000F_0000)
        public static let allEvents = Event(rawValue: 0xFFFF_FFFF)
    }

    /// A control's states, with Apple's raw values.
    public struct State: OptionSet, Hashable, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        public static let normal = State([])
        public static let highlighted = State(rawValue: 1 << 0)
        public static let disabled = State(rawValue: 1 << 1)
        public static let selected = State(rawValue: 1 << 2)
        public static let focused = State(rawValue: 1 << 3)
    }

    public enum ContentHorizontalAlignment: Int, Sendable { case center, left, right, fill, leading, trailing }
    public enum ContentVerticalAlignment: Int, Sendable { case center, top, bottom, fill }

    private struct Target {
        weak var object: AnyObject?
        let action: Selector?
        let uiAction: UIAction?
        let events: Event
    }

    private var targets: [Target] = []

    /// Default true; a disabled control sends no events.
    open var isEnabled = true { didSet { if isEnabled != oldValue { stateDidChange() } } }
    open var isSelected = false { didSet { if isSelected != oldValue { stateDidChange() } } }
    /// True while a finger is down on it.
    open var isHighlighted = false { didSet { if isHighlighted != oldValue { stateDidChange() } } }
    open var contentHorizontalAlignment = ContentHorizontalAlignment.center
    open var contentVerticalAlignment = ContentVerticalAlignment.center

    open var state: State {
        var s = State.normal
        if isHighlighted { s.insert(.highlighted) }
        if !isEnabled { s.insert(.disabled) }
        if isSelected { s.insert(.selected) }
        return s
    }

    /// Called when the state changes (a button redraws its title).
    func stateDidChange() {}

    /// Sends `action` to `target` for `controlEvents`. `target` nil is UIKit's responder chain; here
    /// the action is called on the control's view controller or the control itself.
    open func addTarget(_ target: Any?, action: Selector, for controlEvents: Event) {
        targets.append(Target(object: target as AnyObject?, action: action, uiAction: nil, events: controlEvents))
    }

    open func removeTarget(_ target: Any?, action: Selector?, for controlEvents: Event) {
        targets.removeAll { entry in
            (target == nil || entry.object === (target as AnyObject?)) && (action == nil || entry.action == action)
                && !entry.events.intersection(controlEvents).isEmpty
        }
    }

    /// iOS 14's closure actions.
    open func addAction(_ action: UIAction, for controlEvents: Event) {
        targets.append(Target(object: nil, action: nil, uiAction: action, events: controlEvents))
    }

    open func removeAction(_ action: UIAction, for controlEvents: Event) {
        targets.removeAll { $0.uiAction === action && !$0.events.intersection(controlEvents).isEmpty }
    }

    /// Sends the actions of `controlEvents` now.
    open func sendActions(for controlEvents: Event) {
        guard isEnabled else { return }
        for entry in targets where !entry.events.intersection(controlEvents).isEmpty {
            if let uiAction = entry.uiAction {
                uiAction.sender = self
                uiAction.handler(uiAction)
                uiAction.sender = nil
            } else if let action = entry.action {
                sendAction(action, to: entry.object ?? nearestController ?? self, for: nil)
            }
        }
    }

    open func sendAction(_ action: Selector, to target: Any?, for event: UIEvent?) {
        action.perform(target: target, sender: self)
    }

    // MARK: Touches

    open override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent?) {
        guard isEnabled else { return super.touchesBegan(touches, with: event) }
        isHighlighted = true
        sendActions(for: .touchDown)
    }

    open override func touchesMoved(_ touches: Set<UITouch>, with event: UIEvent?) {
        guard isEnabled, let touch = touches.first else { return }
        let inside = bounds.insetBy(dx: -70, dy: -70).contains(touch.location(in: self))
        if inside != isHighlighted { sendActions(for: inside ? .touchDragEnter : .touchDragExit) }
        isHighlighted = inside
        sendActions(for: inside ? .touchDragInside : .touchDragOutside)
    }

    open override func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent?) {
        guard isEnabled, let touch = touches.first else { return }
        isHighlighted = false
        // UIKit counts a lift within 70 points of the control as inside.
        if bounds.insetBy(dx: -70, dy: -70).contains(touch.location(in: self)) {
            sendActions(for: [.touchUpInside, .primaryActionTriggered])
        } else {
            sendActions(for: .touchUpOutside)
        }
    }

    open override func touchesCancelled(_ touches: Set<UITouch>, with event: UIEvent?) {
        isHighlighted = false
        sendActions(for: .touchCancel)
    }
}

/// UIKit's button: a title (and an image) per state, drawn centred; a system button's title is in the
/// tint colour and fades while highlighted, a custom button's is white unless given a colour.
open class UIButton: UIControl {
    public enum ButtonType: Int, Sendable {
        case custom, system, detailDisclosure, infoLight, infoDark, contactAdd, close
        public static let plain = ButtonType.system
    }

    public let buttonType: ButtonType
    private var titles: [UInt: String] = [:]
    private var titleColors: [UInt: UIColor] = [:]
    private var images: [UInt: UIImage] = [:]
    private let label = UILabel()
    private let icon = UIImageView()
    /// The glyph of a `.contactAdd` button (a plus in a ring), drawn in the tint colour.
    private var glyph: BarSymbolView?
    /// What a configured button draws with besides the title and image (made when first configured).
    private var configured: ButtonConfigurationViews?

    public init(type buttonType: ButtonType) {
        self.buttonType = buttonType
        super.init(frame: .zero)
        setUp()
    }

    public convenience init(type buttonType: ButtonType = .system, primaryAction: UIAction?) {
        self.init(type: buttonType)
        if let primaryAction {
            setTitle(primaryAction.title.isEmpty ? nil : primaryAction.title, for: .normal)
            addAction(primaryAction, for: .primaryActionTriggered)
        }
    }

    public override init(frame: CGRect) {
        buttonType = .custom
        super.init(frame: frame)
        setUp()
    }

    /// iOS 15: a system button drawn from `configuration`, sized to fit it, sending `primaryAction`.
    public convenience init(configuration: Configuration, primaryAction: UIAction? = nil) {
        self.init(type: .system)
        self.configuration = configuration
        configurationDidChange()  // a class's own initializer does not run its observers
        if let primaryAction { addAction(primaryAction, for: .primaryActionTriggered) }
        frame.size = sizeThatFits(.zero)
    }

    // MARK: Configuration (iOS 15)

    /// What the button draws (its title, image and colours) instead of its per-state titles and images;
    /// nil (the default) for a button without one.
    open var configuration: Configuration? { didSet { configurationDidChange() } }

    private func configurationDidChange() {
        if configuration != nil, configured == nil { configured = ButtonConfigurationViews(in: self) }
        configured?.background.isHidden = configuration == nil
        configured?.subtitle.isHidden = configuration == nil
        refresh()
        invalidateIntrinsicContentSize()
    }

    public typealias ConfigurationUpdateHandler = (UIButton) -> Void
    /// Called when the button's state changes (and on ``setNeedsUpdateConfiguration()``), to change
    /// ``configuration`` for the state.
    open var configurationUpdateHandler: ConfigurationUpdateHandler? { didSet { setNeedsUpdateConfiguration() } }
    /// Kept; the configuration's colours always follow the state here.
    open var automaticallyUpdatesConfiguration = true

    /// Runs ``updateConfiguration()`` and the update handler now (UIKit runs them before the next layout).
    open func setNeedsUpdateConfiguration() {
        guard configuration != nil || configurationUpdateHandler != nil else { return }
        updateConfiguration()
        configurationUpdateHandler?(self)
    }

    /// Override to change ``configuration`` for the state; the default does nothing.
    open func updateConfiguration() {}

    public required init?(coder: NSCoder) { nil }

    private func setUp() {
        isOpaque = false
        label.textAlignment = .center
        label.font = .systemFont(ofSize: 15)
        addSubview(icon)
        addSubview(label)
        if buttonType == .contactAdd {
            let glyph = BarSymbolView(symbol: .plusCircle)
            glyph.isUserInteractionEnabled = false
            addSubview(glyph)
            self.glyph = glyph
            frame.size = sizeThatFits(.zero)
        } else if [.detailDisclosure, .infoLight, .infoDark].contains(buttonType) {
            // The info symbol in the tint colour, 22 points, as iOS's info buttons.
            setImage(UIImage(systemName: "info.circle", withConfiguration: UIImage.SymbolConfiguration(pointSize: 20)), for: .normal)
            frame.size = sizeThatFits(.zero)
        } else if buttonType == .close {
            // iOS 13's close button: a grey cross in a light grey circle, 30 points.
            let glyph = BarSymbolView(symbol: .xmarkCircle)
            glyph.isUserInteractionEnabled = false
            addSubview(glyph)
            self.glyph = glyph
            frame.size = sizeThatFits(.zero)
        }
        refresh()
    }

    /// The button's menu (kept, not drawn: a tap with ``showsMenuAsPrimaryAction`` notes it).
    open var menu: UIMenu?
    /// When true, a tap shows the menu instead of sending the primary action. Default false.
    open var showsMenuAsPrimaryAction = false
    /// iOS 15: a pop-up button (kept).
    open var changesSelectionAsPrimaryAction = false

    /// A tap on a button that shows its menu as its primary action offers the menu (noted: menus are not
    /// drawn) instead of sending its actions.
    open override func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent?) {
        guard showsMenuAsPrimaryAction, let menu, isEnabled else { return super.touchesEnded(touches, with: event) }
        isHighlighted = false
        NotDrawn.note("UIMenu \"\(menu.title)\" (a tap would show the menu; not drawn)")
    }

    /// The label that shows the title (nil in UIKit before a title is set; always there here).
    open var titleLabel: UILabel? { label }
    open var imageView: UIImageView? { icon }

    open func setTitle(_ title: String?, for state: UIControl.State) {
        titles[state.rawValue] = title
        refresh()
    }

    open func title(for state: UIControl.State) -> String? { titles[state.rawValue] ?? titles[0] }
    open func setTitleColor(_ color: UIColor?, for state: UIControl.State) {
        titleColors[state.rawValue] = color
        refresh()
    }
    open func titleColor(for state: UIControl.State) -> UIColor? { titleColors[state.rawValue] ?? titleColors[0] }
    open func setImage(_ image: UIImage?, for state: UIControl.State) {
        images[state.rawValue] = image
        refresh()
    }
    open func image(for state: UIControl.State) -> UIImage? { images[state.rawValue] ?? images[0] }
    open func setAttributedTitle(_ title: NSAttributedString?, for state: UIControl.State) { setTitle(title?.string, for: state) }

    open var currentTitle: String? { title(for: state) }
    open var currentTitleColor: UIColor { titleColor(for: state) ?? defaultTitleColor }
    open var currentImage: UIImage? { image(for: state) }

    private var defaultTitleColor: UIColor { buttonType == .custom ? .white : tintColor }

    override func stateDidChange() {
        if configuration != nil || configurationUpdateHandler != nil { setNeedsUpdateConfiguration() }
        refresh()
    }
    open override func tintColorDidChange() { refresh() }

    private func refresh() {
        if let configuration {
            refresh(with: configuration)
            return
        }
        label.text = currentTitle
        label.textColor = currentTitleColor
        icon.image = shownImage(currentImage)
        // A system button's content fades while highlighted.
        let faded = buttonType == .system && isHighlighted
        label.alpha = faded ? 0.2 : (isEnabled ? 1 : 0.35)
        icon.alpha = label.alpha
        glyph?.alpha = isHighlighted ? 0.2 : label.alpha
        glyph?.tint = tintColor
        setNeedsLayout()
    }

    /// A system button draws an image left `.automatic` as a template (in its tint), as UIKit's.
    private func shownImage(_ image: UIImage?) -> UIImage? {
        guard buttonType == .system, let image, image.renderingMode == .automatic, !image.isSymbolImage else { return image }
        return image.withRenderingMode(.alwaysTemplate)
    }

    /// Draws `configuration` for the state: colours, title, subtitle, image and background.
    private func refresh(with configuration: Configuration) {
        let colors = configuration.colors(tint: tintColor, state: state)
        label.text = configuration.title
        label.font = configuration.titleFont
        label.textColor = colors.foreground
        label.alpha = 1
        let image = configuration.preferredSymbolConfigurationForImage.flatMap { configuration.image?.withConfiguration($0) } ?? configuration.image
        icon.image = shownImage(image)
        icon.tintColor = colors.foreground
        icon.alpha = 1
        if let views = configured {
            views.subtitle.text = configuration.subtitle
            views.subtitle.font = configuration.subtitleFont
            views.subtitle.textColor = colors.foreground
            views.background.backgroundColor = colors.background
            views.background.layer.borderWidth = configuration.background.strokeWidth
            views.background.layer.borderColor = configuration.background.strokeColor?.cgColor
        }
        setNeedsLayout()
    }

    /// The content's size (points): the image beside or above the title and subtitle, with paddings.
    private func configuredContent(_ configuration: Configuration, width: CGFloat?) -> (size: CGSize, title: CGSize, subtitle: CGSize, image: CGSize, texts: CGSize) {
        let limit = CGSize(width: width.map { max(0, $0) } ?? 0, height: 0)
        let title = configuration.title == nil ? .zero : label.sizeThatFits(limit)
        let subtitle = configuration.subtitle == nil ? .zero : configured?.subtitle.sizeThatFits(limit) ?? .zero
        let image = icon.image?.size ?? .zero
        let texts = CGSize(width: max(title.width, subtitle.width),
                           height: title.height + subtitle.height + (title.height > 0 && subtitle.height > 0 ? configuration.titlePadding : 0))
        let padding = image.width > 0 && texts.width > 0 ? configuration.imagePadding : 0
        let vertical = configuration.imagePlacement == .top || configuration.imagePlacement == .bottom
        let size = vertical ? CGSize(width: max(image.width, texts.width), height: image.height + padding + texts.height)
            : CGSize(width: image.width + padding + texts.width, height: max(image.height, texts.height))
        return (size, title, subtitle, image, texts)
    }

    private func layOutConfiguration(_ configuration: Configuration) {
        let insets = configuration.contentInsets
        let box = CGRect(x: insets.leading, y: insets.top, width: max(0, bounds.width - insets.leading - insets.trailing),
                         height: max(0, bounds.height - insets.top - insets.bottom))
        let content = configuredContent(configuration, width: box.width)
        let texts = content.texts
        let padding = content.image.width > 0 && texts.width > 0 ? configuration.imagePadding : 0
        // The content is centred in the box; the image on its side of the texts.
        var origin = CGPoint(x: box.midX - min(content.size.width, box.width) / 2, y: box.midY - content.size.height / 2)
        switch configuration.titleAlignment {
        case .leading: origin.x = box.minX
        case .trailing: origin.x = box.maxX - min(content.size.width, box.width)
        case .automatic, .center: break
        }
        var textsOrigin = origin, imageOrigin = origin
        switch configuration.imagePlacement {
        case .trailing:
            imageOrigin = CGPoint(x: origin.x + min(texts.width, box.width - content.image.width - padding) + padding, y: box.midY - content.image.height / 2)
            textsOrigin.y = box.midY - texts.height / 2
        case .top:
            imageOrigin = CGPoint(x: box.midX - content.image.width / 2, y: origin.y)
            textsOrigin = CGPoint(x: box.midX - texts.width / 2, y: origin.y + content.image.height + padding)
        case .bottom:
            textsOrigin = CGPoint(x: box.midX - texts.width / 2, y: origin.y)
            imageOrigin = CGPoint(x: box.midX - content.image.width / 2, y: origin.y + texts.height + padding)
        default:
            imageOrigin = CGPoint(x: origin.x, y: box.midY - content.image.height / 2)
            textsOrigin = CGPoint(x: origin.x + content.image.width + padding, y: box.midY - texts.height / 2)
        }
        icon.frame = CGRect(origin: imageOrigin, size: content.image)
        let textWidth = min(texts.width, box.maxX - textsOrigin.x)
        let align: NSTextAlignment = configuration.titleAlignment == .leading ? .left : (configuration.titleAlignment == .trailing ? .right : .center)
        label.textAlignment = align
        label.frame = CGRect(x: textsOrigin.x, y: textsOrigin.y, width: textWidth, height: content.title.height)
        if let views = configured {
            views.subtitle.textAlignment = align
            views.subtitle.frame = CGRect(x: textsOrigin.x, y: textsOrigin.y + content.title.height + (content.title.height > 0 && content.subtitle.height > 0 ? configuration.titlePadding : 0),
                                          width: textWidth, height: content.subtitle.height)
            let b = configuration.background.backgroundInsets
            views.background.frame = CGRect(x: b.leading, y: b.top, width: max(0, bounds.width - b.leading - b.trailing), height: max(0, bounds.height - b.top - b.bottom))
            views.background.layer.cornerRadius = configuration.background.cornerRadius.flatMap { configuration.cornerStyle == .fixed ? $0 : nil }
                ?? configuration.cornerRadius(height: views.background.bounds.height)
        }
    }

    open override func layoutSubviews() {
        super.layoutSubviews()
        if let configuration {
            layOutConfiguration(configuration)
            return
        }
        glyph?.frame = bounds
        let imageSize = icon.image?.size ?? .zero
        let text = label.sizeThatFits(bounds.size)
        let gap: CGFloat = imageSize.width > 0 && text.width > 0 ? 4 : 0
        let total = imageSize.width + gap + text.width
        var x = (bounds.width - total) / 2
        icon.frame = CGRect(x: x, y: (bounds.height - imageSize.height) / 2, width: imageSize.width, height: imageSize.height)
        x += imageSize.width + gap
        label.frame = CGRect(x: x, y: (bounds.height - text.height) / 2, width: min(text.width, bounds.width), height: text.height)
    }

    open override func sizeThatFits(_ size: CGSize) -> CGSize {
        if let configuration {
            let insets = configuration.contentInsets
            let content = configuredContent(configuration, width: size.width > 0 ? size.width - insets.leading - insets.trailing : nil).size
            return CGSize(width: content.width + insets.leading + insets.trailing, height: content.height + insets.top + insets.bottom)
        }
        // The contact-add button's size, as iOS gives it (73 × 71 pixels at @3x); the close button's 30
        // points and the info buttons' their symbol's (estimated).
        if buttonType == .close { return CGSize(width: 30, height: 30) }
        if glyph != nil { return CGSize(width: 73.0 / 3, height: 71.0 / 3) }
        if [.detailDisclosure, .infoLight, .infoDark].contains(buttonType), let image = icon.image, currentTitle == nil { return image.size }
        let text = label.sizeThatFits(size), image = icon.image?.size ?? .zero
        return CGSize(width: text.width + image.width + (text.width > 0 && image.width > 0 ? 4 : 0) + 12,
                      height: max(text.height, image.height) + 12)
    }

    open override var intrinsicContentSize: CGSize { sizeThatFits(CGSize(width: CGFloat.greatestFiniteMagnitude, height: .greatestFiniteMagnitude)) }
}
