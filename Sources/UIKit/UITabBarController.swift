/// The object told of a tab bar controller's selections, and asked for their animators.
public protocol UITabBarControllerDelegate: NSObjectProtocol {
    /// Whether a tap on a tab may select its controller (asked for taps only, as UIKit does).
    func tabBarController(_ tabBarController: UITabBarController, shouldSelect viewController: UIViewController) -> Bool
    /// Told after a tap selected a controller.
    func tabBarController(_ tabBarController: UITabBarController, didSelect viewController: UIViewController)
    /// The animator of a switch between tabs; nil switches at once (UIKit's default).
    func tabBarController(_ tabBarController: UITabBarController, animationControllerForTransitionFrom fromVC: UIViewController,
                          to toVC: UIViewController) -> UIViewControllerAnimatedTransitioning?
    func tabBarController(_ tabBarController: UITabBarController,
                          interactionControllerFor animationController: UIViewControllerAnimatedTransitioning) -> UIViewControllerInteractiveTransitioning?
}

extension UITabBarControllerDelegate {
    public func tabBarController(_ tabBarController: UITabBarController, shouldSelect viewController: UIViewController) -> Bool { true }
    public func tabBarController(_ tabBarController: UITabBarController, didSelect viewController: UIViewController) {}
    public func tabBarController(_ tabBarController: UITabBarController, animationControllerForTransitionFrom fromVC: UIViewController,
                                 to toVC: UIViewController) -> UIViewControllerAnimatedTransitioning? { nil }
    public func tabBarController(_ tabBarController: UITabBarController,
                                 interactionControllerFor animationController: UIViewControllerAnimatedTransitioning) -> UIViewControllerInteractiveTransitioning? { nil }
}

/// A tab's title, image and tag (`UIViewController.tabBarItem`).
open class UITabBarItem: NSObject {
    open var title: String?
    open var image: UIImage?
    open var selectedImage: UIImage?
    open var tag = 0
    open var badgeValue: String?

    public init(title: String?, image: UIImage?, tag: Int) {
        self.title = title
        self.image = image
        self.tag = tag
        super.init()
    }

    public init(title: String?, image: UIImage?, selectedImage: UIImage?) {
        self.title = title
        self.image = image
        self.selectedImage = selectedImage
        super.init()
    }

    public override init() { super.init() }
}

/// UIKit's tab bar controller: its controllers' tabs in a bar at the bottom, the selected one's view
/// above it. Selecting (`selectedIndex`, `selectedViewController`, or a tap on a tab) switches at once,
/// or with the delegate's animator, in a transition like a push's: the appearance callbacks in UIKit's
/// order, the context's container the view the selected controller's view fills.
open class UITabBarController: UIViewController {
    private var controllers: [UIViewController] = []
    private var selected = 0
    private var transitionInProgress: ControllerTransition?
    private var waiting: [() -> Void] = []
    private let contentView = UIView()
    /// The bar of tabs.
    public let tabBar = UITabBar(frame: .zero)
    open weak var delegate: UITabBarControllerDelegate?

    public override init(nibName nibNameOrNil: String?, bundle nibBundleOrNil: Bundle?) {
        super.init(nibName: nibNameOrNil, bundle: nibBundleOrNil)
        tabBar.controller = self
    }

    public required init?(coder: NSCoder) { nil }

    /// The controllers, one a tab, in order.
    open var viewControllers: [UIViewController]? {
        get { controllers.isEmpty ? nil : controllers }
        set { setViewControllers(newValue, animated: false) }
    }

