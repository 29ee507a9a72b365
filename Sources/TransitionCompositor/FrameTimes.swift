import BoundedInput
import Motion
import Foundation

/// When the frames of an animation are taken: t = i/fps from 0, with the last frame exactly at the end
/// time, then any hold frames after it.
public struct FrameTimes: Sendable, Equatable {
    /// Seconds, ascending; the first is 0.
    public let times: [Double]
    /// Frames per second.
    public let fps: Double
    /// The time of the last frame before hold frames (seconds).
    public let endTime: Double

    /// At most this many frames per animation, so a huge duration or fps cannot allocate without bound.
    public static let maximumFrameCount = Limits.framesPerRender

    /// Frame i is at exactly `Double(i) / fps` (never accumulated, so no drift); when the end time is not
    /// on a frame boundary, one more frame is added at exactly `endTime`. A boundary within 1e-9 s of
    /// the end counts as the end. `holdFrames` more frames follow at `endTime + k/fps`.
    public init(endTime: Double, fps: Double, holdFrames: Int = 0) throws(FrameTimesError) {
        guard fps.isFinite, fps > 0, fps <= Limits.maxFPS else { throw .badFPS(fps) }
        guard endTime.isFinite, endTime >= 0 else { throw .badEndTime(endTime) }
        guard holdFrames >= 0 else { throw .badHoldFrames(holdFrames) }
        let steps = (endTime * fps - 1e-9 * fps).rounded(.up)   // frames strictly before the end
        guard steps + 1 + Double(holdFrames) <= Double(FrameTimes.maximumFrameCount) else {
            throw .tooManyFrames(Int(min(steps + 1 + Double(holdFrames), 1e15)))
        }
        var times = (0..<max(0, Int(steps))).map { FrameTimes.time(ofFrame: $0, fps: fps) }
        times.append(endTime)
        times += FrameTimes.holdTimes(after: endTime, fps: fps, count: holdFrames)
        self.times = times
        self.fps = fps
        self.endTime = endTime
    }

    /// The number of frames.
    public var count: Int { times.count }

    /// Frame `index`'s time, `index / fps` seconds (`FrameClock`'s rule: from the index, never
    /// accumulated). Every frame loop samples through this.
    public static func time(ofFrame index: Int, fps: Double) -> Double { FrameClock(fps: fps).time(ofFrame: index) }

    /// The times of `count` frames held after `end`: `end + k/fps` for k = 1…count, computed as
    /// `(end·fps + k) / fps` from the frame index, so that no error accumulates and simple values stay
    /// simple (0.55 s + 1/10 s is 0.65, not 0.6500000000000001).
    public static func holdTimes(after end: Double, fps: Double, count: Int) -> [Double] {
        guard count > 0 else { return [] }
        let base = end * fps
        return (1...count).map { (base + Double($0)) / fps }
    }
}

/// Frame times that cannot be made (exit 64: the settings are out of range).
public enum FrameTimesError: ExitStatusError, Equatable, Sendable {
    /// A frame rate outside 0 < fps ≤ `Limits.maxFPS`.
    case badFPS(Double)
    /// An end time that is negative or not finite (seconds).
    case badEndTime(Double)
    /// A negative number of hold frames.
    case badHoldFrames(Int)
    /// More frames than ``FrameTimes/maximumFrameCount``.
    case tooManyFrames(Int)

    public var description: String {
        switch self {
        case .badFPS(let v): "frames per second must be in 0 < fps ≤ \(Int(Limits.maxFPS)), got \(v)"
        case .badEndTime(let v): "the animation's end time must be finite and not negative, got \(v)"
        case .badHoldFrames(let v): "hold frames must not be negative, got \(v)"
        case .tooManyFrames(let n): "\(n) frames is more than the limit of \(FrameTimes.maximumFrameCount); lower --fps or --hold"
        }
    }

    /// 64: the settings (frame rate, hold frames) are out of range.
    public var exitStatus: Int32 { ExitStatus.usage }
}
