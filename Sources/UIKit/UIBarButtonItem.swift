/// What bar items have in common: a title, an image, whether they can be used, a tag.
open class UIBarItem: NSObject {
    open var title: String?
    open var image: UIImage?
    /// Default true; a disabled item is drawn faded and does not act.
    open var isEnabled = true
    open var tag = 0
}

/// UIKit's bar button item: a button in a navigation bar (`navigationItem.leftBarButtonItem(s)`,
/// `rightBarButtonItem(s)`), with a title, an image, a system item or a view of its own, that sends its
/// action (or runs its `primaryAction`) when tapped.
///
/// Drawn as iOS draws them: titles in the tint colour at 17 pt (semibold for `.done` and the Done and
/// Save system items), images at their size; system items with titles (Done, Cancel, Edit, Save, Undo,
/// Redo) as those titles, and add (+), stop (×), close (× in a filled circle), play and pause as vector
/// shapes in SF Symbols' style; compose, reply, action, organize, bookmarks, search, refresh, camera,
/// trash, rewind and fast forward as their SF Symbols' names (`UIImage(systemName:)`). Page curl takes
/// its place but is not drawn, and the stage's `notDrawn` says so. Menus (`menu:`) are not there.
open class UIBarButtonItem: UIBarItem {
    public enum Style: Int, Sendable {
        case plain, bordered, done
    }

    /// UIKit's system items, with Apple's raw values.
    public enum SystemItem: Int, Sendable {
        case done, cancel, edit, save, add, flexibleSpace, fixedSpace, compose, reply, action, organize, bookmarks, search, refresh, stop
        case camera, trash, play, pause, rewind, fastForward, undo, redo, pageCurl, close
    }

    open var style = Style.plain
    open weak var target: AnyObject?
    open var action: Selector?
    /// A view shown instead of the title or image, at its own size.
    open var customView: UIView?
    /// Points; 0: the content's width (a fixed space's width).
    open var width: CGFloat = 0
    /// The colour of the title or image; nil: the bar's tint colour.
    open var tintColor: UIColor?
    /// iOS 14's closure action, run instead of `action` when set.
    open var primaryAction: UIAction?
    /// iOS 14's menu (kept, not drawn): with no action or primary action, a tap notes it.
    open var menu: UIMenu?
    /// The system item it was made as, if any.
    package private(set) var systemItem: SystemItem?

    public override init() { super.init() }

    public init(title: String?, style: Style, target: Any?, action: Selector?) {
        super.init()
        self.title = title
        self.style = style
        self.target = target as AnyObject?
        self.action = action
    }

    public init(image: UIImage?, style: Style, target: Any?, action: Selector?) {
        super.init()
        self.image = image
        self.style = style
        self.target = target as AnyObject?
        self.action = action
    }

    public init(barButtonSystemItem systemItem: SystemItem, target: Any?, action: Selector?) {
        super.init()
        self.systemItem = systemItem
        self.target = target as AnyObject?
        self.action = action
        title = Self.systemTitle(systemItem)
        if [.done, .save].contains(systemItem) { style = .done }
        if Self.symbolShape(systemItem) == nil, Self.symbolName(systemItem) == nil, title == nil, ![.flexibleSpace, .fixedSpace].contains(systemItem) {
            NotDrawn.note("UIBarButtonItem system item \(systemItem) (its symbol)")
        }
    }

    public init(customView: UIView) {
        super.init()
        self.customView = customView
    }

    /// iOS 14's: a system item whose tap runs `primaryAction` (or offers `menu`).
    public convenience init(systemItem: SystemItem, primaryAction: UIAction? = nil, menu: UIMenu? = nil) {
        self.init(barButtonSystemItem: systemItem, target: nil, action: nil)
        self.primaryAction = primaryAction
        self.menu = menu
    }

    /// iOS 14's: a title or image (the action's when not given) whose tap runs `primaryAction` (or
    /// offers `menu`).
    public convenience init(title: String? = nil, image: UIImage? = nil, primaryAction: UIAction? = nil, menu: UIMenu? = nil) {
        self.init(title: title ?? (primaryAction?.title.isEmpty == false ? primaryAction?.title : nil), style: .plain, target: nil, action: nil)
        self.image = image ?? primaryAction?.image
        self.primaryAction = primaryAction
        self.menu = menu
    }

    /// A flexible space: takes what is left between items (in a toolbar).
    open class func flexibleSpace() -> UIBarButtonItem { UIBarButtonItem(barButtonSystemItem: .flexibleSpace, target: nil, action: nil) }

    /// A fixed space `width` points wide.
    open class func fixedSpace(_ width: CGFloat) -> UIBarButtonItem {
        let item = UIBarButtonItem(barButtonSystemItem: .fixedSpace, target: nil, action: nil)
        item.width = width
        return item
    }