    /// Replaces the tabs; the selected controller stays selected when it is among them, else the first
    /// tab is. Asked for during a switch, it waits for the switch to end.
    open func setViewControllers(_ viewControllers: [UIViewController]?, animated: Bool) {
        if transitionInProgress != nil { waiting.append { self.setViewControllers(viewControllers, animated: animated) }; return }
        let old = controllers
        let shown = old.indices.contains(selected) ? old[selected] : nil
        for controller in old where !(viewControllers ?? []).contains(where: { $0 === controller }) {
            controller.willMove(toParent: nil)
            if controller === shown, isViewLoaded { UIView.performWithoutAnimation { controller.viewIfLoaded?.removeFromSuperview() } }
            controller.removeFromParent()
        }
        controllers = viewControllers ?? []
        for controller in controllers where controller.parent !== self {
            addChild(controller)
            controller.didMove(toParent: self)
        }
        selected = shown.flatMap { s in controllers.firstIndex { $0 === s } } ?? 0
        if isViewLoaded { showSelected() }
    }

    /// The index of the selected tab. Setting it selects that controller (with the delegate's animator).
    open var selectedIndex: Int {
        get { selected }
        set { select(newValue, tapped: false) }
    }

    open var selectedViewController: UIViewController? {
        get { controllers.indices.contains(selected) ? controllers[selected] : nil }
        set {
            guard let newValue, let index = controllers.firstIndex(where: { $0 === newValue }) else { return }
            select(index, tapped: false)
        }
    }

    /// Selects tab `index`; a tap asks the delegate first and tells it after.
    func select(_ index: Int, tapped: Bool) {
        guard controllers.indices.contains(index), transitionInProgress == nil else { return }
        let to = controllers[index]
        if tapped, delegate?.tabBarController(self, shouldSelect: to) == false { return }
        guard index != selected, isViewLoaded, let from = selectedViewController else {
            selected = index
            if isViewLoaded { showSelected() }
            if tapped { delegate?.tabBarController(self, didSelect: to) }
            return
        }
        selected = index
        tabBar.show(controllers, selected: selected)
        updateBarScrollEdges()
        let onScreen = view.window != nil
        let animator = onScreen ? delegate?.tabBarController(self, animationControllerForTransitionFrom: from, to: to) : nil
        let interaction = animator.flatMap { delegate?.tabBarController(self, interactionControllerFor: $0) }
        let bounds = contentView.bounds
        let fromView = from.view!, toView = to.view!
        UIView.performWithoutAnimation {
            toView.frame = bounds
            toView.autoresizingMask = [.flexibleWidth, .flexibleHeight]
            to.containerSafeAreaInsets = barInsets
            toView.layoutIfNeeded()
        }
        let transition = ControllerTransition(
            kind: .tabSwitch, container: contentView, from: from, to: to, fromView: fromView, toView: toView, animator: animator,
            interactionController: interaction, style: .custom, initialFrames: [(from, bounds)], finalFrames: [(to, bounds)]
        ) { [self] completed in
            // The tab bar controller lives until its transition ends; only then may another switch start.
            defer {
                from.appearanceManagedByTransition = false
                to.appearanceManagedByTransition = false
                self.transitionInProgress = nil
                if self.activeTransition?.isCompleted ?? false { self.activeTransition = nil }
                let next = self.waiting
                self.waiting = []
                for action in next { action() }
            }
            let (shown, gone, shownController, goneController) = completed ? (toView, fromView, to, from) : (fromView, toView, from, to)
            UIView.performWithoutAnimation {
                gone.removeFromSuperview()
                if shown.superview !== self.contentView { self.contentView.addSubview(shown) }
                shown.frame = self.contentView.bounds
            }
            if !completed {
                self.selected = self.controllers.firstIndex { $0 === from } ?? self.selected
                self.tabBar.show(self.controllers, selected: self.selected)
            }
            if onScreen {
                if completed {
                    from.endAppearanceTransition()
                    to.endAppearanceTransition()
                } else {
                    goneController.beginAppearanceTransition(false, animated: true); goneController.endAppearanceTransition()
                    shownController.beginAppearanceTransition(true, animated: true); shownController.endAppearanceTransition()
                }
            }
        }
        transitionInProgress = transition
        activeTransition = transition
        from.appearanceManagedByTransition = true
        to.appearanceManagedByTransition = true
        if onScreen {
            from.beginAppearanceTransition(false, animated: animator != nil)
            to.beginAppearanceTransition(true, animated: animator != nil)
        }
        if animator == nil { UIView.performWithoutAnimation { contentView.addSubview(toView) } }
        transition.start()
        // Told of the selection when it is made, as UIKit does, not when its animation ends.
        if tapped { delegate?.tabBarController(self, didSelect: to) }
    }

