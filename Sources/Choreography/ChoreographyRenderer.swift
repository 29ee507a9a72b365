import Motion
import RasterCore
import SnapshotView
import TransitionCompositor

/// Plays a ``Choreography`` between two view trees on a smokescreen and samples it into frames.
///
/// The renderer owns everything a hand-written transition used to do: it puts the from-tree in a window,
/// places snapshots of every choreographed piece on the smokescreen at their rects converted into its
/// coordinates (capturing each tree while it is in the window), swaps the real views underneath, and runs
/// one animation block per phase interval, each holding the smokescreen's use count.
public enum ChoreographyRenderer {
    /// Renders `choreography` from `from` to `to` (the roots of two trees of the same size, in points).
    /// - Parameters:
    ///   - background: the window's colour, seen only where neither tree draws. Default white.
    ///   - durations: the durations used, by name, for the manifest (seconds).
    ///   - name: the transition's name (the output folder's, and in messages).
    ///   - choreography: what moves, when; reversed when it says so.
    ///   - from: the root of the from-state, the canvas size in points.
    ///   - to: the root of the to-state, the same size.
    ///   - settings: scale, frame rate and hold frames.
    ///   - assets: image assets decoded for the trees, for the memory report.
    public static func render(name: String, choreography: Choreography, from: View, to: View, settings: RenderSettings,
                              background: Color = .white, durations: [String: Double], assets: [BitmapRecord]) throws -> RenderedTransition {
        try TransitionDriver.render(name: name, settings: settings, durations: durations, assets: assets) { engine in
            try perform(name: name, choreography: choreography, from: from, to: to, background: background, engine: engine,
                        scale: settings.scale, jobs: settings.jobs)
        }
    }

    /// Renders the choreography following a back swipe instead of the clock: its phases are scrubbed by
    /// the swipe's progress (each keeps its own delay, duration and curve within the whole), then run to
    /// the end or back to the start as the swipe decides (see
    /// `TransitionDriver.renderInteractive(name:settings:defaultFPS:durations:assets:gesture:startTime:width:setUp:)`).
    /// The swipe starts at `startTime` seconds; before it, the from-state shows.
    public static func renderInteractive(name: String, choreography: Choreography, from: View, to: View, settings: RenderSettings,
                                         background: Color = .white, durations: [String: Double], assets: [BitmapRecord],
                                         gesture: EdgePanGesture, startTime: Double) throws -> RenderedTransition {
        try TransitionDriver.renderInteractive(name: name, settings: settings, durations: durations, assets: assets, gesture: gesture,
                                               startTime: startTime, width: from.bounds.width) { engine in
            try perform(name: name, choreography: choreography, from: from, to: to, background: background, engine: engine,
                        scale: settings.scale, jobs: settings.jobs)
        }
    }

    /// Sets up the transition on `engine` and returns its context (what `render` samples). It happens in
    /// `container`, which holds the view it starts from (a navigation controller's container), or by
    /// default in a new window of `background`; snapshots are taken at `scale` pixels per point and drawn
    /// on up to `jobs` threads (``TransitionContext/snapshotJobs``; default nil: every core).
    public static func perform(name: String, choreography: Choreography, from: View, to: View, background: Color = .white,
                               engine: AnimationEngine, scale: Double, jobs: Int? = nil, in container: View? = nil) throws -> TransitionContext {
        var plan = try Plan(name: name, choreography: choreography, from: from, to: to)
        let window = container ?? View(frame: Rect(origin: .zero, size: from.bounds.size), name: "window")
        if container == nil { window.backgroundColor = background }
        let reversed = choreography.isReversed
        let context = try TransitionContext(container: window, fromView: reversed ? to : from, toView: reversed ? from : to,
                                            engine: engine, scale: scale)
        // A rect converts only between views of one tree: capture each tree while it is in the window.
        // Each piece's tree is frozen as it is captured; the pieces are drawn together afterwards.
        context.snapshotJobs = jobs
        try context.placeSnapshotsSideBySide {
            try plan.capture(reversed ? .to : .from, context: context)
            try context.swapViews()
            try plan.capture(reversed ? .from : .to, context: context)
        }
        plan.dropRedundantStage()
        plan.stack(in: context.smokescreen)

        let tracks = try plan.tracks()
        let end = tracks.map { $0.start + $0.duration }.max() ?? 0
        ViewChangeObservation.withoutObserver { for track in tracks { reversed ? track.atEnd() : track.atStart() } }
        // One block per phase interval: tracks that share a label, an interval and a curve move together.
        var groups: [(key: Track.Key, tracks: [Track])] = []
        for track in tracks {
            if let i = groups.firstIndex(where: { $0.key == track.key }) { groups[i].tracks.append(track) } else { groups.append((track.key, [track])) }
        }
        for (key, members) in groups {
            let delay = reversed ? end - key.start - key.duration : key.start
            var timing = BlockTiming(duration: key.duration, delay: max(0, delay), curve: key.curve)
            timing.spring = key.spring
            try context.animateBlock(key.label, timing: timing, animations: {
                for track in members { reversed ? track.atStart() : track.atEnd() }
            })
        }
        return context
    }
}

