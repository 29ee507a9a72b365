/// A callback run at every frame of the engine's clock, as `CADisplayLink`: how something that is not a
/// property animation (a scroll view's animated scroll, which sets its offset frame by frame and tells
/// its delegate each time) moves in step with the frames that are rendered.
///
/// Created with ``AnimationEngine/addDisplayLink(duration:_:)``. It fires at every frame time after
/// the time it was made, and, when it has a duration, once more at exactly its end (whether or not that
/// is a frame time), then stops. While it runs the engine is not idle.
public final class DisplayLink: AnimationSource {
    let sequence: Int
    private let clock: FrameClock
    /// Seconds: when the link was made.
    public let startTime: Double
    /// Seconds: when the link stops, or nil when it runs until ``invalidate()``.
    public let endTime: Double?
    private var nextTime: Double?
    private let callback: (Double) -> Void
    private weak var engine: AnimationEngine?

    init(engine: AnimationEngine, sequence: Int, start: Double, duration: Double?, callback: @escaping (Double) -> Void) {
        self.engine = engine
        self.sequence = sequence
        clock = engine.clock
        startTime = start
        endTime = duration.map { start + AnimationEngine.seconds($0) }
        self.callback = callback
        nextTime = nil
        nextTime = following(start)
    }

    /// Whether the link still fires.
    public var isValid: Bool { nextTime != nil }

    /// Stops the link: it fires no more (UIKit's `invalidate()`).
    public func invalidate() {
        nextTime = nil
        engine?.unregister(self)
    }

    /// The first frame time after `time`, or the end when that comes first.
    private func following(_ time: Double) -> Double? {
        if let endTime, time >= endTime { return nil }
        let frame = clock.time(ofFrame: clock.frame(atOrBefore: time) + 1)
        guard let endTime else { return frame }
        return min(frame, endTime)
    }

    var nextEventTime: Double? { nextTime }
    var isDone: Bool { nextTime == nil }
    var scheduledEnd: Double? { nextTime == nil ? nil : endTime }
    func fireEvent() {
        guard let now = nextTime else { return }
        nextTime = following(now)
        callback(now)
    }
    func progress(of track: Track, at time: Double) -> Double? { nil }
    func didRemove(_ track: Track) {}
}

extension AnimationEngine {
    /// Calls `callback` with the time (seconds) at every frame of ``clock`` after ``currentTime``, and,
    /// with a `duration` (seconds), once more at exactly its end, then stops. Without a duration it runs
    /// until ``DisplayLink/invalidate()``: the engine is not idle before that.
    @discardableResult
    public func addDisplayLink(duration: Double? = nil, _ callback: @escaping (_ time: Double) -> Void) -> DisplayLink {
        let link = DisplayLink(engine: self, sequence: nextSequence(), start: currentTime, duration: duration, callback: callback)
        if link.isValid { register(link) }
        return link
    }

    /// Runs `action` `delay` seconds after ``currentTime`` (0: at the next ``advance(to:)``), in order
    /// with completions due then: `DispatchQueue.main.asyncAfter` on the virtual clock, for scripts
    /// that do one thing after another. NaN and negative delays count as 0.
    public func perform(afterDelay delay: Double, _ action: @escaping () -> Void) {
        register(PendingCompletion(sequence: nextSequence(), time: currentTime + AnimationEngine.seconds(delay), action: action))
    }
}
