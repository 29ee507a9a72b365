import Foundation
import Motion
import XCTest

/// iOS 17's spring (`springDuration:bounce:`, `Spring(perceptualDuration:bounce:)`) against the closed forms
/// of the oscillator written out here, at points where they are known exactly. Tolerance 1e-12: the
/// expected values are the same formulas evaluated in another order, so only rounding separates them.
final class SpringBounceTests: XCTestCase {
    let tolerance = 1e-12

    func testTheMappingIsSwiftUIs() {
        for (duration, bounce, ratio) in [(0.5, 0.0, 1.0), (0.5, 0.2, 0.8), (0.3, 0.7, 0.3), (1.0, -0.5, 2.0), (0.8, -0.2, 1.25)] {
            let s = Spring(perceptualDuration: duration, bounce: bounce)
            let omega = 2 * Double.pi / duration
            XCTAssertEqual(s.mass, 1)
            XCTAssertEqual(s.naturalFrequency, omega, accuracy: omega * tolerance, "d \(duration), bounce \(bounce)")
            XCTAssertEqual(s.dampingRatio, ratio, accuracy: tolerance, "d \(duration), bounce \(bounce)")
        }
    }

    /// No bounce is critical damping: 1 − (1 + ω₀t)·e^(−ω₀t); at ω₀t = π exactly 1 − (1 + π)e^(−π).
    func testCriticallyDampedAtAKnownPoint() {
        let s = Spring(perceptualDuration: 0.5, bounce: 0)  // ω₀ = 4π
        XCTAssertEqual(s.value(at: 0.25), 1 - (1 + Double.pi) * exp(-Double.pi), accuracy: tolerance)
        XCTAssertEqual(s.value(at: 0.5), 1 - (1 + 2 * Double.pi) * exp(-2 * Double.pi), accuracy: tolerance)
        // Thrown at v0 distances per second: y = e^(−ω₀t)(1 + (ω₀ − v0)t).
        let thrown = Spring(perceptualDuration: 0.5, bounce: 0, initialVelocity: 3)
        let w = 4 * Double.pi
        XCTAssertEqual(thrown.value(at: 0.25), 1 - exp(-w * 0.25) * (1 + (w - 3) * 0.25), accuracy: tolerance)
        XCTAssertEqual(thrown.velocity(at: 0), 3)
    }

    /// Bounce 0.2 is damping ratio 0.8: the first overshoot peaks at t = π/ω_d, at 1 + e^(−ζω₀π/ω_d); with
    /// ω_d = 0.6·ω₀ that is 1 + e^(−4π/3), whatever the duration.
    func testUnderDampedPeaksWhereTheClosedFormSays() {
        for duration in [0.3, 0.5, 1.2] {
            let s = Spring(perceptualDuration: duration, bounce: 0.2)
            let peak = Double.pi / (0.6 * 2 * Double.pi / duration)  // = duration / 1.2
            XCTAssertEqual(s.value(at: peak), 1 + exp(-4 * Double.pi / 3), accuracy: tolerance, "d \(duration)")
            XCTAssertEqual(s.velocity(at: peak), 0, accuracy: 1e-12 * 2 * Double.pi / duration, "d \(duration)")
            // Half a damped period later the spring is at its first undershoot: 1 − e^(−8π/3).
            XCTAssertEqual(s.value(at: 2 * peak), 1 - exp(-8 * Double.pi / 3), accuracy: tolerance, "d \(duration)")
        }
    }

    /// Bounce −0.5 is damping ratio 2: the sum of two exponentials with roots r = −ω₀(ζ ∓ √(ζ² − 1)).
    func testOverDampedIsTheSumOfTwoExponentials() {
        let s = Spring(perceptualDuration: 1, bounce: -0.5)
        let w = 2 * Double.pi, zeta = 2.0
        let r1 = -w * (zeta - (zeta * zeta - 1).squareRoot()), r2 = -w * (zeta + (zeta * zeta - 1).squareRoot())
        for t in [0.05, 0.2, 0.7, 1.5] {
            let y = (r2 * exp(r1 * t) - r1 * exp(r2 * t)) / (r2 - r1)
            XCTAssertEqual(s.value(at: t), 1 - y, accuracy: tolerance, "t \(t)")
        }
    }

    /// The spring runs for its settling duration: the last time it is 0.1 % of the distance away,
    /// and never farther after it (sampled every millisecond for a second more).
    func testItRunsUntilItSettles() {
        for (duration, bounce) in [(0.5, 0.0), (0.5, 0.2), (0.4, 0.6), (1.0, -0.5)] {
            let s = Spring(perceptualDuration: duration, bounce: bounce)
            XCTAssertGreaterThan(s.duration, duration * 0.5, "d \(duration), bounce \(bounce)")
            XCTAssertEqual(abs(1 - s.value(at: s.duration)), Spring.settlingThreshold, accuracy: 1e-9, "d \(duration), bounce \(bounce)")
            for k in 1...1000 {
                let t = s.duration + Double(k) / 1000
                XCTAssertLessThanOrEqual(abs(1 - s.value(at: t)), Spring.settlingThreshold + 1e-12, "t \(t)")
            }
            XCTAssertEqual(s.progress(at: s.duration), 1)
        }
    }

    func testOutOfRangeInputStaysFinite() {
        for (duration, bounce) in [(Double.nan, 0.0), (0, 0.5), (-1, 0.2), (0.5, Double.nan), (0.5, -1), (0.5, -5), (0.5, 1), (0.5, 3)] {
            let s = Spring(perceptualDuration: duration, bounce: bounce)
            for t in [0.0, 0.01, 0.1, 1, 10] { XCTAssertTrue(s.progress(at: t).isFinite, "d \(duration), bounce \(bounce), t \(t)") }
            XCTAssertTrue(s.duration.isFinite)
        }
    }

    /// A bounce within an ulp or two of 1 (which scene files and durations plists accept: under 1) is a
    /// spring that settles only after hours: its duration is capped at once. It once looped for ever,
    /// counting extrema past 2^53, where k + 1 == k.
    func testABounceWithinUlpsOfOneIsCappedAtOnce() {
        for bounce in [0.9999999999999998, 0.9999999999999997, 0.9999999999999996, 1 - 1e-12, 0.99999] {
            let s = Spring(perceptualDuration: 0.5, bounce: bounce, initialVelocity: 2)
            XCTAssertEqual(s.duration, Spring.maximumSettlingDuration, "bounce \(bounce)")
            XCTAssertEqual(s.settlingDuration(threshold: 1e-9), Spring.maximumSettlingDuration, "bounce \(bounce)")
            // The physical spring with the same constants, and UIKit's duration-based one at its lowest ratio.
            XCTAssertEqual(Spring(mass: 1, stiffness: s.stiffness, damping: s.damping).duration, Spring.maximumSettlingDuration)
        }
        XCTAssertEqual(Spring(dampingRatio: 1e-300, duration: 0.5).duration, 0.5)
    }
}