/// One property change of one piece over an interval of the forward transition.
struct Track {
    struct Key: Equatable {
        var label: String
        var start: Double
        var duration: Double
        var curve: TimingCurve
        /// The phase's spring (fitted to this track's interval where the track is part of the phase), or nil
        /// for ``curve``.
        var spring: BlockSpring?
    }

    var key: Key
    var start: Double { key.start }
    var duration: Double { key.duration }
    /// Puts the piece in its state at the start (forward).
    var atStart: () -> Void
    /// Puts the piece in its state at the end (forward).
    var atEnd: () -> Void
}

/// The pieces on the smokescreen and what each does.
struct Plan {
    enum Side { case from, to }

    struct Piece {
        var view: View
        var rect: Rect
        /// The alpha the view it stands for has on screen (its own times its ancestors' in its tree): a
        /// snapshot leaves the view's own alpha out, so the piece rests at this, and hands over to the
        /// view without a step.
        var alpha: Double = 1
        /// The snapshot inside ``view`` when ``view`` only holds it to cast its shadow (a matched pair's
        /// snapshots are clipped to their moving corners, and a clip would cut the shadow off); it fills
        /// ``view``'s bounds and takes the corners. Nil: ``view`` is the snapshot.
        var inner: View? = nil

        /// The view whose corners round and clip the piece.
        var clipped: View { inner ?? view }

        /// The piece's frame (and its snapshot's, when held) at `rect`.
        func place(_ rect: Rect) {
            view.frame = rect
            inner?.frame = Rect(origin: .zero, size: rect.size)
        }
    }

    /// The shadow `view` casts, for its snapshot placed at `rect` (the view's bounds converted, which a
    /// transform above it may have scaled): offset, blur and path scaled with it. Nil when it has none, or
    /// clips to its bounds (which cuts its shadow off: the snapshot holds what shows of it).
    static func shadow(of view: View, placedAt rect: Rect) -> Shadow? {
        guard var shadow = view.shadow, !view.clipsToBounds, view.bounds.width > 0, view.bounds.height > 0 else { return nil }
        let sx = rect.width / view.bounds.width, sy = rect.height / view.bounds.height
        guard sx.isFinite, sy.isFinite, sx > 0, sy > 0 else { return nil }
        shadow.offset = Size(width: shadow.offset.width * sx, height: shadow.offset.height * sy)
        shadow.radius *= (sx * sy).squareRoot()
        shadow.path = shadow.path?.applying(Transform2D(translationX: -view.bounds.minX, y: -view.bounds.minY)
            .concatenating(Transform2D(scaleX: sx, y: sy)))
        return shadow
    }

    /// Runs `body` with `view`'s shadow taken away when `taken` (its snapshot's piece casts it instead).
    private func withoutShadow<T>(of view: View, _ taken: Bool, _ body: () throws -> T) throws -> T {
        guard taken, let saved = view.shadow else { return try body() }
        ViewChangeObservation.withoutObserver { view.shadow = nil }
        defer { ViewChangeObservation.withoutObserver { view.shadow = saved } }
        return try body()
    }

    /// `view`'s alpha on screen: its own times every ancestor's up to its tree's root.
    static func onScreenAlpha(of view: View) -> Double {
        var alpha = 1.0
        var current: View? = view
        while let v = current {
            alpha *= v.alpha
            current = v.superview
        }
        return min(1, max(0, alpha))
    }

    let name: String
    let choreography: Choreography
    let trees: [Side: View]
    /// The choreographed views of each tree (matched and unmatched), hidden in every other snapshot.
    var choreographed: [Side: [View]] = [:]
    /// Unmatched views of each side, in selection order, with their entry.
    var unmatchedViews: [Side: [(view: View, entry: Int, order: Int)]] = [:]

