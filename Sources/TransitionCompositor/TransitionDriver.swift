import BoundedInput
import Motion
import RasterCore
import SnapshotView

/// Runs a view-tree transition on a virtual clock and freezes one presentation tree per frame.
///
/// Frames are taken at t = i/fps from 0 until the engine is idle (every animation ended and every
/// completion ran); the last frame is at exactly the time the last thing ended, and shows the final
/// state. Completions run at their exact end times, between frames, so a block started from a
/// completion begins then, not at the next frame.
public enum TransitionDriver {
    /// The longest transition accepted (seconds of virtual time); one still running then is an error
    /// (an animation repeating forever needs a transition that says when to stop).
    public static var maximumDuration: Double { Limits.maxSeconds }

    /// Builds the transition with `setUp` (which starts its animations on the engine at time 0) and
    /// samples it.
    ///
    /// - Parameters:
    ///   - name: the transition's name.
    ///   - settings: scale, fps and hold frames.
    ///   - defaultFPS: used when `settings.fps` is nil.
    ///   - durations: the block durations used, for the manifest (seconds).
    ///   - assets: image assets the transition decoded, for the memory report.
    ///   - endTime: when given (seconds), the render ends there whatever is still running: the last
    ///     frame is at exactly this time. For scenes with animations that repeat forever, which never
    ///     become idle. Default nil: the render ends when the engine is idle.
    ///   - setUp: makes the context (container, views, smokescreen) and starts the animations.
    public static func render(name: String, settings: RenderSettings, defaultFPS: Double = 60,
                              durations: [String: Double], assets: [BitmapRecord], endTime: Double? = nil,
                              setUp: (AnimationEngine) throws -> TransitionContext) throws -> RenderedTransition {
        let fps = settings.fps ?? defaultFPS
        try check(fps: fps, settings: settings, name: name)
        if let endTime, !(endTime >= 0 && endTime <= maximumDuration) {
            throw RenderError.outOfLimits(what: name, reason: "a fixed length must be in 0…\(maximumDuration) s, got \(endTime)")
        }
        let engine = AnimationEngine(fps: fps)
        let context = try setUp(engine)
        let container = context.container
        let initialTree = container.treeDescription()
        // What is scheduled now says at once when a render would run past the limit: refused before any frame.
        if endTime == nil, let end = engine.scheduledEndTime, end > maximumDuration + 1e-9 {
            throw RenderError.outOfLimits(what: name, reason: "it runs until \(end) s, past the limit of \(Int(maximumDuration)) s")
        }
        var budget = ViewFrameBudget(name: name, fps: fps, holdFrames: settings.holdFrames, describesFrames: settings.describesFrames)

        var times: [Double] = [], nodes: [RenderNode] = []
        var descriptions: [ViewDescription] = []
        var endsComplete = true
        func freeze() throws -> RenderNode { try Self.freeze(context, presentation: engine, name: name) }
        var inspection: (time: Double, tree: ViewDescription)?
        var inspectionState: [String: Double]?
        func inspect(at time: Double) {
            guard inspection == nil else { return }
            inspection = (time, container.presentationDescription(presentation: engine))
            inspectionState = context.inspectionState?()
        }
        var index = 0
        while true {
            if let isCancelled = settings.isCancelled, isCancelled() { throw RenderError.cancelled(what: name) }
            let t = FrameTimes.time(ofFrame: index, fps: fps)
            // The tree between frames, when asked: advancing to a time between frames and then on to the
            // frame gives the same frames (completions run in time order either way).
            if let asked = settings.inspectionTime, inspection == nil, asked <= t {
                engine.advance(to: max(0, asked))
                inspect(at: max(0, asked))
            }
            if let endTime, t >= endTime {
                // A fixed length: the last frame is at exactly the end, whatever still runs.
                engine.advance(to: endTime)
                endsComplete = engine.isIdle
                times.append(endTime)
                nodes.append(try budget.keep(try freeze(), engine: engine))
                if settings.describesFrames { descriptions.append(container.presentationDescription(presentation: engine)) }
                break
            }
            guard t <= maximumDuration else {
                throw RenderError.failed(what: name, reason: "still animating after \(maximumDuration) s (an animation that repeats forever?)")
            }
            guard index + settings.holdFrames < FrameTimes.maximumFrameCount else {
                throw RenderError.outOfLimits(what: name, reason: "more than the limit of \(FrameTimes.maximumFrameCount) frames at \(fps) fps (with \(settings.holdFrames) hold frames); lower --fps or --hold")
            }
            engine.advance(to: t)
            if engine.eventLimitReached {
                throw RenderError.failed(what: name, reason: "over \(AnimationEngine.maximumEventsPerAdvance) completions at t = \(t) s: completions keep starting animations that end at once")
            }
            // An end that floating-point noise puts a hair after this frame belongs to it: otherwise a
            // near-duplicate frame 1e-17 s later would follow.
            if !engine.isIdle, let end = engine.scheduledEndTime, end - t <= 1e-9 { engine.advance(to: end) }
            let node = try budget.keep(try freeze(), engine: engine)
            if settings.describesFrames { descriptions.append(container.presentationDescription(presentation: engine)) }
            if engine.isIdle {
                // Nothing changes after the last end, so this tree is the final state; it is labelled
                // with the exact end time (which is t when the end falls on a frame).
                times.append(max(engine.lastEndTime, times.last ?? 0))
                nodes.append(node)
                break
            }
            times.append(t)
            nodes.append(node)
            index += 1
        }
        let end = times.last ?? 0
        var rendered = assemble(name: name, settings: settings, fps: fps, times: times, nodes: nodes, durations: durations,
                                assets: assets, initialTree: initialTree, engine: engine, context: context)
        // Asked for at or after the end: the final state.
        if settings.inspectionTime != nil { inspect(at: end) }
        rendered.inspection = inspection
        rendered.inspectionState = inspectionState
        rendered.frameDescriptions = descriptions
        rendered.endsComplete = endsComplete
        return rendered
    }

