import Containers
import Foundation
import Motion
import RasterCore
import SnapshotView
import TransitionCompositor
import Typesetting

/// The built-in navigation transitions: push and pop on a `NavigationController`, the interactive back
/// gesture finished and cancelled, and seed 003's three ways of deselecting the row you came back to,
/// each finished and cancelled with the same two gestures.
public struct NavigationTransition: Transition {
    /// Which transition.
    public enum Scene: String, Sendable, CaseIterable {
        /// Tap a row: its detail is pushed.
        case push = "nav-push"
        /// The back button: the detail is popped.
        case pop = "nav-pop"
        /// A back swipe released past half way.
        case popInteractiveFinish = "nav-pop-interactive-finish"
        /// A back swipe pulled back and released.
        case popInteractiveCancel = "nav-pop-interactive-cancel"
        /// `UITableViewController`'s own deselection, swipe finished.
        case deselectDefaultFinish = "deselect-default-finish"
        /// `UITableViewController`'s own deselection, swipe cancelled.
        case deselectDefaultCancel = "deselect-default-cancel"
        /// Deselection in `viewWillAppear`, swipe finished.
        case deselectNaiveFinish = "deselect-naive-finish"
        /// Deselection in `viewWillAppear`, swipe cancelled.
        case deselectNaiveCancel = "deselect-naive-cancel"
        /// Deselection alongside the transition, reselected on cancel; swipe finished.
        case deselectSmartFinish = "deselect-smart-finish"
        /// Deselection alongside the transition, reselected on cancel; swipe cancelled.
        case deselectSmartCancel = "deselect-smart-cancel"

        var way: DeselectingList.Way {
            switch self {
            case .deselectNaiveFinish, .deselectNaiveCancel: .naive
            case .deselectSmartFinish, .deselectSmartCancel: .smart
            default: .default
            }
        }

        /// The `deselect-…-cancel` scenes go back again with the back button once the swipe has cancelled.
        var goesBackAgain: Bool {
            switch self {
            case .deselectDefaultCancel, .deselectNaiveCancel, .deselectSmartCancel: true
            default: false
            }
        }

        /// The swipe, for the interactive ones.
        package var gesture: EdgePanGesture? {
            switch self {
            case .push, .pop: nil
            case .popInteractiveFinish, .deselectDefaultFinish, .deselectNaiveFinish, .deselectSmartFinish: NavigationTransition.finishingSwipe
            case .popInteractiveCancel, .deselectDefaultCancel, .deselectNaiveCancel, .deselectSmartCancel: NavigationTransition.cancellingSwipe
            }
        }
    }

    /// The swipe of every `…-finish` built-in: 0 → 230 pt in 0.6 s, released moving right at 400 pt/s
    /// (projected to 430 pt, past half of 375: it finishes).
    public static let finishingSwipe = EdgePanGesture(samples: [(0, 0), (0.15, 40), (0.45, 170), (0.6, 230)])
    /// The swipe of every `…-cancel` built-in: out to 150 pt (40 %), then back to 110 pt and released
    /// moving left (projected to −90 pt: it cancels).
    public static let cancellingSwipe = EdgePanGesture(samples: [(0, 0), (0.3, 120), (0.55, 150), (0.75, 110)])
    /// When the swipe, push or pop starts (seconds).
    public static let startTime = 0.2
    /// When the `deselect-…-cancel` built-ins tap the back button, after their swipe has cancelled
    /// (seconds).
    public static let backAgainTime = 1.4

    /// The scene rendered.
    public let scene: Scene

    /// The built-in `scene`.
    public init(_ scene: Scene) { self.scene = scene }

    /// The scene's name.
    public var name: String { scene.rawValue }
    /// 375x667 points.
    public var pointSize: Size { Size(width: 375, height: 667) }
    /// True: the list, the message, the bar and the status bar draw iOS's system colours of the appearance.
    public var followsAppearance: Bool { true }
    /// True: the list's rows and the message's text draw at the text size (the bar's title stays 17 pt).
    public var followsTextSize: Bool { true }

