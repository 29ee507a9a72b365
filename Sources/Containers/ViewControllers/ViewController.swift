import Motion
import RasterCore
import SnapshotView
import Typesetting

/// A screen's controller, as UIKit's `UIViewController`: it owns a view (made on first use by
/// ``loadView()``, then ``viewDidLoad()``), a title and a navigation item, and hears the appearance
/// callbacks in UIKit's order when a container shows or hides it.
///
/// **Appearance order** (as UIKit calls them; `A` below `B` on a navigation stack):
/// - push of B: `A.viewWillDisappear`, `B.viewWillAppear`, the animation, `A.viewDidDisappear`,
///   `B.viewDidAppear`;
/// - pop of B (animated, or interactive and finished): `B.viewWillDisappear`, `A.viewWillAppear`, the
///   animation, `B.viewDidDisappear`, `A.viewDidAppear`;
/// - interactive pop cancelled: `B.viewWillDisappear`, `A.viewWillAppear`, the gesture and the run
///   back, then `A.viewWillDisappear`, `A.viewDidDisappear`, `B.viewWillAppear`, `B.viewDidAppear`
///   (the reverse will/did calls UIKit makes).
///
/// The will-callbacks run inside the transition's animation context, so a change animated there (a
/// row's deselection) moves with the transition, following the finger when it is interactive; during a
/// transition ``transitionCoordinator`` is set.
open class ViewController {
    /// Shown in the navigation bar, and as the back button of the controller above. Default nil.
    open var title: String? {
        get { navigationItem.title }
        set { navigationItem.title = newValue }
    }
    /// What the navigation bar shows for this controller.
    public let navigationItem = NavigationItem()
    /// The navigation controller whose stack holds this controller, or nil.
    public internal(set) weak var navigationController: NavigationController?
    /// Set while a transition that shows or hides this controller runs (and its completions run).
    public internal(set) var transitionCoordinator: TransitionCoordinator?

    private var loadedView: View?

    /// A controller; its view is made when first asked for.
    public init() {}

    /// The controller's view, made by ``loadView()`` (then ``viewDidLoad()``) on first use.
    public var view: View {
        if let loadedView { return loadedView }
        let view = loadView()
        loadedView = view
        viewDidLoad()
        return view
    }

    /// Whether ``view`` has been made.
    public var isViewLoaded: Bool { loadedView != nil }

    /// Makes the view: by default a white view named after the title. Override to build your own;
    /// do not call `super`.
    open func loadView() -> View {
        let view = View(frame: Rect(x: 0, y: 0, width: 375, height: 667), name: title ?? "\(type(of: self))")
        view.backgroundColor = SystemPalette.of(appearance).background
        return view
    }

    /// The appearance the controller's view draws in (a navigation controller gives its own to the
    /// controllers it shows). Changing it after the view has loaded calls ``appearanceDidChange(from:)``.
    /// Default `.light`.
    public var appearance = Appearance.light {
        didSet { if oldValue != appearance, isViewLoaded { appearanceDidChange(from: oldValue) } }
    }

    /// The Dynamic Type text size the controller's view draws its text at (a navigation controller gives
    /// its own to the controllers it shows; a table view controller's table takes it). Changing it after
    /// the view has loaded calls ``textSizeDidChange(from:)``. Default `.large`.
    public var textSize = Font.ContentSize.large {
        didSet { if oldValue != textSize, isViewLoaded { textSizeDidChange(from: oldValue) } }
    }

    /// Called when ``textSize`` changed after the view loaded. The default does nothing; subclasses
    /// that draw text set its new size.
    open func textSizeDidChange(from old: Font.ContentSize) {}

    /// Called when ``appearance`` changed after the view loaded. The default gives the view the new
    /// system background when it had the old one; subclasses recolour what they drew and call `super`.
    open func appearanceDidChange(from old: Appearance) {
        if view.backgroundColor == SystemPalette.of(old).background { view.backgroundColor = SystemPalette.of(appearance).background }
    }

    /// Called once, after the view is made.
    open func viewDidLoad() {}
    /// The view is about to be shown; `animated` when a transition shows it.
    open func viewWillAppear(_ animated: Bool) {}
    /// The view is shown (the transition ended).
    open func viewDidAppear(_ animated: Bool) {}
    /// The view is about to be hidden.
    open func viewWillDisappear(_ animated: Bool) {}
    /// The view is hidden (the transition ended).
    open func viewDidDisappear(_ animated: Bool) {}
}

/// What a navigation bar shows for a controller, as `UINavigationItem`.
public final class NavigationItem {
    /// The title in the middle of the bar.
    public var title: String?
    /// The back button's title for the controller above this one; nil: this item's title.
    public var backButtonTitle: String?
    /// Buttons at the right, right to left.
    public var rightBarButtonItems: [BarButtonItem] = []
    /// Buttons at the left (shown instead of the back button when set).
    public var leftBarButtonItems: [BarButtonItem] = []

    /// An empty item.
    public init() {}
}

/// A button in a navigation bar, as `UIBarButtonItem` with a title: drawn as tinted text.
public struct BarButtonItem: Hashable, Sendable {
    /// The text shown.
    public var title: String
    /// Drawn in bold (a "Done" button). Default false.
    public var isProminent: Bool

    /// A button titled `title`.
    public init(title: String, isProminent: Bool = false) {
        self.title = title
        self.isProminent = isProminent
    }
}

/// What a controller learns about the transition that shows or hides it, as
/// `UIViewControllerTransitionCoordinator`: whether it is interactive, how far it is, whether it was
/// cancelled, and a way to animate along with it.
public final class TransitionCoordinator {
    let transition: PercentDrivenTransition
    /// Whether a finger drives the transition now (false once it is released, and for animated pushes
    /// and pops).
    public internal(set) var isInteractive: Bool
    /// Whether the transition animates (false for `animated: false`).
    public let isAnimated: Bool
    /// The whole transition's duration at normal speed (seconds).
    public var transitionDuration: Double { transition.duration }
    /// How far the transition is, 0…1: what the views show (the finger's position while it drives the
    /// transition; after the release, the position on the completion curve).
    public var percentComplete: Double { transition.progress }
    /// True once the transition completed by cancelling.
    public var isCancelled: Bool { transition.isCancelled }
    /// The speed the rest runs at after the finger lifts (1: the transition's own duration).
    public var completionVelocity: Double { transition.completionSpeed }

    init(transition: PercentDrivenTransition, isInteractive: Bool, isAnimated: Bool) {
        self.transition = transition
        self.isInteractive = isInteractive
        self.isAnimated = isAnimated
    }

    /// Runs `animation` along with the transition (following its progress, the finger's too, and running
    /// back on cancel) and `completion` when it completes, with this coordinator (its ``isCancelled``),
    /// as `animate(alongsideTransition:completion:)`. Returns false once the transition has completed
    /// (nothing is run then).
    @discardableResult
    public func animate(alongsideTransition animation: ((TransitionCoordinator) -> Void)?,
                        completion: ((TransitionCoordinator) -> Void)? = nil) -> Bool {
        guard transition.context == nil else { return false }
        transition.animateAlongside({ animation?(self) }, completion: { _ in completion?(self) })
        return true
    }
}