    /// Each side's tree without its choreographed views: a snapshot, or no image and the one colour it
    /// would hold (``TransitionContext/placeBackdrop(of:name:)``).
    var stages: [Side: ImageView] = [:]
    var unmatchedPieces: [Side: [(piece: Piece, entry: Int, order: Int, source: String?)]] = [:]
    /// Each match's pieces on either side.
    var matchPieces: [Int: [Side: Piece]] = [:]
    /// Match sources for the text and live-image styles.
    var labels: [Int: [Side: Label]] = [:]
    var liveImages: [Int: ImageView] = [:]
    /// Each side's corners: radius (points), which corners it rounds, and their curve.
    var corners: [Int: [Side: (radius: Double, rounded: Corners, curve: CornerCurve)]] = [:]

    init(name: String, choreography: Choreography, from: View, to: View) throws {
        self.name = name
        self.choreography = choreography
        trees = [.from: from, .to: to]
        func fail(_ reason: String) -> ChoreographyError { ChoreographyError(transition: name, reason: reason) }
        guard from.bounds.size == to.bounds.size else {
            throw fail("the trees differ in size: \(from.bounds.size) and \(to.bounds.size) pt")
        }
        let phaseNames = Set(choreography.phases.map(\.name))
        guard phaseNames.count == choreography.phases.count else { throw fail("two phases have the same name") }
        if case .fromStageFadesOut(let stagePhase) = choreography.stageFade, !phaseNames.contains(stagePhase) {
            throw fail("stageFade: no phase named '\(stagePhase)'")
        }
        var matched: [Side: [View]] = [.from: [], .to: []]
        for (i, match) in choreography.matches.enumerated() {
            guard phaseNames.contains(match.phase) else { throw fail("matches[\(i)]: no phase named '\(match.phase)'") }
            guard let a = from.view(named: match.from) else { throw fail("matches[\(i)]: no view named '\(match.from)' in the from-tree") }
            guard let b = to.view(named: match.to) else { throw fail("matches[\(i)]: no view named '\(match.to)' in the to-tree") }
            if match.style == .liveImage, !(a is ImageView) { throw fail("matches[\(i)]: '\(match.from)' is not an image view (style liveImage)") }
            if match.style == .text, !(a is Label) || !(b is Label) { throw fail("matches[\(i)]: '\(match.from)' and '\(match.to)' must both be labels (style text)") }
            matched[.from]!.append(a)
            matched[.to]!.append(b)
        }
        var unmatched: [Side: [(view: View, entry: Int, order: Int)]] = [.from: [], .to: []]
        for (i, entry) in choreography.unmatched.enumerated() {
            guard phaseNames.contains(entry.phase) else { throw fail("unmatched[\(i)]: no phase named '\(entry.phase)'") }
            var views: [(View, Side)] = []
            switch entry.selection {
            case .views(let names):
                for viewName in names {
                    if let v = from.view(named: viewName) { views.append((v, .from)) } else if let v = to.view(named: viewName) { views.append((v, .to)) } else {
                        throw fail("unmatched[\(i)]: no view named '\(viewName)' in either tree")
                    }
                    // Drawn twice otherwise: moved by its match, and as an unmatched copy beside it.
                    if let (view, side) = views.last, matched[side]!.contains(where: { $0 === view }) {
                        throw fail("unmatched[\(i)]: view '\(viewName)' is matched too; a view is either matched or unmatched")
                    }
                }
            case .subviews(let parentName):
                let found: (View, Side)? = from.view(named: parentName).map { ($0, .from) } ?? to.view(named: parentName).map { ($0, .to) }
                guard let (parent, side) = found else {
                    throw fail("unmatched[\(i)]: no view named '\(parentName)' in either tree")
                }
                let visible = parent.bounds
                let named = Set(choreography.unmatched.flatMap { entry -> [String] in
                    if case .views(let names) = entry.selection { return names } else { return [] }
                })
                for child in parent.subviews where !child.isHidden && child.frame.intersects(visible)
                    && !matched[side]!.contains(where: { $0 === child }) && !named.contains(child.name ?? "") {
                    views.append((child, side))
                }
            }
            for effect in entry.effects {
                if case .slideAway(let anchor, _, _) = effect,
                   !choreography.matches.contains(where: { $0.from == anchor || $0.to == anchor }) {
                    throw fail("unmatched[\(i)]: slideAway names '\(anchor)', which is not a matched view")
                }
            }
            for (order, (view, side)) in views.enumerated() { unmatched[side]!.append((view, i, order)) }
        }
        for name in choreography.onTop where from.view(named: name) == nil && to.view(named: name) == nil {
            throw fail("onTop: no view named '\(name)' in either tree")
        }
        unmatchedViews = unmatched
        choreographed = [.from: matched[.from]! + unmatched[.from]!.map(\.view), .to: matched[.to]! + unmatched[.to]!.map(\.view)]
    }

