import SnapshotView

/// The animation engine of one transition: UIKit's `UIView` animation machinery on a virtual clock.
///
/// Views hold model values; an ``animate(duration:delay:options:animations:completion:)`` block captures
/// what its closure changed as from- and to-values, and the model keeps the to-values at once. The engine
/// is a `PresentationSource`: rendering through it shows the presentation values at ``currentTime``.
///
/// **Additive animations.** As in UIKit since iOS 8, a new animation of a property that is still
/// animating does not replace the old one: every animation contributes `(from − to)·(1 − progress)` on
/// top of the model value (in the component space of ``Interpolatable``: transforms by their
/// decomposition, colours by straight sRGB components). The new animation's from-value is the old model
/// value, so retargeting causes no jump in presentation, and motion blends smoothly into the new
/// target. `beginFromCurrentState` instead replaces the in-flight animations of those properties.
///
/// **Time.** ``currentTime`` starts at 0 and only moves forward through ``advance(to:)`` and its frame
/// helpers. Completions run at the exact time their animation ends, in order of end time then creation,
/// with ``currentTime`` set to that time, so an animation started from a completion begins then, not at
/// the next frame. An animation's last moment shows exactly the final model values.
///
/// One engine per transition (or test); engines share nothing. Not thread-safe: use one from one thread.
public final class AnimationEngine: PresentationSource {
    /// The longest duration or delay accepted (seconds, one day); longer ones are clamped. NaN and
    /// negative durations and delays count as 0.
    public static let maximumDuration = 86_400.0
    /// At most this many completions and other events run in one call to ``advance(to:)``; the rest wait
    /// for the next call. It stops completions that start zero-length animations from looping forever.
    public static let maximumEventsPerAdvance = 100_000

    /// The frame rate for the frame helpers.
    public let clock: FrameClock
    /// Virtual seconds since the engine was made.
    public private(set) var currentTime: Double = 0
    /// When the last animation ended or completion ran (seconds); 0 before any did (a transition with
    /// nothing to animate ends where it starts).
    public private(set) var lastEndTime: Double = 0
    /// Set when an ``advance(to:)`` stopped at ``maximumEventsPerAdvance`` events: completions keep
    /// starting animations that end at once, and time cannot move on.
    public private(set) var eventLimitReached = false
    /// Every block, keyframe animation, animator run and transition, in the order they were made.
    public private(set) var records: [AnimationRecord] = []

    private var sources: [any AnimationSource] = []
    private var scrubbed: [(engine: AnimationEngine, time: () -> Double)] = []
    private var tracks: [PropertyKey: [Track]] = [:]
    private var overrides: [PropertyKey: [(token: Int, value: (Double) -> AnimatableValue?)]] = [:]
    var contexts: [Context] = []
    private var sequenceCounter = 0
    private var serialCounter = 0
    private var isAdvancing = false

    /// An engine at time 0 with no animations.
    /// - Parameter fps: frames per second of ``clock`` (default 60).
    public init(fps: Double = 60) {
        clock = FrameClock(fps: fps)
    }

    // MARK: Clock

    /// The last frame at or before ``currentTime``.
    public var currentFrame: Int { clock.frame(atOrBefore: currentTime) }

    /// Moves time forward to `time` (seconds), running every completion and end that falls at or before
    /// it, in time order. Times before ``currentTime`` run what is due now without moving time; NaN and
    /// infinite times are ignored. Calls made from inside a completion (the outer call is already
    /// advancing) or an animation closure (time stands still while it runs) are ignored.
    public func advance(to time: Double) {
        guard !isAdvancing, contexts.isEmpty, !time.isNaN, time != .infinity else { return }
        let target = max(time, currentTime)
        isAdvancing = true
        defer { isAdvancing = false }
        var count = 0
        while let next = nextEvent(), next.time <= target {
            guard count < AnimationEngine.maximumEventsPerAdvance else { eventLimitReached = true; return }
            currentTime = max(currentTime, next.time)
            next.source.fireEvent()
            if next.source.isDone { unregister(next.source) }
            lastEndTime = currentTime
            count += 1
        }
        currentTime = target
    }

    /// Moves to frame `index` of ``clock`` (exactly `Double(index) / fps` seconds).
    public func advance(toFrame index: Int) {
        advance(to: clock.time(ofFrame: index))
    }

    /// Moves to the next frame of ``clock`` after ``currentTime``.
    public func advanceFrame() {
        advance(to: clock.time(ofFrame: clock.frame(atOrBefore: currentTime) + 1))
    }

