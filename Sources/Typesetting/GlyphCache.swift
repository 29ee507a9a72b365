import Synchronization

/// Rendered glyph masks, shared by all threads, keyed by face, glyph, pixel size (1/64 px) and
/// sub-pixel phase (1/4 px), with least-recently-used eviction under a memory bound.
///
/// The bound counts each mask's bytes plus ``GlyphMask/cost``'s fixed allowance per entry. When a new
/// mask takes the total over ``byteLimit``, the least recently used entries are dropped until the total
/// is at most three quarters of it (so eviction, which sorts, runs rarely). Masks are immutable objects:
/// a draw that holds one keeps it alive even if it is evicted meanwhile. Rendering happens outside the
/// cache's lock (under the face's own), so threads drawing from a warm cache only meet for lookups.
///
/// The cache never changes what is drawn: a mask depends only on its key, so output is the same with a
/// cold or warm cache and with any number of threads.
package final class GlyphCache: Sendable {
    static let shared = GlyphCache(byteLimit: 16 << 20)

    struct Key: Hashable {
        var face: Int
        var glyph: UInt32
        /// Pixels per em in 1/64 px.
        var ppem64: Int32
        /// Sub-pixel x phase in quarters of a pixel, 0...3.
        var phase: UInt8
    }

    private struct Entry {
        /// nil: the glyph has no mask at this size (too large, or unloadable); draw its outline instead.
        var mask: GlyphMask?
        var lastUse: UInt64
        var cost: Int
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        var bytes = 0
        var clock: UInt64 = 0
        var hits = 0
        var misses = 0
        var evictions = 0
    }

    let byteLimit: Int
    private let state = Mutex(State())

    package init(byteLimit: Int) { self.byteLimit = byteLimit }

    /// The mask of `glyph` of `face` at `ppem64` / 64 pixels per em, shifted right by `phase` / 4 px;
    /// rendered on a miss. nil when the glyph has no mask (the caller fills its outline).
    package func mask(face: FontFace, glyph: UInt32, ppem64: Int32, phase: UInt8) -> GlyphMask? {
        let key = Key(face: face.id, glyph: glyph, ppem64: ppem64, phase: phase)
        let cached: Entry?? = state.withLock { s in
            s.clock &+= 1
            guard var entry = s.entries[key] else { s.misses += 1; return .none }
            s.hits += 1
            entry.lastUse = s.clock
            s.entries[key] = entry
            return .some(entry)
        }
        if let cached { return cached?.mask }
        let scale = Double(ppem64) / 64 / Double(face.unitsPerEm)
        let mask = face.renderMask(glyph: glyph, scale: scale, shift: Double(phase) / 4)
        insert(key, mask)
        return mask
    }

    private func insert(_ key: Key, _ mask: GlyphMask?) {
        state.withLock { s in
            // Another thread may have rendered the same glyph meanwhile; its mask is identical.
            if s.entries[key] != nil { return }
            s.clock &+= 1
            let cost = mask?.cost ?? 96
            s.entries[key] = Entry(mask: mask, lastUse: s.clock, cost: cost)
            s.bytes += cost
            if s.bytes > byteLimit { evict(&s) }
        }
    }

    private func evict(_ s: inout State) {
        let target = byteLimit / 4 * 3
        for (key, entry) in s.entries.sorted(by: { $0.value.lastUse < $1.value.lastUse }) {
            if s.bytes <= target { break }
            s.entries[key] = nil
            s.bytes -= entry.cost
            s.evictions += 1
        }
    }

    func removeAll() {
        state.withLock { s in
            s.entries.removeAll()
            s.bytes = 0
        }
        outlines.withLock { $0.removeAll() }
    }

    // MARK: Outlines

    /// Outlines kept for drawing under rotation and other transforms, in font units (size-independent).
    /// Bounded by count; the whole set is dropped when full (rotated text is the rare case).
    static let maxOutlines = 2048
    private let outlines = Mutex<[Key: GlyphOutline]>([:])

    /// The outline of `glyph` of `face` in font units, y up; nil when it cannot be loaded.
    func outline(face: FontFace, glyph: UInt32) -> GlyphOutline? {
        let key = Key(face: face.id, glyph: glyph, ppem64: 0, phase: 0)
        if let hit = outlines.withLock({ $0[key] }) { return hit }
        guard let outline = face.outline(of: glyph) else { return nil }
        outlines.withLock { o in
            if o.count >= GlyphCache.maxOutlines { o.removeAll() }
            o[key] = outline
        }
        return outline
    }

    package var statistics: GlyphCacheStatistics {
        state.withLock { s in
            GlyphCacheStatistics(entries: s.entries.count, bytes: s.bytes, byteLimit: byteLimit,
                                 hits: s.hits, misses: s.misses, evictions: s.evictions)
        }
    }
}

/// A snapshot of the shared glyph cache's counters (see ``TextLayout/glyphCacheStatistics``).
public struct GlyphCacheStatistics: Hashable, Sendable, CustomStringConvertible {
    /// Masks held.
    public let entries: Int
    /// Memory charged: mask bytes plus 96 bytes per entry.
    public let bytes: Int
    /// The bound on `bytes` (16 MiB).
    public let byteLimit: Int
    /// Lookups that found a mask, since the process started.
    public let hits: Int
    /// Lookups that rendered a mask, since the process started.
    public let misses: Int
    /// Entries dropped to stay under the bound, since the process started.
    public let evictions: Int

    public var description: String {
        "\(entries) glyphs, \(bytes) of \(byteLimit) bytes, \(hits) hits, \(misses) misses, \(evictions) evicted"
    }
}
