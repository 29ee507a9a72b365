import Foundation
internal import Motion
internal import RasterCore
internal import SnapshotView

/// The names of Core Animation's timing functions.
public struct CAMediaTimingFunctionName: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let linear = CAMediaTimingFunctionName(rawValue: "linear")
    public static let easeIn = CAMediaTimingFunctionName(rawValue: "easeIn")
    public static let easeOut = CAMediaTimingFunctionName(rawValue: "easeOut")
    public static let easeInEaseOut = CAMediaTimingFunctionName(rawValue: "easeInEaseOut")
    public static let `default` = CAMediaTimingFunctionName(rawValue: "default")
}

/// A cubic Bézier timing curve, as Core Animation's (control points' y may leave 0…1).
open class CAMediaTimingFunction: NSObject {
    let curve: TimingCurve

    public init(name: CAMediaTimingFunctionName) {
        switch name {
        case .easeIn: curve = .easeIn
        case .easeOut: curve = .easeOut
        case .easeInEaseOut: curve = .easeInEaseOut
        case .default: curve = .default
        default: curve = .linear
        }
        super.init()
    }

    public init(controlPoints c1x: Float, _ c1y: Float, _ c2x: Float, _ c2y: Float) {
        curve = TimingCurve(Double(c1x), Double(c1y), Double(c2x), Double(c2y))
        super.init()
    }

    func value(at t: Double) -> Double { curve.progress(at: t) }
}

/// How an animation shows outside its active time.
public struct CAMediaTimingFillMode: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let removed = CAMediaTimingFillMode(rawValue: "removed")
    public static let forwards = CAMediaTimingFillMode(rawValue: "forwards")
    public static let backwards = CAMediaTimingFillMode(rawValue: "backwards")
    public static let both = CAMediaTimingFillMode(rawValue: "both")
}

/// Told when an animation starts and stops.
public protocol CAAnimationDelegate: NSObjectProtocol {
    func animationDidStart(_ anim: CAAnimation)
    func animationDidStop(_ anim: CAAnimation, finished flag: Bool)
}

extension CAAnimationDelegate {
    public func animationDidStart(_ anim: CAAnimation) {}
    public func animationDidStop(_ anim: CAAnimation, finished flag: Bool) {}
}

/// Core Animation's explicit animation, on the stage's virtual clock: it shows its values on the layer's
/// presentation and leaves the model alone, as Core Animation's does. Timing: `beginTime` (media time,
/// `CACurrentMediaTime()`; 0 is when it is added), `duration` (0 is the transaction's, 0.25 s),
/// `repeatCount` (`HUGE` repeats for ever), `autoreverses`, `speed`, `timingFunction` (linear when nil),
/// `fillMode` and `isRemovedOnCompletion`; the delegate hears `animationDidStart` and
/// `animationDidStop(_:finished:)` at the virtual times they fall due.
open class CAAnimation: NSObject {
    open var beginTime: CFTimeInterval = 0
    open var duration: CFTimeInterval = 0
    open var speed: Float = 1
    open var timeOffset: CFTimeInterval = 0
    open var repeatCount: Float = 0
    open var repeatDuration: CFTimeInterval = 0
    open var autoreverses = false
    open var fillMode = CAMediaTimingFillMode.removed
    open var timingFunction: CAMediaTimingFunction?
    open var isRemovedOnCompletion = true
    /// Held strongly, as Core Animation holds an animation's delegate.
    open var delegate: CAAnimationDelegate?

    public required override init() { super.init() }

    /// A new animation, as Core Animation's convenience.
    open class func animation() -> Self { Self() }

    // MARK: Timing (seconds of media time)

    /// One pass, in seconds, when the duration is 0: the transaction's.
    var effectiveDuration: Double { duration > 0 ? duration : CATransaction.animationDuration() }

    /// The active time after the start (every repetition, the reversals), in seconds of media time.
    var activeDuration: Double {
        let one = effectiveDuration * (autoreverses ? 2 : 1)
        let speed = Double(self.speed) > 0 ? Double(self.speed) : 1
        if repeatDuration > 0 { return repeatDuration / speed }
        if repeatCount.isInfinite { return .infinity }
        return one * Double(max(1, repeatCount)) / speed
    }

