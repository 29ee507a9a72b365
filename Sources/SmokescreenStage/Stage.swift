import BoundedInput
import Containers
import FrameStore
import Motion
import PNGIO
import QuartzCore
import RasterCore
import SnapshotView
import TransitionCompositor
import UIKit

/// A headless iOS screen on a virtual clock: a window on a chosen device, the UIKit code you run on it,
/// and a frame taken at every tick of the clock while time passes.
///
/// ```swift
/// let stage = try Stage(device: .iPhone15)
/// stage.show(ListViewController())
/// UIView.animate(withDuration: 0.3) { card.center.y -= 100 }
/// try stage.waitUntilIdle()
/// try stage.write(to: "out/card")
/// ```
///
/// **Time.** The clock starts at 0 and moves only in ``wait(_:)`` and ``waitUntilIdle(timeLimit:)``:
/// code you run between them runs at the current virtual time, as a turn of iOS's run loop does; its
/// animations start then, and completions run at the exact times they fall due. Frame *k* shows the
/// screen at *k* / fps seconds after laying out what needs it, as iOS lays out before drawing.
///
/// **One stage at a time.** Making a stage makes it the one UIKit's calls use (`UIScreen.main`, the
/// traits, `UIView.animate`), until another is made; run stages one after another, not side by side.
public final class Stage {
    /// The device drawn.
    public let device: Device
    /// The window: the stage's screen. It is visible from the start.
    public let window: UIWindow
    /// Frames per second of the clock.
    public let fps: Double
    /// Pixels per point of the frames (the device's unless the stage was made with another).
    public let scale: CGFloat
    /// Draws iOS's status bar over every frame taken from now on, as its own window lies over the app's:
    /// the notch's layout ("9:41" in the left ear, signal, Wi-Fi and battery in the right) on a device
    /// whose safe area starts more than 20 points down, the 20-point bar otherwise; dark content in the
    /// light appearance and light in the dark one, or what the deciding controller's
    /// `preferredStatusBarStyle` asks (hidden when it `prefersStatusBarHidden`); light while a sheet shrinks
    /// the screen back over black.
    /// Default false: frames show the window alone, as swift-snapshot-testing's pictures do;
    /// `smokescreen render File.swift` turns it on unless `--no-status-bar`.
    public var showsStatusBar = false
    /// Draws the home indicator over every frame taken from now on, on a device with a bottom safe area
    /// (no home button): black, or white in the dark appearance. Default false; on with the status bar in
    /// `smokescreen render File.swift`.
    public var showsHomeIndicator = false
    /// The overlays made so far, by what they show.
    private var chrome: [Chrome: RenderNode] = [:]
    /// The status bar the last frame showed (nil inside: hidden), and a change of it being animated.
    private var shownStatusBar: StatusBar.Style??
    private var statusBarChanging: (from: StatusBar.Style?, to: StatusBar.Style?, start: Double, duration: Double, slides: Bool)?

    let engine: AnimationEngine
    /// Black, behind the window, as a device's screen is where the window draws nothing.
    private let screen: View
    private var times: [Double] = []
    private var nodes: [RenderNode] = []
    private var viewFrames = 0
    private var notes: [String] = []
    private var logged: [String] = []
    private let touches: TouchDispatcher

