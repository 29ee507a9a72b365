import Foundation

/// A damped spring moving a value from 0 (the start) to 1 (the target): the harmonic oscillator
/// `m·x″ + c·x′ + k·x = 0` for the displacement from the target, solved in closed form for the under-,
/// critically and over-damped cases, as `CASpringAnimation` does.
///
/// Units: mass in arbitrary mass units, stiffness and damping per that mass, time in seconds.
/// ``initialVelocity`` is relative to the distance travelled: 1.0 covers the whole distance in one second
/// (UIKit's `initialSpringVelocity`); negative values start moving away from the target.
///
/// A spring runs for ``duration`` seconds and lands exactly on the target then: ``progress(at:)`` adds
/// the tiny residual left at ``duration`` back in with a smoothstep that is flat at both ends, so neither
/// the initial velocity nor the final approach changes visibly, and there is no jump when it ends.
///
/// Invalid input never traps: mass and stiffness that are not finite and positive become 1 and 100;
/// damping that is NaN or negative becomes 0 and the damping ratio is capped at 10,000; the initial
/// velocity is clamped to ±1000 (NaN is 0).
public struct Spring: Hashable, Sendable, CustomStringConvertible {
    /// Kilograms (or any consistent unit): the moving mass.
    public let mass: Double
    /// The spring constant k, force per unit of displacement.
    public let stiffness: Double
    /// The damping coefficient c, force per unit of velocity.
    public let damping: Double
    /// Relative to the distance: 1.0 = the whole distance per second.
    public let initialVelocity: Double
    /// How long the spring runs, in seconds: the settling duration for a physical spring, the asked
    /// duration for ``init(dampingRatio:duration:initialVelocity:)``.
    public let duration: Double

    /// The settling threshold: a spring has settled once its distance from the target stays within
    /// this fraction of the whole distance (0.1 %: 0.3 pt on a 300 pt move, under a pixel at @3x).
    public static let settlingThreshold = 0.001
    /// Settling durations are capped here (seconds): an undamped spring would never settle.
    public static let maximumSettlingDuration = 3600.0
    /// Damping ratios the duration-based initializer accepts; others are clamped into it. Below 0.01 the
    /// spring would have to oscillate faster than any frame rate can show to settle in its duration.
    public static let dampingRatioRange: ClosedRange<Double> = 0.01...100
    /// The shortest duration the duration-based initializer accepts (seconds).
    public static let minimumDuration = 0.001
    static let maximumDampingRatio = 10_000.0
    static let velocityLimit = 1000.0

    /// A physical spring; it runs for its settling duration (``settlingDuration(threshold:)``).
    /// Defaults: mass 1, stiffness 100, damping 10, initial velocity 0.
    public init(mass: Double = 1, stiffness: Double = 100, damping: Double = 10, initialVelocity: Double = 0) {
        let m = mass.isFinite && mass > 0 ? mass : 1
        let k = stiffness.isFinite && stiffness > 0 ? stiffness : 100
        let maxDamping = 2 * Spring.maximumDampingRatio * (k * m).squareRoot()
        let c = damping.isNaN ? 0 : min(maxDamping, max(0, damping))
        self.mass = m
        self.stiffness = k
        self.damping = c
        self.initialVelocity = Spring.clampVelocity(initialVelocity)
        let oscillator = Oscillator(omega: (k / m).squareRoot(), zeta: c / (2 * (k * m).squareRoot()), v0: self.initialVelocity)
        duration = min(Spring.maximumSettlingDuration, oscillator.settlingTime(Spring.settlingThreshold))
    }

