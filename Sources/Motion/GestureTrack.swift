/// A recorded interactive gesture: the transition's percent complete at moments of virtual time, and
/// what happens when the finger lifts (the end of the track).
///
/// Between samples the percent is interpolated linearly; before the first sample it is the first
/// sample's percent, after the last the last's. Where several samples share a time, the last of them
/// holds from that time on (a jump).
public struct GestureTrack: Hashable, Sendable {
    /// Where the finger is at one moment.
    public struct Sample: Hashable, Sendable {
        /// Seconds from the moment the transition starts following the track.
        public let time: Double
        /// 0…1.
        public let percent: Double
    }

    /// What the transition does at the end of the track.
    public enum Ending: Hashable, Sendable {
        /// Complete the transition.
        case finish
        /// Cancel: run back to the start.
        case cancel
        /// Finish when the last percent is at least this, else cancel.
        case threshold(Double)

        /// `.threshold(0.5)`: finish past half way.
        public static let automatic = Ending.threshold(0.5)
    }

    /// Sorted by time (samples at equal times keep their order: the later one wins, a jump).
    public let samples: [Sample]
    /// What happens when the finger lifts.
    public let ending: Ending

    /// Samples with a NaN or infinite time or a NaN percent are dropped; negative times count as 0;
    /// times are capped at ``AnimationEngine/maximumDuration``; percents are clamped to 0…1.
    public init(samples: [(time: Double, percent: Double)], ending: Ending = .automatic) {
        let valid = samples.enumerated().compactMap { index, s -> (Int, Sample)? in
            guard s.time.isFinite, !s.percent.isNaN else { return nil }
            let time = min(AnimationEngine.maximumDuration, max(0, s.time))
            return (index, Sample(time: time, percent: min(1, max(0, s.percent))))
        }
        self.samples = valid.sorted { ($0.1.time, $0.0) < ($1.1.time, $1.0) }.map(\.1)
        self.ending = ending
    }

    /// The time of the last sample (seconds); 0 without samples.
    public var duration: Double { samples.last?.time ?? 0 }

    /// The percent at `time` seconds into the track (0 without samples).
    public func percent(at time: Double) -> Double {
        guard let last = samples.last else { return 0 }
        guard time < last.time else { return last.percent }
        // The first sample after `time`: binary search (one exists, since time < last.time).
        var lo = 0, hi = samples.count - 1
        while lo < hi {
            let mid = (lo + hi) / 2
            if samples[mid].time > time { hi = mid } else { lo = mid + 1 }
        }
        guard hi > 0 else {
            // Before the first sample: its percent (the last of several at that time).
            let first = samples[0].time
            return samples.last(where: { $0.time == first })?.percent ?? samples[0].percent
        }
        let a = samples[hi - 1], b = samples[hi]
        return a.percent + (b.percent - a.percent) * ((time - a.time) / (b.time - a.time))
    }

    /// Whether the transition finishes (rather than cancels) at the end of the track.
    public var finishes: Bool {
        switch ending {
        case .finish: true
        case .cancel: false
        case .threshold(let t): (samples.last?.percent ?? 0) >= (t.isNaN ? 0.5 : t)
        }
    }
}