    /// Snapshots of `side`'s pieces, taken while its tree is in the window.
    mutating func capture(_ side: Side, context: TransitionContext) throws {
        guard let root = trees[side] else { return }
        let hidden = choreographed[side] ?? []
        // The stage: the tree with every choreographed view hidden.
        stages[side] = try withHidden(hidden) { try context.placeBackdrop(of: root, name: "\(side) stage") }
        for (view, entry, order) in unmatchedViews[side] ?? [] {
            let others = hidden.filter { $0 !== view && $0.isDescendant(of: view) }
            // The snapshot casts the view's shadow (a snapshot holds the view's bounds only).
            let rect = try context.rect(of: view), shadow = Self.shadow(of: view, placedAt: rect)
            let snap = try withHidden(others) {
                try withoutShadow(of: view, shadow != nil) { try context.placeSnapshot(of: view, name: "\(view.name ?? "view") snapshot") }
            }
            if let shadow { ViewChangeObservation.withoutObserver { snap.shadow = shadow } }
            let alpha = Self.onScreenAlpha(of: view)
            snap.alpha = alpha
            unmatchedPieces[side, default: []].append((Piece(view: snap, rect: snap.frame, alpha: alpha), entry, order, view.name))
        }
        for (i, match) in choreography.matches.enumerated() {
            guard let view = root.view(named: side == .from ? match.from : match.to) else { continue }
            var rect = try context.rect(of: view)
            // An aspect-fit image ends where its picture is, so an aspect-fill live image lands on it exactly.
            if match.style == .liveImage, side == .to, let fit = view as? ImageView, fit.contentMode == .scaleAspectFit, let image = fit.image {
                rect = fit.contentMode.placement(of: image.pointSize, in: rect)
            }
            corners[i, default: [:]][side] = (view.cornerRadius, view.roundedCorners, view.cornerCurve)
            if let label = view as? Label { labels[i, default: [:]][side] = label }
            switch match.style {
            case .liveImage:
                if side == .from, let image = view as? ImageView {
                    let live = ImageView(image: image.image, frame: rect, contentMode: image.contentMode, name: "\(match.from) → \(match.to)")
                    live.clipsToBounds = image.clipsToBounds
                    live.cornerRadius = image.cornerRadius
                    live.shadow = Self.shadow(of: image, placedAt: rect)
                    try context.addToSmokescreen(live, at: rect)
                    liveImages[i] = live
                    live.alpha = Self.onScreenAlpha(of: view)
                    matchPieces[i, default: [:]][side] = Piece(view: live, rect: rect, alpha: live.alpha)
                } else {
                    matchPieces[i, default: [:]][side] = Piece(view: View(), rect: rect, alpha: Self.onScreenAlpha(of: view))
                }
            case .snapshot, .opaqueCrossFade, .text:
                let others = hidden.filter { $0 !== view && $0.isDescendant(of: view) }
                // A snapshot pair is one element whose corners change as a layer's do: each snapshot is
                // taken with square corners and clipped live to the corner radius, which moves from the
                // from-view's to the to-view's. Rounded corners baked into a stretched snapshot would become
                // ellipses, and a square to-view fading in would show pale corners outside the rounded one.
                // A border is drawn along the corners, so a bordered view keeps its own.
                let squared = match.style != .text && view.cornerRadius > 0 && view.borderWidth == 0
                // The pair casts the view's shadow, taken out of the snapshot (which holds the view's bounds
                // only); a pair clipped to its corners (either view's rounded) casts it from a view that
                // holds the snapshot. In an opaque cross-fade only the from-view's, which stays opaque
                // throughout (the two would stack under the to-view fading in).
                let other = trees[side == .from ? .to : .from]?.view(named: side == .from ? match.to : match.from)
                let casts = match.style != .opaqueCrossFade || side == .from
                let shadow = casts ? Self.shadow(of: view, placedAt: rect) : nil
                let snap = try withHidden(others) {
                    try withCornerRadius(squared ? 0 : view.cornerRadius, of: view) {
                        try withoutShadow(of: view, shadow != nil) {
                            try context.placeSnapshot(of: view, clearBackground: match.style == .text, name: "\(view.name ?? "view") (\(side))")
                        }
                    }
                }
                let alpha = Self.onScreenAlpha(of: view)
                var piece = Piece(view: snap, rect: rect, alpha: alpha)
                if let shadow {
                    let clips = match.style != .text && (view.cornerRadius > 0 || (other?.cornerRadius ?? 0) > 0)
                    if clips, let smokescreen = snap.superview {
                        let holder = View(frame: snap.frame, name: "\(view.name ?? "view") (\(side)) shadow")
                        ViewChangeObservation.withoutObserver { holder.shadow = shadow }
                        try smokescreen.insertSubview(holder, at: smokescreen.subviews.firstIndex { $0 === snap } ?? smokescreen.subviews.count)
                        try holder.addSubview(snap)
                        ViewChangeObservation.withoutObserver { snap.frame = Rect(origin: .zero, size: holder.bounds.size) }
                        piece = Piece(view: holder, rect: rect, alpha: alpha, inner: snap)
                    } else {
                        ViewChangeObservation.withoutObserver { snap.shadow = shadow }
                    }
                }
                piece.view.alpha = alpha
                matchPieces[i, default: [:]][side] = piece
            }
        }
    }

