internal import Motion

/// The states of an animator (`UIViewAnimating.state`).
public enum UIViewAnimatingState: Int, Sendable {
    /// Not started, or finished.
    case inactive
    /// Running or paused.
    case active
    /// Stopped with `stopAnimation(false)`, waiting for `finishAnimation(at:)`.
    case stopped
}

/// Where an animator ended, as its completions are told.
public enum UIViewAnimatingPosition: Int, Sendable {
    case end, start, current
}

/// What can run, pause, scrub and stop: UIKit's protocol of property animators.
public protocol UIViewAnimating: NSObjectProtocol {
    var state: UIViewAnimatingState { get }
    var isRunning: Bool { get }
    var isReversed: Bool { get set }
    var fractionComplete: CGFloat { get set }
    func startAnimation()
    func startAnimation(afterDelay delay: TimeInterval)
    func pauseAnimation()
    func stopAnimation(_ withoutFinishing: Bool)
    func finishAnimation(at finalPosition: UIViewAnimatingPosition)
}

/// An animator that animations and completions can be added to (what `interruptibleAnimator(using:)`
/// returns).
public protocol UIViewImplicitlyAnimating: UIViewAnimating {
    func addAnimations(_ animation: @escaping () -> Void)
    func addAnimations(_ animation: @escaping () -> Void, delayFactor: CGFloat)
    func addCompletion(_ completion: @escaping (UIViewAnimatingPosition) -> Void)
    func continueAnimation(withTimingParameters parameters: UITimingCurveProvider?, durationFactor: CGFloat)
}

/// The kinds of timing a timing provider gives.
public enum UITimingCurveType: Int, Sendable {
    case builtin, cubic, spring, composed
}

/// A timing curve or spring for a property animator.
public protocol UITimingCurveProvider: NSObjectProtocol {
    var timingCurveType: UITimingCurveType { get }
    var cubicTimingParameters: UICubicTimingParameters? { get }
    var springTimingParameters: UISpringTimingParameters? { get }
}

/// A cubic Bézier timing curve: one of UIKit's named curves or two control points.
open class UICubicTimingParameters: NSObject, UITimingCurveProvider {
    /// The named curve (`.easeInOut` for control points).
    public let animationCurve: UIView.AnimationCurve
    public let controlPoint1: CGPoint
    public let controlPoint2: CGPoint
    private let isNamed: Bool

    /// UIKit's default curve, ease in and out.
    public override convenience init() { self.init(animationCurve: .easeInOut) }

    public init(animationCurve curve: UIView.AnimationCurve) {
        animationCurve = curve
        let c = curve.timing
        controlPoint1 = CGPoint(x: c.c1.x, y: c.c1.y)
        controlPoint2 = CGPoint(x: c.c2.x, y: c.c2.y)
        isNamed = true
        super.init()
    }

    public init(controlPoint1 point1: CGPoint, controlPoint2 point2: CGPoint) {
        animationCurve = .easeInOut
        controlPoint1 = point1
        controlPoint2 = point2
        isNamed = false
        super.init()
    }

    public var timingCurveType: UITimingCurveType { isNamed ? .builtin : .cubic }
    public var cubicTimingParameters: UICubicTimingParameters? { self }
    public var springTimingParameters: UISpringTimingParameters? { nil }

    var timing: AnimationTiming {
        .curve(TimingCurve(Double(controlPoint1.x), Double(controlPoint1.y), Double(controlPoint2.x), Double(controlPoint2.y)))
    }
}

/// A spring: a damping ratio fitted to the animator's duration, a physical spring (mass, stiffness,
/// damping) that runs for its own settling time, or iOS 17's perceptual duration and bounce.
open class UISpringTimingParameters: NSObject, UITimingCurveProvider {
    /// Relative to the distance to go (1 = the whole distance in a second). The property animator uses
    /// `dx`, or `dy` when `dx` is 0 (one velocity for every property here).
    public let initialVelocity: CGVector
    let timing: AnimationTiming

    /// Critically damped (UIKit's default spring: damping ratio 1).
    public override convenience init() { self.init(dampingRatio: 1, initialVelocity: CGVector(dx: 0, dy: 0)) }

    public convenience init(dampingRatio ratio: CGFloat) { self.init(dampingRatio: ratio, initialVelocity: CGVector(dx: 0, dy: 0)) }

