import Motion
import XCTest

/// The closed forms checked against an independent numerical integration of m·x″ + c·x′ + k·x = 0.
final class SpringTests: XCTestCase {
    /// RK4 on the raw ODE for position p (0 → 1): m·p″ = −k·(p − 1) − c·p′, p(0) = 0, p′(0) = v0.
    /// Returns samples (t, p, p′) every `step` seconds up to `end`.
    private func integrate(mass m: Double, stiffness k: Double, damping c: Double, velocity v0: Double,
                           end: Double, step h: Double = 1e-4) -> [(t: Double, p: Double, v: Double)] {
        func acceleration(_ p: Double, _ v: Double) -> Double { (-k * (p - 1) - c * v) / m }
        var p = 0.0, v = v0
        var out: [(Double, Double, Double)] = [(0, p, v)]
        let n = Int((end / h).rounded())
        for i in 1...n {
            let k1p = v, k1v = acceleration(p, v)
            let k2p = v + h / 2 * k1v, k2v = acceleration(p + h / 2 * k1p, v + h / 2 * k1v)
            let k3p = v + h / 2 * k2v, k3v = acceleration(p + h / 2 * k2p, v + h / 2 * k2v)
            let k4p = v + h * k3v, k4v = acceleration(p + h * k3p, v + h * k3v)
            p += h / 6 * (k1p + 2 * k2p + 2 * k3p + k4p)
            v += h / 6 * (k1v + 2 * k2v + 2 * k3v + k4v)
            out.append((Double(i) * h, p, v))
        }
        return out
    }

    private let cases: [(name: String, spring: Spring)] = [
        ("under-damped", Spring(mass: 1, stiffness: 200, damping: 8, initialVelocity: 0)),
        ("under-damped, thrown", Spring(mass: 2, stiffness: 300, damping: 10, initialVelocity: 3)),
        ("under-damped, backwards", Spring(mass: 1, stiffness: 150, damping: 5, initialVelocity: -2)),
        ("critical", Spring(mass: 1, stiffness: 100, damping: 20, initialVelocity: 0)),
        ("critical, thrown", Spring(mass: 1, stiffness: 100, damping: 20, initialVelocity: 6)),
        ("over-damped", Spring(mass: 1, stiffness: 100, damping: 50, initialVelocity: 0)),
        ("over-damped, thrown", Spring(mass: 0.5, stiffness: 80, damping: 30, initialVelocity: 15)),
        ("nearly critical below", Spring(mass: 1, stiffness: 100, damping: 19.9998, initialVelocity: 1)),
        ("nearly critical above", Spring(mass: 1, stiffness: 100, damping: 20.0002, initialVelocity: 1)),
    ]

    func testClosedFormMatchesRK4() {
        for (name, s) in cases {
            XCTAssertEqual(s.value(at: 0), 0)
            XCTAssertEqual(s.velocity(at: 0), s.initialVelocity)
            let samples = integrate(mass: s.mass, stiffness: s.stiffness, damping: s.damping, velocity: s.initialVelocity, end: 3)
            for sample in samples where Int((sample.t * 1e4).rounded()) % 250 == 0 {
                XCTAssertEqual(s.value(at: sample.t), sample.p, accuracy: 1e-8, "\(name) value at \(sample.t)")
                XCTAssertEqual(s.velocity(at: sample.t), sample.v, accuracy: 1e-6, "\(name) velocity at \(sample.t)")
            }
        }
    }

    func testDampingRatioClassifiesCases() {
        XCTAssertEqual(Spring(mass: 1, stiffness: 100, damping: 20).dampingRatio, 1, accuracy: 1e-15)
        XCTAssertEqual(Spring(mass: 4, stiffness: 100, damping: 10).dampingRatio, 0.25, accuracy: 1e-15)
        XCTAssertEqual(Spring(mass: 4, stiffness: 100, damping: 10).naturalFrequency, 5, accuracy: 1e-15)
    }

    func testSettlingDurationIsTheLastTimeOutsideTheThreshold() {
        for (name, s) in cases {
            let samples = integrate(mass: s.mass, stiffness: s.stiffness, damping: s.damping, velocity: s.initialVelocity, end: 4)
            guard let last = samples.last(where: { abs($0.p - 1) > Spring.settlingThreshold }) else {
                XCTFail("\(name) never left the threshold")
                continue
            }
            XCTAssertEqual(s.settlingDuration(), last.t, accuracy: 2e-4, name)
            XCTAssertEqual(s.duration, s.settlingDuration(), name)
        }
    }