    /// Runs the item's action as a tap does: `primaryAction`, else `action` sent to `target` (or, with no
    /// target, to `fallback`: the controller whose bar shows the item).
    package func perform(fallback: AnyObject?) {
        guard isEnabled else { return }
        if let primaryAction {
            primaryAction.handler(primaryAction)
        } else if let action {
            action.perform(target: target ?? fallback, sender: self)
        } else if let menu {
            NotDrawn.note("UIMenu \"\(menu.title)\" (a tap would show the menu; not drawn)")
        }
    }

    /// The titles of the system items drawn as text (English, as a simulator in English draws them).
    static func systemTitle(_ item: SystemItem) -> String? {
        switch item {
        case .done: "Done"
        case .cancel: "Cancel"
        case .edit: "Edit"
        case .save: "Save"
        case .undo: "Undo"
        case .redo: "Redo"
        default: nil
        }
    }

    /// The system items drawn as shapes.
    package enum Symbol: Sendable { case plus, xmark, xmarkCircle, play, pause, plusCircle }

    /// The system items drawn as SF Symbols' names (Smokescreen's drawings of them).
    package static func symbolName(_ item: SystemItem) -> String? {
        switch item {
        case .compose: "square.and.pencil"
        case .reply: "arrowshape.turn.up.left"
        case .action: "square.and.arrow.up"
        case .organize: "folder"
        case .bookmarks: "book"
        case .search: "magnifyingglass"
        case .refresh: "arrow.clockwise"
        case .camera: "camera"
        case .trash: "trash"
        case .rewind: "backward.fill"
        case .fastForward: "forward.fill"
        default: nil
        }
    }

    /// The view a bar shows for the item: its custom view, a system button with its title or image
    /// (semibold for `.done`), or one drawing its symbol; a tap runs the item's action, sent to
    /// `fallback()` when it has no target.
    package func makeBarView(fallback: @escaping () -> AnyObject?) -> UIView {
        if let customView { return customView }
        if let systemItem, [.flexibleSpace, .fixedSpace].contains(systemItem) { return UIView() }
        let button: UIButton
        if let symbol = systemItem.flatMap(UIBarButtonItem.symbolShape) {
            button = BarSymbolButton(symbol: symbol)
        } else {
            button = UIButton(type: .system)
            button.setTitle(title, for: .normal)
            // Bar symbols are drawn a size up from the body text, as UIKit's bars draw them.
            let symbolImage = systemItem.flatMap(UIBarButtonItem.symbolName).flatMap {
                UIImage(systemName: $0, withConfiguration: UIImage.SymbolConfiguration(textStyle: .body, scale: .large))
            }
            button.setImage(title == nil ? image ?? symbolImage : nil, for: .normal)
            button.titleLabel?.font = .systemFont(ofSize: 17, weight: style == .done ? .semibold : .regular)
        }
        button.tintColor = tintColor
        button.isEnabled = isEnabled
        button.addAction(UIAction { [weak self] _ in self?.perform(fallback: fallback()) }, for: .primaryActionTriggered)
        return button
    }

    /// The width (points) a bar gives the item's `view`.
    package func barWidth(of view: UIView, in size: CGSize) -> CGFloat {
        if systemItem == .fixedSpace || width > 0 { return width }
        if customView != nil { return view.bounds.width }
        if view is BarSymbolButton { return BarSymbolButton.side }
        return view.sizeThatFits(size).width
    }

    /// The height (points) a bar `barHeight` points high gives the item's `view`.
    package func barHeight(of view: UIView, barHeight: CGFloat) -> CGFloat {
        view is BarSymbolButton ? BarSymbolButton.side : (view is UIButton ? barHeight : view.bounds.height)
    }

    package static func symbolShape(_ item: SystemItem) -> Symbol? {
        switch item {
        case .add: .plus
        case .stop: .xmark
        case .close: .xmarkCircle
        case .play: .play
        case .pause: .pause
        default: nil
        }
    }
}

extension UINavigationItem {
    /// The item at the leading end of the bar, in place of the back button (unless
    /// `leftItemsSupplementBackButton`).
    public var leftBarButtonItem: UIBarButtonItem? {
        get { leftBarButtonItems?.first }
        set { leftBarButtonItems = newValue.map { [$0] } }
    }

    /// The item at the trailing end of the bar.
    public var rightBarButtonItem: UIBarButtonItem? {
        get { rightBarButtonItems?.first }
        set { rightBarButtonItems = newValue.map { [$0] } }
    }

    public func setLeftBarButton(_ item: UIBarButtonItem?, animated: Bool) { leftBarButtonItem = item }
    public func setRightBarButton(_ item: UIBarButtonItem?, animated: Bool) { rightBarButtonItem = item }
    public func setLeftBarButtonItems(_ items: [UIBarButtonItem]?, animated: Bool) { leftBarButtonItems = items }
    public func setRightBarButtonItems(_ items: [UIBarButtonItem]?, animated: Bool) { rightBarButtonItems = items }
}
