/// UIKit's view controller: a view loaded on first use, the lifecycle callbacks in UIKit's order, and
/// child controllers.
///
/// Order of callbacks, as UIKit's: reading ``view`` the first time calls ``loadView()`` then
/// ``viewDidLoad()``; a controller whose view enters a window gets ``viewWillAppear(_:)`` before the view
/// is added and ``viewDidAppear(_:)`` after, and ``viewWillDisappear(_:)``/``viewDidDisappear(_:)``
/// around its leaving; each layout pass of its view is bracketed by ``viewWillLayoutSubviews()`` and
/// ``viewDidLayoutSubviews()``. A transition calls ``beginAppearanceTransition(_:animated:)`` and
/// ``endAppearanceTransition()`` itself so that `viewDidAppear` comes when it ends.
open class UIViewController: UIResponder {
    private var loadedView: UIView?
    private var isLoadingView = false
    /// The controller's title (a navigation bar's, a tab's).
    open var title: String? { didSet { navigationController?.itemDidChange(of: self) } }

    // MARK: Editing

    /// Whether the controller shows an editable view. Setting it is `setEditing(_:animated: false)`.
    open var isEditing: Bool {
        get { editingState }
        set { setEditing(newValue, animated: false) }
    }
    private var editingState = false
    private var madeEditButtonItem: UIBarButtonItem?

    /// Enters or leaves editing mode: sets ``isEditing`` and turns ``editButtonItem`` into Done (bold) or
    /// Edit. Override it to change the view, calling `super`; `UITableViewController`'s passes it to its
    /// table.
    open func setEditing(_ editing: Bool, animated: Bool) {
        editingState = editing
        guard let item = madeEditButtonItem else { return }
        item.title = editing ? "Done" : "Edit"
        item.style = editing ? .done : .plain
        // The bar draws its items again (it reads them when they change).
        let shown = (navigationItem.leftBarButtonItems ?? []) + (navigationItem.rightBarButtonItems ?? [])
        if shown.contains(where: { $0 === item }) { navigationItem.itemsDidChange?() }
    }

    /// A bar button item that toggles editing mode: Edit, or Done (bold) while editing; a tap calls
    /// ``setEditing(_:animated:)`` animated. Made once.
    open var editButtonItem: UIBarButtonItem {
        if let madeEditButtonItem { return madeEditButtonItem }
        let item = UIBarButtonItem(title: editingState ? "Done" : "Edit", style: editingState ? .done : .plain, target: nil, action: nil)
        item.primaryAction = UIAction { [weak self] _ in
            guard let self else { return }
            self.setEditing(!self.isEditing, animated: true)
        }
        madeEditButtonItem = item
        return item
    }
    /// The controllers this one contains, in the order they were added.
    open private(set) var children: [UIViewController] = []
    /// The controller this one is a child of.
    open private(set) weak var parent: UIViewController?
    /// The size a container should give the view (points); zero unless set. A change is told to the
    /// container, as UIKit tells it: the parent's, or else the presentation controller's
    /// `preferredContentSizeDidChange(forChildContentContainer:)`.
    open var preferredContentSize = CGSize.zero {
        didSet {
            guard preferredContentSize != oldValue else { return }
            if let parent {
                parent.preferredContentSizeDidChange(forChildContentContainer: self)
            } else if let controller = presentationRecord?.controller {
                controller.preferredContentSizeDidChange(forChildContentContainer: self)
            }
        }
    }
    /// Whether appearance callbacks reach children by themselves (true) or the container sends them.
    open var shouldAutomaticallyForwardAppearanceMethods: Bool { true }

    package enum Appearance { case disappeared, appearing, appeared, disappearing }
    package private(set) var appearance = Appearance.disappeared
    /// Set while a transition (a presentation, a push) sends this controller's appearance callbacks
    /// itself, so that moving its view in and out of the window sends none.
    package var appearanceManagedByTransition = false