    /// The progress (0…1, through the timing function) at `local` seconds after the start, or nil
    /// outside the active time (where the fill mode decides).
    func progress(atLocal local: Double) -> Double? {
        let speed = Double(self.speed) > 0 ? Double(self.speed) : 1
        let t = local * speed + timeOffset
        let d = effectiveDuration
        guard d > 0 else { return 1 }
        let period = d * (autoreverses ? 2 : 1)
        var phase = t.truncatingRemainder(dividingBy: period)
        if phase < 0 { phase += period }
        // The end of a pass shows its end, not the next pass's start.
        if phase == 0, t > 0 { phase = period }
        var f = phase <= d ? phase / d : 2 - phase / d
        if !autoreverses { f = min(1, phase / d) }
        return timingFunction?.value(at: f) ?? f
    }

    /// The progress shown at the end of the active time.
    var endProgress: Double {
        if autoreverses { return timingFunction?.value(at: 0) ?? 0 }
        return timingFunction?.value(at: 1) ?? 1
    }

    /// Values for `layer` at `progress`, by key path (a group's of each animation).
    func values(at local: Double, for layer: CALayer) -> [(keyPath: String, value: Any)] { [] }
}

/// An animation of one key path of a layer.
open class CAPropertyAnimation: CAAnimation {
    /// The animated key path (`"opacity"`, `"position"`, `"transform.scale"`, `"path"`…).
    open var keyPath: String?
    /// Accepted; values are shown as they are, not added to the model (noted).
    open var isAdditive = false { didSet { if isAdditive { NotDrawn.note("CAPropertyAnimation.isAdditive (values shown as they are)") } } }
    open var isCumulative = false

    public convenience init(keyPath path: String?) {
        self.init()
        keyPath = path
    }

    /// The value shown at `progress` (0…1), for `layer`'s model value `model`.
    func value(atProgress progress: Double, model: Any?) -> Any? { nil }

    override func values(at local: Double, for layer: CALayer) -> [(keyPath: String, value: Any)] {
        guard let keyPath, let p = local < 0 ? nil as Double? : progress(atLocal: local) else { return [] }
        return value(atProgress: p, model: layer.modelValue(forKeyPath: keyPath)).map { [(keyPath, $0)] } ?? []
    }
}

/// From one value to another (or by one, or from the model to one).
open class CABasicAnimation: CAPropertyAnimation {
    open var fromValue: Any?
    open var toValue: Any?
    open var byValue: Any?

    override func value(atProgress progress: Double, model: Any?) -> Any? {
        let from = fromValue ?? (toValue != nil && byValue != nil ? AnimationValue.subtract(toValue, byValue) : model)
        let to = toValue ?? (byValue != nil ? AnimationValue.add(from, byValue) : model)
        return AnimationValue.interpolate(from, to, progress)
    }
}

/// Through a list of values at key times (evenly spaced when not given), each segment with its own
/// timing function; `.discrete` holds each value until the next key time.
open class CAKeyframeAnimation: CAPropertyAnimation {
    open var values: [Any]?
    open var keyTimes: [NSNumber]?
    open var timingFunctions: [CAMediaTimingFunction]?
    open var calculationMode = CAAnimationCalculationMode.linear {
        didSet { if calculationMode == .paced || calculationMode == .cubic || calculationMode == .cubicPaced { NotDrawn.note("CAKeyframeAnimation paced and cubic modes (linear between values)") } }
    }
    /// A path for `position` to follow: accepted, not followed (noted); give `values`.
    open var path: CGPath? { didSet { if path != nil { NotDrawn.note("CAKeyframeAnimation.path (give values instead)") } } }
    open var rotationMode: CAAnimationRotationMode?

