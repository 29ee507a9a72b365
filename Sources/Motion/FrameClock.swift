/// Frame times at a fixed rate: frame i is at exactly `Double(i) / fps` seconds, computed afresh for
/// every frame rather than by adding 1/fps repeatedly, so no rounding error accumulates (frame 39 at
/// 60 fps is exactly 0.65 s).
public struct FrameClock: Hashable, Sendable {
    /// Frames per second; a rate that is not finite and positive becomes 60, and rates are capped at
    /// 10,000.
    public let fps: Double

    /// Frame numbers are capped here so that converting times never overflows an `Int`.
    static let maximumFrame = 1 << 52

    /// A clock of `fps` frames per second (default 60, as iOS animates).
    public init(fps: Double = 60) {
        self.fps = fps.isFinite && fps > 0 ? min(fps, 10_000) : 60
    }

    /// Seconds from the start to frame `index` (negative indices count as 0).
    public func time(ofFrame index: Int) -> Double {
        Double(min(max(0, index), FrameClock.maximumFrame)) / fps
    }

    /// The last frame at or before `time` (seconds); 0 for times before 0 or NaN.
    public func frame(atOrBefore time: Double) -> Int {
        guard time > 0 else { return 0 }
        guard time.isFinite else { return FrameClock.maximumFrame }
        var i = Int(min(Double(FrameClock.maximumFrame), (time * fps).rounded(.down)))
        // time·fps may round either way; the answer is defined by time(ofFrame:), so settle it there.
        while i > 0 && self.time(ofFrame: i) > time { i -= 1 }
        while i < FrameClock.maximumFrame && self.time(ofFrame: i + 1) <= time { i += 1 }
        return i
    }

    /// The first frame at or after `time` (seconds).
    public func frame(atOrAfter time: Double) -> Int {
        let i = frame(atOrBefore: time)
        return self.time(ofFrame: i) < time && i < FrameClock.maximumFrame ? i + 1 : i
    }

    /// How many frames show the span from 0 to `duration` seconds, both ends included: frames 0 through
    /// the first frame at or after `duration`.
    public func frameCount(covering duration: Double) -> Int {
        frame(atOrAfter: duration) + 1
    }
}