    /// A controller with no nib (there are none here).
    public init(nibName nibNameOrNil: String?, bundle nibBundleOrNil: Bundle?) {
        super.init()
    }

    public convenience override init() { self.init(nibName: nil, bundle: nil) }

    /// Interface Builder's initializer: nothing is decoded here (no nib or storyboard), so it fails.
    public required init?(coder: NSCoder) { return nil }

    // MARK: The view

    /// The controller's view, loaded on first use (``loadView()``, then ``viewDidLoad()``).
    open var view: UIView! {
        get {
            if loadedView == nil { loadViewIfNeeded() }
            return loadedView
        }
        set {
            loadedView?.viewController = nil
            loadedView = newValue
            newValue?.viewController = self
        }
    }

    /// The view if it was loaded, without loading it.
    open var viewIfLoaded: UIView? { loadedView }
    open var isViewLoaded: Bool { loadedView != nil }

    /// Loads the view now if it was not loaded.
    open func loadViewIfNeeded() {
        guard loadedView == nil, !isLoadingView else { return }
        isLoadingView = true
        defer { isLoadingView = false }
        loadView()
        if loadedView == nil { view = UIView(frame: UIScreen.main.bounds) }
        viewDidLoad()
    }

    /// Makes the view: the default is a plain view the size of the screen. Override to set ``view``
    /// yourself (without calling `super`).
    open func loadView() {
        view = UIView(frame: UIScreen.main.bounds)
    }

    open func viewDidLoad() {}
    /// Never called here (a stage has no memory pressure); kept for code that overrides it.
    open func didReceiveMemoryWarning() {}

    var madeTopLayoutGuide: UILayoutSupport?
    var madeBottomLayoutGuide: UILayoutSupport?
    /// iOS 7's layout guides (deprecated in iOS 11): the safe area's top and bottom as guides of the view.
    open var topLayoutGuide: UILayoutSupport { layoutSupport(top: true) }
    open var bottomLayoutGuide: UILayoutSupport { layoutSupport(top: false) }

    // MARK: Segues (there are no storyboards)

    /// UIKit performs a storyboard segue; there are no storyboards here, so it is logged with UIKit's
    /// message and not performed (`prepare(for:sender:)` is not called).
    open func performSegue(withIdentifier identifier: String, sender: Any?) {
        UIKitLog.warn("Receiver (\(self)) has no segue with identifier '\(identifier)' (there are no storyboards here)")
    }
    open func shouldPerformSegue(withIdentifier identifier: String, sender: Any?) -> Bool { true }
    /// Called before a segue; never here (there are none), kept for code that overrides it.
    open func prepare(for segue: UIStoryboardSegue, sender: Any?) {}
    open func viewWillAppear(_ animated: Bool) {}
    open func viewDidAppear(_ animated: Bool) {}
    open func viewWillDisappear(_ animated: Bool) {}
    open func viewDidDisappear(_ animated: Bool) {}
    open func viewWillLayoutSubviews() {}

    /// Adds or changes the constraints of the controller's view; called by the layout pass where the
    /// view's `updateConstraints` would be. The default calls the view's `updateConstraints()`. Call super
    /// last, as UIKit asks.
    open func updateViewConstraints() { viewIfLoaded?.updateConstraints() }
    open func viewDidLayoutSubviews() {}
    /// Called when the view's safe-area insets change.
    open func viewSafeAreaInsetsDidChange() {}

    /// True during a presentation of this controller (from `present` until it completes).
    open var isBeingPresented: Bool { flags.contains(.beingPresented) }
    /// True during its dismissal.
    open var isBeingDismissed: Bool { flags.contains(.beingDismissed) }
    /// True while a container adds it (a push), until the transition completes.
    open var isMovingToParent: Bool { flags.contains(.movingToParent) }
    /// True while a container removes it (a pop), until the transition completes.
    open var isMovingFromParent: Bool { flags.contains(.movingFromParent) }