    /// A stage on `device`, its clock at `fps` frames a second (default 60), frames drawn at `scale`
    /// pixels per point (default the device's), in the `appearance` given (default light), at the
    /// Dynamic Type text size `contentSizeCategory` (default `.large`, iOS's default), reading
    /// `UIImage(named:)` from `imageFolders` in order, its random numbers (`Int.random(in:)` and the rest)
    /// drawn from a generator seeded with `randomSeed` (default 0), so two runs draw the same frames.
    /// - Throws: ``StageError/invalidSetting(_:)`` for a size, scale or frame rate out of range.
    public init(device: Device = .iPhone15, fps: Double = 60, scale: CGFloat? = nil, appearance: UIUserInterfaceStyle = .light,
                contentSizeCategory: UIContentSizeCategory = .large, imageFolders: [String] = [], randomSeed: UInt64 = 0) throws {
        let scale = scale ?? device.scale
        // (A status-bar update another stage asked for is not this one's.)
        StatusBarAppearanceUpdate.requested = nil
        guard device.size.width >= 1, device.size.height >= 1, device.size.width <= 8192, device.size.height <= 8192 else {
            throw StageError.invalidSetting("a device's size must be 1…8192 points each way, got \(device.size.width) × \(device.size.height)")
        }
        guard [1, 2, 3].contains(scale), [1, 2, 3].contains(device.scale) else {
            throw StageError.invalidSetting("scale must be 1, 2 or 3, got \(scale)")
        }
        guard fps.isFinite, fps >= Limits.minFPS, fps <= Limits.maxFPS else {
            throw StageError.invalidSetting("fps must be in \(Limits.fpsRange), got \(fps)")
        }
        self.device = device
        self.fps = fps
        self.scale = scale
        engine = AnimationEngine(fps: fps)
        UIScreen.setMain(UIScreen(bounds: CGRect(origin: .zero, size: device.size), scale: device.scale))
        UITraitCollection.current = UITraitCollection(style: appearance == .dark ? .dark : .light, scale: device.scale, contentSize: contentSizeCategory,
                                                       screen: device.size)
        UIImage.searchFolders = imageFolders
        StageContext.engine = engine
        StageRandomNumberGenerator.seed(randomSeed)
        StageContext.displayScale = Double(device.scale)
        _ = NotDrawn.take()
        _ = UIViewController.takeWarnings()
        UIViewController.forgetRunningTransitions()
        screen = View(frame: Rect(x: 0, y: 0, width: Double(device.size.width), height: Double(device.size.height)), name: "screen")
        screen.backgroundColor = .black
        window = UIWindow(frame: CGRect(origin: .zero, size: device.size))
        window.deviceSafeAreaInsets = device.safeAreaInsets
        touches = TouchDispatcher(window: window)
        try? screen.addSubview(window.layer.backing)
        window.isHidden = false
    }

    deinit {
        if StageContext.engine === engine { StageContext.engine = nil }
    }

    // MARK: Running code

    /// Makes `controller` the window's root view controller and shows the window: the controller's view
    /// loads, fills the window, appears (`viewWillAppear`, `viewDidAppear`) and is laid out.
    public func show(_ controller: UIViewController) {
        window.rootViewController = controller
        window.makeKeyAndVisible()
        layOut()
    }

    /// The virtual time (seconds since the stage was made).
    public var time: TimeInterval { engine.currentTime }

    /// Lets `seconds` of virtual time pass, taking a frame at every tick of the clock on the way (and one
    /// now, when now is a tick not yet taken). Completions and other timed events run at their times.
    /// - Throws: ``StageError/overLimit(_:)`` when the frames would pass the render limits.
    public func wait(_ seconds: TimeInterval) throws {
        try pass(seconds, what: "wait") { t in touches.tick(at: t) }
    }

    /// Lets `seconds` pass as ``wait(_:)`` does, calling `atTick` with each tick's time after the clock
    /// reached it and before its frame is taken (where a finger moves).
    private func pass(_ seconds: TimeInterval, what: String, atTick: (Double) -> Void) throws {
        guard seconds.isFinite, seconds >= 0 else { throw StageError.invalidSetting("\(what) needs a finite time ≥ 0, got \(seconds)") }
        let target = engine.currentTime + seconds
        guard target <= Limits.maxSeconds + 1e-9 else {
            throw StageError.overLimit("waiting until \(target) s passes the limit of \(Int(Limits.maxSeconds)) s of virtual time")
        }
        try captureIfOnTick()
        var next = nextTick()
        let last = engine.clock.frame(atOrBefore: target + 1e-9)
        if last >= next, times.count + (last - next + 1) > FrameTimes.maximumFrameCount {
            throw StageError.overLimit("waiting \(seconds) s takes \(last - next + 1) frames at \(fps) fps, past the limit of "
                                       + "\(FrameTimes.maximumFrameCount) frames in all (\(times.count) taken); lower the frame rate or wait less")
        }
        while engine.clock.time(ofFrame: next) <= target + 1e-9 {
            try advanceAndCapture(frame: next, atTick: atTick)
            next += 1
        }
        engine.advance(to: target)
        layOut()
    }

