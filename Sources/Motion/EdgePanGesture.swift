

/// A scripted swipe from the left edge (the interactive back gesture): the finger's horizontal
/// translation (points) at moments (seconds from when it starts), then its release.
///
/// - **path**: the finger moves along a monotone cubic spline through the samples (Fritsch–Carlson /
///   PCHIP: a cubic Hermite piece between each two samples, whose slope at a sample is the weighted
///   harmonic mean of the two neighbouring segments' slopes, 0 where the finger turns round, and the
///   segment's own slope at the first and last sample). Position and velocity are continuous, the path
///   never overshoots a sample, and a straight run of samples stays straight.
/// - **progress** while the finger moves: translation / width, clamped to 0…0.999 (a finger at the far
///   edge has not yet let go, so the transition has not finished); ``progressTrack(width:)`` samples
///   the spline every ``trackStep`` seconds (and at each sample), so the progress is as smooth as the path.
/// - **velocity** at the release: the spline's slope at the last sample, which is the last segment's
///   own slope (points per second);
/// - **projection**: where the finger would come to rest if it kept sliding and slowed as a scroll view
///   does at its normal deceleration rate (0.998 per millisecond): translation + velocity × 0.998 /
///   (1 − 0.998) / 1000, that is, about half a second of travel at the release velocity;
/// - **decision**: the transition finishes when the projected translation passes half the width,
///   otherwise it cancels;
/// - **the rest** (``release(width:)``): from where the finger left it, a cubic Bézier whose initial
///   slope is the release velocity, so nothing lurches: it takes `2 × remaining / speed` seconds (the
///   time a steady slow-down from the finger's speed to rest would take), within 0.15…0.4 s, and its
///   curve has control points (1/3, s/3) and (0.58, 1), where s = speed × duration / remaining is the
///   initial slope in the curve's own units (for s > 3: (1/s, 1) and (0.58, 1)). A finger moving away
///   from where the transition goes gives s = 0 (the rest starts from rest).
public struct EdgePanGesture: Hashable, Sendable {
    /// One moment of the swipe.
    public struct Sample: Hashable, Sendable {
        /// Seconds from the start of the swipe.
        public var time: Double
        /// Points moved to the right since it started.
        public var translation: Double
    }

    /// UIScrollView's normal deceleration rate, per millisecond.
    public static let decelerationRate = 0.998
    /// The spacing of the progress track's samples along the spline (seconds): 1/240 s.
    public static let trackStep = 1.0 / 240
    /// The shortest and longest the rest may take after the release (seconds).
    public static let releaseDurations = (minimum: 0.15, maximum: 0.4)

    /// Sorted by time; NaN and infinite values are dropped, negative times count as 0.
    public let samples: [Sample]
    /// The spline's slope at each sample (points per second).
    private let slopes: [Double]

    /// A swipe through `samples` (seconds, points).
    public init(samples: [(time: Double, translation: Double)]) {
        let sorted = samples.filter { $0.time.isFinite && $0.translation.isFinite }
            .map { Sample(time: min(AnimationEngine.maximumDuration, max(0, $0.time)), translation: $0.translation) }
            .enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
        self.samples = sorted
        slopes = EdgePanGesture.slopes(sorted)
    }

    /// PCHIP slopes (Fritsch–Carlson with Fritsch–Butland's weighted harmonic mean inside; the
    /// segment's own slope at both ends; 0 where the segments' slopes differ in sign or one is flat).
    /// A segment of zero length (a jump) counts as flat on both sides.
    private static func slopes(_ s: [Sample]) -> [Double] {
        let n = s.count
        guard n > 1 else { return Array(repeating: 0, count: n) }
        let h = (0..<n - 1).map { s[$0 + 1].time - s[$0].time }
        let d = (0..<n - 1).map { h[$0] > 0 ? (s[$0 + 1].translation - s[$0].translation) / h[$0] : 0 }
        var m = [Double](repeating: 0, count: n)
        m[0] = d[0]
        m[n - 1] = d[n - 2]
        for k in 1..<max(1, n - 1) where k < n - 1 {
            let h0 = h[k - 1], h1 = h[k], d0 = d[k - 1], d1 = d[k]
            guard h0 > 0, h1 > 0, d0 * d1 > 0 else { continue }
            let w0 = 2 * h1 + h0, w1 = h1 + 2 * h0
            m[k] = (w0 + w1) / (w0 / d0 + w1 / d1)
        }
        return m
    }

    /// Seconds from the first sample's time 0 to the release (the last sample).
    public var duration: Double { samples.last?.time ?? 0 }

    /// The segment that holds `time` (strictly inside the swipe): the index of its first sample.
    private func segment(at time: Double) -> Int {
        // The first sample after `time` (one exists: time < last.time), less one.
        var lo = 0, hi = samples.count - 1
        while lo < hi {
            let mid = (lo + hi) / 2
            if samples[mid].time > time { hi = mid } else { lo = mid + 1 }
        }
        return hi - 1
    }

