import Synchronization

/// Texts already analyzed (clusters, fonts, break opportunities, levels, shaped glyphs), shared by all
/// threads, so that a label laid out again — a table redrawing its visible cells every frame, a label
/// measured then drawn — is not shaped again.
///
/// Keyed by text and font (family or file, weight, size, tracking) and the primary face's identity.
/// The width is not in the key: shaping and break opportunities do not depend on it, only the filling
/// of lines does, and that is redone for every layout. Texts longer than ``maxTextBytes`` are not kept.
/// At ``maxEntries`` the cache is emptied (a simple bound: a frame's labels are a few dozen).
package final class ShapedTextCache: Sendable {
    static let shared = ShapedTextCache()
    /// Entries kept before the cache is emptied.
    static let maxEntries = 2048
    /// The longest text kept, in UTF-8 bytes.
    static let maxTextBytes = 2048

    struct Key: Hashable, Sendable {
        var text: String
        var font: Font
        var face: Int
    }

    private let entries = Mutex<[Key: LineBuilder.Analysis]>([:])

    func analysis(for key: Key) -> LineBuilder.Analysis? {
        guard key.text.utf8.count <= Self.maxTextBytes else { return nil }
        return entries.withLock { $0[key] }
    }

    func store(_ analysis: LineBuilder.Analysis, for key: Key) {
        guard key.text.utf8.count <= Self.maxTextBytes else { return }
        entries.withLock {
            if $0.count >= Self.maxEntries { $0.removeAll(keepingCapacity: true) }
            $0[key] = analysis
        }
    }

    /// Empties the cache (layouts do not change; only their cost).
    func removeAll() { entries.withLock { $0.removeAll() } }
}