    // MARK: Touches

    /// Puts a finger down at `point` (window coordinates, points) now: the view under it and the
    /// gesture recognizers of that view and its ancestors get it, as on iOS. One finger at a time; a
    /// finger already down lifts first.
    public func touchDown(at point: CGPoint) throws {
        try checkPoint(point)
        touches.touchDown(at: point, time: engine.currentTime)
    }

    /// Moves the finger that is down to `point` in a straight line over `duration` seconds, a sample at
    /// every tick (a frame each), the last at `point`.
    public func moveTouch(to point: CGPoint, duration: TimeInterval) throws {
        try checkPoint(point)
        guard touches.isTouching, let from = touchLocation else { throw StageError.invalidSetting("moveTouch needs a finger down (touchDown(at:) first)") }
        try moveFinger(along: [from, point], duration: duration)
    }

    /// Lifts the finger now; a pan reports `velocity` (points a second, window coordinates) as its
    /// release velocity when given, else the motion of its last samples.
    public func liftTouch(velocity: CGVector? = nil) {
        touches.touchUp(at: touchLocation ?? .zero, time: engine.currentTime, velocity: velocity)
        touchLocation = nil
        layOut()
    }

    /// A tap at `point`: down, held 0.05 s, up; `count` taps 0.15 s apart (UIKit counts taps within
    /// 0.35 s and 10 points of each other).
    public func tap(at point: CGPoint, count: Int = 1) throws {
        guard (1...10).contains(count) else { throw StageError.invalidSetting("tap count must be 1…10, got \(count)") }
        for index in 0..<count {
            try touchDown(at: point)
            try hold(0.05)
            liftTouch()
            if index < count - 1 { try wait(0.1) }
        }
    }

    /// A finger down at `point`, held `duration` seconds without moving, then lifted.
    public func longPress(at point: CGPoint, duration: TimeInterval) throws {
        try touchDown(at: point)
        try hold(duration)
        liftTouch()
    }

    /// A pan: a finger down at `start`, moved in a straight line to `end` over `duration` seconds, then
    /// lifted with `releaseVelocity` (points a second; by default the motion of the path's end).
    public func pan(from start: CGPoint, to end: CGPoint, duration: TimeInterval, releaseVelocity: CGVector? = nil) throws {
        try pan(along: [start, end], duration: duration, releaseVelocity: releaseVelocity)
    }

    /// A pan along `points` (window coordinates), visited at even times over `duration` seconds, then
    /// lifted with `releaseVelocity`.
    public func pan(along points: [CGPoint], duration: TimeInterval, releaseVelocity: CGVector? = nil) throws {
        guard let first = points.first else { throw StageError.invalidSetting("pan needs at least one point") }
        try touchDown(at: first)
        try moveFinger(along: points, duration: duration)
        liftTouch(velocity: releaseVelocity)
    }

    private var touchLocation: CGPoint?

    private func checkPoint(_ point: CGPoint) throws {
        guard point.x.isFinite, point.y.isFinite else { throw StageError.invalidSetting("a touch needs a finite point, got \(point)") }
        touchLocation = point
    }

    private func hold(_ seconds: TimeInterval) throws {
        try pass(seconds, what: "a touch") { t in touches.tick(at: t) }
    }

