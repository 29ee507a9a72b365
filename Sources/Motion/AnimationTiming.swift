/// How an animation's progress follows time: a cubic Bézier curve or a spring.
public enum AnimationTiming: Hashable, Sendable, CustomStringConvertible {
    /// Progress = curve(elapsed / duration).
    case curve(TimingCurve)
    /// A spring fitted to whatever duration the animation runs for
    /// (``Spring/init(dampingRatio:duration:initialVelocity:)``), as UIKit's
    /// `usingSpringWithDamping:initialSpringVelocity:` and `UISpringTimingParameters(dampingRatio:)`.
    /// `initialVelocity` is relative to the distance (1.0 = the whole distance per second).
    case spring(dampingRatio: Double, initialVelocity: Double)
    /// A physical spring: the animation runs for the spring's own ``Spring/duration`` (its settling
    /// duration) whatever duration was asked, as `UISpringTimingParameters(mass:stiffness:damping:…)`.
    case physicalSpring(Spring)

    /// `.curve(.easeInEaseOut)`: what `UIView.animate` uses when no curve option is given. (Core
    /// Animation's own default function is a different curve, ``TimingCurve/default``.)
    public static let easeInEaseOut = AnimationTiming.curve(.easeInEaseOut)

    public var description: String {
        switch self {
        case .curve(let c): c.description
        case .spring(let ratio, let velocity): "spring(dampingRatio \(Spring.format(ratio)), velocity \(Spring.format(velocity)))"
        case .physicalSpring(let s): s.description
        }
    }

    /// The timing for a run of `duration` seconds, and the duration it really runs for (a physical
    /// spring's own).
    func resolved(duration: Double) -> (timing: ResolvedTiming, duration: Double) {
        switch self {
        case .curve(let c): (.curve(c), duration)
        case .spring(let ratio, let velocity):
            duration > 0 ? (.spring(Spring(dampingRatio: ratio, duration: duration, initialVelocity: velocity)), duration) : (.curve(.linear), 0)
        case .physicalSpring(let s): (.spring(s), s.duration)
        }
    }
}

/// A timing with its spring (if any) fitted to the duration it runs for.
enum ResolvedTiming: CustomStringConvertible {
    case curve(TimingCurve)
    case spring(Spring)

    /// Progress at time fraction `fraction` (0…1) of the run: exactly 0 at 0 and 1 at 1.
    func progress(_ fraction: Double) -> Double {
        switch self {
        case .curve(let c): c.progress(at: fraction)
        case .spring(let s): fraction >= 1 ? 1 : s.progress(at: fraction * s.duration)
        }
    }

    var description: String {
        switch self {
        case .curve(let c): c.description
        case .spring(let s): s.description
        }
    }
}
