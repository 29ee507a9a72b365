import SnapshotView

extension AnimationEngine {
    /// Animates the changes `animations` makes, as `UIView.animate(withDuration:delay:options:animations:completion:)`.
    ///
    /// The closure runs at once; every animatable property it changes animates from its old value to
    /// its new one, and the views' model values are the new ones right after this call. The curve is
    /// `options.curve` (default `.easeInEaseOut`).
    ///
    /// - Parameters:
    ///   - duration: seconds of one cycle (one direction with autoreverse). 0 applies the changes at
    ///     once (the delay is then ignored: nothing animates).
    ///   - delay: seconds before the animation starts moving (default 0); during it the views show their
    ///     start values.
    ///   - options: curve, repetition, autoreverse, beginFromCurrentState, inheritance overrides.
    ///   - animations: the changes.
    ///   - completion: runs when the animation ends, at exactly its end time, with `finished` true; false
    ///     when its animations were removed first. A block that animates nothing completes at
    ///     ``currentTime`` (at the next ``advance(to:)``), in order.
    ///
    /// Nested in another block's closure, a block inherits the outer block's start (its own delay is
    /// added), duration, curve and repetition, unless `options` overrides them
    /// (`overrideInheritedDuration`, `overrideInheritedCurve`, `overrideInheritedOptions`). Nested in a
    /// property animator's or transition's closure, it joins the animator and follows its progress.
    /// NaN or negative durations and delays count as 0; see ``maximumDuration``.
    public func animate(duration: Double, delay: Double = 0, options: AnimationOptions = [],
                        animations: () -> Void, completion: ((Bool) -> Void)? = nil) {
        runBlock(kind: .block, duration: duration, delay: delay, timing: .curve(options.curve ?? .easeInEaseOut),
                 options: options, calculationMode: nil, animations: animations, completion: completion)
    }

    /// The same as ``animate(duration:delay:options:animations:completion:)`` with `curve` as the curve
    /// (it replaces any curve in `options`).
    public func animate(duration: Double, delay: Double = 0, options: AnimationOptions = [], curve: TimingCurve,
                        animations: () -> Void, completion: ((Bool) -> Void)? = nil) {
        runBlock(kind: .block, duration: duration, delay: delay, timing: .curve(curve), options: options,
                 calculationMode: nil, animations: animations, completion: completion)
    }

    /// A spring animation, as `UIView.animate(withDuration:delay:usingSpringWithDamping:initialSpringVelocity:…)`:
    /// the spring moves with `dampingRatio` and lands exactly at `duration` seconds
    /// (``Spring/init(dampingRatio:duration:initialVelocity:)`` documents the mapping).
    ///
    /// - Parameters:
    ///   - dampingRatio: 1 is critically damped, lower values oscillate (clamped to
    ///     ``Spring/dampingRatioRange``).
    ///   - duration: seconds the springs settle in.
    ///   - delay: seconds before they start.
    ///   - options: UIKit's animation options; default none.
    ///   - animations: the changes to animate.
    ///   - completion: called with whether the animations finished, at the time they end.
    ///   - velocity: relative to the distance each property travels: 1.0 = the whole distance per second.
    public func animate(duration: Double, delay: Double = 0, usingSpringWithDamping dampingRatio: Double,
                        initialSpringVelocity velocity: Double, options: AnimationOptions = [],
                        animations: () -> Void, completion: ((Bool) -> Void)? = nil) {
        runBlock(kind: .block, duration: duration, delay: delay,
                 timing: .spring(dampingRatio: dampingRatio, initialVelocity: velocity),
                 options: options, calculationMode: nil, animations: animations, completion: completion)
    }

    /// An animation block with any timing: a curve, a duration-fitted spring, or a physical spring (which
    /// runs for its own settling duration whatever `duration` says). `options.curve` is ignored here.
    public func animate(duration: Double, delay: Double = 0, timing: AnimationTiming, options: AnimationOptions = [],
                        animations: () -> Void, completion: ((Bool) -> Void)? = nil) {
        runBlock(kind: .block, duration: duration, delay: delay, timing: timing, options: options,
                 calculationMode: nil, animations: animations, completion: completion)
    }

    /// A keyframe animation, as `UIView.animateKeyframes(withDuration:delay:options:animations:completion:)`:
    /// inside `animations`, call ``addKeyframe(withRelativeStartTime:relativeDuration:animations:)``.
    ///
    /// Each property moves through the values its keyframes set: from its value before the block, it
    /// holds until a keyframe starts, moves to that keyframe's value by the keyframe's end, and so on;
    /// changes made directly in `animations` are a keyframe over the whole duration. The whole
    /// animation follows `options.curve`, default `.easeInEaseOut` as UIKit's keyframe animations
    /// (pass `.curveLinear` for constant speed). After the end the views show their model values: the
    /// values set last in code.
    ///
    /// - Parameters:
    ///   - duration: seconds (0 applies the changes at once).
    ///   - delay: seconds before it starts moving.
    ///   - options: UIKit's animation options; default none.
    ///   - animations: adds keyframes with `addKeyframe(relativeStartTime:relativeDuration:animations:)`.
    ///   - completion: called with whether the animations finished, at the time they end.
    ///   - calculationMode: `.linear` (default) or `.discrete`.
    public func animateKeyframes(duration: Double, delay: Double = 0, options: AnimationOptions = [],
                                 calculationMode: KeyframeCalculationMode = .linear,
                                 animations: () -> Void, completion: ((Bool) -> Void)? = nil) {
        runBlock(kind: .keyframes, duration: duration, delay: delay, timing: .curve(options.curve ?? .easeInEaseOut),
                 options: options, calculationMode: calculationMode, animations: animations, completion: completion)
    }