    private func moveFinger(along points: [CGPoint], duration: TimeInterval) throws {
        for point in points { try checkPoint(point) }
        touchLocation = points.first
        let start = engine.currentTime
        let position = { (t: Double) -> CGPoint in
            guard points.count > 1, duration > 0 else { return points[points.count - 1] }
            let f = min(1, max(0, (t - start) / duration)) * Double(points.count - 1)
            let i = min(points.count - 2, Int(f)), w = CGFloat(f - Double(i))
            return CGPoint(x: points[i].x + (points[i + 1].x - points[i].x) * w, y: points[i].y + (points[i + 1].y - points[i].y) * w)
        }
        try pass(duration, what: "a touch") { t in
            let p = position(t)
            touchLocation = p
            touches.touchMoved(to: p, time: t)
            touches.tick(at: t)
        }
        // The end of the path, exactly, whether or not it fell on a tick.
        let end = points[points.count - 1]
        if touchLocation != end {
            touchLocation = end
            touches.touchMoved(to: end, time: engine.currentTime)
        }
    }

    /// Lets time pass, a frame at every tick, until nothing animates or waits to complete; the last
    /// frame shows the state after everything ended.
    /// - Parameter timeLimit: virtual seconds from now after which a stage still animating is an error
    ///   (default 60).
    /// - Throws: ``StageError/stillRunning(after:running:)`` naming what still runs,
    ///   ``StageError/transitionNeverCompleted(_:)`` when only transitions whose animators never complete
    ///   them are left, and the errors of ``wait(_:)``.
    public func waitUntilIdle(timeLimit: TimeInterval = 60) throws {
        let limit = engine.currentTime + max(0, min(timeLimit, Limits.maxSeconds))
        try captureIfOnTick()
        var next = nextTick()
        while !engine.isIdle || !UIViewController.runningTransitions.isEmpty {
            if engine.isIdle { throw StageError.transitionNeverCompleted(UIViewController.runningTransitions) }
            let t = engine.clock.time(ofFrame: next)
            guard t <= limit + 1e-9 else {
                let running = engine.records.filter { if case .running = $0.outcome { true } else { false } }.map(\.description)
                throw StageError.stillRunning(after: limit, running: running)
            }
            try advanceAndCapture(frame: next)
            next += 1
        }
    }

    /// Runs the layout pass iOS runs before each frame: `layoutSubviews` of every view that needs it,
    /// top down.
    public func layOut() {
        window.layoutIfNeeded()
    }

    // MARK: Frames

    /// How many frames were taken.
    public var frameCount: Int { times.count }

    /// What the stage's views were given that is not drawn yet (each once, in order): the notes of
    /// docs/uikit.md's "accepted, not drawn".
    public var notDrawn: [String] {
        collectNotes()
        return notes
    }

    /// The views in the window laid out by constraints that do not fix their frames (UIKit's
    /// `hasAmbiguousLayout`), described with the axis that is free: what `render File.swift` reports as
    /// lint does for scene files. Empty when the layout is fully determined.
    public var ambiguousLayouts: [String] {
        window.layoutIfNeeded()
        var found: [String] = []
        func visit(_ view: UIView) {
            if !view.translatesAutoresizingMaskIntoConstraints {
                let axes = [(NSLayoutConstraint.Axis.horizontal, "horizontally"), (.vertical, "vertically")].filter { axis, _ in
                    axis == .horizontal ? view.leadingAnchor.hasAmbiguousLayout || view.widthAnchor.hasAmbiguousLayout
                        : view.topAnchor.hasAmbiguousLayout || view.heightAnchor.hasAmbiguousLayout
                }.map(\.1)
                if !axes.isEmpty { found.append("\(view.description) is ambiguous \(axes.joined(separator: " and "))") }
            }
            for subview in view.subviews { visit(subview) }
        }
        visit(window)
        return found
    }

    /// What UIKit logged and went on from, in order (a present on a controller already presenting, a push
    /// of a controller already in the stack): each message is also written to standard error.
    public var warnings: [String] {
        collectNotes()
        return logged
    }