    /// The duration (seconds) of the animation block whose closure is running, as UIKit's
    /// `UIView.inheritedAnimationDuration`: 0 outside a block, inside `performWithoutAnimation`, and in a
    /// property animator's closure (whose timing is its own).
    public var inheritedDuration: Double {
        switch contexts.last {
        case .block(let inherited)?, .keyframes(_, let inherited)?: inherited.duration
        case .animator?, .disabled?, nil: 0
        }
    }

    /// True when nothing is animating, paused or waiting to complete.
    public var isIdle: Bool { sources.isEmpty }

    /// When everything scheduled now ends (seconds), not counting what completions will start; nil when
    /// idle or when something has no known end (repeating forever, a paused animator, a gesture still
    /// being followed).
    public var scheduledEndTime: Double? {
        guard !sources.isEmpty else { return nil }
        var end = currentTime
        for source in sources {
            guard let e = source.scheduledEnd else { return nil }
            end = max(end, e)
        }
        return end
    }

    /// Advances from event to event until the engine is idle or the next event lies after `timeLimit`
    /// (seconds, default ``maximumDuration``). Returns whether it became idle; ``lastEndTime`` then says
    /// when the last thing ended. Animations repeating forever and paused animators never become idle.
    /// Called from inside a completion or an animation closure it does nothing.
    @discardableResult
    public func runUntilIdle(timeLimit: Double = AnimationEngine.maximumDuration) -> Bool {
        guard !isAdvancing, contexts.isEmpty else { return isIdle }  // time cannot move here
        var steps = 0
        while !isIdle, let next = nextEvent(), next.time <= timeLimit, steps < AnimationEngine.maximumEventsPerAdvance {
            advance(to: next.time)
            steps += 1
        }
        return isIdle
    }

    private func nextEvent() -> (time: Double, source: any AnimationSource)? {
        var best: (time: Double, source: any AnimationSource)?
        for source in sources {
            guard let t = source.nextEventTime else { continue }
            if let b = best, (b.time, b.source.sequence) <= (t, source.sequence) { continue }
            best = (t, source)
        }
        return best
    }

    // MARK: Presentation

    /// The value to render for `property` of `view` at ``currentTime``: the model value plus what every
    /// animation of it contributes. Without animations (or once they end) it is `model` exactly.
    public func presentationValue(of property: ViewProperty, of view: View, model: AnimatableValue) -> AnimatableValue {
        presentationValue(of: property, of: view, model: model, at: currentTime)
    }

    /// What the animations scheduled now show at `time` (seconds), without moving the clock: nothing runs,
    /// no completion fires. An interactive transition scrubs a transition this way, as Core Animation's
    /// `timeOffset` does (``presentation(at:)``).
    public func presentationValue(of property: ViewProperty, of view: View, model: AnimatableValue, at time: Double) -> AnimatableValue {
        let value = blockedPresentationValue(of: property, of: view, model: model, at: time)
        // Overrides (Core Animation's explicit animations) show their own value over everything, the last
        // added first.
        // Most engines have none: no key is hashed per property and frame for them.
        guard !overrides.isEmpty, let list = overrides[PropertyKey(view, property)] else { return value }
        for entry in list.reversed() {
            if let shown = entry.value(time) { return shown }
        }
        return value
    }

    private func blockedPresentationValue(of property: ViewProperty, of view: View, model: AnimatableValue, at time: Double) -> AnimatableValue {
        guard let list = tracks[PropertyKey(view, property)] else {
            return scrubbed.isEmpty ? model : scrubbed.reduce(model) { value, child in
                child.engine.presentationValue(of: property, of: view, model: value, at: child.time())
            }
        }
        var sum = SIMD16<Double>()
        var contributing = false
        for track in list {
            guard let source = track.source, let p = source.progress(of: track, at: time),
                  let offset = track.contribution(progress: p) else { continue }
            sum += offset
            contributing = true
        }
        let own = contributing ? ValueComponents(model).adding(sum) : model
        // Engines scrubbed by this one add what they show at their own time on top.
        return scrubbed.reduce(own) { value, child in child.engine.presentationValue(of: property, of: view, model: value, at: child.time()) }
    }

    // MARK: Overrides and timed actions