    public init(dampingRatio ratio: CGFloat, initialVelocity velocity: CGVector) {
        initialVelocity = velocity
        timing = .spring(dampingRatio: Double(ratio), initialVelocity: Self.scalar(velocity))
        super.init()
    }

    public init(mass: CGFloat, stiffness: CGFloat, damping: CGFloat, initialVelocity velocity: CGVector) {
        initialVelocity = velocity
        timing = .physicalSpring(Spring(mass: Double(mass), stiffness: Double(stiffness), damping: Double(damping),
                                        initialVelocity: Self.scalar(velocity)))
        super.init()
    }

    /// iOS 17's spring: a perceptual `duration` (seconds) and a `bounce` (0 none, up to 1 bouncier).
    public init(duration: TimeInterval, bounce: CGFloat = 0, initialVelocity velocity: CGVector = CGVector(dx: 0, dy: 0)) {
        initialVelocity = velocity
        timing = .physicalSpring(Spring(perceptualDuration: duration, bounce: Double(bounce), initialVelocity: Self.scalar(velocity)))
        super.init()
    }

    private static func scalar(_ v: CGVector) -> Double {
        if v.dx != 0, v.dy != 0, v.dx != v.dy { NotDrawn.note("UISpringTimingParameters with different dx and dy velocities (dx is used)") }
        return Double(v.dx != 0 ? v.dx : v.dy)
    }

    public var timingCurveType: UITimingCurveType { .spring }
    public var cubicTimingParameters: UICubicTimingParameters? { nil }
    public var springTimingParameters: UISpringTimingParameters? { self }
}

extension UITimingCurveProvider {
    /// Motion's timing for this provider.
    var motionTiming: AnimationTiming {
        if let spring = springTimingParameters { return spring.timing }
        return cubicTimingParameters?.timing ?? .easeInEaseOut
    }
}

/// UIKit's property animator, on the stage's virtual clock: animations that can be started, paused,
/// scrubbed (`fractionComplete`), reversed, continued with other timing and stopped, with Apple's
/// semantics (Motion's `PropertyAnimator` runs it). The animation closures run, and the model values
/// change, when the animator becomes active. Without a stage, a started animator runs to its end at once.
open class UIViewPropertyAnimator: NSObject, UIViewImplicitlyAnimating {
    let animator: PropertyAnimator
    private let ownEngine: Bool
    /// The timing given at creation.
    public let timingParameters: UITimingCurveProvider?

    /// An animator of `duration` seconds with `parameters` (a cubic curve or a spring). Required here so
    /// that `runningPropertyAnimator` makes the subclass it is called on.
    public required init(duration: TimeInterval, timingParameters parameters: UITimingCurveProvider) {
        let engine = StageContext.engine
        ownEngine = engine == nil
        timingParameters = parameters
        animator = PropertyAnimator(engine: engine ?? AnimationEngine(), duration: duration, timing: parameters.motionTiming)
        super.init()
    }

    /// With one of UIKit's named curves.
    public convenience init(duration: TimeInterval, curve: UIView.AnimationCurve, animations: (() -> Void)? = nil) {
        self.init(duration: duration, timingParameters: UICubicTimingParameters(animationCurve: curve))
        if let animations { addAnimations(animations) }
    }

    /// With a cubic Bézier curve through two control points.
    public convenience init(duration: TimeInterval, controlPoint1 point1: CGPoint, controlPoint2 point2: CGPoint,
                            animations: (() -> Void)? = nil) {
        self.init(duration: duration, timingParameters: UICubicTimingParameters(controlPoint1: point1, controlPoint2: point2))
        if let animations { addAnimations(animations) }
    }

    /// With a spring of damping `ratio` fitted to `duration`.
    public convenience init(duration: TimeInterval, dampingRatio ratio: CGFloat, animations: (() -> Void)? = nil) {
        self.init(duration: duration, timingParameters: UISpringTimingParameters(dampingRatio: ratio))
        if let animations { addAnimations(animations) }
    }

    /// A placeholder: 0 s, ease in and out.
    public override convenience init() {
        self.init(duration: 0, timingParameters: UICubicTimingParameters())
    }

