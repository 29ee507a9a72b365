import Foundation
import Motion
import RasterCore
import SnapshotView

/// Gives a page view controller its pages, as UIKit's `UIPageViewControllerDataSource`.
public protocol PageViewControllerDataSource: AnyObject {
    /// The page before `viewController`, or nil at the first page.
    func pageViewController(_ pageViewController: PageViewController, viewControllerBefore viewController: ViewController) -> ViewController?
    /// The page after `viewController`, or nil at the last page.
    func pageViewController(_ pageViewController: PageViewController, viewControllerAfter viewController: ViewController) -> ViewController?
}

/// Told of turns made by the user's gestures, as UIKit's `UIPageViewControllerDelegate` (not of
/// ``PageViewController/setViewControllers(_:direction:animated:completion:)``, as in UIKit). Both
/// methods have defaults that do nothing.
public protocol PageViewControllerDelegate: AnyObject {
    /// A turn to `pendingViewControllers` starts.
    func pageViewController(_ pageViewController: PageViewController, willTransitionTo pendingViewControllers: [ViewController])
    /// The turn's animation ended; `completed` is false when the page fell back (a cancelled drag).
    func pageViewController(_ pageViewController: PageViewController, didFinishAnimating finished: Bool,
                            previousViewControllers: [ViewController], transitionCompleted completed: Bool)
}

extension PageViewControllerDelegate {
    /// Does nothing.
    public func pageViewController(_ pageViewController: PageViewController, willTransitionTo pendingViewControllers: [ViewController]) {}
    /// Does nothing.
    public func pageViewController(_ pageViewController: PageViewController, didFinishAnimating finished: Bool,
                                   previousViewControllers: [ViewController], transitionCompleted completed: Bool) {}
}

/// One of a page view controller's gesture recognizers: a tap near an edge turns a page, a drag turns
/// it under the finger. Turning them off is how an app stops the user turning pages (seed 002 does it
/// while the next page loads).
public final class PageGestureRecognizer {
    /// What the recognizer recognizes.
    public enum Kind: String, Sendable { case tap, pan }
    /// Tap or pan.
    public let kind: Kind
    /// When false the gesture does nothing. Default true.
    public var isEnabled = true
    init(kind: Kind) { self.kind = kind }
}

/// A finger dragging a page: where it is (page points) at seconds from the touch.
public struct PageDrag: Hashable, Sendable {
    /// One moment of the drag.
    public struct Sample: Hashable, Sendable {
        /// Seconds from the touch.
        public var time: Double
        /// The finger, in the page's points.
        public var location: Point
    }
    /// Sorted by time; NaN and infinite values are dropped.
    public let samples: [Sample]

    /// A drag through `samples` (seconds, page points).
    public init(samples: [(time: Double, x: Double, y: Double)]) {
        self.samples = samples.filter { $0.time.isFinite && $0.x.isFinite && $0.y.isFinite }
            .map { Sample(time: max(0, $0.time), location: Point(x: $0.x, y: $0.y)) }
            .sorted { $0.time < $1.time }
    }

    /// The finger at `time` (linear between samples).
    public func location(at time: Double) -> Point {
        guard let first = samples.first else { return .zero }
        guard time > first.time else { return first.location }
        for (a, b) in zip(samples, samples.dropFirst()) where time <= b.time {
            let f = b.time > a.time ? (time - a.time) / (b.time - a.time) : 1
            return Point(x: a.location.x + (b.location.x - a.location.x) * f, y: a.location.y + (b.location.y - a.location.y) * f)
        }
        return samples.last!.location
    }

    /// The drag as a swipe of points moved towards the spine (forward) or away from it (reverse), for
    /// the release rule the navigation controller's back swipe uses.
    public func swipe(_ direction: PageViewController.NavigationDirection) -> EdgePanGesture {
        let x0 = samples.first?.location.x ?? 0
        return EdgePanGesture(samples: samples.map { ($0.time, direction == .forward ? x0 - $0.location.x : $0.location.x - x0) })
    }
}

