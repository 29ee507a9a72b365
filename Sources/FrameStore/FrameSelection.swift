import BoundedInput
import Foundation

/// Which frames of a render to write: `--frames A..B` and `--shard K/N`.
public struct FrameSelection: Sendable, Equatable {
    /// Inclusive frame index range, or nil for all.
    public var range: ClosedRange<Int>?
    /// Shard K of N (K in 1…N): frames whose index ≡ K−1 (mod N). Nil for all.
    public var shard: (index: Int, count: Int)?

    /// A selection; nil for either part selects every frame.
    public init(range: ClosedRange<Int>? = nil, shard: (index: Int, count: Int)? = nil) {
        self.range = range
        self.shard = shard
    }

    /// Every frame.
    public static let all = FrameSelection()

    public static func == (a: FrameSelection, b: FrameSelection) -> Bool {
        a.range == b.range && a.shard?.index == b.shard?.index && a.shard?.count == b.shard?.count
    }

    /// Parses `A..B` (inclusive; `A..` to the end) or a single frame `A` as the CLI takes it.
    public static func parseRange(_ text: String) -> ClosedRange<Int>? {
        if let single = Int(text), single >= 0 { return single...single }
        let parts = text.components(separatedBy: "..")
        guard parts.count == 2, let a = Int(parts[0]), a >= 0 else { return nil }
        if parts[1].isEmpty { return a...Int.max }
        guard let b = Int(parts[1]), b >= a else { return nil }
        return a...b
    }

    /// Parses `K/N` with 1 ≤ K ≤ N ≤ `Limits/maxShards`.
    public static func parseShard(_ text: String) -> (index: Int, count: Int)? {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]), n >= 1, n <= Limits.maxShards, (1...n).contains(k) else { return nil }
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
