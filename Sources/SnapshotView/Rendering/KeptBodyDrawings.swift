import Synchronization

/// What was drawn for nodes' bodies in one frame of a render, kept for later frames whose nodes' bodies
/// draw the same (by the store's `sameness`, ``RenderNode/drawsTheSameBody(as:)`` or a looser one) with an
/// equal key: the store behind ``ProjectedLayerCache`` (layers) and ``ContentShadowCache`` (blurred alphas).
/// Each drawing has a cost (pixels or bytes, the caller's unit, at least 1); the least recently used go
/// first to stay within the budget the caller gives, and within the store's `maxEntries`. A body that
/// cannot tell whether it draws the same (a custom drawing) is drawn anew each time and not kept.
final class KeptBodyDrawings<Key: Equatable & Sendable, Drawing: Sendable>: Sendable {
    private struct Entry: Sendable {
        let id: UInt64
        let node: RenderNode
        let key: Key
        let drawing: Drawing
        let cost: Int
        var lastUse: UInt64
    }

    private struct State: Sendable {
        var entries: [Entry] = []
        var cost = 0
        var clock: UInt64 = 0
        var hits = 0, misses = 0

        /// Drops the least recently used entries until `room` more fits in `budget` and one more entry in
        /// `maxEntries`.
        mutating func makeRoom(for room: Int, within budget: Int, maxEntries: Int) {
            while !entries.isEmpty, cost + room > budget || entries.count >= maxEntries {
                let oldest = entries.indices.min { entries[$0].lastUse < entries[$1].lastUse }!
                cost -= entries[oldest].cost
                entries.remove(at: oldest)
            }
        }
    }

    private let state = Mutex(State())
    private let sameness: @Sendable (RenderNode, RenderNode) -> Bool
    /// The most drawings kept at once (each lookup compares the key of each).
    let maxEntries: Int

    /// A store whose drawings are used again for a body that `sameness` finds draws the same as the one
    /// they were made for (default ``RenderNode/drawsTheSameBody(as:)``), keeping at most `maxEntries`
    /// (default: as many as the budget holds).
    init(maxEntries: Int = .max, sameness: @escaping @Sendable (RenderNode, RenderNode) -> Bool = { $0.drawsTheSameBody(as: $1) }) {
        self.maxEntries = max(1, maxEntries)
        self.sameness = sameness
    }

    /// Drawings used again, and drawings made, since the store was made.
    var statistics: (hits: Int, misses: Int) { state.withLock { ($0.hits, $0.misses) } }
    /// The cost of the drawings kept now.
    var keptCost: Int { state.withLock { $0.cost } }

    /// The kept entry for `key` whose node's body draws as `node`'s. (Trees are compared outside the lock:
    /// the entries with that key are copied out first.)
    private func kept(for node: RenderNode, key: Key) -> Entry? {
        state.withLock { s in s.entries.filter { $0.key == key } }.first { sameness(node, $0.node) }
    }

    /// `node`'s drawing for `key`: a kept one whose node's body draws the same, else `make()`'s, kept when
    /// the body can tell whether it draws the same and its cost fits in `budget` (nil from `make` is passed
    /// on and not kept). The cost is `cost`, known before the drawing is made, and room for it is made first
    /// (so that what is given up is gone before a layer is drawn); or, with `measure`, what `measure` says of
    /// the drawing once made, room being made then.
    func drawing(for node: RenderNode, key: Key, cost: Int = 0, budget: Int, measure: ((Drawing) -> Int)? = nil, make: () -> Drawing?) -> Drawing? {
        if let hit = kept(for: node, key: key) {
            state.withLock { s in
                s.clock += 1
                s.hits += 1
                if let i = s.entries.firstIndex(where: { $0.id == hit.id }) { s.entries[i].lastUse = s.clock }
            }
            return hit.drawing
        }
        state.withLock { $0.misses += 1 }
        // (Content that cannot tell whether it draws the same never matches, not even itself.)
        let keepable = sameness(node, node)
        let before = max(1, cost)
        if keepable, measure == nil {
            guard before <= budget else { return make() }
            state.withLock { $0.makeRoom(for: before, within: budget, maxEntries: maxEntries) }
        }
        guard let drawing = make() else { return nil }
        let after = measure.map { max(1, $0(drawing)) } ?? before
        guard keepable, after <= budget else { return drawing }
        // (Another thread may have made the same drawing meanwhile: one is enough.)
        guard kept(for: node, key: key) == nil else { return drawing }
        state.withLock { s in
            s.makeRoom(for: after, within: budget, maxEntries: maxEntries)
            s.clock += 1
            s.entries.append(Entry(id: s.clock, node: node, key: key, drawing: drawing, cost: after, lastUse: s.clock))
            s.cost += after
        }
        return drawing
    }
}
