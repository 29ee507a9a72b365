import Synchronization

/// What was drawn for nodes' bodies in one frame of a render, kept for later frames whose nodes' bodies
/// draw the same (``RenderNode/drawsTheSameBody(as:)``) with an equal key: the store behind
/// ``ProjectedLayerCache`` (layers) and ``ContentShadowCache`` (blurred alphas). Each drawing has a cost
/// (pixels or bytes, the caller's unit); the least recently used go first, before a new one is made, to stay
/// within the budget the caller gives. A body that cannot tell whether it draws the same (a custom drawing)
/// is drawn anew each time and not kept.
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

        /// Drops the least recently used entries until `room` more fits in `budget`.
        mutating func makeRoom(for room: Int, within budget: Int) {
            while !entries.isEmpty, cost + room > budget {
                let oldest = entries.indices.min { entries[$0].lastUse < entries[$1].lastUse }!
                cost -= entries[oldest].cost
                entries.remove(at: oldest)
            }
        }
    }

    private let state = Mutex(State())

    /// Drawings used again, and drawings made, since the store was made.
    var statistics: (hits: Int, misses: Int) { state.withLock { ($0.hits, $0.misses) } }
    /// The cost of the drawings kept now.
    var keptCost: Int { state.withLock { $0.cost } }

    /// The kept entry for `key` whose node's body draws as `node`'s. (Trees are compared outside the lock:
    /// the entries with that key are copied out first.)
    private func kept(for node: RenderNode, key: Key) -> Entry? {
        state.withLock { s in s.entries.filter { $0.key == key } }.first { node.drawsTheSameBody(as: $0.node) }
    }

    /// `node`'s drawing for `key`: a kept one whose node's body draws the same, else `make()`'s (kept when
    /// its `cost` fits in `budget` and the body can tell whether it draws the same; nil from `make` is
    /// passed on and not kept). Room for `cost` is made before `make` runs; the drawing is kept at what
    /// `keptCost` says it costs once made (default `cost`; at most `cost`).
    func drawing(for node: RenderNode, key: Key, cost: Int, budget: Int, keptCost: ((Drawing) -> Int)? = nil, make: () -> Drawing?) -> Drawing? {
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
        let keep = cost <= budget && node.drawsTheSameBody(as: node)
        // Room first, so that the drawings given up are gone before the new one is made.
        if keep { state.withLock { $0.makeRoom(for: cost, within: budget) } }
        guard let drawing = make() else { return nil }
        guard keep else { return drawing }
        // (Another thread may have made the same drawing meanwhile: one is enough.)
        guard kept(for: node, key: key) == nil else { return drawing }
        let cost = min(cost, keptCost?(drawing) ?? cost)
        state.withLock { s in
            s.makeRoom(for: cost, within: budget)
            s.clock += 1
            s.entries.append(Entry(id: s.clock, node: node, key: key, drawing: drawing, cost: cost, lastUse: s.clock))
            s.cost += cost
        }
        return drawing
    }
}