    /// The views of the presentation trees kept so far, against `Limits/viewFramesPerRender`: each frame's
    /// tree is kept until the render is written, so their total is what a render's memory grows with.
    struct ViewFrameBudget {
        let name: String
        let fps: Double
        let holdFrames: Int
        /// Each view counts this many times: 3 when every frame's description is kept too (`lint`), which
        /// triples what a view-frame takes (measured: about 640 bytes against 190).
        let weight: Int
        private(set) var views = 0
        private var estimated = false

        init(name: String, fps: Double, holdFrames: Int, describesFrames: Bool) {
            self.name = name
            self.fps = fps
            self.holdFrames = holdFrames
            weight = describesFrames ? 3 : 1
        }

        /// Counts `node`'s views; throws when the total passes the limit, or, at the first frame, when
        /// the frames scheduled times its views would (so a render that cannot fit stops at once).
        mutating func keep(_ node: RenderNode, engine: AnimationEngine?) throws -> RenderNode {
            let count = Self.count(node) * weight
            if !estimated {
                estimated = true
                if let end = engine?.scheduledEndTime, end.isFinite {
                    let frames = (end * fps).rounded(.up) + 1
                    // Too many frames is its own limit, with its own message.
                    if frames + Double(holdFrames) > Double(FrameTimes.maximumFrameCount) {
                        throw RenderError.outOfLimits(what: name, reason: "more than the limit of \(FrameTimes.maximumFrameCount) frames at \(fps) fps (with \(holdFrames) hold frames); lower --fps or --hold")
                    }
                    if frames * Double(count) > Double(Limits.viewFramesPerRender) { throw overLimit(frames: Int(frames), views: count) }
                }
            }
            views += count
            guard views <= Limits.viewFramesPerRender else { throw overLimit(frames: nil, views: count) }
            return node
        }

        private func overLimit(frames: Int?, views count: Int) -> RenderError {
            let described = weight > 1 ? " (each counted \(weight) times: every frame's description is kept too)" : ""
            let frames = frames.map { "about \($0) frames at \(fps) fps × \(count / weight) views\(described)" } ?? "its frames at \(fps) fps draw over \(views) views\(described)"
            return .outOfLimits(what: name, reason: "\(frames) is more than the limit of \(Limits.viewFramesPerRender) views drawn in one render "
                                + "(each frame's tree is kept until the frames are written); lower --fps, shorten the cascade or use fewer views")
        }

        /// The views of a presentation tree.
        static func count(_ node: RenderNode) -> Int { TransitionDriver.viewCount(node) }
    }

    /// The views of a presentation tree (what `Limits/viewFramesPerRender` counts in each frame).
    public static func viewCount(_ node: RenderNode) -> Int {
        var total = 1
        for child in node.children { total += viewCount(child) }
        return total
    }

    /// Refuses a frame rate outside `Limits.minFPS` ≤ fps ≤ `Limits.maxFPS` and negative hold frames.
    static func check(fps: Double, settings: RenderSettings, name: String) throws {
        guard fps.isFinite, fps >= Limits.minFPS, fps <= Limits.maxFPS else {
            throw RenderError.outOfLimits(what: name, reason: "fps must be in \(Limits.fpsRange), got \(fps)")
        }
        guard settings.holdFrames >= 0 else { throw RenderError.failed(what: name, reason: "hold frames must not be negative") }
    }

    /// The container's tree as `presentation` shows it, frozen for drawing; first, the error a completion
    /// ran into, if any: a typed error (a file, a document, a view tree) keeps its type and exit status;
    /// anything else becomes a render failure naming the transition.
    static func freeze(_ context: TransitionContext, presentation: some PresentationSource, name: String) throws -> RenderNode {
        if let error = context.deferredError {
            if let typed = error as? any ExitStatusError { throw typed }
            throw RenderError.failed(what: name, reason: "\(error)")
        }
        guard let node = context.container.renderNode(presentation: presentation) else {
            throw RenderError.failed(what: name, reason: "the container is hidden or transparent")
        }
        return node
    }

    /// The rendered transition from the frames taken: hold frames after the last, the sequence, the
    /// timeline of every block the engine ran.
    static func assemble(name: String, settings: RenderSettings, fps: Double, times: [Double], nodes: [RenderNode],
                         durations: [String: Double], assets: [BitmapRecord], initialTree: String, engine: AnimationEngine,
                         context: TransitionContext) -> RenderedTransition {
        var times = times, nodes = nodes
        if let last = nodes.last {
            for time in FrameTimes.holdTimes(after: times.last ?? 0, fps: fps, count: settings.holdFrames) {
                times.append(time)
                nodes.append(last)
            }
        }
        let sequence = FrameSequence(name: name, pointSize: context.container.bounds.size, scale: settings.scale, fps: fps,
                                     times: times, nodes: nodes, durations: durations)
        let timeline = engine.records.map { record in
            TimelineEntry(label: context.blockLabels[record.id] ?? "\(record.kind.rawValue) #\(record.id)",
                          start: record.start, end: record.end, timing: record.animated ? record.timing : "not animated",
                          properties: record.properties.map(\.description))
        }
        return RenderedTransition(sequence: sequence, bitmaps: assets + context.snapshots, initialTree: initialTree, timeline: timeline)
    }
}
