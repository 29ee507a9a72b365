import SnapshotView

/// An interruptible animation, as `UIViewPropertyAnimator`, running on an ``AnimationEngine``'s clock.
///
/// States: ``State/inactive`` (nothing applied yet, or finished), ``State/active`` (its animations are
/// installed; running or paused) and ``State/stopped`` (stopped with `stopAnimation(false)`, waiting for
/// ``finishAnimation(at:)``). The animation closures run when the animator becomes active (start, pause,
/// or setting ``fractionComplete``); that is when the views' model values change.
///
/// Progress: the animator has a time fraction (``fractionComplete``, 0…1) and a visual progress that the
/// animations follow. Running, progress = timing(time fraction) over the run. Paused, setting
/// ``fractionComplete`` shows that fraction linearly by default (``scrubsLinearly``), or mapped through
/// the timing when ``scrubsLinearly`` is false. Pausing a running animator keeps what is on screen:
/// with ``scrubsLinearly`` the fraction then reads the visual progress (clamped to 0…1), so reading it
/// and writing it back moves nothing. Every later run (resume, ``continueAnimation(withTimingParameters:durationFactor:)``,
/// reversing) starts from the current progress and covers what remains in `duration × remaining fraction
/// × durationFactor` seconds, so nothing jumps.
///
/// Calls that make no sense in the current state (finishing an animator that is not stopped, setting
/// the fraction of a running one…) are ignored rather than trapping.
public final class PropertyAnimator {
    /// Where an animator ended: start, end or current.
    public typealias Position = AnimatingPosition

    /// UIViewPropertyAnimator's states.
    public enum State: String, Hashable, Sendable {
        /// Not started, or finished.
        case inactive
        /// Started or paused.
        case active
        /// Stopped without finishing; `finishAnimation(at:)` ends it.
        case stopped
    }

    /// The clock the animator runs on.
    public let engine: AnimationEngine
    /// Seconds of a full run (a physical spring's own duration when the timing is one).
    public let duration: Double
    /// The curve or spring given at creation.
    public let timing: AnimationTiming
    /// Inactive until started or paused; active while it runs or is paused; stopped after `stopAnimation(false)`.
    public private(set) var state: State = .inactive
    /// The delay of the last start (seconds).
    public private(set) var delay: Double = 0
    /// Default true: a paused animator shows ``fractionComplete`` linearly.
    public var scrubsLinearly = true
    /// Default false. When true the animator pauses at its end (or start) instead of completing; stop it
    /// to finish.
    public var pausesOnCompletion = false
    /// Ending at the start sets the animated properties back to their start values
    /// (`UIViewPropertyAnimator`'s rule). False leaves them at the values the animations set, as a
    /// Core Animation animation scrubbed backwards and removed does. Default true.
    var restoresModelsAtStart = true

    let sequence: Int
    private(set) var recordID: Int?
    var recordKind: AnimationRecord.Kind = .animator
    private let baseTiming: ResolvedTiming
    private var pending: [(animations: () -> Void, window: Double)] = []
    private var completions: [(Position) -> Void] = []
    private var tracks: [Track] = []
    private var stoppedTracks: [Track] = []
    private var phase: Phase = .idle
    private var reversed = false
    private var restingFraction = 0.0

    /// An inactive animator, as `UIViewPropertyAnimator(duration:timingParameters:animations:)`.
    /// - Parameters:
    ///   - duration: seconds (NaN and negative count as 0).
    ///   - timing: default `.curve(.easeInEaseOut)`.
    ///   - engine: the clock the animator runs on.
    ///   - animations: the first animations (more with ``addAnimations(_:delayFactor:)``).
    public init(engine: AnimationEngine, duration: Double, timing: AnimationTiming = .easeInEaseOut,
                animations: (() -> Void)? = nil) {
        self.engine = engine
        self.timing = timing
        let (resolved, length) = timing.resolved(duration: AnimationEngine.seconds(duration))
        self.duration = length
        baseTiming = resolved
        sequence = engine.nextSequence()
        if let animations { pending.append((animations, 0)) }
    }

    /// An animator with a cubic Bézier curve.
    public convenience init(engine: AnimationEngine, duration: Double, curve: TimingCurve, animations: (() -> Void)? = nil) {
        self.init(engine: engine, duration: duration, timing: .curve(curve), animations: animations)
    }

    /// An animator with a spring fitted to `duration` (``Spring/init(dampingRatio:duration:initialVelocity:)``).
    public convenience init(engine: AnimationEngine, duration: Double, dampingRatio: Double, animations: (() -> Void)? = nil) {
        self.init(engine: engine, duration: duration, timing: .spring(dampingRatio: dampingRatio, initialVelocity: 0),
                  animations: animations)
    }