    struct TransitionFlags: OptionSet {
        let rawValue: UInt8
        static let beingPresented = TransitionFlags(rawValue: 1)
        static let beingDismissed = TransitionFlags(rawValue: 2)
        static let movingToParent = TransitionFlags(rawValue: 4)
        static let movingFromParent = TransitionFlags(rawValue: 8)
    }

    var flags = TransitionFlags()

    // MARK: Presentation state (UIViewController+Presentation.swift)

    /// How a presentation of this controller covers the screen. Default `.automatic`, shown full screen
    /// here (iOS shows a page sheet; listed in the stage's `notDrawn`).
    open var modalPresentationStyle = UIModalPresentationStyle.automatic
    /// The built-in animation of a presentation without an animation controller. Default `.coverVertical`.
    open var modalTransitionStyle = UIModalTransitionStyle.coverVertical
    /// True: a sheet showing this controller is not dismissed by a swipe down (it springs back, and its
    /// presentation controller's delegate hears `presentationControllerDidAttemptToDismiss`), and touches
    /// outside it do not reach what is behind. Set on a child shown in the presented controller (the top
    /// of a presented navigation controller, as Apple's sample for sheets does), it counts too.
    /// Default false.
    open var isModalInPresentation = false

    /// Whether this controller, or a child of it on screen (recursively), is modal in presentation.
    final var isModalInPresentationWithShownChildren: Bool {
        if isModalInPresentation { return true }
        return children.contains { $0.isViewLoaded && $0.view.window != nil && $0.isModalInPresentationWithShownChildren }
    }
    /// Supplies the animators and presentation controller of this controller's presentations.
    open weak var transitioningDelegate: UIViewControllerTransitioningDelegate?
    /// Accepted; presentations here always cover the window.
    open var definesPresentationContext = false
    open var providesPresentationContextTransitionStyle = false
    /// Insets added to the view's safe area (points). Default zero.
    open var additionalSafeAreaInsets = UIEdgeInsets.zero { didSet { viewIfLoaded?.setNeedsLayout() } }
    /// Insets a container adds to a child's safe area (a navigation bar's height).
    package var containerSafeAreaInsets = UIEdgeInsets.zero { didSet { viewIfLoaded?.setNeedsLayout() } }
    /// The controller this one presented, until it is dismissed.
    open var presentedViewController: UIViewController? { presented }
    var presented: UIViewController?
    weak var presenter: UIViewController?
    var presentationRecord: PresentationRecord?
    /// The sheet made for this controller (``sheetPresentationController``), kept for its presentation.
    var sheetController: UISheetPresentationController?
    /// The transition this controller is part of, while it runs.
    var activeTransition: ControllerTransition?
    var storedNavigationItem: UINavigationItem?
    /// The scroll views given by `setContentScrollView(_:for:)`, by edge.
    var givenContentScrollViews: [UInt: WeakScrollView] = [:]
    var storedTabBarItem: UITabBarItem?

    /// The status bar: the stage draws it when `Stage.showsStatusBar` (its style and whether it hides
    /// from the controller that decides, as UIKit asks them); the animation and updates are accepted.
    open var prefersStatusBarHidden: Bool { false }
    open var preferredStatusBarStyle: UIStatusBarStyle { .default }
    open var preferredStatusBarUpdateAnimation: UIStatusBarAnimation { .fade }
    /// Asks for the status bar's look to be read again. Inside an animation block the change animates
    /// over the block's duration (eased in and out), as `preferredStatusBarUpdateAnimation` says (of the
    /// controller that decides whether the bar hides): `.fade` cross-fades, `.slide` moves the bar up out
    /// of view or down into it when it hides or shows, `.none` changes at once. Outside one, the change
    /// shows at the next frame (the stage reads the bar's look at every frame anyway).
    open func setNeedsStatusBarAppearanceUpdate() {
        let duration = UIView.inheritedAnimationDuration
        guard duration > 0, let now = StageContext.engine?.currentTime else { return }
        StatusBarAppearanceUpdate.requested = (now, duration)
    }
    /// A child that decides the status bar's style in this controller's place; nil (the default): this one.
    open var childForStatusBarStyle: UIViewController? { nil }
    /// A child that decides whether the status bar hides in this controller's place; nil (the default): this one.
    open var childForStatusBarHidden: UIViewController? { nil }
    /// The stage is portrait: accepted for code that overrides them.
    open var supportedInterfaceOrientations: UIInterfaceOrientationMask { .all }
    open var shouldAutorotate: Bool { true }
    open var prefersHomeIndicatorAutoHidden: Bool { false }
    open var modalPresentationCapturesStatusBarAppearance = false