    // MARK: The view

    open override func loadView() {
        view = BarContainerView(frame: UIScreen.main.bounds) { [weak self] in self?.layOutBar() }
    }

    open override func viewDidLoad() {
        super.viewDidLoad()
        BarContainerView.install(container: contentView, bar: tabBar, in: view)
        showSelected()
    }

    private func showSelected() {
        _ = selectedViewController?.view
        tabBar.show(controllers, selected: selected)
        updateBarScrollEdges()
        guard let shown = selectedViewController else { return }
        BarContainerView.show(shown, alone: contentView, insets: barInsets)
    }

    private var barInsets: UIEdgeInsets { UIEdgeInsets(top: 0, left: 0, bottom: tabBar.barHeight, right: 0) }

    func layOutBar() {
        let bottom = view.window != nil ? view.safeAreaInsetsIgnoringController.bottom : 0
        let height = tabBar.barHeight + bottom
        tabBar.frame = CGRect(x: 0, y: view.bounds.height - height, width: view.bounds.width, height: height)
        for controller in controllers { controller.containerSafeAreaInsets = barInsets }
        updateBarScrollEdges()
    }

    /// Whether the selected tab's content has its end in view: the tab bar's appearance follows. A tab
    /// that is a navigation controller is followed through its top controller.
    func updateBarScrollEdges() {
        guard isViewLoaded else { return }
        var shown = selectedViewController
        if let navigation = shown as? UINavigationController { shown = navigation.topViewController }
        tabBar.isAtScrollEdge = shown?.contentScrollView(for: .bottom)?.isAtBottomEdge ?? true
    }
}

/// The bar of tabs as iOS 15+ draws it: no background while the selected tab's content has its end in
/// view (or does not scroll), the chrome material with a hairline otherwise, each tab's image (when it has one) above
/// its title in 10-point medium type, the selected one in the tint colour and the others grey; 49 points
/// high above the bottom of the safe area. In a compact height (a phone in landscape) 32 points, each
/// tab's image beside its title in 13-point type (the sizes estimated), the tabs between the safe area's
/// sides. On a pad (regular both ways) 50 points, the image beside the title as well, the tabs a group in
/// the middle (``ItemPositioning/centered``, what `.automatic` is there). A tap on a tab selects it.
open class UITabBar: UIView {
    /// Points, above the safe area's bottom.
    static let height: CGFloat = 49
    /// Points in a compact height (a phone in landscape), as UIKit's.
    static let compactHeight: CGFloat = 32
    /// Points on a pad (regular both ways), as UIKit's.
    static let padHeight: CGFloat = 50
    /// Points: a centred tab's width and the space between two when ``itemWidth`` and ``itemSpacing`` are
    /// 0 (UIKit's are "system-defined"; estimated). A tab is wider when its content needs it.
    static let centeredItemWidth: CGFloat = 76, centeredItemSpacing: CGFloat = 34
    /// Points: the image's side and the gap to the title in an inline tab (estimated).
    static let inlineIconSide: CGFloat = 20, inlineGap: CGFloat = 6
    /// Whether the bar is in a compact height.
    private var isCompactHeight: Bool { traitCollection.verticalSizeClass == .compact }
    /// Whether the bar is on a pad: regular both ways.
    private var isRegular: Bool { traitCollection.horizontalSizeClass == .regular && traitCollection.verticalSizeClass == .regular }
    /// Points: the bar's height above the safe area's bottom (49; 32 in a compact height; 50 on a pad).
    var barHeight: CGFloat { isCompactHeight ? Self.compactHeight : isRegular ? Self.padHeight : Self.height }
    weak var controller: UITabBarController?
    private var items: [(label: UILabel, icon: UIImageView)] = []
    private var selected = 0