    /// Descriptions of the view controller transitions running now (started, not yet completed).
    public var runningTransitions: [String] { UIViewController.runningTransitions }

    /// The only folder ``write(to:name:force:jobs:)`` may write, when set (by ``StageRunner``, for a
    /// script that `smokescreen render` runs).
    nonisolated(unsafe) static var onlyOutputFolder: String?

    /// The frames taken, named `name`, for a writer or a golden-frames check.
    public func frames(name: String = "stage") -> FrameSequence {
        FrameSequence(name: name, pointSize: Size(width: Double(device.size.width), height: Double(device.size.height)), scale: Double(scale),
                      fps: fps, times: times, nodes: nodes, durations: [:])
    }

    /// Writes the frames taken as PNG files and a manifest into `folder` (made when missing), as
    /// `smokescreen render` does, encoding on `jobs` threads (default: the number of cores; the files
    /// are the same for any number). Returns the number of frames written.
    @discardableResult
    public func write(to folder: String, name: String? = nil, force: Bool = false, jobs: Int? = nil) throws -> Int {
        if let only = Stage.onlyOutputFolder, (folder as NSString).standardizingPath != (only as NSString).standardizingPath {
            throw StageError.invalidSetting("a script run by `smokescreen render` writes only its render folder (\(only)), not \(folder): "
                                            + "the command writes the frames when the script returns")
        }
        let sequence = frames(name: name ?? (folder as NSString).lastPathComponent)
        let threads = max(1, jobs ?? ProcessInfo.processInfo.activeProcessorCount)
        let report = try FrameWriter(directory: folder, jobs: threads, force: force).write(sequence)
        return report.written.count
    }

    /// The screen as it shows now (laid out first), at the stage's scale.
    public func snapshot() throws -> UIImage {
        layOut()
        let bitmap = try screen.snapshot(scale: Double(scale), presentation: engine)
        return UIImage(bitmap: bitmap)
    }

    /// What `view` shows now (laid out first): its bounds and subtree at the stage's scale, transparent
    /// where it draws nothing, as Core Animation renders a view's layer into an image.
    public func snapshot(of view: UIView) throws -> UIImage {
        layOut()
        return UIImage(bitmap: try view.backing.snapshot(scale: Double(scale), presentation: engine))
    }

    /// What `layer` shows now: its bounds and sublayers at the stage's scale, transparent where it draws
    /// nothing, as `CALayer.render(in:)` draws into an image.
    public func snapshot(of layer: CALayer) throws -> UIImage {
        UIImage(bitmap: try layer.backing.snapshot(scale: Double(scale), presentation: engine))
    }

    private func nextTick() -> Int {
        let now = engine.currentTime
        let k = engine.clock.frame(atOrBefore: now)
        return engine.clock.time(ofFrame: k) < now || frameTaken(k) ? k + 1 : k
    }

    private func frameTaken(_ k: Int) -> Bool {
        guard let last = times.last else { return false }
        return engine.clock.frame(atOrBefore: last) >= k
    }

    private func captureIfOnTick() throws {
        let now = engine.currentTime
        let k = engine.clock.frame(atOrBefore: now)
        if engine.clock.time(ofFrame: k) == now, !frameTaken(k) { try capture(at: now) }
    }

    private func advanceAndCapture(frame k: Int, atTick: (Double) -> Void = { _ in }) throws {
        let t = engine.clock.time(ofFrame: k)
        engine.advance(to: t)
        if engine.eventLimitReached {
            throw StageError.overLimit("over \(AnimationEngine.maximumEventsPerAdvance) completions at t = \(t) s: completions keep starting animations that end at once")
        }
        atTick(t)
        try capture(at: t)
    }