    /// The translation at `time` seconds, on the spline (points).
    public func translation(at time: Double) -> Double {
        guard let first = samples.first, let last = samples.last else { return 0 }
        if time <= first.time { return samples.last(where: { $0.time == first.time })?.translation ?? first.translation }
        if time >= last.time { return last.translation }
        let i = segment(at: time)
        let a = samples[i], b = samples[i + 1], h = b.time - a.time
        let u = (time - a.time) / h, u2 = u * u, u3 = u2 * u
        return (2 * u3 - 3 * u2 + 1) * a.translation + (u3 - 2 * u2 + u) * h * slopes[i]
            + (-2 * u3 + 3 * u2) * b.translation + (u3 - u2) * h * slopes[i + 1]
    }

    /// The finger's velocity at `time` seconds, on the spline (points per second; 0 before the first
    /// sample and after the release).
    public func velocity(at time: Double) -> Double {
        guard let first = samples.first, let last = samples.last, time > first.time, time < last.time else { return 0 }
        let i = segment(at: time)
        let a = samples[i], b = samples[i + 1], h = b.time - a.time
        let u = (time - a.time) / h, u2 = u * u
        return ((6 * u2 - 6 * u) * (a.translation - b.translation)) / h + (3 * u2 - 4 * u + 1) * slopes[i]
            + (3 * u2 - 2 * u) * slopes[i + 1]
    }

    /// Points per second at the release: the spline's slope at the last sample (the last segment's slope).
    public var releaseVelocity: Double { slopes.last ?? 0 }

    /// Where the finger would come to rest (points): see the type's documentation.
    public var projectedTranslation: Double {
        let rate = EdgePanGesture.decelerationRate
        return (samples.last?.translation ?? 0) + releaseVelocity * rate / (1 - rate) / 1000
    }

    /// Whether the transition finishes on release, for a view `width` points wide.
    public func finishes(width: Double) -> Bool { width > 0 && projectedTranslation / width > 0.5 }

    /// How the rest runs after the release: see the type's documentation.
    public struct Release: Hashable, Sendable {
        /// Whether it runs to the end (else back to the start).
        public let finishes: Bool
        /// The progress at the release (0…0.999).
        public let progress: Double
        /// What remains to run (progress units, ≥ 0).
        public let remaining: Double
        /// The finger's speed towards where the rest goes, in progress per second (≥ 0).
        public let speed: Double
        /// Seconds the rest takes.
        public let duration: Double
        /// Its curve: initial slope `speed × duration / remaining`, ending at rest.
        public let curve: TimingCurve
    }

    /// The rest after the release over a view `width` points wide.
    public func release(width: Double) -> Release {
        let w = max(width, 1e-9)
        let finishes = finishes(width: width)
        let progress = min(0.999, max(0, (samples.last?.translation ?? 0) / w))
        let remaining = finishes ? 1 - progress : progress
        let speed = max(0, (finishes ? 1 : -1) * releaseVelocity / w)
        let limits = EdgePanGesture.releaseDurations
        guard remaining > 0 else { return Release(finishes: finishes, progress: progress, remaining: 0, speed: speed, duration: 0, curve: .easeOut) }
        let duration = speed > 0 ? min(limits.maximum, max(limits.minimum, 2 * remaining / speed)) : limits.maximum
        let s = speed * duration / remaining
        let curve = s <= 3 ? TimingCurve(1.0 / 3, s / 3, 0.58, 1) : TimingCurve(1 / s, 1, 0.58, 1)
        return Release(finishes: finishes, progress: progress, remaining: remaining, speed: speed, duration: duration, curve: curve)
    }

    /// The progress track of the swipe over a view `width` points wide, ending as ``finishes(width:)``
    /// says: the spline sampled every ``trackStep`` seconds and at each sample.
    public func progressTrack(width: Double) -> GestureTrack {
        let w = max(width, 1e-9)
        func percent(_ translation: Double) -> Double { min(0.999, max(0, translation / w)) }
        // The samples themselves (several at one time keep their jump: the last wins), then the spline between.
        var points = samples.map { (time: $0.time, percent: percent($0.translation)) }
        if let first = samples.first?.time, let last = samples.last?.time, last > first {
            let steps = min(100_000, Int(((last - first) / EdgePanGesture.trackStep).rounded(.up)))
            let sampleTimes = Set(samples.map(\.time))
            for k in 1..<max(1, steps) {
                let t = first + Double(k) * EdgePanGesture.trackStep
                if t < last, !sampleTimes.contains(t) { points.append((t, percent(translation(at: t)))) }
            }
        }
        return GestureTrack(samples: points, ending: finishes(width: width) ? .finish : .cancel)
    }
}