    /// The spring UIKit's duration-based API asks for (`usingSpringWithDamping:initialSpringVelocity:`):
    /// it moves with `dampingRatio` and lands on the target at exactly `duration` seconds.
    ///
    /// Mapping (UIKit's is not public; this is the documented rule here): mass is 1, and the natural
    /// frequency ω₀ is chosen so that the spring's settling duration (``settlingThreshold``) equals
    /// `duration`; then stiffness = ω₀² and damping = 2·ratio·ω₀. The residual at `duration` (at most
    /// the threshold) is blended in by ``progress(at:)``, so the curve ends exactly at `duration`.
    ///
    /// - Parameters:
    ///   - dampingRatio: 1 is critically damped, below 1 oscillates; clamped to ``dampingRatioRange``
    ///     (NaN becomes 1).
    ///   - duration: seconds, clamped to ``minimumDuration``…``maximumSettlingDuration`` (NaN becomes
    ///     the minimum).
    ///   - initialVelocity: relative to the distance (1.0 = the whole distance per second).
    public init(dampingRatio: Double, duration: Double, initialVelocity: Double = 0) {
        let zeta = dampingRatio.isNaN ? 1 : min(Spring.dampingRatioRange.upperBound, max(Spring.dampingRatioRange.lowerBound, dampingRatio))
        let d = duration.isNaN ? Spring.minimumDuration : min(Spring.maximumSettlingDuration, max(Spring.minimumDuration, duration))
        let v0 = Spring.clampVelocity(initialVelocity)
        let omega = Spring.naturalFrequency(settlingIn: d, zeta: zeta, v0: v0)
        mass = 1
        stiffness = omega * omega
        damping = 2 * zeta * omega
        self.initialVelocity = v0
        self.duration = d
    }

    /// The spring of iOS 17's `UIView.animate(springDuration:bounce:initialSpringVelocity:…)`,
    /// `UISpringTimingParameters(duration:bounce:)` and `CASpringAnimation(perceptualDuration:bounce:)`:
    /// a pace and a bounce instead of physical constants. It runs for its settling duration
    /// (``settlingThreshold``), which is longer than `perceptualDuration` (0.5 s with no bounce settles in
    /// about 0.73 s), as the physical initializer does.
    ///
    /// Mapping (SwiftUI's `Spring(duration:bounce:)`): mass 1, natural frequency ω₀ = 2π / perceptual
    /// duration (stiffness ω₀²), damping ratio 1 − bounce for bounce ≥ 0 and 1 / (1 + bounce) below 0.
    ///
    /// - Parameters:
    ///   - perceptualDuration: seconds, the spring's pace; clamped to ``minimumDuration``…
    ///     ``maximumSettlingDuration`` (NaN becomes 0.5, UIKit's default).
    ///   - bounce: 0 is critically damped (no overshoot), up to 1 (undamped), down to −1 (ever more
    ///     over-damped); clamped to −0.9999…1 (NaN becomes 0), so the damping ratio stays finite.
    ///   - initialVelocity: relative to the distance (1.0 = the whole distance per second). Default 0.
    public init(perceptualDuration: Double, bounce: Double, initialVelocity: Double = 0) {
        let d = perceptualDuration.isNaN ? 0.5 : min(Spring.maximumSettlingDuration, max(Spring.minimumDuration, perceptualDuration))
        let b = bounce.isNaN ? 0 : min(1, max(-0.9999, bounce))
        let omega = 2 * Double.pi / d
        let zeta = b >= 0 ? 1 - b : 1 / (1 + b)
        self.init(mass: 1, stiffness: omega * omega, damping: 2 * zeta * omega, initialVelocity: initialVelocity)
    }

    /// Natural angular frequency ω₀ = √(k/m), radians per second.
    public var naturalFrequency: Double { (stiffness / mass).squareRoot() }
    /// ζ = c / (2√(k·m)): below 1 under-damped (oscillates), 1 critical, above 1 over-damped.
    public var dampingRatio: Double { damping / (2 * (stiffness * mass).squareRoot()) }

    /// ω₀ and ζ kept where the closed form stays finite: extreme masses and stiffnesses (k/m overflowing
    /// or vanishing) would otherwise give NaN progress.
    private var oscillator: Oscillator {
        let omega = naturalFrequency, zeta = dampingRatio
        return Oscillator(omega: omega.isFinite ? min(1e6, max(1e-6, omega)) : (omega.isNaN ? 1 : 1e6),
                          zeta: zeta.isFinite ? min(1e6, max(0, zeta)) : 1, v0: initialVelocity)
    }

    /// The exact solution of the oscillator at `time` seconds: 0 at the start, tending to 1 (it may
    /// overshoot). Times before 0 (and NaN) give 0.
    public func value(at time: Double) -> Double {
        guard time > 0 else { return 0 }
        return 1 - oscillator.displacement(time)
    }

