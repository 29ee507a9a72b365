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
    public static let maximumFrameCount = 100_000

    /// Frame i is at exactly `Double(i) / fps` (never accumulated, so no drift); when the end time is not
    /// on a frame boundary, one more frame is added at exactly `endTime`. A boundary within 1e-9 s of
    /// the end counts as the end. `holdFrames` more frames follow at `endTime + k/fps`.
    public init(endTime: Double, fps: Double, holdFrames: Int = 0) throws(FrameTimesError) {
        guard fps.isFinite, fps > 0, fps <= 1000 else { throw .badFPS(fps) }
        guard endTime.isFinite, endTime >= 0 else { throw .badEndTime(endTime) }
        guard holdFrames >= 0 else { throw .badHoldFrames(holdFrames) }
        let steps = (endTime * fps - 1e-9 * fps).rounded(.up)   // frames strictly before the end
        guard steps + 1 + Double(holdFrames) <= Double(FrameTimes.maximumFrameCount) else {
            throw .tooManyFrames(Int(min(steps + 1 + Double(holdFrames), 1e15)))
        }
        var times = (0..<max(0, Int(steps))).map { Double($0) / fps }
        times.append(endTime)
        for k in 1...max(1, holdFrames) where holdFrames > 0 { times.append(endTime + Double(k) / fps) }
        self.times = times
        self.fps = fps
        self.endTime = endTime
    }

    public var count: Int { times.count }
}

public enum FrameTimesError: Error, Equatable, Sendable, CustomStringConvertible {
    case badFPS(Double), badEndTime(Double), badHoldFrames(Int), tooManyFrames(Int)

    public var description: String {
        switch self {
        case .badFPS(let v): "frames per second must be in 0 < fps ≤ 1000, got \(v)"
        case .badEndTime(let v): "the animation's end time must be finite and not negative, got \(v)"
        case .badHoldFrames(let v): "hold frames must not be negative, got \(v)"
        case .tooManyFrames(let n): "\(n) frames is more than the limit of \(FrameTimes.maximumFrameCount)"
        }
    }
}

/// Which frames of a render to write: `--frames A..B` and `--shard K/N`.
public struct FrameSelection: Sendable, Equatable {
    /// Inclusive frame index range, or nil for all.
    public var range: ClosedRange<Int>?
    /// Shard K of N (K in 1…N): frames whose index ≡ K−1 (mod N). Nil for all.
    public var shard: (index: Int, count: Int)?

    public init(range: ClosedRange<Int>? = nil, shard: (index: Int, count: Int)? = nil) {
        self.range = range
        self.shard = shard
    }

    public static let all = FrameSelection()

    public static func == (a: FrameSelection, b: FrameSelection) -> Bool {
        a.range == b.range && a.shard?.index == b.shard?.index && a.shard?.count == b.shard?.count
    }

    /// Parses `A..B` (inclusive; `A..` to the end) as the CLI takes it.
    public static func parseRange(_ text: String) -> ClosedRange<Int>? {
        let parts = text.components(separatedBy: "..")
        guard parts.count == 2, let a = Int(parts[0]), a >= 0 else { return nil }
        if parts[1].isEmpty { return a...Int.max }
        guard let b = Int(parts[1]), b >= a else { return nil }
        return a...b
    }

    /// Parses `K/N` with 1 ≤ K ≤ N ≤ 10000.
    public static func parseShard(_ text: String) -> (index: Int, count: Int)? {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]), n >= 1, n <= 10_000, (1...n).contains(k) else { return nil }
        return (k, n)
    }

    /// Whether frame `index` is selected.
    public func contains(_ index: Int) -> Bool {
        if let range, !range.contains(index) { return false }
        if let shard, index % shard.count != shard.index - 1 { return false }
        return true
    }

    /// Whether every frame of a `count`-frame render is selected.
    public func coversAll(of count: Int) -> Bool { (0..<count).allSatisfy(contains) }
}