    /// Adds a keyframe to the keyframe animation whose closure is running: the changes `animations`
    /// makes are reached at `relativeStartTime + relativeDuration`, moving from `relativeStartTime`
    /// (both fractions of the whole duration: NaN counts as 0, the start is clamped to 0…1 and the
    /// duration to what remains). Outside a keyframe animation's closure the changes are made as if
    /// there were no keyframe.
    public func addKeyframe(withRelativeStartTime relativeStartTime: Double, relativeDuration: Double,
                            animations: () -> Void) {
        guard case .keyframes(let collector, _)? = contexts.last else {
            animations()
            return
        }
        let start = relativeStartTime.isNaN ? 0 : min(1, max(0, relativeStartTime))
        let length = relativeDuration.isNaN ? 0 : min(1 - start, max(0, relativeDuration))
        let recorder = ChangeRecorder(engine: self, capturesPresentation: collector.beginsFromCurrentState)
        ViewChangeObservation.observing(recorder, animations)
        collector.add(recorder.changes, start: start, duration: length)
    }

    /// Runs `changes` with animations disabled, as `UIView.performWithoutAnimation`: its changes apply
    /// at once, and blocks nested in it apply at once too (completing with `finished == true`).
    /// Animations already in flight keep adding their offsets to the new model values, as in UIKit.
    public func performWithoutAnimation(_ changes: () -> Void) {
        contexts.append(.disabled)
        defer { contexts.removeLast() }
        ViewChangeObservation.withoutObserver(changes)
    }

    // MARK: Blocks

    private func runBlock(kind: AnimationRecord.Kind, duration: Double, delay: Double, timing ownTiming: AnimationTiming,
                          options: AnimationOptions, calculationMode: KeyframeCalculationMode?,
                          animations: () -> Void, completion: ((Bool) -> Void)?) {
        // Numbered before the closure runs, so that of blocks ending together the outer completes first.
        let sequence = nextSequence()
        var duration = AnimationEngine.seconds(duration)
        let delay = AnimationEngine.seconds(delay)
        var begin = currentTime + delay
        var timing = ownTiming
        var repetition = options.repetition
        var autoreverses = options.autoreverses
        var parentID: Int?
        var disabled = false

        switch contexts.last {
        case .animator(let animator, let window)? where kind == .block
            && !options.overridesInheritedDuration && !options.overridesInheritedCurve:
            // Inherits the animator's timing: it becomes part of the animator.
            let changes = capture(animations, context: .animator(animator, window: window))
            animator.join(changes, window: window, completion: completion)
            return
        case .animator(let animator, _)?:
            parentID = animator.recordID
        case .block(let outer)?, .keyframes(_, let outer)?:
            parentID = outer.recordID
            begin = outer.begin + delay
            if !options.overridesInheritedDuration { duration = outer.duration }
            if !options.overridesInheritedCurve && !options.overridesInheritedOptions { timing = outer.timing }
            if !options.overridesInheritedOptions {
                repetition = outer.repetition
                autoreverses = outer.autoreverses
            }
        case .disabled?:
            disabled = true
        case nil:
            break
        }

        let (resolved, runDuration) = timing.resolved(duration: duration)
        let animated = !disabled && runDuration > 0
        let recordID = addRecord(kind: kind, parentID: parentID, start: animated ? begin : currentTime,
                                 end: animated ? .infinity : currentTime, duration: animated ? runDuration : 0,
                                 timing: resolved.description, repetition: repetition, autoreverses: autoreverses,
                                 beginsFromCurrentState: options.beginsFromCurrentState, animated: animated)
        let inherited = Context.Inherited(begin: animated ? begin : currentTime, duration: animated ? runDuration : 0,
                                          timing: timing, repetition: repetition, autoreverses: autoreverses,
                                          recordID: recordID)
        let collector = calculationMode.map { _ in KeyframeCollector(beginsFromCurrentState: options.beginsFromCurrentState) }
        let context: Context
        if disabled {
            context = .disabled
        } else if let collector {
            context = .keyframes(collector, inherited)
        } else {
            context = .block(inherited)
        }
        let direct = capture(animations, context: context, beginsFromCurrentState: options.beginsFromCurrentState)
        collector?.add(direct, start: 0, duration: 1)
        let changes = collector?.changes ?? direct
        addProperties(changes, toRecord: recordID)

        var newTracks: [Track] = []
        if animated {
            newTracks = collector.map { $0.tracks(engine: self, discrete: calculationMode == .discrete) }
                ?? direct.compactMap { change in
                    if options.beginsFromCurrentState { removeTracks(for: change.key) }
                    let from = options.beginsFromCurrentState ? (change.presentationAtStart ?? change.from) : change.from
                    guard from != change.to else { return nil }
                    return Track(view: change.view, property: change.property, from: from, to: change.to)
                }
        } else if options.beginsFromCurrentState && !disabled {
            // A zero-duration block that begins from the current state snaps: nothing in flight stays.
            for change in changes { removeTracks(for: change.key) }
        }

        guard !newTracks.isEmpty else {
            updateRecord(recordID) {
                $0.animated = false
                $0.start = self.currentTime
                $0.end = self.currentTime
            }
            schedule(sequence: sequence) { [unowned self] in
                self.updateRecord(recordID) { $0.outcome = .finished(at: self.currentTime) }
                completion?(true)
            }
            return
        }
        let block = BlockAnimation(engine: self, sequence: sequence, recordID: recordID, begin: begin,
                                   duration: runDuration, timing: resolved, cycles: repetition.cycles,
                                   autoreverses: autoreverses, tracks: newTracks, completion: completion)
        updateRecord(recordID) { $0.end = block.end }
        for track in newTracks { install(track, source: block) }
        register(block)
    }
}
