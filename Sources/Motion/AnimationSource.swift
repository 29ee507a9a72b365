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