    // UIContentContainer: the stage's screen never changes size, so the change callbacks are never called.
    open func preferredContentSizeDidChange(forChildContentContainer container: UIContentContainer) {}
    open func systemLayoutFittingSizeDidChange(forChildContentContainer container: UIContentContainer) {}
    open func size(forChildContentContainer container: UIContentContainer, withParentContainerSize parentSize: CGSize) -> CGSize { parentSize }
    open func viewWillTransition(to size: CGSize, with coordinator: UIViewControllerTransitionCoordinator) {}
    open func willTransition(to newCollection: UITraitCollection, with coordinator: UIViewControllerTransitionCoordinator) {}
    /// The storyboard it came from: none here.
    open var storyboard: UIStoryboard? { nil }

    /// The traits in effect (the stage's).
    open var traitCollection: UITraitCollection { UITraitCollection.current }

    /// Called when the traits this controller sees change, with the ones before. A stage's traits do not
    /// change while it runs; a snapshot that applies traits over its device's
    /// (`assertSnapshot(of: controller, as: .image(on:traits:))`, as swift-snapshot-testing does with an
    /// override) calls it once the controller is shown, before the picture is laid out and taken.
    open func traitCollectionDidChange(_ previousTraitCollection: UITraitCollection?) {}

    /// Tells this controller, then its view's tree (each view before its subviews), then its children,
    /// that the traits changed from `previous`: the order UIKit propagates a change in.
    package func traitsDidChange(from previous: UITraitCollection?) {
        traitCollectionDidChange(previous)
        loadedView?.traitsDidChange(from: previous)
        for child in children { child.traitsDidChange(from: previous) }
    }

    open override var next: UIResponder? { loadedView?.superview ?? parent }

    // MARK: Appearance

    /// Tells the controller its view is about to appear (`isAppearing`) or disappear; pair each with
    /// ``endAppearanceTransition()``. Calls that do not change the state are ignored, as UIKit's.
    open func beginAppearanceTransition(_ isAppearing: Bool, animated: Bool) {
        switch (isAppearing, appearance) {
        case (true, .disappeared), (true, .disappearing):
            appearance = .appearing
            lastAnimated = animated
            viewWillAppear(animated)
            forwardToChildren { $0.beginAppearanceTransition(true, animated: animated) }
        case (false, .appeared), (false, .appearing):
            appearance = .disappearing
            lastAnimated = animated
            viewWillDisappear(animated)
            forwardToChildren { $0.beginAppearanceTransition(false, animated: animated) }
        default:
            break
        }
    }

    private var lastAnimated = false

    /// Ends the appearance transition begun last: `viewDidAppear` or `viewDidDisappear`.
    open func endAppearanceTransition() {
        switch appearance {
        case .appearing:
            appearance = .appeared
            viewDidAppear(lastAnimated)
            forwardToChildren { $0.endAppearanceTransition() }
        case .disappearing:
            appearance = .disappeared
            viewDidDisappear(lastAnimated)
            forwardToChildren { $0.endAppearanceTransition() }
        default:
            break
        }
    }