    /// One line for `smokescreen list`.
    public var summary: String {
        switch scene {
        case .push: "navigation push: tap a row, its detail slides in from the right over the list (parallax, dimming, shadow)"
        case .pop: "navigation pop: the back button, the detail slides away and the list's highlight fades with it"
        case .popInteractiveFinish: "interactive pop: a back swipe released past half way finishes"
        case .popInteractiveCancel: "interactive pop: a back swipe pulled back cancels, and the detail slides back"
        case .deselectDefaultFinish: "seed 003, UITableViewController's deselection: the row waits for the swipe to finish, then fades"
        case .deselectDefaultCancel: "seed 003, UITableViewController's deselection: cancelled, the row stays highlighted (stuck); then the back button"
        case .deselectNaiveFinish: "seed 003, deselect in viewWillAppear: the highlight follows the thumb"
        case .deselectNaiveCancel: "seed 003, deselect in viewWillAppear: cancelled, the row is left deselected; the back button shows it"
        case .deselectSmartFinish: "seed 003, deselect alongside the transition coordinator: the highlight follows the thumb"
        case .deselectSmartCancel: "seed 003, deselect alongside the transition coordinator: cancelled, the row is reselected; the back button fades it again"
        }
    }

    /// Builds the stack, starts the push, pop or swipe at ``startTime``, and freezes every frame.
    public func render(_ settings: RenderSettings) throws -> RenderedTransition {
        let scene = self.scene
        var keep: DeselectingList?
        var rendered = try TransitionDriver.render(name: name, settings: settings, defaultFPS: defaultFPS,
                                           durations: ["transition": 0.35, "deselect": TableViewCell.selectionFadeDuration],
                                           assets: []) { engine in
            let list = DeselectingList(way: scene.way, engine: engine)
            keep = list
            let nav = NavigationController(rootViewController: list, engine: engine, appearance: settings.appearance,
                                           textSize: settings.textSize)
            let window = nav.view
            window.name = "window"
            let selected = IndexPath(row: DeselectingList.selectedRow, section: 0)
            let context = try TransitionContext(container: window, fromView: nav.containerView, toView: nav.containerView,
                                                engine: engine, scale: settings.scale)
            context.inspectionState = {
                var state: [String: Double] = ["progress": nav.transitionProgress ?? (nav.viewControllers.count == 1 ? 1 : 0)]
                state["interactive"] = nav.activeCoordinator?.isInteractive == true ? 1 : 0
                state["selected"] = list.tableView.indexPathsForSelectedRows?.contains(selected) == true ? 1 : 0
                if let cell = list.tableView.cellForRow(at: selected) {
                    state["highlight"] = engine.presentationValue(of: .alpha, of: cell.selectedBackgroundView).doubleValue
                }
                return state
            }
            switch scene {
            case .push:
                engine.perform(afterDelay: Self.startTime) { list.tableView.tapRow(at: selected) }
            default:
                // The user tapped the row and its detail was pushed: the row is selected under it.
                list.tableView.selectRow(at: selected, animated: false, scrollPosition: .none)
                nav.pushViewController(DetailController(item: DeselectingList.items[selected.row]), animated: false)
                // The back button, pressed and released (it dims under the finger and leaves dimmed with
                // the popped item), or a back swipe.
                let backButton = { nav.navigationBar.content?.backButton }
                if let gesture = scene.gesture {
                    engine.perform(afterDelay: Self.startTime) { nav.popInteractively(following: gesture) }
                } else {
                    BarButtonPress.tap(backButton, liftingAt: Self.startTime, on: engine, leaves: true) { nav.popViewController(animated: true) }
                }
                if scene.goesBackAgain {
                    // After the cancelled swipe, the back button: what the cancel left shows as the list
                    // comes back (smart: the highlight, fading; naive: none; default: the stuck one, fading).
                    BarButtonPress.tap(backButton, liftingAt: Self.backAgainTime, on: engine, leaves: true) { nav.popViewController(animated: true) }
                }
            }
            _ = keep
            return context
        }
        rendered.markTraits(of: self, settings: settings)
        StatusBarOverlay.apply(to: &rendered, settings: settings)
        return rendered
    }
}

