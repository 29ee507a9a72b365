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
        case delta(SIMD8<Double>)
        /// Offsets from the model at relative times 0…1 (rising; equal times make a jump).
        case keyframes(times: [Double], offsets: [SIMD8<Double>], discrete: Bool)
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
    func contribution(progress p: Double) -> SIMD8<Double>? {
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
            return offset == SIMD8() ? nil : offset
        }
    }
}

/// Something that animates tracks and has things to do at moments of virtual time.
protocol AnimationSource: AnyObject {
    /// Creation order: events at the same time run in this order.
    var sequence: Int { get }
    /// When this source must next act (an end, a completion); nil when nothing is scheduled.
    var nextEventTime: Double? { get }
    /// Acts; the engine's current time is ``nextEventTime``.
    func fireEvent()
    /// True once there is nothing left to do; the engine then drops the source.
    var isDone: Bool { get }
    /// The progress of `track` at `time`, nil when it shows nothing.
    func progress(of track: Track, at time: Double) -> Double?
    /// The engine removed `track` (removeAnimations, beginFromCurrentState).
    func didRemove(_ track: Track)
    /// When all its scheduled work ends; nil when unknown or never.
    var scheduledEnd: Double? { get }
}

/// Records the first old value (and, optionally, the presentation value then) and the last new value
/// of every property changed while it is installed.
final class ChangeRecorder: ViewChangeObserver {
    struct Change {
        let view: View
        let property: ViewProperty
        let from: AnimatableValue
        var to: AnimatableValue
        /// The presentation value at the first change (for beginFromCurrentState).
        let presentationAtStart: AnimatableValue?
        /// Engine-wide order of first change.
        let serial: Int
        var key: PropertyKey { PropertyKey(view, property) }
    }

    private(set) var changes: [Change] = []
    private var index: [PropertyKey: Int] = [:]
    private unowned let engine: AnimationEngine
    private let capturesPresentation: Bool

    init(engine: AnimationEngine, capturesPresentation: Bool) {
        self.engine = engine
        self.capturesPresentation = capturesPresentation
    }

    func view(_ view: View, changed property: ViewProperty, from old: AnimatableValue, to new: AnimatableValue) {
        let key = PropertyKey(view, property)
        if let i = index[key] {
            changes[i].to = new
            return
        }
        index[key] = changes.count
        let presentation = capturesPresentation ? engine.presentationValue(of: property, of: view, model: old) : nil
        changes.append(Change(view: view, property: property, from: old, to: new, presentationAtStart: presentation,
                              serial: engine.nextSerial()))
    }
}

/// A completion that runs at a set time with no animation: a block that animated nothing.
final class PendingCompletion: AnimationSource {
    let sequence: Int
    private let time: Double
    private let action: () -> Void
    private(set) var isDone = false

    init(sequence: Int, time: Double, action: @escaping () -> Void) {
        self.sequence = sequence
        self.time = time
        self.action = action
    }

    var nextEventTime: Double? { isDone ? nil : time }
    var scheduledEnd: Double? { nextEventTime }
    func fireEvent() {
        isDone = true
        action()
    }
    func progress(of track: Track, at time: Double) -> Double? { nil }
    func didRemove(_ track: Track) {}
}

/// An `animate` block or keyframe animation in flight: its tracks share one timing, delay and repetition.
final class BlockAnimation: AnimationSource {
    unowned let engine: AnimationEngine
    let sequence: Int
    let recordID: Int
    /// When it starts moving (seconds); before that the tracks show their start values.
    let begin: Double
    /// One direction of one cycle (seconds, > 0).
    let duration: Double
    let timing: ResolvedTiming
    let autoreverses: Bool
    /// begin + cycles × cycle; infinity when repeating forever.
    let end: Double
    private(set) var tracks: [Track]
    private let completion: ((Bool) -> Void)?
    private var interruptedAt: Double?
    private(set) var isDone = false

    init(engine: AnimationEngine, sequence: Int, recordID: Int, begin: Double, duration: Double, timing: ResolvedTiming,
         cycles: Double, autoreverses: Bool, tracks: [Track], completion: ((Bool) -> Void)?) {
        self.engine = engine
        self.sequence = sequence
        self.recordID = recordID
        self.begin = begin
        self.duration = duration
        self.timing = timing
        self.autoreverses = autoreverses
        let cycle = autoreverses ? 2 * duration : duration
        end = cycles.isFinite ? begin + cycle * cycles : .infinity
        self.tracks = tracks
        self.completion = completion
    }

    var nextEventTime: Double? {
        if isDone { return nil }
        if let interruptedAt { return interruptedAt }
        return end.isFinite ? end : nil
    }

    var scheduledEnd: Double? { nextEventTime }

    func fireEvent() {
        isDone = true
        for track in tracks { engine.uninstall(track) }
        tracks = []
        let finished = interruptedAt == nil
        let now = engine.currentTime
        engine.updateRecord(recordID) { $0.outcome = finished ? .finished(at: now) : .interrupted(at: now) }
        completion?(finished)
    }

    func progress(of track: Track, at time: Double) -> Double? {
        guard !isDone, time < end else { return nil }
        let local = time - begin
        guard local > 0 else { return 0 }  // during the delay: the start value, as UIKit's backwards fill
        let cycle = autoreverses ? 2 * duration : duration
        let u = local.truncatingRemainder(dividingBy: cycle)
        let f = autoreverses && u > duration ? (cycle - u) / duration : u / duration
        return timing.progress(min(1, max(0, f)))
    }

    func didRemove(_ track: Track) {
        tracks.removeAll { $0 === track }
        if tracks.isEmpty && !isDone && interruptedAt == nil {
            interruptedAt = engine.currentTime
        }
    }
}