    private func forwardToChildren(_ body: (UIViewController) -> Void) {
        guard shouldAutomaticallyForwardAppearanceMethods else { return }
        for child in children where child.isViewLoaded && child.view.isDescendant(of: view) && !child.appearanceManagedByTransition {
            body(child)
        }
    }

    /// Called by the view when it moves into or out of a window.
    package func viewWindowWillChange(to window: UIWindow?) {
        guard !appearanceManagedByTransition, parentForwardsAppearance == false else { return }
        beginAppearanceTransition(window != nil, animated: false)
    }

    package func viewWindowDidChange() {
        guard !appearanceManagedByTransition, parentForwardsAppearance == false else { return }
        endAppearanceTransition()
    }

    /// Whether the parent sends this controller's appearance callbacks (its view moving with the
    /// parent's view): then moving with it must not send them twice.
    private var parentForwardsAppearance: Bool {
        guard let parent, parent.shouldAutomaticallyForwardAppearanceMethods, parent.isViewLoaded, isViewLoaded else { return false }
        return parent.appearance == .appearing || parent.appearance == .disappearing
    }

    // MARK: Presenting and navigating (UIViewController+Presentation.swift, UINavigationController.swift)

    /// Presents `viewControllerToPresent` over the window: with the animation controller and presentation
    /// controller of its `transitioningDelegate` (`.custom` style), or its `modalTransitionStyle`.
    /// Callbacks in UIKit's order: `presentationTransitionWillBegin`, the presenting controller's
    /// `viewWillDisappear` (when its view leaves the screen, as in `.fullScreen`) and the presented one's
    /// `viewWillAppear`, the animation, then `presentationTransitionDidEnd`, `viewDidDisappear`,
    /// `viewDidAppear`, the animator's `animationEnded` and `completion`, at the virtual time the
    /// animator completes. What UIKit refuses with a console message is refused with the same message
    /// (on standard error, and in the stage's `warnings`): a presentation from a controller already
    /// presenting or whose view is in no window, or of one already presented or in a container.
    open func present(_ viewControllerToPresent: UIViewController, animated flag: Bool, completion: (() -> Void)? = nil) {
        presentController(viewControllerToPresent, animated: flag, completion: completion)
    }

    /// Dismisses the controller this one presented or, when it presented none, the presentation it is
    /// part of, with the presented controller's dismissal animator (or its `modalTransitionStyle`
    /// backwards); `completion` runs when it ends. Controllers presented above go with it, at once.
    /// Nothing happens when nothing is presented.
    open func dismiss(animated flag: Bool, completion: (() -> Void)? = nil) {
        dismissPresentation(animated: flag, completion: completion)
    }

    /// Pushes `vc` on the navigation controller this controller is in, or presents it.
    open func show(_ vc: UIViewController, sender: Any?) { showController(vc) }

    /// The controller that presented this one (or an ancestor), if any.
    open var presentingViewController: UIViewController? { presentingController }

    /// The presentation controller of the presentation this controller is in, while it lasts; before
    /// it is presented, for a sheet style, the sheet it will be presented in (so that a delegate set on it
    /// hears the swipe's callbacks, as in UIKit).
    open var presentationController: UIPresentationController? {
        currentPresentationController ?? (presenter == nil && parent == nil ? sheetPresentationController : nil)
    }

    /// The sheet this controller is presented in (iOS 15): made when first asked for a controller whose
    /// `modalPresentationStyle` is `.pageSheet`, `.formSheet` or `.automatic`, so that its detents can be
    /// set before `present`; a child asks its container's; nil for the other styles.
    open var sheetPresentationController: UISheetPresentationController? {
        if let parent { return parent.sheetPresentationController }
        switch modalPresentationStyle {
        case .pageSheet, .formSheet, .automatic:
            if let sheetController { return sheetController }
            let sheet = UISheetPresentationController(presentedViewController: self, presenting: nil)
            sheetController = sheet
            return sheet
        default:
            return nil
        }
    }