/// A list of messages; row 2 is the one opened. Deselects the way seed 003 describes.
final class DeselectingList: TableViewController {
    enum Way { case `default`, naive, smart }
    static let items = ["Lunch on Friday?", "Build failed on main", "Your order has shipped", "Slides for Tuesday",
                        "Re: the garden fence", "Photos from the trip", "Invoice #2041", "Welcome aboard", "Re: quarterly numbers",
                        "Tickets for Saturday", "Meeting moved to 3 pm", "New comment on your post"]
    static let selectedRow = 2
    let way: Way

    init(way: Way, engine: AnimationEngine) {
        self.way = way
        super.init(engine: engine)
        title = "Inbox"
        clearsSelectionOnViewWillAppear = way == .default
    }

    override func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int { Self.items.count }
    override func tableView(_ tableView: TableView, cellForRowAt indexPath: IndexPath) -> TableViewCell {
        let cell = tableView.dequeueReusableCell(withIdentifier: "message", for: indexPath)
        cell.textLabel.text = Self.items[indexPath.row]
        cell.accessoryType = .disclosureIndicator
        cell.name = "row \(indexPath.row)"
        return cell
    }
    override func tableView(_ tableView: TableView, didSelectRowAt indexPath: IndexPath) {
        navigationController?.pushViewController(DetailController(item: Self.items[indexPath.row]), animated: true)
    }

    /// The seed's three ways.
    override func viewWillAppear(_ animated: Bool) {
        super.viewWillAppear(animated)  // the default way: clearsSelectionOnViewWillAppear
        let selected = tableView.indexPathsForSelectedRows ?? []
        switch way {
        case .default:
            break
        case .naive:
            // Animations started here pick up the transition's context: they follow the thumb.
            for ip in selected { tableView.deselectRow(at: ip, animated: true) }
        case .smart:
            // The seed's rz_smoothlyDeselectRows: alongside the transition, reselected if it is cancelled.
            guard let coordinator = transitionCoordinator else {
                for ip in selected { tableView.deselectRow(at: ip, animated: false) }
                return
            }
            coordinator.animate(alongsideTransition: { [weak self] context in
                for ip in selected { self?.tableView.deselectRow(at: ip, animated: context.isAnimated) }
            }, completion: { [weak self] context in
                guard context.isCancelled else { return }
                for ip in selected { self?.tableView.selectRow(at: ip, animated: false, scrollPosition: .none) }
            })
        }
    }
}

/// A message opened: its subject and a few lines.
final class DetailController: ViewController {
    let item: String
    init(item: String) {
        self.item = item
        super.init()
        title = "Message"
    }
    override func loadView() -> View {
        let palette = SystemPalette.of(appearance)
        let view = View(frame: Rect(x: 0, y: 0, width: 375, height: 603), name: "detail")
        view.backgroundColor = palette.background
        // The subject in the title 2 style, bold (22 pt at Large), the body in the body style, both at
        // the text size; the body starts below the subject's two lines.
        let subjectSize = Font.TextStyle.title2.pointSize(at: textSize)
        let subjectHeight = 60 + 2 * TableViewMetrics.lineGrowth(.title2, at: textSize)
        let subject = Label(text: item, style: TextStyle(font: .boldSystem(size: subjectSize), color: palette.label, numberOfLines: 2),
                            frame: Rect(x: 20, y: 24, width: 335, height: subjectHeight), name: "subject")
        let text = "Thanks for the note. I looked at it this morning and everything seems in order; let me know if anything else comes up before the weekend."
        let style = TextStyle(font: .system(size: Font.TextStyle.body.pointSize(at: textSize)), color: Color(white: appearance == .dark ? 0.8 : 0.25),
                              numberOfLines: 0, lineSpacing: 3)
        // 140 pt at Large; at other sizes as tall as its lines (to the bottom of the view at most), its
        // top where the subject ends.
        let bodyY = 96 + subjectHeight - 60
        var bodyHeight = 140.0
        if textSize != .large, let layout = try? TextLayout(text, style: style, width: 335) { bodyHeight = min(603 - bodyY, layout.size.height) }
        let body = Label(text: text, style: style, frame: Rect(x: 20, y: bodyY, width: 335, height: bodyHeight), name: "body")
        try? view.addSubview(subject)
        try? view.addSubview(body)
        return view
    }
}