    // MARK: State

    /// True while it moves by itself (including during a start delay, and while following a gesture).
    public var isRunning: Bool {
        switch phase {
        case .timed, .driven: true
        default: false
        }
    }

    /// Whether it runs towards its start. Set while running, it turns round at once and goes back over
    /// the time the way back takes at the original pace; set while paused or inactive, the next run goes
    /// that way.
    public var isReversed: Bool {
        get { reversed }
        set { setReversed(newValue) }
    }

    /// The time fraction, 0…1 (see the type's discussion). Settable while paused; setting it on an
    /// inactive animator activates it paused first; ignored while running or stopped, and for NaN.
    public var fractionComplete: Double {
        get { fraction(at: engine.currentTime) }
        set { scrub(to: newValue) }
    }

    /// The progress the animated properties show now, 0…1: ``fractionComplete`` through the timing of
    /// the current run (equal to it while paused or following a gesture, when scrubbing is linear).
    public var progress: Double { progress(at: engine.currentTime) }

    // MARK: Animations and completions

    /// Adds animations. On an inactive animator they run when it starts; `delayFactor` (0…1) then
    /// delays them by that fraction of the progress. On an active animator they run now and move over
    /// the progress that remains (after `delayFactor` of it), so they finish with the animator. Ignored
    /// when stopped.
    public func addAnimations(_ animations: @escaping () -> Void, delayFactor: Double = 0) {
        let d = delayFactor.isNaN ? 0 : min(1, max(0, delayFactor))
        switch state {
        case .inactive:
            pending.append((animations, d))
        case .active:
            let p = min(1, max(0, progress(at: engine.currentTime)))
            runAnimations(animations, window: p + d * (1 - p))
        case .stopped:
            break
        }
    }

    /// Adds a completion, told where the animator ended. Completions run once, in the order added, at
    /// the exact time the run ends (or when ``finishAnimation(at:)`` is called).
    public func addCompletion(_ completion: @escaping (Position) -> Void) {
        completions.append(completion)
    }

    // MARK: Control

    /// Starts (or resumes) now.
    public func startAnimation() {
        startAnimation(afterDelay: 0)
    }

    /// Starts an inactive animator after `delay` seconds (the views show their start values until then),
    /// or resumes a paused one after `delay`. Ignored while running or stopped.
    public func startAnimation(afterDelay delay: Double) {
        let d = AnimationEngine.seconds(delay)
        switch state {
        case .inactive:
            activate(delay: d)
            let start = reversed ? 1.0 : 0.0
            run(fromProgress: start, fraction: start, timing: timing, durationFactor: 1, delay: d, note: "started")
        case .active where !isRunning:
            self.delay = d
            let now = engine.currentTime
            run(fromProgress: progress(at: now), fraction: fraction(at: now), timing: timing, durationFactor: 1,
                delay: d, note: "resumed")
        default:
            break
        }
    }

    /// Pauses a running animator where it is, or activates an inactive one paused at its start.
    public func pauseAnimation() {
        switch state {
        case .inactive:
            activate(delay: 0)
            let start = reversed ? 1.0 : 0.0
            phase = .paused(progress: start, fraction: start)
            engine.noteEvent(recordID, "paused")
        case .active where isRunning:
            let now = engine.currentTime
            let p = progress(at: now)
            let f = scrubsLinearly ? min(1, max(0, p)) : fraction(at: now)
            phase = .paused(progress: p, fraction: f)
            engine.updateRecord(recordID) { $0.end = .infinity }
            engine.noteEvent(recordID, "paused at \(Spring.format(f))")
        default:
            break
        }
    }

    /// Runs an active animator from where it is to its end (its start when reversed) with `parameters`
    /// (nil: its own timing) over `duration × remaining fraction × durationFactor` seconds
    /// (`durationFactor` that is not positive and finite counts as 1). A physical spring runs for its own
    /// duration.
    public func continueAnimation(withTimingParameters parameters: AnimationTiming?, durationFactor: Double) {
        guard state == .active else { return }
        let now = engine.currentTime
        let factor = durationFactor.isFinite && durationFactor > 0 ? durationFactor : 1
        run(fromProgress: progress(at: now), fraction: fraction(at: now), timing: parameters ?? timing,
            durationFactor: factor, delay: 0, note: "continued")
    }