    /// Two identical stages (a plain background behind both states, as in Vesper) need no cross-fade:
    /// the to-stage goes, which saves a full-screen blend in every frame.
    mutating func dropRedundantStage() {
        guard choreography.stageFade == .crossFade, let from = stages[.from], let to = stages[.to], Self.drawTheSame(from, to) else { return }
        to.removeFromSuperview()
        stages[.to] = nil
    }

    /// Two stages of the same pixels: in the same place, equal images, or no image and one colour.
    private static func drawTheSame(_ a: ImageView, _ b: ImageView) -> Bool {
        guard a.frame == b.frame else { return false }
        if let image = a.image { return image == b.image }
        return b.image == nil && a.backgroundColor != nil && a.backgroundColor == b.backgroundColor
    }

    /// Orders the smokescreen back to front as ``Choreography`` documents.
    func stack(in smokescreen: View) {
        var order: [View] = choreography.stageFade == .crossFade ? [stages[.from], stages[.to]].compactMap { $0 }
            : [stages[.to], stages[.from]].compactMap { $0 }
        for side in [Side.from, .to] { order += (unmatchedPieces[side] ?? []).map(\.piece.view) }
        // Matched elements in the order of the to-tree (depth first, back to front).
        let toOrder = trees[.to]?.subtree ?? []
        let matchOrder = choreography.matches.indices.sorted { a, b in
            let ia = toOrder.firstIndex { $0.name == choreography.matches[a].to } ?? 0
            let ib = toOrder.firstIndex { $0.name == choreography.matches[b].to } ?? 0
            return ia < ib
        }
        var matchedViews: [Int: [View]] = [:]
        for i in matchOrder {
            let pieces = matchPieces[i] ?? [:]
            let views = choreography.matches[i].style == .liveImage ? [pieces[.from]?.view].compactMap { $0 }
                : [pieces[.from]?.view, pieces[.to]?.view].compactMap { $0 }
            matchedViews[i] = views
            order += views
        }
        for name in choreography.onTop {
            if let i = choreography.matches.firstIndex(where: { $0.from == name || $0.to == name }) {
                order += matchedViews[i] ?? []
            } else {
                for side in [Side.from, .to] {
                    order += (unmatchedPieces[side] ?? []).filter { $0.source == name }.map(\.piece.view)
                }
            }
        }
        for view in order { smokescreen.bringSubviewToFront(view) }
    }

