

/// A scripted swipe from the left edge (the interactive back gesture): the finger's horizontal
/// translation (points) at moments (seconds from when it starts), then its release.
///
/// While the finger moves, the transition's progress is translation / width, clamped to 0…0.999 (a
/// finger at the far edge has not yet let go, so the transition has not finished). On release:
/// - **velocity** is the translation over the last 0.1 s of the track (interpolated between samples),
///   in points per second;
/// - **projection**: where the finger would come to rest if it kept sliding and slowed as a scroll view
///   does at its normal deceleration rate (0.998 per millisecond): translation + velocity × 0.998 /
///   (1 − 0.998) / 1000, that is, about half a second of travel at the release velocity;
/// - **decision**: the transition finishes when the projected translation passes half the width,
///   otherwise it cancels;
/// - **speed of the rest**: the rest runs at `duration × |velocity| / width` times normal speed (the
///   finger's own pace), at least 1 and at most 3, on an ease-out curve, from where the finger left it.
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
    /// The window the release velocity is measured over (seconds).
    public static let velocityWindow = 0.1

    /// Sorted by time; NaN and infinite values are dropped, negative times count as 0.
    public let samples: [Sample]

    /// A swipe through `samples` (seconds, points).
    public init(samples: [(time: Double, translation: Double)]) {
        self.samples = samples.filter { $0.time.isFinite && $0.translation.isFinite }
            .map { Sample(time: min(AnimationEngine.maximumDuration, max(0, $0.time)), translation: $0.translation) }
            .enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
    }

    /// Seconds from the first sample's time 0 to the release (the last sample).
    public var duration: Double { samples.last?.time ?? 0 }

    /// The translation at `time` seconds (linear between samples).
    public func translation(at time: Double) -> Double {
        guard let first = samples.first, let last = samples.last else { return 0 }
        if time <= first.time { return first.translation }
        if time >= last.time { return last.translation }
        let i = samples.firstIndex { $0.time > time }!
        let a = samples[i - 1], b = samples[i]
        return a.translation + (b.translation - a.translation) * (time - a.time) / (b.time - a.time)
    }

    /// Points per second at the release: the translation over the last ``velocityWindow`` seconds.
    public var releaseVelocity: Double {
        guard let last = samples.last, samples.count > 1 else { return 0 }
        let window = min(EdgePanGesture.velocityWindow, last.time - samples[0].time)
        guard window > 0 else { return 0 }
        return (last.translation - translation(at: last.time - window)) / window
    }

    /// Where the finger would come to rest (points): see the type's documentation.
    public var projectedTranslation: Double {
        let rate = EdgePanGesture.decelerationRate
        return (samples.last?.translation ?? 0) + releaseVelocity * rate / (1 - rate) / 1000
    }

    /// Whether the transition finishes on release, for a view `width` points wide.
    public func finishes(width: Double) -> Bool { width > 0 && projectedTranslation / width > 0.5 }

    /// How much faster than normal the rest of a `duration`-second transition runs after the release.
    public func completionSpeed(width: Double, duration: Double) -> Double {
        guard width > 0, duration > 0 else { return 1 }
        return min(3, max(1, duration * abs(releaseVelocity) / width))
    }

    /// The progress track of the swipe over a view `width` points wide, ending as ``finishes(width:)`` says.
    public func progressTrack(width: Double) -> GestureTrack {
        let w = max(width, 1e-9)
        return GestureTrack(samples: samples.map { ($0.time, min(0.999, max(0, $0.translation / w))) },
                            ending: finishes(width: width) ? .finish : .cancel)
    }
}