    /// Stops an active animator: the views keep what is on screen (each model value takes this
    /// animator's current offset) and its animations are removed. With `withoutFinishing` true it becomes
    /// inactive and no completion runs (they are discarded); with false it is ``State/stopped`` until
    /// ``finishAnimation(at:)``.
    public func stopAnimation(_ withoutFinishing: Bool) {
        guard state == .active else { return }
        let now = engine.currentTime
        let p = progress(at: now), f = fraction(at: now)
        for track in tracks {
            if let q = progress(of: track, at: now), let offset = track.contribution(progress: q) {
                let model = track.view.modelValue(of: track.property)
                engine.setModel(ValueComponents(model).adding(offset), of: track.property, of: track.view)
            }
            engine.uninstall(track)
        }
        stoppedTracks = tracks
        tracks = []
        engine.unregister(self)
        if withoutFinishing {
            state = .inactive
            phase = .idle
            restingFraction = f
            stoppedTracks = []
            completions = []
            engine.updateRecord(recordID) { $0.outcome = .stopped(at: now); $0.end = now }
        } else {
            state = .stopped
            phase = .stopped(progress: p, fraction: f)
            engine.noteEvent(recordID, "stopped at \(Spring.format(f))")
        }
    }

    /// Finishes a stopped animator: the views take their end values, their start values, or stay where
    /// they are (`.current`), and the completions run with `position`. Ignored unless stopped.
    public func finishAnimation(at position: Position) {
        guard state == .stopped else { return }
        switch position {
        case .end: setModels(of: stoppedTracks, toStart: false)
        case .start: setModels(of: stoppedTracks, toStart: true)
        case .current: break
        }
        stoppedTracks = []
        complete(at: position, fraction: position == .end ? 1 : position == .start ? 0 : fraction(at: engine.currentTime))
    }

    // MARK: Internals

    /// Tracks for changes made in a closure run for this animator (its own, added ones, nested blocks).
    func join(_ changes: [ChangeRecorder.Change], window: Double, completion: ((Bool) -> Void)? = nil) {
        for change in changes where change.from != change.to {
            let track = Track(view: change.view, property: change.property, from: change.from, to: change.to, window: window)
            tracks.append(track)
            engine.install(track, source: self)
        }
        if let recordID { engine.addProperties(changes, toRecord: recordID) }
        if let completion { completions.append { completion($0 == .end) } }
    }

    /// Follows a gesture: progress is the track's percent until its end, where `onEnd` runs.
    func follow(_ track: GestureTrack, onEnd: @escaping () -> Void) {
        if state == .inactive { pauseAnimation() }
        guard state == .active else { return }
        phase = .driven(Drive(track: track, start: engine.currentTime, onEnd: onEnd))
        engine.updateRecord(recordID) { $0.end = .infinity }
        engine.noteEvent(recordID, "following a gesture of \(track.samples.count) samples over \(Spring.format(track.duration)) s")
    }

    private func activate(delay: Double) {
        state = .active
        self.delay = delay
        let now = engine.currentTime
        recordID = engine.addRecord(kind: recordKind, parentID: nil, start: now + delay, end: .infinity,
                                    duration: duration, timing: baseTiming.description)
        engine.register(self)
        let work = pending
        pending = []
        for item in work { runAnimations(item.animations, window: item.window) }
    }

    private func runAnimations(_ animations: () -> Void, window: Double) {
        let changes = engine.capture(animations, context: .animator(self, window: window))
        join(changes, window: window)
    }

    private func run(fromProgress p: Double, fraction f: Double, timing spec: AnimationTiming, durationFactor: Double,
                     delay: Double, note: String) {
        let target = reversed ? 0.0 : 1.0
        let length = AnimationEngine.seconds(duration * abs(target - f) * durationFactor)
        // The full run at the base timing needs no refit (a duration-fitted spring is costly to fit).
        let (resolved, runLength) = spec == timing && length == duration ? (baseTiming, duration) : spec.resolved(duration: length)
        let start = engine.currentTime + delay
        phase = .timed(Segment(start: start, duration: runLength, fromProgress: p, toProgress: target,
                                fromFraction: f, toFraction: target, timing: resolved))
        engine.updateRecord(recordID) { $0.end = start + runLength }
        engine.noteEvent(recordID, "\(note): \(Spring.format(f)) → \(Spring.format(target)) in \(Spring.format(runLength)) s"
                            + (delay > 0 ? " after \(Spring.format(delay)) s" : "") + ", \(resolved)")
    }

    private func setReversed(_ value: Bool) {
        guard value != reversed else { return }
        reversed = value
        guard state == .active, case .timed(let s) = phase else { return }
        let now = engine.currentTime
        run(fromProgress: s.progress(at: now), fraction: s.fraction(at: now), timing: timing, durationFactor: 1,
            delay: max(0, s.start - now), note: "reversed")
    }

