import SnapshotView

/// One animatable property of one view.
struct PropertyKey: Hashable {
    let view: ObjectIdentifier
    let property: ViewProperty

    init(_ view: View, _ property: ViewProperty) {
        self.view = ObjectIdentifier(view)
        self.property = property
    }
}

/// One property of one view animated by one source (a block, keyframes, an animator).
///
/// Tracks are additive: each contributes an offset on top of the model value, which becomes zero when
/// its progress reaches 1. A simple track contributes `(from − to)·(1 − progress)`; a keyframe track
/// the offset of its path from the model.
final class Track {
    enum Path {
        /// from − to, in component space.
        case delta(SIMD16<Double>)
        /// Offsets from the model at relative times 0…1 (rising; equal times make a jump).
        case keyframes(times: [Double], offsets: [SIMD16<Double>], discrete: Bool)
    }

    let view: View
    let property: ViewProperty
    let key: PropertyKey
    let from: AnimatableValue
    let to: AnimatableValue
    let path: Path
    /// For tracks that join an animator part way: the animator's progress at which this track starts.
    let window: Double
    weak var source: (any AnimationSource)?

    init(view: View, property: ViewProperty, from: AnimatableValue, to: AnimatableValue, path: Path, window: Double = 0) {
        self.view = view
        self.property = property
        key = PropertyKey(view, property)
        self.from = from
        self.to = to
        self.path = path
        self.window = window
    }

    /// A simple from → to track.
    convenience init(view: View, property: ViewProperty, from: AnimatableValue, to: AnimatableValue, window: Double = 0) {
        let delta = ValueComponents(from).offset(from: ValueComponents(to))
        self.init(view: view, property: property, from: from, to: to, path: .delta(delta), window: window)
    }

    /// The offset to add to the model at `progress`; nil when it is exactly zero, so that a finished
    /// animation shows the model value bit for bit.
    func contribution(progress p: Double) -> SIMD16<Double>? {
        switch path {
        case .delta(let d):
            let remaining = 1 - p
            return remaining == 0 ? nil : d * remaining
        case .keyframes(let times, let offsets, let discrete):
            let q = min(1, max(0, p))
            var i = 0
            while i + 1 < times.count && times[i + 1] <= q { i += 1 }
            var offset = offsets[i]
            if !discrete && i + 1 < times.count {
                let w = (q - times[i]) / (times[i + 1] - times[i])
                offset += (offsets[i + 1] - offsets[i]) * w
            }
            return offset == SIMD16() ? nil : offset
        }
    }
}
