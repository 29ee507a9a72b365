import BoundedInput
import Motion
import RasterCore
import SnapshotView

extension TransitionDriver {
    /// Renders a transition driven by a swipe instead of the clock, as `UIPercentDrivenInteractiveTransition`
    /// drives Core Animation's time offset: `setUp` starts the transition's animations at time 0 as for
    /// ``render(name:settings:defaultFPS:durations:assets:endTime:setUp:)``; they are then shown at
    /// `progress × duration`, where the progress follows `gesture` (starting at `startTime` seconds),
    /// then runs to 1 or back to 0 as `EdgePanGesture` decides, on a curve that starts at the finger's
    /// velocity (``EdgePanGesture/release(width:)``). Each phase keeps its own delay, duration and curve within the whole.
    ///
    /// Finished, the transition's completions run and the last frame shows its end; cancelled,
    /// ``TransitionContext/restoreFromView()`` puts the from-view back and the smokescreen goes.
    /// `inspect --json` reports `progress` and `interactive` in its state. The swipe's translation is
    /// measured against `width` (points); `startTime` is in seconds; the other arguments are
    /// ``render(name:settings:defaultFPS:durations:assets:endTime:setUp:)``'s.
    public static func renderInteractive(name: String, settings: RenderSettings, defaultFPS: Double = 60,
                                         durations: [String: Double], assets: [BitmapRecord], gesture: EdgePanGesture,
                                         startTime: Double, width: Double,
                                         setUp: (AnimationEngine) throws -> TransitionContext) throws -> RenderedTransition {
        let fps = settings.fps ?? defaultFPS
        try check(fps: fps, settings: settings, name: name)
        let engine = AnimationEngine(fps: fps)
        let context = try setUp(engine)
        let container = context.container
        let initialTree = container.treeDescription()
        guard let duration = engine.scheduledEndTime, duration > 0 else {
            throw RenderError.failed(what: name, reason: "an interactive transition needs animations that end")
        }

        // The progress: a percent-driven transition of a stand-in view on a clock of its own, so the
        // swipe, the decision, the speed and the curve are exactly those of `PercentDrivenTransition`.
        let clock = AnimationEngine(fps: fps)
        let stand = View(frame: Rect(x: 0, y: 0, width: 1, height: 1))
        ViewChangeObservation.withoutObserver { stand.alpha = 0 }
        let driver = PercentDrivenTransition(engine: clock, duration: duration) { stand.alpha = 1 }
        clock.perform(afterDelay: max(0, startTime)) { driver.follow(gesture, width: width) }
        context.inspectionState = { ["progress": driver.progress, "interactive": driver.isInteractive ? 1 : 0] }

        var times: [Double] = [], nodes: [RenderNode] = []
        var budget = ViewFrameBudget(name: name, fps: fps, holdFrames: settings.holdFrames, describesFrames: settings.describesFrames)
        var descriptions: [ViewDescription] = []
        var inspection: (time: Double, tree: ViewDescription)?
        var inspectionState: [String: Double]?
        func freeze(_ presentation: some PresentationSource) throws -> RenderNode {
            try Self.freeze(context, presentation: presentation, name: name)
        }
        func inspect(at time: Double, _ presentation: some PresentationSource) {
            guard inspection == nil else { return }
            inspection = (time, container.presentationDescription(presentation: presentation))
            inspectionState = context.inspectionState?()
        }
        var index = 0
        while true {
            if let isCancelled = settings.isCancelled, isCancelled() { throw RenderError.cancelled(what: name) }
            let t = FrameTimes.time(ofFrame: index, fps: fps)
            guard t <= maximumDuration, index + settings.holdFrames < FrameTimes.maximumFrameCount else {
                throw RenderError.outOfLimits(what: name, reason: "more than the limit of \(FrameTimes.maximumFrameCount) frames at \(fps) fps")
            }
            if let asked = settings.inspectionTime, inspection == nil, asked <= t, driver.context == nil {
                clock.advance(to: max(0, asked))
                if driver.context == nil { inspect(at: max(0, asked), engine.presentation(at: driver.progress * duration)) }
            }
            clock.advance(to: t)
            if let outcome = driver.context {
                // Completed: the end state, at the exact time it completed.
                if outcome.isCancelled {
                    try context.restoreFromView()
                    engine.removeAllAnimations()
                } else {
                    engine.runUntilIdle()
                }
                let end = max(outcome.completionTime, times.last ?? 0)
                let node = try budget.keep(try freeze(engine), engine: nil)
                if settings.describesFrames { descriptions.append(container.presentationDescription(presentation: engine)) }
                times.append(end)
                nodes.append(node)
                inspect(at: end, engine)
                break
            }
            times.append(t)
            let scrubbed = engine.presentation(at: driver.progress * duration)
            nodes.append(try budget.keep(try freeze(scrubbed), engine: nil))
            if settings.describesFrames { descriptions.append(container.presentationDescription(presentation: scrubbed)) }
            index += 1
        }
        var rendered = assemble(name: name, settings: settings, fps: fps, times: times, nodes: nodes, durations: durations,
                                assets: assets, initialTree: initialTree, engine: engine, context: context)
        rendered.inspection = settings.inspectionTime == nil ? nil : inspection
        rendered.inspectionState = settings.inspectionTime == nil ? nil : inspectionState
        rendered.frameDescriptions = descriptions
        return rendered
    }
}