    /// Kept; the appearances say what the background is.
    open var isTranslucent = true
    /// Over the standard appearance's background when set (UIKit's legacy customization).
    open var barTintColor: UIColor? { didSet { showAppearance() } }
    /// The colour of the tabs not selected (grey by default).
    open var unselectedItemTintColor: UIColor? { didSet { setNeedsLayout() } }
    /// The appearance while content scrolls under the bar: the chrome material with a hairline.
    open var standardAppearance = UITabBarAppearance() {
        didSet { standardAppearance = UITabBarAppearance(barAppearance: standardAppearance); showAppearance() }
    }
    /// The appearance while the selected tab's content has its end in view (or does not scroll); nil
    /// (the default): the standard one without background or hairline, as iOS 15 and later draw it.
    open var scrollEdgeAppearance: UITabBarAppearance? {
        didSet { scrollEdgeAppearance = scrollEdgeAppearance.map(UITabBarAppearance.init(barAppearance:)); showAppearance() }
    }
    /// How the tabs share the bar: `.fill` divides the width between the safe area's sides equally,
    /// `.centered` makes them a group in the middle, each ``itemWidth`` wide and ``itemSpacing`` apart;
    /// `.automatic` (the default) is `.centered` on a pad (regular both ways) and `.fill` elsewhere.
    open var itemPositioning = ItemPositioning.automatic { didSet { setNeedsLayout() } }
    /// How tabs are positioned (``itemPositioning``).
    public enum ItemPositioning: Int, Sendable { case automatic = 0, fill, centered }
    /// Points: each tab's width when centred; 0 (the default) or less is the system's (76, estimated, or
    /// what the tab's image and title need).
    open var itemWidth: CGFloat = 0 { didSet { setNeedsLayout() } }
    /// Points: the space between centred tabs; 0 (the default) or less is the system's (34, estimated).
    open var itemSpacing: CGFloat = 0 { didSet { setNeedsLayout() } }
    /// Whether the selected tab's content is at its bottom edge (set by the tab bar controller).
    package var isAtScrollEdge = true { didSet { if isAtScrollEdge != oldValue { showAppearance() } } }
    private let background = BarBackgroundView(shadowAtBottom: false)

    public override init(frame: CGRect) {
        super.init(frame: frame)
        addSubview(background)
        showAppearance()
    }

    private func showAppearance() {
        background.show(standard: standardAppearance, scrollEdge: scrollEdgeAppearance, atScrollEdge: isAtScrollEdge, barTintColor: barTintColor)
    }

    public required init?(coder: NSCoder) { nil }

    func show(_ controllers: [UIViewController], selected: Int) {
        self.selected = selected
        for item in items { item.label.removeFromSuperview(); item.icon.removeFromSuperview() }
        items = controllers.enumerated().map { index, controller in
            let item = controller.lazyTabBarItem
            let label = UILabel()
            label.text = item.title ?? controller.title
            label.font = .systemFont(ofSize: 10, weight: .medium)
            label.textAlignment = .center
            let icon = UIImageView(image: index == selected ? item.selectedImage ?? item.image : item.image)
            icon.contentMode = .scaleAspectFit
            addSubview(icon)
            addSubview(label)
            return (label, icon)
        }
        setNeedsLayout()
        layoutIfNeeded()
    }

    /// Whether each tab's image is beside its title (a compact height or a pad) rather than above it.
    private var isInline: Bool { isCompactHeight || isRegular }

    /// Points: what an inline tab's image and title need side by side.
    private func inlineContentWidth(_ item: (label: UILabel, icon: UIImageView)) -> CGFloat {
        (item.icon.image != nil ? Self.inlineIconSide + Self.inlineGap : 0) + item.label.sizeThatFits(.zero).width
    }