    /// d(value)/dt at `time` (distances per second); ``initialVelocity`` at 0.
    public func velocity(at time: Double) -> Double {
        guard time > 0 else { return initialVelocity }
        return -oscillator.displacementVelocity(time)
    }

    /// Progress at `time` seconds of a run lasting ``duration``: ``value(at:)`` plus the residual at the
    /// end blended in by a smoothstep, so it is 0 at 0 and exactly 1 from ``duration`` on.
    public func progress(at time: Double) -> Double {
        guard time > 0 else { return 0 }
        guard time < duration else { return 1 }
        let residual = oscillator.displacement(duration)
        let u = time / duration
        return 1 - oscillator.displacement(time) + residual * u * u * (3 - 2 * u)
    }

    /// The time (seconds) after which the spring stays within `threshold` of the target (a fraction of
    /// the distance; default ``settlingThreshold``): the last time the exact solution is farther away.
    /// Capped at ``maximumSettlingDuration``; a threshold that is not positive and finite counts as the
    /// default.
    public func settlingDuration(threshold: Double = Spring.settlingThreshold) -> Double {
        let eps = threshold.isFinite && threshold > 0 ? threshold : Spring.settlingThreshold
        return min(Spring.maximumSettlingDuration, oscillator.settlingTime(eps))
    }

    public var description: String {
        "spring(dampingRatio \(Spring.format(dampingRatio)), velocity \(Spring.format(initialVelocity)), "
            + "mass \(Spring.format(mass)), stiffness \(Spring.format(stiffness)), damping \(Spring.format(damping)), "
            + "duration \(Spring.format(duration)) s)"
    }

    static func format(_ v: Double) -> String { String(format: "%.4g", v) }

    private static func clampVelocity(_ v: Double) -> Double {
        v.isNaN ? 0 : min(velocityLimit, max(-velocityLimit, v))
    }

    /// ω₀ whose settling time with ratio `zeta` and velocity `v0` is `duration`, by bisection on log ω₀.
    /// Settling time falls as ω₀ grows (every time scale is 1/ω₀), so the bracket is found by doubling.
    private static func naturalFrequency(settlingIn duration: Double, zeta: Double, v0: Double) -> Double {
        func settle(_ w: Double) -> Double { Oscillator(omega: w, zeta: zeta, v0: v0).settlingTime(settlingThreshold) }
        var lo = 1.0, hi = 1.0
        var guardCount = 0
        while settle(lo) < duration && guardCount < 200 { lo /= 2; guardCount += 1 }
        guardCount = 0
        while settle(hi) > duration && guardCount < 200 { hi *= 2; guardCount += 1 }
        if lo > hi { swap(&lo, &hi) }
        for _ in 0..<200 {
            let mid = (lo * hi).squareRoot()
            if settle(mid) > duration { lo = mid } else { hi = mid }
            if hi / lo - 1 < 1e-13 { break }
        }
        return hi  // the side that settles within the duration
    }
}

/// The normalized oscillator: displacement y from the target in units of the distance, y(0) = 1,
/// y′(0) = −v0, y″ + 2ζω₀y′ + ω₀²y = 0. Written in forms that stay accurate near critical damping.
struct Oscillator {
    let omega: Double
    let zeta: Double
    let v0: Double

    /// Settling times past this (seconds) are reported as infinite: every caller caps them lower
    /// (``Spring/maximumSettlingDuration``), so finding the exact one would only cost time.
    static let longestSettlingTime = 4 * Spring.maximumSettlingDuration

    private var a: Double { zeta * omega }          // decay rate
    private var g: Double { zeta * omega - v0 }     // y′(0) + a·y(0)

    func displacement(_ t: Double) -> Double {
        let a = self.a, g = self.g
        if zeta < 1 {
            let wd = omega * (1 - zeta * zeta).squareRoot()
            return exp(-a * t) * (cos(wd * t) + g * sin(wd * t) / wd)
        }
        if zeta == 1 { return exp(-a * t) * (1 + g * t) }
        let b = omega * (zeta * zeta - 1).squareRoot()
        if b * t < 1 { return exp(-a * t) * (cosh(b * t) + g * sinh(b * t) / b) }
        // Two exponentials: cosh and sinh alone would overflow for large b·t.
        let slow = -omega / (zeta + (zeta * zeta - 1).squareRoot())  // −a + b without cancellation
        let e1 = exp(slow * t), e2 = exp((-a - b) * t)
        return 0.5 * (e1 + e2) + 0.5 * g * (e1 - e2) / b
    }

