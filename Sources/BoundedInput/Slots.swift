import Foundation

/// Results made on several threads at once, one slot each, read back in the slots' order: what a
/// `DispatchQueue.concurrentPerform` worker fills when the result must not depend on which finishes first.
public final class Slots<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [Value?]

    /// `count` empty slots.
    public init(count: Int) { slots = Array(repeating: nil, count: count) }

    /// Fills slot `index` (from any thread).
    public func set(_ index: Int, _ value: Value) { lock.withLock { slots[index] = value } }

    /// The values of the filled slots, in the slots' order.
    public var values: [Value] { lock.withLock { slots.compactMap { $0 } } }
}
