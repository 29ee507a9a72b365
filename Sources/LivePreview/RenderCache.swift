import Foundation
import TransitionCompositor

/// The renders a preview keeps (a served transition at one scale: its snapshots, images and frozen
/// frames), within a byte budget: the least recently used goes first, so what `serve` holds does not
/// grow with the number of transitions it serves. A render asked for while the same one is being made
/// is waited for, not made twice; a render whose every asker has gone stops between frames.
final class RenderCache: @unchecked Sendable {
    /// A served transition (its entry's id, new on every change of its files) at a scale.
    struct Key: Hashable, Sendable {
        var entry: Int
        var scale: Int
    }

    /// A render being made, and who waits for it.
    private final class Flight: @unchecked Sendable {
        var askers: [UUID: @Sendable () -> Bool] = [:]
        var result: Result<RenderedTransition, any Error>?
    }

    private let condition = NSCondition()
    private var kept: [Key: (render: RenderedTransition, bytes: Int, used: UInt64)] = [:]
    private var flights: [Key: Flight] = [:]
    private var tick: UInt64 = 0
    private var stopping = false
    /// The most bytes of renders kept (their bitmaps and the layers their frames may keep,
    /// ``RenderCache/bytes(of:)``).
    let limit: Int
    /// The bytes kept now.
    private(set) var bytes = 0
    /// Renders made, and renders stopped because every asker had gone (for tests and the docs).
    private(set) var made = 0
    private(set) var cancelled = 0

    init(limit: Int) {
        self.limit = limit
    }

    /// What a render holds while it is kept: its decoded images and snapshots (every frame's tree points
    /// into them), and the most its frames' projected layers and content shadows can keep
    /// (``FrameSequence/projectedLayerBytes``, ``FrameSequence/contentShadowBytes``), in bytes.
    static func bytes(of render: RenderedTransition) -> Int {
        render.bitmaps.reduce(0) { $0 + $1.bytes } + render.sequence.projectedLayerBytes + render.sequence.contentShadowBytes
    }

    /// The render for `key`: the one kept, the one being made (waited for), or a new one from `make`,
    /// which is given the check it should pass on as ``RenderSettings/isCancelled``: true once every asker
    /// is cancelled (`isCancelled`) or the cache is stopping.
    /// `keepUpTo`: the render is kept only while the renders kept hold less than this many bytes (a
    /// reload reading a folder of many files keeps the first of them for the page, not all). Default: the
    /// whole budget.
    func render(_ key: Key, keepUpTo keepLimit: Int? = nil, isCancelled: @escaping @Sendable () -> Bool,
                make: (@escaping @Sendable () -> Bool) throws -> RenderedTransition) throws -> RenderedTransition {
        condition.lock()
        if let hit = kept[key] {
            tick += 1
            kept[key]!.used = tick
            condition.unlock()
            return hit.render
        }
        let id = UUID()
        if let flight = flights[key] {
            flight.askers[id] = isCancelled
            while flight.result == nil { condition.wait() }
            flight.askers[id] = nil
            let result = flight.result!
            condition.unlock()
            return try result.get()
        }
        let flight = Flight()
        flight.askers[id] = isCancelled
        flights[key] = flight
        condition.unlock()
        let stop: @Sendable () -> Bool = { [self] in
            condition.lock()
            defer { condition.unlock() }
            return stopping || flight.askers.values.allSatisfy { $0() }
        }
        let result = Result { try make(stop) }
        condition.lock()
        flights[key] = nil
        flight.askers[id] = nil
        flight.result = result
        switch result {
        case .success(let render):
            made += 1
            if bytes < keepLimit ?? limit { keep(render, as: key) }
        case .failure(let error):
            if case RenderError.cancelled? = error as? RenderError { cancelled += 1 }
        }
        condition.broadcast()
        condition.unlock()
        return try result.get()
    }

    /// Keeps `render`, dropping the least recently used until it fits; one larger than the whole budget
    /// is not kept. Under the lock.
    private func keep(_ render: RenderedTransition, as key: Key) {
        let size = Self.bytes(of: render)
        guard size <= limit else { return }
        while bytes + size > limit, let oldest = kept.min(by: { $0.value.used < $1.value.used }) {
            bytes -= oldest.value.bytes
            kept[oldest.key] = nil
        }
        tick += 1
        kept[key] = (render, size, tick)
        bytes += size
    }

    /// The render of `key` if it is kept now (nothing is made).
    func kept(_ key: Key) -> RenderedTransition? {
        condition.lock()
        defer { condition.unlock() }
        return kept[key]?.render
    }

    /// Whether a render of `key` is kept now.
    func contains(_ key: Key) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        return kept[key] != nil
    }

    /// Drops the renders of every entry not in `live` (entries a reload replaced).
    func keepOnly(entries live: Set<Int>) {
        condition.lock()
        for key in kept.keys where !live.contains(key.entry) {
            bytes -= kept[key]!.bytes
            kept[key] = nil
        }
        condition.unlock()
    }

    /// From now on every render being made stops at its next frame, and nothing new is kept waiting.
    func stop() {
        condition.lock()
        stopping = true
        condition.unlock()
    }

    /// How many renders are kept and their bytes, how many were made and how many stopped early (for
    /// tests and the docs' figures).
    var summary: (kept: Int, bytes: Int, made: Int, cancelled: Int) {
        condition.lock()
        defer { condition.unlock() }
        return (kept.count, bytes, made, cancelled)
    }

    /// The scales kept for an entry (for tests).
    func scales(ofEntry entry: Int) -> [Int] {
        condition.lock()
        defer { condition.unlock() }
        return kept.keys.filter { $0.entry == entry }.map(\.scale).sorted()
    }
}