    /// Every property change, in forward time.
    func tracks() throws -> [Track] {
        var tracks: [Track] = []
        func phase(_ name: String) -> BlockTiming { choreography.phase(named: name)?.timing ?? BlockTiming(duration: 0) }
        func track(_ label: String, _ start: Double, _ duration: Double, _ timing: BlockTiming,
                   start atStart: @escaping () -> Void, end atEnd: @escaping () -> Void) {
            // A track may be part of its phase (a text match's halves): there an iOS 17 spring, which runs for
            // its own settling duration, becomes the spring of the same damping ratio fitted to the track's
            // interval. Over the whole phase it stays as it is.
            let spring = timing.spring.map { spring -> BlockSpring in
                guard case .bounce(let pace, let bounce, let velocity) = spring, duration != timing.duration else { return spring }
                return .damping(ratio: Spring(perceptualDuration: pace, bounce: bounce, initialVelocity: velocity).dampingRatio, initialVelocity: velocity)
            }
            tracks.append(Track(key: Track.Key(label: label, start: start, duration: duration, curve: timing.curve, spring: spring),
                                atStart: atStart, atEnd: atEnd))
        }
        // Matches.
        for (i, match) in choreography.matches.enumerated() {
            let timing = phase(match.phase)
            guard let a = matchPieces[i]?[.from], let b = matchPieces[i]?[.to] else { continue }
            let (s, d, c) = (timing.delay, timing.duration, timing)
            switch match.style {
            case .liveImage:
                let live = a.view
                let (r0, r1) = (corners[i]?[.from]?.radius ?? 0, corners[i]?[.to]?.radius ?? 0)
                track(match.phase, s, d, c, start: { live.frame = a.rect; live.cornerRadius = r0; live.alpha = a.alpha },
                      end: { live.frame = b.rect; live.cornerRadius = r1; live.alpha = b.alpha })
            case .snapshot, .opaqueCrossFade:
                let (r0, r1) = (corners[i]?[.from]?.radius ?? 0, corners[i]?[.to]?.radius ?? 0)
                // The rounded side's corners and curve (the from-view's when both are rounded).
                if let shape = r0 > 0 ? corners[i]?[.from] : r1 > 0 ? corners[i]?[.to] : nil {
                    for view in [a.clipped, b.clipped] {
                        view.clipsToBounds = true
                        view.roundedCorners = shape.rounded
                        view.cornerCurve = shape.curve
                    }
                }
                // An opaque cross-fade keeps the from-view opaque under the to-view fading in.
                let fromEndAlpha = match.style == .opaqueCrossFade ? a.alpha : 0
                track(match.phase, s, d, c,
                      start: { a.place(a.rect); b.place(a.rect); a.view.alpha = a.alpha; b.view.alpha = 0
                               a.clipped.cornerRadius = r0; b.clipped.cornerRadius = r0 },
                      end: { a.place(b.rect); b.place(b.rect); a.view.alpha = fromEndAlpha; b.view.alpha = b.alpha
                             a.clipped.cornerRadius = r1; b.clipped.cornerRadius = r1 })
            case .text:
                let la = labels[i]?[.from], lb = labels[i]?[.to]
                let growth = (lb?.font.pointSize ?? 1) / max(0.001, la?.font.pointSize ?? 1)
                let linesA = (try? la?.layout().lines) ?? [], linesB = (try? lb?.layout().lines) ?? []
                // Widths follow the texts, not only the font sizes: one line on each side is stretched by the
                // ratio of the two lines' widths, so both texts cover the same glyph run while they cross-fade
                // (tracking, weight and optical size make the larger text other than the smaller one scaled;
                // scaled by the sizes alone they were out of register).
                var widthGrowth = growth
                if linesA.count == 1, linesB.count == 1, let wa = linesA.first?.width, let wb = linesB.first?.width, wa > 0, wb > 0 {
                    widthGrowth = wb / wa
                }
                // The texts meet where their first lines start, on their baselines: each label places its
                // text by its alignment and centres it in its own height, so frames scaled from their corners
                // put the two texts apart and the text doubles (or, a centred title becoming a back button's
                // text, lands far from it).
                let anchorA = la.flatMap(Self.textAnchor) ?? .zero, anchorB = lb.flatMap(Self.textAnchor) ?? .zero
                let aEnd = Rect(x: b.rect.minX + anchorB.x - anchorA.x * widthGrowth, y: b.rect.minY + anchorB.y - anchorA.y * growth,
                                width: a.rect.width * widthGrowth, height: a.rect.height * growth)
                let bStart = Rect(x: a.rect.minX + anchorA.x - anchorB.x / widthGrowth, y: a.rect.minY + anchorA.y - anchorB.y / growth,
                                  width: b.rect.width / widthGrowth, height: b.rect.height / growth)
                track(match.phase, s, d, c, start: { a.view.frame = a.rect; b.view.frame = bStart }, end: { a.view.frame = aEnd; b.view.frame = b.rect })
                if linesA.count == linesB.count {
                    track(match.phase, s, d, c, start: { a.view.alpha = a.alpha; b.view.alpha = 0 }, end: { a.view.alpha = 0; b.view.alpha = b.alpha })
                } else {
                    // Only one text readable at a time: out over the first half, in over the second.
                    track(match.phase + " (text out)", s, d / 2, c, start: { a.view.alpha = a.alpha }, end: { a.view.alpha = 0 })
                    track(match.phase + " (text in)", s + d / 2, d / 2, c, start: { b.view.alpha = 0 }, end: { b.view.alpha = b.alpha })
                }
            }
        }
        // Unmatched views: those of the from-tree leave, those of the to-tree arrive.
        for side in [Plan.Side.from, .to] {
            for (piece, entryIndex, order, _) in unmatchedPieces[side] ?? [] {
                let entry = choreography.unmatched[entryIndex]
                let timing = phase(entry.phase)
                let effected = try effectState(of: piece.rect, alpha: piece.alpha, effects: entry.effects, side: side)
                let view = piece.view, rect = piece.rect, alpha = piece.alpha
                let normal = { view.frame = rect; view.alpha = alpha; view.transform = .identity }
                let changed = {
                    view.frame = effected.frame
                    view.alpha = effected.alpha
                    view.transform = effected.transform
                }
                track(entry.phase, timing.delay + Double(order) * entry.cascade, timing.duration, timing,
                      start: side == .from ? normal : changed, end: side == .from ? changed : normal)
            }
        }
        switch choreography.stageFade {
        case .crossFade:
            // The stages cross-fade over the whole transition.
            let end = tracks.map { $0.start + $0.duration }.max() ?? 0
            if let stage = stages[.to], end > 0 {
                track("stage", 0, end, BlockTiming(duration: end, curve: .linear), start: { stage.alpha = 0 }, end: { stage.alpha = 1 })
            }
        case .fromStageFadesOut(let name):
            // The to-stage opaque underneath; the from-stage fades out over it in the phase.
            let timing = phase(name)
            if let stage = stages[.from] {
                track("stage", timing.delay, timing.duration, timing, start: { stage.alpha = 1 }, end: { stage.alpha = 0 })
            }
        }
        return tracks
    }