    private func capture(at t: Double) throws {
        guard times.count < FrameTimes.maximumFrameCount else {
            throw StageError.overLimit("more than the limit of \(FrameTimes.maximumFrameCount) frames at \(fps) fps; lower the frame rate or wait less")
        }
        if Self.nests(screen, deeperThan: Limits.viewNesting) {
            throw StageError.overLimit("views (or layers) nested more than the limit of \(Limits.viewNesting) levels deep: "
                                       + "a tree is drawn level by level, and deeper trees are refused rather than overflow the stack")
        }
        layOut()
        guard let node = screen.renderNode(presentation: engine) else { return }
        viewFrames += TransitionDriver.viewCount(node)
        guard viewFrames <= Limits.viewFramesPerRender else {
            throw StageError.overLimit("the frames draw over \(Limits.viewFramesPerRender) views in all (each frame's tree is kept until the "
                                       + "frames are written); lower the frame rate, wait less or use fewer views")
        }
        let previous = times.last ?? -.infinity
        times.append(t)
        nodes.append(withSystemChrome(node, at: t, after: previous))
        collectNotes()
    }

    /// Whether `root`'s tree (its subviews and their masks) nests more than `limit` levels, found without
    /// recursion and stopping there. Masks are followed 8 deep, as they are drawn (masks may form a cycle).
    static func nests(_ root: View, deeperThan limit: Int) -> Bool {
        var stack: [(view: View, depth: Int, masks: Int)] = [(root, 1, 0)]
        while let (view, depth, masks) = stack.popLast() {
            if depth > limit { return true }
            for child in view.subviews { stack.append((child, depth + 1, masks)) }
            if let mask = view.mask, masks < 8 { stack.append((mask, depth + 1, masks + 1)) }
        }
        return false
    }

    /// What the system chrome over a frame shows: the status bar's style (nil: hidden) and the indicator's.
    private struct Chrome: Hashable {
        var statusBar: StatusBar.Style?
        var homeIndicator: StatusBar.Style?
    }

    /// `node` (the frame at `t`, the one before at `previous`) with the status bar and home indicator over
    /// it, when they are shown; a change of the bar asked for inside an animation block
    /// (`setNeedsStatusBarAppearanceUpdate`) animates.
    private func withSystemChrome(_ node: RenderNode, at t: Double, after previous: Double) -> RenderNode {
        guard showsStatusBar || showsHomeIndicator else { return node }
        let dark = window.traitCollection.userInterfaceStyle == .dark
        let hasIndicator = showsHomeIndicator && device.safeAreaInsets.bottom > 0
        let key = Chrome(statusBar: showsStatusBar ? statusBarStyle() : nil, homeIndicator: hasIndicator ? (dark ? .lightContent : .darkContent) : nil)
        if showsStatusBar, let changing = statusBarChange(to: key.statusBar, at: t, after: previous) {
            let change = changing.change, p = changing.progress
            // Sliding, the old bar leaves upwards and the new one comes down; otherwise they cross-fade.
            let bars: [(StatusBar.Style?, (StatusBar) -> Void)] = [
                (change.from, { if change.slides { $0.frame.origin.y -= p * $0.frame.maxY } else { $0.alpha = 1 - p } }),
                (change.to, { if change.slides { $0.frame.origin.y -= (1 - p) * $0.frame.maxY } else { $0.alpha = p } }),
            ]
            if let overlay = chromeOverlay(bars: bars, indicator: key.homeIndicator) { return node.addingFrontChild(overlay) }
        }
        if key.statusBar == nil, key.homeIndicator == nil { return node }
        if chrome[key] == nil { chrome[key] = chromeOverlay(bars: [(key.statusBar, { _ in })], indicator: key.homeIndicator) }
        guard let overlay = chrome[key] else { return node }
        return node.addingFrontChild(overlay)
    }