/// Pages turned one at a time, as UIKit's `UIPageViewController` with one page on screen: the page
/// curl, or pages sliding side by side (`.scroll`).
///
/// A turn asks the data source for the page before or after the current one, then animates: 0.4 s
/// ease-in-ease-out for a curl (``curlDuration``), 0.3 s for a scroll (``scrollDuration``). A drag turns
/// the page under the finger (progress: distance moved over the page's width) and, on release, finishes
/// or falls back by the rule of the navigation controller's back swipe (``EdgePanGesture``). While a turn
/// runs, other turns are refused; so are turns whose gesture recognizer is off.
///
/// The curl draws the page with ``PageCurlDrawing`` from a snapshot at ``snapshotScale``; the page
/// below is the real view.
public final class PageViewController: ViewController {
    /// How pages change.
    public enum TransitionStyle: String, Sendable { case pageCurl, scroll }
    /// Which way.
    public enum NavigationDirection: String, Sendable { case forward, reverse }

    /// Curl or scroll.
    public let transitionStyle: TransitionStyle
    /// Gives the pages. Not retained.
    public weak var dataSource: (any PageViewControllerDataSource)?
    /// Told of gesture-driven turns. Not retained.
    public weak var delegate: (any PageViewControllerDelegate)?
    /// The engine turns run on; nil: they happen at once.
    public weak var engine: AnimationEngine?
    /// The page on screen (one).
    public private(set) var viewControllers: [ViewController] = []
    /// The tap and the pan recognizer, as UIKit's `gestureRecognizers`.
    public let gestureRecognizers: [PageGestureRecognizer] = [PageGestureRecognizer(kind: .tap), PageGestureRecognizer(kind: .pan)]
    /// Pixels per point of the snapshot a curl draws (set it to the render's scale). Default 2.
    public var snapshotScale = 2.0
    /// Seconds of a programmatic curl: 0.4. No device measurement of UIPageViewController's curl was
    /// found in published sources (UIKit does not document it); 0.4 s is this project's earlier figure,
    /// kept: unverified.
    public var curlDuration = 0.4
    /// The tilt of a tapped curl's axis at its start (radians; negative: the bottom corner lifts first):
    /// −0.35 (20°), as far as a drag tilts it, pivoting at the page's top edge. It straightens linearly
    /// with the curl's progress.
    public static let tapCurlAngle = -0.35
    /// Seconds of a programmatic scroll: 0.3, a scroll view's animated scroll.
    public var scrollDuration = 0.3
    /// The curve of programmatic turns: ease-in-ease-out.
    public var turnCurve = TimingCurve.easeInEaseOut
    /// Whether a turn is running.
    public var isTurning: Bool { turn != nil }
    /// The running turn's progress, 0…1 (nil when none runs).
    public var turnProgress: Double? { turn?.progress }
    /// The page's size (points).
    public let pageSize: Size

    private struct Turn {
        let from: ViewController
        let to: ViewController
        let direction: NavigationDirection
        let interactive: Bool
        let snapshot: Bitmap?
        /// The snapshot washed as the curl's back shows it, made once for the whole turn.
        let back: Bitmap?
        var progress = 0.0
    }
    private var turn: Turn?
    private var curlView: DrawingView?

    /// A page view controller `size` points large turning pages with `transitionStyle` on `engine`.
    public init(transitionStyle: TransitionStyle, engine: AnimationEngine?, size: Size = Size(width: 320, height: 367)) {
        self.transitionStyle = transitionStyle
        self.engine = engine
        pageSize = size
        super.init()
    }

    public override func loadView() -> View {
        let view = View(frame: Rect(origin: .zero, size: pageSize), name: "pageViewController")
        view.clipsToBounds = true
        view.backgroundColor = .white
        return view
    }

    private var tapRecognizer: PageGestureRecognizer { gestureRecognizers[0] }
    private var panRecognizer: PageGestureRecognizer { gestureRecognizers[1] }

    // MARK: Setting pages

