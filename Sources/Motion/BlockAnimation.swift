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