    /// The tabs' horizontal extents in the bar (points): equal shares between the safe area's sides (a
    /// phone in landscape: the island's), or a group in the middle (``itemPositioning``); and the space
    /// between them when they are a centred group (nil when they share the width).
    private func tabLayout() -> (extents: [(x: CGFloat, width: CGFloat)], spacing: CGFloat?) {
        let sides = horizontalSafeSides
        let available = max(0, bounds.width - sides.left - sides.right)
        let centered = itemPositioning == .centered || (itemPositioning == .automatic && isRegular)
        if centered, !items.isEmpty {
            let spacing = itemSpacing > 0 ? itemSpacing : Self.centeredItemSpacing
            let widths = items.map { item -> CGFloat in
                if itemWidth > 0 { return itemWidth }
                return max(Self.centeredItemWidth, isInline ? inlineContentWidth(item) : 0)
            }
            let total = widths.reduce(0, +) + spacing * CGFloat(items.count - 1)
            // Too wide for the bar: equal shares after all.
            if total <= available {
                var x = sides.left + (available - total) / 2
                let extents = widths.indices.map { i -> (x: CGFloat, width: CGFloat) in
                    defer { x += widths[i] + spacing }
                    return (x, widths[i])
                }
                return (extents, spacing)
            }
        }
        let width = available / CGFloat(max(1, items.count))
        return (items.indices.map { (sides.left + CGFloat($0) * width, width) }, nil)
    }

    open override func layoutSubviews() {
        super.layoutSubviews()
        background.frame = bounds
        guard !items.isEmpty else { return }
        let inline = isInline, height = barHeight
        // The titles' size first: centred tabs are as wide as their titles need.
        let size: CGFloat = inline ? 13 : 10
        for item in items where item.label.font.pointSize != size { item.label.font = .systemFont(ofSize: size, weight: .medium) }
        for ((index, item), extent) in zip(items.enumerated(), tabLayout().extents) {
            let x = extent.x, width = extent.width
            if inline {
                // The image beside the title, the two centred in the tab.
                let hasIcon = item.icon.image != nil
                let iconSide = Self.inlineIconSide, gap = Self.inlineGap
                let titleWidth = min(item.label.sizeThatFits(.zero).width, width - (hasIcon ? iconSide + gap : 0))
                let total = (hasIcon ? iconSide + gap : 0) + titleWidth
                let start = x + (width - total) / 2
                item.icon.frame = hasIcon ? CGRect(x: start, y: (height - iconSide) / 2, width: iconSide, height: iconSide) : .zero
                item.label.frame = CGRect(x: start + (hasIcon ? iconSide + gap : 0), y: 0, width: max(0, titleWidth), height: height)
            } else {
                item.icon.frame = CGRect(x: x + (width - 25) / 2, y: 7, width: 25, height: 25)
                item.label.frame = CGRect(x: x, y: 33, width: width, height: 12)
            }
            item.label.textColor = index == selected ? tintColor : unselectedItemTintColor ?? .systemGray
            // A template icon (a symbol) takes its tab's colour.
            item.icon.tintColor = item.label.textColor
        }
    }

    open override func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent?) {
        guard let touch = touches.first, !items.isEmpty, bounds.width > 0 else { return }
        // The tab under the finger: between centred tabs the nearer within half the space between them,
        // and nothing beside the group; tabs that share the width take the safe area's sides too.
        let x = touch.location(in: self).x
        let (extents, spacing) = tabLayout()
        guard let index = extents.indices.min(by: { distance(x, extents[$0]) < distance(x, extents[$1]) }) else { return }
        if let spacing, distance(x, extents[index]) > spacing / 2 { return }
        controller?.select(index, tapped: true)
    }

    private func distance(_ x: CGFloat, _ extent: (x: CGFloat, width: CGFloat)) -> CGFloat {
        x < extent.x ? extent.x - x : max(0, x - (extent.x + extent.width))
    }
}

extension UIViewController {
    /// The item this controller's tab shows (made on first use, titled with the controller's title).
    var lazyTabBarItem: UITabBarItem {
        if let item = storedTabBarItem { return item }
        let item = UITabBarItem(title: title, image: nil, tag: 0)
        storedTabBarItem = item
        return item
    }

    var enclosingTabBarController: UITabBarController? { ancestor(of: UITabBarController.self) }
}