    /// The running transition this controller (or an ancestor) takes part in, to animate alongside
    /// (`animate(alongsideTransition:completion:)`); nil when none runs.
    open var transitionCoordinator: UIViewControllerTransitionCoordinator? { runningCoordinator }

    /// The navigation controller this controller is in, if any.
    open var navigationController: UINavigationController? { enclosingNavigationController }

    /// The items a navigation controller's toolbar shows while this controller is its top one.
    open var toolbarItems: [UIBarButtonItem]? {
        didSet { if let navigation = navigationController, navigation.topViewController === self { navigation.showToolbarItems() } }
    }

    open func setToolbarItems(_ toolbarItems: [UIBarButtonItem]?, animated: Bool) { self.toolbarItems = toolbarItems }

    /// iOS 15: the scroll view whose edge a bar at `edge` follows (its appearance at the scroll edge or
    /// not); nil leaves it to UIKit's choice.
    open func setContentScrollView(_ scrollView: UIScrollView?, for edge: NSDirectionalRectEdge) {
        for single in [NSDirectionalRectEdge.top, .leading, .bottom, .trailing] where edge.contains(single) {
            givenContentScrollViews[single.rawValue] = scrollView.map(WeakScrollView.init)
        }
        navigationController?.updateBarScrollEdges()
        enclosingTabBarController?.updateBarScrollEdges()
    }

    /// The scroll view a bar at `edge` follows: the one given, else the view itself when it scrolls, else
    /// the first of its subviews that does.
    open func contentScrollView(for edge: NSDirectionalRectEdge) -> UIScrollView? {
        for single in [NSDirectionalRectEdge.top, .leading, .bottom, .trailing] where edge.contains(single) {
            if let given = givenContentScrollViews[single.rawValue]?.view { return given }
        }
        guard let view = viewIfLoaded else { return nil }
        if let scroll = view as? UIScrollView { return scroll }
        return view.subviews.first { $0 is UIScrollView } as? UIScrollView
    }

    /// The item a navigation bar shows for this controller (made on first use).
    open var navigationItem: UINavigationItem { lazyNavigationItem }

    /// The item this controller's tab shows (made on first use).
    open var tabBarItem: UITabBarItem! {
        get { lazyTabBarItem }
        set { storedTabBarItem = newValue }
    }

    /// The tab bar controller this controller is in, if any.
    open var tabBarController: UITabBarController? { enclosingTabBarController }

    // MARK: Children

    /// Adds `childController` as a child: calls its `willMove(toParent: self)`; the caller adds its view
    /// and then calls its `didMove(toParent: self)`, as with UIKit.
    open func addChild(_ childController: UIViewController) {
        guard childController !== self, childController.parent !== self else { return }
        childController.removeFromParent()
        childController.willMove(toParent: self)
        children.append(childController)
        childController.parent = self
    }

    /// Removes the controller from its parent and calls its `didMove(toParent: nil)`; the caller calls
    /// `willMove(toParent: nil)` first and takes its view out, as with UIKit.
    open func removeFromParent() {
        guard let parent else { return }
        parent.children.removeAll { $0 === self }
        self.parent = nil
        didMove(toParent: nil)
    }

    open func willMove(toParent parent: UIViewController?) {}
    open func didMove(toParent parent: UIViewController?) {}

    open override var description: String { "<\(type(of: self))>" }
}

/// A scroll view held weakly (a controller's content scroll view belongs to its view tree).
struct WeakScrollView {
    weak var view: UIScrollView?
    init(_ view: UIScrollView) { self.view = view }
}

/// The last status-bar update asked for inside an animation block: when (seconds of the stage's clock) and
/// over how long. The stage animates the next change of the bar it sees within that time.
package enum StatusBarAppearanceUpdate {
    nonisolated(unsafe) package static var requested: (time: Double, duration: Double)?
}
