/// UIKit's window: the root of what the stage draws. Its root view controller's view fills it; its
/// safe-area insets are the stage's device's.
open class UIWindow: UIView {
    /// The controller whose view fills the window. Setting it puts the new controller's view in the window
    /// (sized to the window) and takes the old one's out, with their appearance callbacks when the window
    /// is visible.
    open var rootViewController: UIViewController? {
        didSet {
            guard oldValue !== rootViewController else { return }
            if let old = oldValue, old.isViewLoaded, old.view.superview === self { old.view.removeFromSuperview() }
            installRootView()
        }
    }

    /// Whether ``makeKeyAndVisible()`` was called (the stage's window is key).
    open private(set) var isKeyWindow = false
    /// Insets of the device's screen that content should keep clear of (points): the notch or island,
    /// the home indicator. Set by the stage.
    package var deviceSafeAreaInsets = UIEdgeInsets.zero

    public override init(frame: CGRect) {
        super.init(frame: frame)
        isHidden = true
    }

    public required init?(coder: NSCoder) { nil }

    /// A window filling the main screen.
    public convenience init() { self.init(frame: UIScreen.main.bounds) }

    /// The window's level among windows; one window is drawn here, so it changes nothing.
    open var windowLevel = UIWindow.Level.normal

    /// Shows the window and makes it key.
    open func makeKeyAndVisible() {
        isKeyWindow = true
        UIWindow.stageWindow = self
        isHidden = false
        installRootView()
        layoutIfNeeded()
    }

    open func makeKey() { isKeyWindow = true }

    open override var isHidden: Bool {
        get { super.isHidden }
        set {
            let appearing = super.isHidden && !newValue
            super.isHidden = newValue
            if appearing { installRootView() }
        }
    }

    /// The root controller whose `viewDidAppear` waits for the next layout pass.
    private var appearingRoot: UIViewController?

    /// Puts the root controller's view in the window: `viewWillAppear` now, `viewDidAppear` after the
    /// next layout pass, as UIKit orders a window's first appearance (will appear, layout, did appear).
    private func installRootView() {
        guard let controller = rootViewController, !isHidden else { return }
        let view = controller.view!
        guard view.superview !== self else { return }
        view.frame = bounds
        view.autoresizingMask = [.flexibleWidth, .flexibleHeight]
        controller.beginAppearanceTransition(true, animated: false)
        controller.appearanceManagedByTransition = true
        addSubview(view)
        controller.appearanceManagedByTransition = false
        appearingRoot = controller
    }

    open override func layoutIfNeeded() {
        super.layoutIfNeeded()
        if let controller = appearingRoot {
            appearingRoot = nil
            controller.endAppearanceTransition()
        }
    }

    open override var safeAreaInsets: UIEdgeInsets { deviceSafeAreaInsets }

    open override var window: UIWindow? { self }

    /// A window's level (`.normal`, `.statusBar`, `.alert`).
    public struct Level: RawRepresentable, Hashable, Sendable {
        public let rawValue: CGFloat
        public init(rawValue: CGFloat) { self.rawValue = rawValue }
        public init(_ rawValue: CGFloat) { self.rawValue = rawValue }
        public static let normal = Level(0)
        public static let statusBar = Level(1000)
        public static let alert = Level(2000)
    }
}