    func testProgressLandsExactlyAtTheDuration() {
        for (name, s) in cases {
            XCTAssertEqual(s.progress(at: 0), 0, name)
            XCTAssertEqual(s.progress(at: s.duration), 1, name)
            XCTAssertEqual(s.progress(at: s.duration + 1), 1, name)
            // No jump at the end, and never farther from the raw solution than the threshold.
            XCTAssertEqual(s.progress(at: s.duration * (1 - 1e-9)), 1, accuracy: 1e-6, name)
            for i in 0...100 {
                let t = s.duration * Double(i) / 100
                XCTAssertEqual(s.progress(at: t), s.value(at: t), accuracy: Spring.settlingThreshold * 1.0001, "\(name) at \(t)")
            }
        }
    }

    func testDurationBasedMappingSettlesAtTheDuration() {
        for ratio in [0.2, 0.5, 0.7, 1, 1.6] {
            for duration in [0.25, 0.5, 1.2] {
                for velocity in [0.0, 3, -1] {
                    let s = Spring(dampingRatio: ratio, duration: duration, initialVelocity: velocity)
                    let label = "ratio \(ratio) duration \(duration) velocity \(velocity)"
                    XCTAssertEqual(s.mass, 1)
                    XCTAssertEqual(s.dampingRatio, ratio, accuracy: 1e-12, label)
                    XCTAssertEqual(s.damping, 2 * ratio * s.naturalFrequency, accuracy: 1e-9, label)
                    XCTAssertEqual(s.duration, duration)
                    XCTAssertEqual(s.settlingDuration(), duration, accuracy: duration * 1e-9, label)
                    XCTAssertEqual(s.progress(at: duration), 1)
                    XCTAssertEqual(s.velocity(at: 0), velocity)
                }
            }
        }
    }

    func testInitialVelocityIsRelativeToTheDistance() {
        // 2.0 = twice the whole distance per second: the first millisecond covers about 0.2 %.
        let s = Spring(dampingRatio: 1, duration: 1, initialVelocity: 2)
        let h = 1e-6
        XCTAssertEqual(s.value(at: h) / h, 2, accuracy: 1e-3)
        // The landing correction is flat at the start, so progress starts with the same velocity.
        XCTAssertEqual(s.progress(at: h) / h, 2, accuracy: 1e-3)
    }

    func testUnderDampedOvershootsAndOverDampedDoesNot() {
        let bouncy = Spring(dampingRatio: 0.3, duration: 1)
        let stiff = Spring(dampingRatio: 2, duration: 1)
        let times = (0...1000).map { Double($0) / 1000 }
        XCTAssertGreaterThan(times.map(bouncy.progress(at:)).max()!, 1.2)
        XCTAssertLessThanOrEqual(times.map(stiff.progress(at:)).max()!, 1)
    }

    func testInvalidInputStaysFinite() {
        let odd = [
            Spring(mass: .nan, stiffness: -3, damping: .infinity, initialVelocity: .nan),
            Spring(mass: 0, stiffness: .infinity, damping: -1, initialVelocity: .infinity),
            Spring(dampingRatio: .nan, duration: .nan, initialVelocity: -.infinity),
            Spring(dampingRatio: 0, duration: -1),
            Spring(dampingRatio: 1e9, duration: 1e9),
        ]
        for s in odd {
            XCTAssertTrue(s.duration.isFinite && s.duration >= 0, "\(s)")
            for t in [-1, 0, 0.01, 0.5, 1, 10, .nan, .infinity] {
                XCTAssertTrue(s.progress(at: t).isFinite, "\(s) at \(t)")
            }
        }
        // Undamped: it never settles; its run is capped.
        XCTAssertEqual(Spring(mass: 1, stiffness: 100, damping: 0).duration, Spring.maximumSettlingDuration)
    }

    func testExtremeMassAndStiffnessStayFinite() {
        for spring in [Spring(mass: 1e-300, stiffness: 1e300), Spring(mass: 1e300, stiffness: 1e-300), Spring(mass: 1e-300, stiffness: 1e300, damping: 1e300)] {
            for t in [0.0, 0.001, 0.5, 10] { XCTAssertTrue(spring.progress(at: t).isFinite, "\(spring) at \(t)") }
        }
    }
}