    /// The screen-sized overlay of status bars (each of a style, nil: none, adjusted by its closure: moved or
    /// faded) and a home indicator (of a style, nil: none). A phone in landscape shows no status bar.
    private func chromeOverlay(bars: [(StatusBar.Style?, (StatusBar) -> Void)], indicator: StatusBar.Style?) -> RenderNode? {
        let width = Double(device.size.width), height = Double(device.size.height)
        let overlay = View(frame: Rect(x: 0, y: 0, width: width, height: height), name: "system chrome")
        overlay.isOpaque = false
        if !(device.isPhone && device.isLandscape) {
            for (style, adjust) in bars {
                guard let style, let bar = StatusBar.forScreen(width: width, safeAreaTop: Double(device.safeAreaInsets.top), isPhone: device.isPhone, style: style) else { continue }
                adjust(bar)
                try? overlay.addSubview(bar)
            }
        }
        if let indicator { try? overlay.addSubview(HomeIndicator(screenWidth: width, screenHeight: height, style: indicator)) }
        return overlay.renderNode()
    }

    /// The status bar's change under way at `t` and how far it has gone (eased in and out), or nil when the
    /// bar is not changing: a change seen at this frame starts one when an update was asked for inside an
    /// animation block since the frame before (`StatusBarAppearanceUpdate`), with the deciding
    /// controller's `preferredStatusBarUpdateAnimation`.
    private func statusBarChange(to style: StatusBar.Style?, at t: Double, after previous: Double)
        -> (change: (from: StatusBar.Style?, to: StatusBar.Style?, start: Double, duration: Double, slides: Bool), progress: Double)? {
        defer { shownStatusBar = .some(style) }
        if let shown = shownStatusBar, shown != style, let request = StatusBarAppearanceUpdate.requested,
           request.time > previous - 1e-9, request.time <= t + 1e-9, t < request.time + request.duration {
            let animation = statusBarControllers().hiding?.preferredStatusBarUpdateAnimation ?? .fade
            statusBarChanging = animation == .none ? nil
                : (shown, style, request.time, request.duration, animation == .slide && (shown == nil) != (style == nil))
        }
        guard let change = statusBarChanging, change.to == style, t < change.start + change.duration else {
            statusBarChanging = nil
            return nil
        }
        return (change, TimingCurve.easeInEaseOut.progress(at: min(1, max(0, (t - change.start) / change.duration))))
    }

    /// The controllers that decide the status bar — the root's, or a full-screen presentation's (or one that
    /// captures the status bar's appearance), through `childForStatusBarHidden` and
    /// `childForStatusBarStyle` — and whether a sheet shrinks the screen back over black at this frame.
    private func statusBarControllers() -> (hiding: UIViewController?, styling: UIViewController?, shrunkBySheet: Bool) {
        var controller = window.rootViewController
        var shrunk = false
        while let presented = controller?.presentedViewController {
            if let sheet = presented.presentationController as? UISheetPresentationController {
                if let view = sheet.shrinkingView, let shown = view.layer.presentation()?.affineTransform(), shown.a < 0.999 { shrunk = true }
                break
            }
            guard presented.modalPresentationStyle == .fullScreen || presented.modalPresentationCapturesStatusBarAppearance else { break }
            controller = presented
        }
        var hiding = controller
        while let child = hiding?.childForStatusBarHidden { hiding = child }
        var styling = controller
        while let child = styling?.childForStatusBarStyle { styling = child }
        return (hiding, styling, shrunk)
    }

    /// The status bar's content over the screen now, or nil when it hides: light while a sheet shrinks
    /// the screen back over black (as shown at this frame); otherwise what the deciding controllers ask
    /// (``statusBarControllers()``), `.default` following the appearance.
    private func statusBarStyle() -> StatusBar.Style? {
        let deciding = statusBarControllers()
        if deciding.shrunkBySheet { return .lightContent }
        if deciding.hiding?.prefersStatusBarHidden == true { return nil }
        switch deciding.styling?.preferredStatusBarStyle ?? .default {
        case .lightContent: return .lightContent
        case .darkContent: return .darkContent
        case .default: return window.traitCollection.userInterfaceStyle == .dark ? .lightContent : .darkContent
        }
    }

    private func collectNotes() {
        for note in NotDrawn.take() where !notes.contains(note) { notes.append(note) }
        logged += UIViewController.takeWarnings()
    }
}