    func displacementVelocity(_ t: Double) -> Double {
        let a = self.a, g = self.g
        if zeta < 1 {
            let wd = omega * (1 - zeta * zeta).squareRoot()
            return exp(-a * t) * ((g - a) * cos(wd * t) - (wd + a * g / wd) * sin(wd * t))
        }
        if zeta == 1 { return exp(-a * t) * ((g - a) - a * g * t) }
        let b = omega * (zeta * zeta - 1).squareRoot()
        if b * t < 1 { return exp(-a * t) * ((g - a) * cosh(b * t) + (b - a * g / b) * sinh(b * t)) }
        let slow = -omega / (zeta + (zeta * zeta - 1).squareRoot())
        let e1 = exp(slow * t), e2 = exp((-a - b) * t)
        return 0.5 * (1 + g / b) * slow * e1 + 0.5 * (1 - g / b) * (-a - b) * e2
    }

    /// sup{t ≥ 0 : |y(t)| > eps}, exactly (to bisection precision). y is monotone between consecutive
    /// extrema, so the answer lies just after the last extremum (or t = 0) where |y| > eps: on that
    /// stretch y crosses ±eps once.
    func settlingTime(_ eps: Double) -> Double {
        guard omega > 0, omega.isFinite else { return .infinity }
        // Breakpoint: the last of 0 and the extrema where |y| > eps; next: the following extremum or ∞.
        var last = 0.0
        var next = Double.infinity
        if zeta < 1 {
            let wd = omega * (1 - zeta * zeta).squareRoot()
            var phi = atan2(g - a, wd + a * g / wd)   // y′ = 0 where tan(wd·t) = (g − a)/(wd + a·g/wd)
            if phi < 0 { phi += .pi }
            func extremum(_ k: Double) -> Double { (phi + k * .pi) / wd }
            let first = abs(displacement(extremum(0)))
            if first > eps {
                if a <= 0 { return .infinity }  // undamped: every extremum is as large
                // |y| at extrema falls by e^(−aπ/wd) per half period.
                var k = max(0, (log(first / eps) / (a * .pi / wd)).rounded(.up) - 1)
                // A spring this close to undamped runs past any limit a caller keeps; past 2^53 extrema,
                // k + 1 == k and stepping would never end.
                if !(extremum(k) <= Oscillator.longestSettlingTime) { return .infinity }
                // The estimate is off by a step or two at most (rounding of the logarithm).
                var steps = 0
                while abs(displacement(extremum(k + 1))) > eps && steps < 64 { k += 1; steps += 1 }
                steps = 0
                while k > 0 && abs(displacement(extremum(k))) <= eps && steps < 64 { k -= 1; steps += 1 }
                last = extremum(k)
                next = extremum(k + 1)
            } else {
                next = extremum(0)
            }
        } else if let te = overdampedExtremum(), te > 0 {
            if abs(displacement(te)) > eps { last = te } else { next = te }
        }
        let start = displacement(last)
        guard abs(start) > eps else { return last }
        let target = start > 0 ? eps : -eps
        if next == .infinity {
            var step = 1 / omega, count = 0
            next = last + step
            while abs(displacement(next)) > eps && count < 2000 { step *= 2; next = last + step; count += 1 }
        }
        var lo = last, hi = next
        for _ in 0..<200 {
            let mid = (lo + hi) / 2
            if mid <= lo || mid >= hi { break }
            if (displacement(mid) - target) * (start - target) > 0 { lo = mid } else { hi = mid }
        }
        return hi
    }

    /// The one positive extremum of a critically or over-damped spring, if any.
    private func overdampedExtremum() -> Double? {
        if zeta == 1 {
            guard g != 0 else { return nil }
            let t = (g - a) / (a * g)
            return t.isFinite ? t : nil
        }
        let b = omega * (zeta * zeta - 1).squareRoot()
        let denominator = b * b - a * g
        guard denominator != 0 else { return nil }
        let q = b * (a - g) / denominator      // tanh(b·t) at the extremum
        guard q > 0, q < 1 else { return nil }
        let t = atanh(q) / b
        return t.isFinite ? t : nil
    }
}