    /// Makes, starts and returns an animator, as UIKit's: `options`' curve, started after `delay`.
    @discardableResult
    open class func runningPropertyAnimator(withDuration duration: TimeInterval, delay: TimeInterval, options: UIView.AnimationOptions = [],
                                            animations: @escaping () -> Void,
                                            completion: ((UIViewAnimatingPosition) -> Void)? = nil) -> Self {
        let animator = Self(duration: duration, timingParameters: UICubicTimingParameters(animationCurve: options.animationCurve))
        animator.addAnimations(animations)
        if let completion { animator.addCompletion(completion) }
        animator.startAnimation(afterDelay: delay)
        return animator
    }

    // MARK: Properties

    /// Seconds (a physical spring's own settling time when the timing is one).
    open var duration: TimeInterval { animator.duration }
    /// Seconds of the last start's delay.
    open var delay: TimeInterval { animator.delay }
    open var state: UIViewAnimatingState {
        switch animator.state {
        case .inactive: .inactive
        case .active: .active
        case .stopped: .stopped
        }
    }
    open var isRunning: Bool { animator.isRunning }
    open var isReversed: Bool {
        get { animator.isReversed }
        set { animator.isReversed = newValue }
    }
    /// 0…1: the time fraction; settable while paused (or inactive: the animator becomes active, paused).
    open var fractionComplete: CGFloat {
        get { CGFloat(animator.fractionComplete) }
        set { animator.fractionComplete = Double(newValue) }
    }
    /// Default true: a paused animator shows `fractionComplete` linearly.
    open var scrubsLinearly: Bool {
        get { animator.scrubsLinearly }
        set { animator.scrubsLinearly = newValue }
    }
    /// Default false: when true the animator pauses at its end instead of completing.
    open var pausesOnCompletion: Bool {
        get { animator.pausesOnCompletion }
        set { animator.pausesOnCompletion = newValue }
    }
    /// Accepted; every animator here can be interrupted.
    open var isInterruptible = true
    /// Accepted (touches are scripted).
    open var isUserInteractionEnabled = true
    open var isManualHitTestingEnabled = false

    // MARK: Running

    open func addAnimations(_ animation: @escaping () -> Void) { animator.addAnimations(animation) }
    open func addAnimations(_ animation: @escaping () -> Void, delayFactor: CGFloat) {
        animator.addAnimations(animation, delayFactor: Double(delayFactor))
    }

    open func addCompletion(_ completion: @escaping (UIViewAnimatingPosition) -> Void) {
        animator.addCompletion { position in
            switch position {
            case .end: completion(.end)
            case .start: completion(.start)
            case .current: completion(.current)
            }
        }
    }

    open func startAnimation() {
        animator.startAnimation()
        runWithoutStage()
    }

    open func startAnimation(afterDelay delay: TimeInterval) {
        animator.startAnimation(afterDelay: delay)
        runWithoutStage()
    }

    open func pauseAnimation() { animator.pauseAnimation() }

    open func stopAnimation(_ withoutFinishing: Bool) { animator.stopAnimation(withoutFinishing) }

    open func finishAnimation(at finalPosition: UIViewAnimatingPosition) {
        switch finalPosition {
        case .end: animator.finishAnimation(at: .end)
        case .start: animator.finishAnimation(at: .start)
        case .current: animator.finishAnimation(at: .current)
        }
    }

    /// Runs from where it is to its end (or start, reversed) with `parameters` (nil: its own timing), over
    /// the remaining fraction of `duration × durationFactor` (a factor of 0 keeps the duration).
    open func continueAnimation(withTimingParameters parameters: UITimingCurveProvider?, durationFactor: CGFloat) {
        animator.continueAnimation(withTimingParameters: parameters?.motionTiming, durationFactor: Double(durationFactor))
        runWithoutStage()
    }

    /// Without a stage nothing moves the clock: the animator's own engine runs it to its end at once.
    private func runWithoutStage() {
        if ownEngine { animator.engine.runUntilIdle() }
    }
}

extension UIView.AnimationOptions {
    /// The named curve of these options.
    var animationCurve: UIView.AnimationCurve {
        switch (rawValue >> 16) & 0xF {
        case 1: .easeIn
        case 2: .easeOut
        case 3: .linear
        default: .easeInOut
        }
    }
}
