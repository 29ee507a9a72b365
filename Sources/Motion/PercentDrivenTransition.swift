/// What a transition's completions are told (UIKit's transition coordinator context).
public struct TransitionCoordinatorContext: Hashable, Sendable {
    /// True when the transition was cancelled: every view it (and its alongside animations) animated is
    /// back at its start value.
    public let isCancelled: Bool
    /// When it completed (engine seconds).
    public let completionTime: Double
}

/// An interactive transition driven by a percentage, as `UIPercentDrivenInteractiveTransition` built on a
/// property animator: its animations follow ``update(_:)`` or a recorded ``GestureTrack`` linearly, then
/// ``finish()`` or ``cancel()`` runs the rest with ``completionCurve`` at ``completionSpeed``.
///
/// Animations added with ``animateAlongside(_:completion:)`` follow the same progress (seed 003: the
/// table row's deselection follows the back gesture); on cancel they run back with it, and their
/// completions learn from ``TransitionCoordinatorContext/isCancelled`` that they should undo what the closure
/// meant (reselect the row).
public final class PercentDrivenTransition {
    /// The clock the transition runs on.
    public let engine: AnimationEngine
    /// Multiplies the speed of the finishing or cancelling run: the rest takes
    /// `duration × remaining / completionSpeed` seconds. Default 1; values that are not positive and
    /// finite count as 1.
    public var completionSpeed = 1.0
    /// The curve of the finishing or cancelling run. Default `.easeInEaseOut` (UIKit's).
    public var completionCurve = TimingCurve.easeInEaseOut
    /// True from the start until ``finish()`` or ``cancel()`` (or the end of a followed track).
    public private(set) var isInteractive = false
    /// Set once the transition has completed.
    public private(set) var context: TransitionCoordinatorContext?

    private let animator: PropertyAnimator
    private var handlers: [(TransitionCoordinatorContext) -> Void] = []
    private var started = false
    private var ending = false

    /// A transition of `animations` on `engine`, driven by ``start()`` and ``update(_:)`` or a gesture track.
    /// - Parameters:
    ///   - duration: seconds the whole transition takes at percent speed 1 (NaN and negative count as 0).
    ///   - engine: the clock the transition runs on.
    ///   - animations: the transition's changes; they run (and the models change) when it starts.
    ///   - restoresModelsOnCancel: whether a cancel sets every animated property back to its start value
    ///     (default true). False is UIKit's percent-driven rule (Core Animation scrubbed back and removed):
    ///     the properties keep the values the code set, and whoever started the transition puts back what
    ///     it must in a completion that sees ``isCancelled`` (a navigation controller puts its views back;
    ///     a row deselected in `viewWillAppear` stays deselected).
    public init(engine: AnimationEngine, duration: Double, restoresModelsOnCancel: Bool = true, animations: @escaping () -> Void) {
        self.engine = engine
        animator = PropertyAnimator(engine: engine, duration: duration, timing: .curve(.linear), animations: animations)
        animator.recordKind = .transition
        animator.restoresModelsAtStart = restoresModelsOnCancel
    }

    /// Seconds.
    public var duration: Double { animator.duration }
    /// 0…1: the time fraction of the transition (the finger's position while it follows one).
    public var percentComplete: Double { animator.fractionComplete }
    /// 0…1: how far the animated properties are between start and end now (``percentComplete`` through
    /// the curve of the finishing or cancelling run; the same while a finger drives it).
    public var progress: Double { animator.progress }
    /// True once completed by cancelling.
    public var isCancelled: Bool { context?.isCancelled ?? false }

    /// Starts the transition at 0 % (also done by the first update, follow, finish or cancel).
    public func start() {
        guard !started else { return }
        started = true
        isInteractive = true
        // Held strongly until it runs: the engine keeps the animator, the animator keeps this.
        animator.addCompletion { position in self.complete(position) }
        animator.pauseAnimation()
    }

    /// Shows `percentComplete` (clamped to 0…1; NaN is ignored). Takes over from a followed track.
    public func update(_ percentComplete: Double) {
        guard !ending else { return }
        start()
        if animator.isRunning { animator.pauseAnimation() }
        animator.fractionComplete = percentComplete
    }

    /// Follows `track` from now: the percent at each moment is the track's; at its end the transition
    /// finishes or cancels as the track's ``GestureTrack/ending`` says.
    public func follow(_ track: GestureTrack) {
        guard !ending else { return }
        start()
        animator.follow(track) { track.finishes ? self.finish() : self.cancel() }
    }

    /// Follows a back swipe over a view `width` points wide: its progress track, then the rest as
    /// ``EdgePanGesture/release(width:)`` says (finish or cancel, on a curve whose initial slope is the
    /// release velocity, over the seconds it derives): sets ``completionCurve`` and ``completionSpeed``.
    public func follow(_ gesture: EdgePanGesture, width: Double) {
        let release = gesture.release(width: width)
        completionCurve = release.curve
        // The rest takes duration × remaining / completionSpeed seconds: make that release.duration.
        completionSpeed = release.duration > 0 && duration > 0 && release.remaining > 0
            ? duration * release.remaining / release.duration : 1
        follow(gesture.progressTrack(width: width))
    }

    /// Completes the transition from where it is.
    public func finish() { end(cancelled: false) }

    /// Runs the transition back to its start; the models return to their start values (unless made with
    /// `restoresModelsOnCancel: false`).
    public func cancel() { end(cancelled: true) }

    /// Animates `animations` along with the transition, following its progress; `completion` runs when
    /// the transition completes, told whether it was cancelled. Ignored once the transition completed.
    public func animateAlongside(_ animations: @escaping () -> Void, completion: ((TransitionCoordinatorContext) -> Void)? = nil) {
        guard context == nil else { return }
        animator.addAnimations(animations)
        if let completion { handlers.append(completion) }
    }

    /// Runs when the transition completes (after it, in the order added, with alongside completions).
    public func addCompletion(_ completion: @escaping (TransitionCoordinatorContext) -> Void) {
        guard context == nil else { return }
        handlers.append(completion)
    }

    private func end(cancelled: Bool) {
        guard !ending else { return }
        start()
        ending = true
        isInteractive = false
        if animator.isRunning { animator.pauseAnimation() }
        animator.isReversed = cancelled
        let speed = completionSpeed.isFinite && completionSpeed > 0 ? completionSpeed : 1
        animator.continueAnimation(withTimingParameters: .curve(completionCurve), durationFactor: 1 / speed)
    }

    private func complete(_ position: AnimatingPosition) {
        let result = TransitionCoordinatorContext(isCancelled: position == .start, completionTime: engine.currentTime)
        context = result
        let list = handlers
        handlers = []
        for handler in list { handler(result) }
    }
}