    override func value(atProgress progress: Double, model: Any?) -> Any? {
        guard let values, !values.isEmpty else { return nil }
        guard values.count > 1 else { return values[0] }
        let times: [Double] = keyTimes.map { $0.map(\.doubleValue) }.flatMap { $0.count == values.count ? $0 : nil }
            ?? (0..<values.count).map { Double($0) / Double(values.count - 1) }
        var i = 0
        while i + 1 < times.count && times[i + 1] <= progress { i += 1 }
        if i >= values.count - 1 { return values[values.count - 1] }
        if calculationMode == .discrete { return values[i] }
        let span = times[i + 1] - times[i]
        var f = span > 0 ? (progress - times[i]) / span : 1
        if let functions = timingFunctions, i < functions.count { f = functions[i].value(at: f) }
        return AnimationValue.interpolate(values[i], values[i + 1], f)
    }
}

public struct CAAnimationCalculationMode: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let linear = CAAnimationCalculationMode(rawValue: "linear")
    public static let discrete = CAAnimationCalculationMode(rawValue: "discrete")
    public static let paced = CAAnimationCalculationMode(rawValue: "paced")
    public static let cubic = CAAnimationCalculationMode(rawValue: "cubic")
    public static let cubicPaced = CAAnimationCalculationMode(rawValue: "cubicPaced")
}

public struct CAAnimationRotationMode: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let rotateAuto = CAAnimationRotationMode(rawValue: "auto")
    public static let rotateAutoReverse = CAAnimationRotationMode(rawValue: "autoReverse")
}

/// A spring from `fromValue` to `toValue`: mass, stiffness, damping and initial velocity (Core
/// Animation's defaults 1, 100, 10, 0); its `settlingDuration` is how long it takes to come to rest, and
/// it runs for its `duration` (set it to `settlingDuration`, as Core Animation's users do).
open class CASpringAnimation: CABasicAnimation {
    open var mass: CGFloat = 1
    open var stiffness: CGFloat = 100
    open var damping: CGFloat = 10
    open var initialVelocity: CGFloat = 0

    /// iOS 17's spring: a perceptual duration and a bounce.
    public convenience init(perceptualDuration: TimeInterval, bounce: CGFloat) {
        self.init()
        let spring = Spring(perceptualDuration: perceptualDuration, bounce: Double(bounce))
        mass = CGFloat(spring.mass)
        stiffness = CGFloat(spring.stiffness)
        damping = CGFloat(spring.damping)
        duration = spring.duration
    }

    private var spring: Spring { Spring(mass: Double(mass), stiffness: Double(stiffness), damping: Double(damping), initialVelocity: Double(initialVelocity)) }

    /// Seconds until the spring is at rest.
    open var settlingDuration: CFTimeInterval { spring.duration }

    override func progress(atLocal local: Double) -> Double? {
        let speed = Double(self.speed) > 0 ? Double(self.speed) : 1
        return spring.value(at: max(0, local * speed + timeOffset))
    }

    override var endProgress: Double { spring.value(at: effectiveDuration) }
}

/// Animations run together over the group's time: each starts at its own `beginTime` within the group.
open class CAAnimationGroup: CAAnimation {
    open var animations: [CAAnimation]?

    override func values(at local: Double, for layer: CALayer) -> [(keyPath: String, value: Any)] {
        guard local >= 0 else { return [] }
        let speed = Double(self.speed) > 0 ? Double(self.speed) : 1
        let t = local * speed + timeOffset
        let d = effectiveDuration
        let inGroup = d > 0 ? (autoreverses ? (t.truncatingRemainder(dividingBy: 2 * d) <= d ? t.truncatingRemainder(dividingBy: 2 * d) : 2 * d - t.truncatingRemainder(dividingBy: 2 * d)) : min(t, d)) : 0
        var out: [(String, Any)] = []
        for animation in animations ?? [] {
            let childLocal = inGroup - animation.beginTime
            if childLocal < 0 {
                if animation.fillMode == .backwards || animation.fillMode == .both {
                    out += animation.values(at: 0, for: layer)
                }
                continue
            }
            if childLocal > animation.activeDuration {
                if animation.fillMode == .forwards || animation.fillMode == .both {
                    out += animation.values(at: animation.activeDuration, for: layer)
                }
                continue
            }
            out += animation.values(at: childLocal, for: layer)
        }
        return out
    }
}