    private func scrub(to value: Double) {
        guard !value.isNaN else { return }
        let f = min(1, max(0, value))
        if state == .inactive { pauseAnimation() }
        guard state == .active, !isRunning else { return }
        phase = .paused(progress: shown(f), fraction: f)
    }

    /// Sets the views' models to the tracks' start values (the earliest track's wins) or end values (the
    /// latest's wins).
    private func setModels(of list: [Track], toStart: Bool) {
        for track in toStart ? list.reversed() : list {
            engine.setModel(toStart ? track.from : track.to, of: track.property, of: track.view)
        }
    }

    /// What a time fraction shows while paused or following a gesture.
    private func shown(_ fraction: Double) -> Double {
        scrubsLinearly ? fraction : baseTiming.progress(fraction)
    }

    private func complete(at position: Position, fraction f: Double) {
        let now = engine.currentTime
        state = .inactive
        phase = .idle
        restingFraction = f
        engine.unregister(self)
        engine.updateRecord(recordID) { $0.outcome = .ended(at: now, position: position); $0.end = now }
        let handlers = completions
        completions = []
        for handler in handlers { handler(position) }
    }

    private func progress(at t: Double) -> Double {
        switch phase {
        case .idle: restingFraction
        case .paused(let p, _), .stopped(let p, _): p
        case .timed(let s): s.progress(at: t)
        case .driven(let d): shown(d.track.percent(at: t - d.start))
        }
    }

    private func fraction(at t: Double) -> Double {
        switch phase {
        case .idle: restingFraction
        case .paused(_, let f), .stopped(_, let f): f
        case .timed(let s): s.fraction(at: t)
        case .driven(let d): d.track.percent(at: t - d.start)
        }
    }

    private enum Phase {
        case idle
        case paused(progress: Double, fraction: Double)
        case timed(Segment)
        case driven(Drive)
        case stopped(progress: Double, fraction: Double)
    }

    /// A run from one progress to another over a time span.
    private struct Segment {
        let start: Double
        let duration: Double
        let fromProgress: Double
        let toProgress: Double
        let fromFraction: Double
        let toFraction: Double
        let timing: ResolvedTiming

        var end: Double { start + duration }

        private func elapsed(at t: Double) -> Double {
            guard t > start else { return 0 }
            guard duration > 0, t < end else { return 1 }
            return (t - start) / duration
        }

        func progress(at t: Double) -> Double {
            let u = elapsed(at: t)
            if u >= 1 { return toProgress }
            return fromProgress + (toProgress - fromProgress) * timing.progress(u)
        }

        func fraction(at t: Double) -> Double {
            let u = elapsed(at: t)
            return u >= 1 ? toFraction : fromFraction + (toFraction - fromFraction) * u
        }
    }

    private struct Drive {
        let track: GestureTrack
        let start: Double
        let onEnd: () -> Void
        var end: Double { start + track.duration }
    }
}

extension PropertyAnimator: AnimationSource {
    var nextEventTime: Double? {
        switch phase {
        case .timed(let s): s.end
        case .driven(let d): d.end
        default: nil
        }
    }

    var scheduledEnd: Double? {
        if case .timed(let s) = phase { return s.end }
        return nil
    }

    var isDone: Bool { state != .active }

    func fireEvent() {
        let now = engine.currentTime
        switch phase {
        case .timed(let s):
            if pausesOnCompletion {
                phase = .paused(progress: s.toProgress, fraction: s.toFraction)
                engine.updateRecord(recordID) { $0.end = .infinity }
                engine.noteEvent(recordID, "paused on completion")
                return
            }
            let position: Position = s.toFraction == 0 ? .start : .end
            // Cancelled: back where it started (unless the models are to keep what the code set).
            if position == .start && restoresModelsAtStart { setModels(of: tracks, toStart: true) }
            for track in tracks { engine.uninstall(track) }
            tracks = []
            complete(at: position, fraction: s.toFraction)
        case .driven(let d):
            phase = .paused(progress: progress(at: now), fraction: fraction(at: now))
            engine.noteEvent(recordID, "gesture ended at \(Spring.format(fraction(at: now)))")
            d.onEnd()
        default:
            break
        }
    }

    func progress(of track: Track, at time: Double) -> Double? {
        let p = progress(at: time)
        let w = track.window
        if w <= 0 { return p }
        if w >= 1 { return p >= 1 ? 1 : 0 }
        return max(0, (p - w) / (1 - w))
    }

    func didRemove(_ track: Track) {
        tracks.removeAll { $0 === track }
    }
}