    /// A piece's frame, alpha and transform with `effects` applied.
    private func effectState(of rect: Rect, alpha resting: Double, effects: [Choreography.Effect], side: Side) throws -> (frame: Rect, alpha: Double, transform: Transform2D) {
        var frame = rect, alpha = resting, transform = Transform2D.identity
        for effect in effects {
            switch effect {
            case .fade: alpha = 0
            case .slide(let dx, let dy): frame = frame.offsetBy(dx: dx, dy: dy)
            case .slideAway(let anchor, let above, let below):
                guard let i = choreography.matches.firstIndex(where: { $0.from == anchor || $0.to == anchor }),
                      let anchorRect = matchPieces[i]?[side]?.rect else { continue }
                frame = frame.offsetBy(dx: 0, dy: rect.midY < anchorRect.midY ? -above : below)
            case .scale(let factor): transform = transform.concatenating(Transform2D(scaleX: factor, y: factor))
            }
        }
        return (frame, alpha, transform)
    }

    /// Where `label` draws its first line: the line's start and its baseline, from the top-left corner of
    /// the label's bounds (points; the text centred vertically, the line placed by the alignment); nil
    /// without text.
    static func textAnchor(of label: Label) -> Point? {
        guard let layout = try? label.layout(), let line = layout.lines.first else { return nil }
        return Point(x: line.x, y: (label.bounds.height - layout.size.height) / 2 + line.baseline)
    }

    /// Runs `body` with `view`'s corner radius set to `radius`, then restores it.
    private func withCornerRadius<T>(_ radius: Double, of view: View, _ body: () throws -> T) throws -> T {
        let saved = view.cornerRadius
        guard radius != saved else { return try body() }
        view.cornerRadius = radius
        defer { view.cornerRadius = saved }
        return try body()
    }

    private func withHidden<T>(_ views: [View], _ body: () throws -> T) throws -> T {
        let saved = views.map(\.isHidden)
        views.forEach { $0.isHidden = true }
        defer { for (view, hidden) in zip(views, saved) { view.isHidden = hidden } }
        return try body()
    }
}
