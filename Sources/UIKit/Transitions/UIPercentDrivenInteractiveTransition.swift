internal import Motion
internal import SnapshotView

/// UIKit's interaction controller that drives an animator's animations by a percentage: after
/// `startInteractiveTransition(_:)` the transition shows what the animator's animations show at
/// `percentComplete × duration`, following ``update(_:)``; ``finish()`` runs the rest to the end and
/// ``cancel()`` runs back to the start, at ``completionSpeed`` with ``completionCurve``, and the
/// animator's completion blocks run then, with the context's `transitionWasCancelled` telling which.
///
/// As UIKit's: when the animator implements `interruptibleAnimator(using:)`, that animator is scrubbed
/// and continued instead. The animations of `animateTransition(using:)` keep their own durations, delays
/// and curves: they are recorded on a clock of their own that the stage shows at the scrubbed time (as
/// Core Animation's `timeOffset`). A cancelled transition shows every animated view as it was at the
/// start (see docs/uikit.md).
open class UIPercentDrivenInteractiveTransition: NSObject, UIViewControllerInteractiveTransitioning {
    /// Multiplies the speed of the run after `finish()` or `cancel()`. Default 1.
    open var completionSpeed: CGFloat = 1
    /// The curve of the run after `finish()` or `cancel()`. Default `.easeInOut`.
    open var completionCurve: UIView.AnimationCurve = .easeInOut
    /// The timing of that run, overriding ``completionCurve`` when set.
    open var timingCurve: UITimingCurveProvider?
    /// Whether the transition starts following updates (true, default) or runs by itself until paused.
    open var wantsInteractiveStart = true

    private var context: ControllerTransition?
    private var driver: PercentDrivenTransition?
    private var interruptible: UIViewImplicitlyAnimating?
    private var lastPercent: CGFloat = 0
    private var transitionLength: TimeInterval = 0

    public override init() { super.init() }

    /// Seconds the whole transition takes (the animator's `transitionDuration`).
    open var duration: CGFloat { CGFloat(transitionLength) }

    /// 0…1: the last update, or where the finishing or cancelling run is.
    open var percentComplete: CGFloat {
        if let interruptible { return interruptible.fractionComplete }
        return driver.map { CGFloat($0.percentComplete) } ?? lastPercent
    }

    open func startInteractiveTransition(_ transitionContext: UIViewControllerContextTransitioning) {
        guard let transition = transitionContext as? ControllerTransition, let animator = transition.animator else { return }
        context = transition
        transitionLength = transition.transitionDuration
        guard let engine = StageContext.engine else {
            // Without a stage there is no clock to scrub: the transition runs as an animated one.
            transition.startAnimator()
            return
        }
        let candidate = animator.interruptibleAnimator(using: transition)
        if !(candidate is NoInterruptibleAnimator) {
            interruptible = candidate
            transition.startAnimator()
            candidate.addCompletion { [weak self] _ in self?.endRun() }
            candidate.pauseAnimation()
            candidate.fractionComplete = lastPercent
            if !wantsInteractiveStart { continueInterruptible(reversed: false) }
            return
        }
        // The animator's blocks go on a clock of their own, shown at the driven time.
        let child = AnimationEngine(fps: engine.clock.fps)
        StageContext.engine = child
        transition.startAnimator()
        StageContext.engine = engine
        let length = max(transitionLength, child.scheduledEndTime ?? 0)
        transitionLength = length
        // What the driver animates is only its own progress; the views follow it through the child.
        let progressView = View(frame: .zero, name: "percent-driven progress")
        let driver = PercentDrivenTransition(engine: engine, duration: length, restoresModelsOnCancel: true) { progressView.alpha = 0 }
        self.driver = driver
        engine.attachScrubbed(child) { driver.progress * length }
        driver.addCompletion { result in
            engine.detachScrubbed(child)
            if result.isCancelled { child.settle(at: 0) }
            // The animator's completions run now: they call completeTransition with the outcome.
            child.runUntilIdle()
            self.endRun()
        }
        driver.start()
        if lastPercent > 0 { driver.update(Double(lastPercent)) }
        if !wantsInteractiveStart { driver.finish() }
    }

    /// The transition ended: nothing of it is kept, so that the object can drive the next one afresh.
    private func endRun() {
        context = nil
        driver = nil
        interruptible = nil
        lastPercent = 0
    }

    /// Shows the transition at `percentComplete` (0…1).
    open func update(_ percentComplete: CGFloat) {
        guard percentComplete.isFinite else { return }
        lastPercent = min(1, max(0, percentComplete))
        context?.updateInteractiveTransition(lastPercent)
        if let interruptible {
            if interruptible.isRunning { interruptible.pauseAnimation() }
            interruptible.fractionComplete = lastPercent
        } else {
            driver?.update(Double(lastPercent))
        }
    }

    /// Runs the rest of the transition to its end.
    open func finish() {
        context?.finishInteractiveTransition()
        if interruptible != nil { continueInterruptible(reversed: false); return }
        prepareRun()
        driver?.finish()
    }

    /// Runs the transition back to its start; it completes cancelled.
    open func cancel() {
        context?.cancelInteractiveTransition()
        if interruptible != nil { continueInterruptible(reversed: true); return }
        prepareRun()
        driver?.cancel()
    }

    /// Stops a running finish or cancel where it is, to follow updates again.
    open func pauseInteractiveTransition() {
        context?.pauseInteractiveTransition()
        if let interruptible { interruptible.pauseAnimation(); return }
        driver.map { $0.update($0.percentComplete) }
    }

    private func prepareRun() {
        guard let driver else { return }
        driver.completionSpeed = completionSpeed.isFinite && completionSpeed > 0 ? Double(completionSpeed) : 1
        driver.completionCurve = timingCurve?.cubicTimingParameters.map {
            TimingCurve(Double($0.controlPoint1.x), Double($0.controlPoint1.y), Double($0.controlPoint2.x), Double($0.controlPoint2.y))
        } ?? completionCurve.timing
    }

    private func continueInterruptible(reversed: Bool) {
        guard let interruptible else { return }
        interruptible.isReversed = reversed
        let speed = completionSpeed.isFinite && completionSpeed > 0 ? completionSpeed : 1
        interruptible.continueAnimation(withTimingParameters: timingCurve ?? UICubicTimingParameters(animationCurve: completionCurve),
                                        durationFactor: 1 / speed)
    }
}