    /// Shows `viewControllers` (one page), as UIKit's `setViewControllers(_:direction:animated:completion:)`:
    /// animated, it turns to it in `direction` (without asking the data source or telling the delegate);
    /// otherwise it replaces the page at once. `completion` gets whether it finished. Refused (completion
    /// false) while a turn runs.
    public func setViewControllers(_ viewControllers: [ViewController], direction: NavigationDirection, animated: Bool,
                                   completion: ((Bool) -> Void)? = nil) {
        guard let page = viewControllers.first, turn == nil else { completion?(false); return }
        guard animated, let current = self.viewControllers.first, engine != nil else {
            if let current = self.viewControllers.first { current.view.removeFromSuperview() }
            place(page)
            try? view.addSubview(page.view)
            self.viewControllers = [page]
            completion?(true)
            return
        }
        start(from: current, to: page, direction: direction, drag: nil, notify: false, completion: completion)
    }

    // MARK: Gestures

    /// A tap near the page's edge (right for forward, left for reverse), as UIKit's tap recognizer: turns
    /// to the data source's next or previous page. Returns whether a turn started (false: the recognizer
    /// is off, a turn is running, or there is no such page).
    @discardableResult
    public func tap(_ direction: NavigationDirection) -> Bool {
        guard tapRecognizer.isEnabled else { return false }
        return turnFromGesture(direction, drag: nil)
    }

    /// A finger dragging the page (towards the spine for forward, away for reverse), the curl following it;
    /// on release the turn finishes or falls back. Returns whether a turn started.
    @discardableResult
    public func drag(_ direction: NavigationDirection, following drag: PageDrag) -> Bool {
        guard panRecognizer.isEnabled, drag.samples.count >= 2 else { return false }
        return turnFromGesture(direction, drag: drag)
    }

    private func turnFromGesture(_ direction: NavigationDirection, drag: PageDrag?) -> Bool {
        guard turn == nil, engine != nil, let current = viewControllers.first, let dataSource else { return false }
        let target = direction == .forward
            ? dataSource.pageViewController(self, viewControllerAfter: current)
            : dataSource.pageViewController(self, viewControllerBefore: current)
        guard let target else { return false }
        start(from: current, to: target, direction: direction, drag: drag, notify: true, completion: nil)
        return true
    }

    // MARK: Turning

    private func place(_ page: ViewController) {
        ViewChangeObservation.withoutObserver { page.view.frame = Rect(origin: .zero, size: pageSize) }
    }

