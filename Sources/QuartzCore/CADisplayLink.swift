import Foundation
internal import Motion

/// A timer that calls its target at every frame of the stage's clock, as Core Animation's display link:
/// `timestamp` is the frame's time (media time, `CACurrentMediaTime()`), `duration` a frame's length.
/// It runs from `add(to:forMode:)` until `invalidate()` (the stage is not idle while it runs);
/// `isPaused` skips the calls. Without a stage it never fires.
open class CADisplayLink: NSObject {
    private let target: Any
    private let selector: Selector
    private var link: DisplayLink?

    /// The time of the frame being drawn (seconds of media time); 0 before the first call.
    open private(set) var timestamp: CFTimeInterval = 0
    /// The time of the next frame.
    open var targetTimestamp: CFTimeInterval { timestamp + duration }
    /// Seconds between frames: the stage's clock's.
    open var duration: CFTimeInterval { 1 / (StageContext.engine?.clock.fps ?? 60) }
    /// Skips the calls while true.
    open var isPaused = false
    /// Accepted; the link fires at the stage's frame rate.
    open var preferredFramesPerSecond = 0
    open var preferredFrameRateRange = CAFrameRateRange.default

    /// A link that will send `sel` to `target` (after the source pass, `#selector(step)` is a
    /// `Selector` that carries the method).
    public init(target: Any, selector sel: Selector) {
        self.target = target
        selector = sel
        super.init()
    }

    /// Starts the calls, at every tick of the stage's clock from the next one.
    open func add(to runloop: RunLoop, forMode mode: RunLoop.Mode) {
        guard link == nil, let engine = StageContext.engine else { return }
        link = engine.addDisplayLink { [weak self] time in
            guard let self, !self.isPaused else { return }
            self.timestamp = time
            self.selector.perform(target: self.target, sender: self)
        }
    }

    open func remove(from runloop: RunLoop, forMode mode: RunLoop.Mode) { invalidate() }

    /// Stops the calls for good.
    open func invalidate() {
        link?.invalidate()
        link = nil
    }
}

/// The frame rates a display link prefers (accepted; the stage's clock decides).
public struct CAFrameRateRange: Hashable, Sendable {
    public var minimum: Float
    public var maximum: Float
    public var preferred: Float?
    public init(minimum: Float, maximum: Float, preferred: Float?) {
        self.minimum = minimum
        self.maximum = maximum
        self.preferred = preferred
    }
    public static let `default` = CAFrameRateRange(minimum: 0, maximum: 0, preferred: nil)
}
