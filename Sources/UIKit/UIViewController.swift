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
    open var title: String?
    /// The controllers this one contains, in the order they were added.
    open private(set) var children: [UIViewController] = []
    /// The controller this one is a child of.
    open private(set) weak var parent: UIViewController?
    /// The size a container should give the view (points); zero unless set.
    open var preferredContentSize = CGSize.zero
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
    open func viewWillAppear(_ animated: Bool) {}
    open func viewDidAppear(_ animated: Bool) {}
    open func viewWillDisappear(_ animated: Bool) {}
    open func viewDidDisappear(_ animated: Bool) {}
    open func viewWillLayoutSubviews() {}
    open func viewDidLayoutSubviews() {}
    /// Called when the view's safe-area insets change.
    open func viewSafeAreaInsetsDidChange() {}

    /// Whether the view is appearing or has appeared and not begun to disappear.
    open var isBeingPresented: Bool { false }
    open var isBeingDismissed: Bool { false }
    open var isMovingToParent: Bool { false }
    open var isMovingFromParent: Bool { false }

    /// The traits in effect (the stage's).
    open var traitCollection: UITraitCollection { UITraitCollection.current }

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