    private func start(from: ViewController, to: ViewController, direction: NavigationDirection, drag: PageDrag?,
                       notify: Bool, completion: ((Bool) -> Void)?) {
        guard let engine else { return }
        if notify { delegate?.pageViewController(self, willTransitionTo: [to]) }
        place(to)
        from.viewWillDisappear(true)
        to.viewWillAppear(true)
        var snapshot: Bitmap?
        ViewChangeObservation.withoutObserver {
            switch transitionStyle {
            case .pageCurl:
                // Forward: the current page curls away over the next. Reverse: the previous page uncurls over
                // the current one.
                let curling = direction == .forward ? from : to
                if direction == .forward { try? view.insertSubview(to.view, belowSubview: from.view) } else { try? view.addSubview(to.view) }
                snapshot = try? curling.view.snapshot(scale: snapshotScale)
                curling.view.isHidden = true
                let curl = DrawingView(frame: Rect(origin: .zero, size: pageSize), drawing: nil, name: "pageCurl")
                try? view.addSubview(curl)
                curlView = curl
            case .scroll:
                try? view.addSubview(to.view)
            }
        }
        turn = Turn(from: from, to: to, direction: direction, interactive: drag != nil, snapshot: snapshot,
                    back: snapshot.map(PageCurlDrawing.washedBack(of:)))
        apply(progress: 0, angle: 0)

        let duration = transitionStyle == .pageCurl ? curlDuration : scrollDuration
        let width = pageSize.width
        let startTime = engine.currentTime
        let swipe = drag?.swipe(direction)
        let finishes = swipe?.finishes(width: width) ?? true
        let release = swipe?.duration ?? 0
        // After a drag the rest runs as a back swipe's does: from the finger's velocity, without a lurch.
        let rest: Double, releaseProgress: Double, restCurve: TimingCurve
        if let swipe {
            let r = swipe.release(width: width)
            (rest, releaseProgress, restCurve) = (r.duration, r.progress, r.curve)
        } else {
            (rest, releaseProgress, restCurve) = (duration, 0, turnCurve)
        }
        // A tap's tilted axis pivots at the page's top edge, so the bottom corner lifts from the first frame
        // (pivoting at the middle, the axis would travel half the overhang before touching the page).
        let startY = drag?.samples.first?.location.y ?? 0
        let total = release + rest
        var releaseAngle = 0.0
        /// Progress and axis angle at `t` seconds from the start.
        let state = { [pageSize, turnCurve] (t: Double) -> (Double, Double) in
            guard let drag, let swipe else {
                // A tap: the page lifts from its bottom corner, its axis tilted by tapCurlAngle, and the
                // axis straightens as the page goes over (reverse: the page lands corner last).
                let p = turnCurve.progress(at: total > 0 ? min(1, t / total) : 1)
                let curled = direction == .forward ? p : 1 - p
                return (p, PageViewController.tapCurlAngle * (1 - curled))
            }
            if t < release {
                let p = min(0.999, max(0, swipe.translation(at: t) / width))
                // The axis tilts as the finger moves up or down from where it touched.
                let dy = drag.location(at: t).y - startY
                let angle = max(-0.35, min(0.35, dy / pageSize.width))
                releaseAngle = angle
                return (p, angle)
            }
            let f = rest > 0 ? min(1, (t - release) / rest) : 1
            let eased = restCurve.progress(at: f)
            let target = finishes ? 1.0 : 0.0
            return (releaseProgress + (target - releaseProgress) * eased, releaseAngle * (1 - eased))
        }
        let pivot = startY
        engine.addDisplayLink(duration: total) { [weak self] time in
            guard let self else { return }
            let (p, angle) = state(time - startTime)
            self.apply(progress: p, angle: angle, pivotY: pivot)
            if time - startTime >= total - 1e-9 { self.end(completed: finishes, notify: notify, completion: completion) }
        }
        if total <= 0 { end(completed: finishes, notify: notify, completion: completion) }
    }

    /// Shows the running turn at `progress` (0…1 of the way to the new page).
    private func apply(progress: Double, angle: Double, pivotY: Double? = nil) {
        guard var turn else { return }
        turn.progress = progress
        self.turn = turn
        let w = pageSize.width
        let sign: Double = turn.direction == .forward ? 1 : -1
        switch transitionStyle {
        case .pageCurl:
            guard let snapshot = turn.snapshot else { return }
            // Reverse: the previous page comes back, so its curl runs from turned over to flat.
            let curlProgress = turn.direction == .forward ? progress : 1 - progress
            curlView?.drawing = PageCurlDrawing(page: snapshot, back: turn.back, geometry: PageCurlGeometry(progress: curlProgress, pageSize: pageSize,
                                                                                            angle: angle, pivotY: pivotY))
        case .scroll:
            turn.from.view.frame = Rect(x: -sign * w * progress, y: 0, width: w, height: pageSize.height)
            turn.to.view.frame = Rect(x: sign * w * (1 - progress), y: 0, width: w, height: pageSize.height)
        }
    }

    private func end(completed: Bool, notify: Bool, completion: ((Bool) -> Void)?) {
        guard let turn else { return }
        self.turn = nil
        ViewChangeObservation.withoutObserver {
            curlView?.removeFromSuperview()
            curlView = nil
            turn.from.view.isHidden = false
            turn.to.view.isHidden = false
            place(turn.from)
            place(turn.to)
            (completed ? turn.from : turn.to).view.removeFromSuperview()
        }
        if completed {
            viewControllers = [turn.to]
            turn.from.viewDidDisappear(true)
            turn.to.viewDidAppear(true)
        } else {
            turn.to.viewWillDisappear(true)
            turn.to.viewDidDisappear(true)
            turn.from.viewWillAppear(true)
            turn.from.viewDidAppear(true)
        }
        if notify { delegate?.pageViewController(self, didFinishAnimating: true, previousViewControllers: [turn.from], transitionCompleted: completed) }
        completion?(completed)
    }
}