    /// Shows `value(time)` for `property` of `view` in place of everything else while it returns a value
    /// (nil: the view shows what it would without it), until ``removeOverride(_:)``. Core Animation's
    /// explicit animations show this way: they replace the presentation and leave the model alone.
    /// Returns the token that removes it.
    @discardableResult
    public func addOverride(for property: ViewProperty, of view: View, value: @escaping (Double) -> AnimatableValue?) -> Int {
        serialCounter += 1
        overrides[PropertyKey(view, property), default: []].append((serialCounter, value))
        return serialCounter
    }

    /// Removes the override `token` returned.
    public func removeOverride(_ token: Int) {
        for key in Array(overrides.keys) {
            overrides[key]?.removeAll { $0.token == token }
            if overrides[key]?.isEmpty == true { overrides[key] = nil }
        }
    }

    /// Runs `action` at `time` (seconds; now when it has passed), in time order with the completions;
    /// until then the engine is not idle.
    public func schedule(at time: Double, _ action: @escaping () -> Void) {
        register(PendingCompletion(sequence: nextSequence(), time: max(time.isFinite ? time : currentTime, currentTime), action: action))
    }

    /// Shows `child`'s animations on top of this engine's, at the time `time` gives whenever a value is
    /// asked for (`child`'s own clock does not move: nothing of it runs). A navigation controller drives a
    /// custom transition's animations this way, at its progress × duration, as Core Animation's
    /// `timeOffset` does for an interactive transition. Detach it with ``detachScrubbed(_:)``.
    public func attachScrubbed(_ child: AnimationEngine, at time: @escaping () -> Double) {
        guard child !== self else { return }
        scrubbed.append((child, time))
    }

    /// Stops showing `child`'s animations.
    public func detachScrubbed(_ child: AnimationEngine) {
        scrubbed.removeAll { $0.engine === child }
    }

    /// A presentation source showing the animations at `time` (seconds) while the clock stays where it is.
    public func presentation(at time: Double) -> ScrubbedPresentation { ScrubbedPresentation(engine: self, time: time) }

    /// The presentation value of `property` of `view` at ``currentTime``.
    public func presentationValue(of property: ViewProperty, of view: View) -> AnimatableValue {
        presentationValue(of: property, of: view, model: view.modelValue(of: property))
    }

    /// Whether any animation is attached to `view` (to `property` only, when given).
    public func isAnimating(_ view: View, property: ViewProperty? = nil) -> Bool {
        let properties = property.map { [$0] } ?? ViewProperty.allCases
        return properties.contains { !(tracks[PropertyKey(view, $0)]?.isEmpty ?? true) }
    }

    // MARK: Removing animations

    /// Removes the animations of `view` (of `property` only, when given; of its subtree too with
    /// `includingSubviews`): it shows its model values at once. Blocks left with nothing to animate
    /// complete at ``currentTime`` with `finished == false` (at the next ``advance(to:)``); property
    /// animators carry on with their other views.
    public func removeAnimations(of view: View, property: ViewProperty? = nil, includingSubviews: Bool = false) {
        let views = includingSubviews ? view.subtree : [view]
        let properties = property.map { [$0] } ?? ViewProperty.allCases
        for v in views {
            for p in properties { removeTracks(for: PropertyKey(v, p)) }
        }
    }

    /// Gives every animated property the value it showed at `time` (seconds) as its model value, then
    /// removes the animations, whose blocks complete with `finished == false`: a cancelled interactive
    /// transition puts its views back where they were when it began (`time` 0 of its scrubbed engine).
    public func settle(at time: Double) {
        var seen = Set<PropertyKey>()
        var settled: [(View, ViewProperty, AnimatableValue)] = []
        for list in tracks.values {
            for track in list where seen.insert(track.key).inserted {
                let view = track.view, property = track.property
                settled.append((view, property, presentationValue(of: property, of: view, model: view.modelValue(of: property), at: time)))
            }
        }
        removeAllAnimations()
        ViewChangeObservation.withoutObserver {
            for (view, property, value) in settled { view.setModelValue(value, of: property) }
        }
    }

    /// Removes every animation of every view (see ``removeAnimations(of:property:includingSubviews:)``).
    public func removeAllAnimations() {
        for key in Array(tracks.keys) { removeTracks(for: key) }
    }

    func removeTracks(for key: PropertyKey) {
        guard let list = tracks.removeValue(forKey: key) else { return }
        for track in list { track.source?.didRemove(track) }
    }

    // MARK: Internals shared by blocks and animators

    func nextSequence() -> Int {
        sequenceCounter += 1
        return sequenceCounter
    }

    func nextSerial() -> Int {
        serialCounter += 1
        return serialCounter
    }

    func register(_ source: any AnimationSource) {
        if !sources.contains(where: { $0 === source }) { sources.append(source) }
    }

    func unregister(_ source: any AnimationSource) {
        sources.removeAll { $0 === source }
    }

    func install(_ track: Track, source: any AnimationSource) {
        track.source = source
        tracks[track.key, default: []].append(track)
    }

    func uninstall(_ track: Track) {
        guard var list = tracks[track.key] else { return }
        list.removeAll { $0 === track }
        tracks[track.key] = list.isEmpty ? nil : list
    }

    /// Runs `body` with `context` on top and every animatable change recorded.
    func capture(_ body: () -> Void, context: Context, beginsFromCurrentState: Bool = false) -> [ChangeRecorder.Change] {
        let recorder = ChangeRecorder(engine: self, capturesPresentation: beginsFromCurrentState)
        contexts.append(context)
        defer { contexts.removeLast() }
        ViewChangeObservation.observing(recorder, body)
        return recorder.changes
    }

    /// Runs `action` at ``currentTime`` (at the next ``advance(to:)``), ordered by `sequence` among what
    /// is due then.
    func schedule(sequence: Int, _ action: @escaping () -> Void) {
        register(PendingCompletion(sequence: sequence, time: currentTime, action: action))
    }

    /// Sets a model value without it being seen as an animated change.
    func setModel(_ value: AnimatableValue, of property: ViewProperty, of view: View) {
        ViewChangeObservation.withoutObserver { view.setModelValue(value, of: property) }
    }

    static func seconds(_ value: Double) -> Double {
        value.isNaN || value < 0 ? 0 : min(value, maximumDuration)
    }

    func addRecord(kind: AnimationRecord.Kind, parentID: Int?, start: Double, end: Double, duration: Double,
                   timing: String, repetition: AnimationRepeat = .none, autoreverses: Bool = false,
                   beginsFromCurrentState: Bool = false, animated: Bool = true) -> Int {
        let id = records.count
        records.append(AnimationRecord(id: id, parentID: parentID, kind: kind, createdAt: currentTime, start: start,
                                       end: end, duration: duration, timing: timing, repetition: repetition,
                                       autoreverses: autoreverses, beginsFromCurrentState: beginsFromCurrentState,
                                       animated: animated, properties: [], outcome: .running, events: []))
        return id
    }

    func updateRecord(_ id: Int?, _ body: (inout AnimationRecord) -> Void) {
        guard let id, records.indices.contains(id) else { return }
        body(&records[id])
    }

    func noteEvent(_ id: Int?, _ note: String) {
        let now = currentTime
        updateRecord(id) { $0.events.append(AnimationRecord.Event(time: now, note: note)) }
    }

    func addProperties(_ changes: [ChangeRecorder.Change], toRecord id: Int) {
        updateRecord(id) { record in
            for c in changes {
                let p = AnimationRecord.AnimatedProperty(view: AnimationRecord.name(of: c.view), property: c.property)
                if !record.properties.contains(p) { record.properties.append(p) }
            }
        }
    }

    /// The timeline of everything that ran, one record a line (with events indented below), for
    /// `smokescreen inspect`.
    public func timelineDescription() -> String {
        var lines: [String] = []
        for record in records {
            lines.append(record.description)
            for event in record.events { lines.append("    " + event.description) }
        }
        return lines.joined(separator: "\n")
    }
}

/// What encloses code that runs inside an animation closure: nested blocks inherit from it.
enum Context {
    /// An animate block: nested blocks inherit its start, duration, timing and repetition.
    case block(Inherited)
    /// A keyframe animation's closure; `addKeyframe` adds to the collector.
    case keyframes(KeyframeCollector, Inherited)
    /// A property animator's (or transition's) closure: nested blocks join the animator.
    case animator(PropertyAnimator, window: Double)
    /// `performWithoutAnimation`: nested blocks apply at once.
    case disabled

    struct Inherited {
        let begin: Double
        let duration: Double
        let timing: AnimationTiming
        let repetition: AnimationRepeat
        let autoreverses: Bool
        let recordID: Int
    }
}

/// An engine's animations shown at a time of their own (``AnimationEngine/presentation(at:)``).
public struct ScrubbedPresentation: PresentationSource {
    /// The engine whose animations are shown.
    public let engine: AnimationEngine
    /// Seconds.
    public let time: Double
    /// The value at ``time``.
    public func presentationValue(of property: ViewProperty, of view: View, model: AnimatableValue) -> AnimatableValue {
        engine.presentationValue(of: property, of: view, model: model, at: time)
    }
}
