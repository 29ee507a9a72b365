#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Synchronization

/// The process-wide set of open fonts, shared by all threads.
///
/// Faces are opened once and kept, at most ``maxFaces`` of them (the oldest is dropped from the registry
/// beyond that; layouts that still hold it keep it alive). Family names are resolved to files once. A
/// failed load is not remembered, so a font installed later is found on the next try.
final class FontRegistry: Sendable {
    static let shared = FontRegistry()
    /// Open faces kept by the registry.
    static let maxFaces = 32

    private struct State {
        var faces: [String: FontFace] = [:]
        var loadOrder: [String] = []
        var familyPaths: [Font.Source: String] = [:]
        var index: [FontLocator.IndexedFont]?
        /// nil: not resolved yet; .some(nil): resolved, missing.
        var fallback: FontFace??
        /// Why the fallback is missing, as warned.
        var fallbackProblem: String?
    }

    private let state = Mutex(State())
    /// Replaces the lookup of ``Font/fallbackFamily`` by this file (tests use a missing one).
    private let fallbackFile: String?

    init(fallbackFile: String? = nil) { self.fallbackFile = fallbackFile }

    /// The face for `font`, opened if needed.
    func face(for font: Font) throws(TypesettingError) -> FontFace {
        guard font.pointSize.isFinite, Font.pointSizeRange.contains(font.pointSize) else {
            throw TypesettingError(kind: .invalidArgument, file: nil,
                                   reason: "point size \(font.pointSize) outside \(Font.pointSizeRange)")
        }
        return try face(for: font.source)
    }

    func face(for source: Font.Source) throws(TypesettingError) -> FontFace {
        // Loading under the lock keeps two threads from opening the same file twice; it happens once per
        // font per process.
        try state.withLock { s throws(TypesettingError) -> FontFace in
            let path: String
            switch source {
            case .file(let p): path = p
            case .family(let name, let weight):
                if let known = s.familyPaths[source] {
                    path = known
                } else {
                    let located = FontLocator.locate(family: name, weight: weight) {
                        if s.index == nil { s.index = FontLocator.scan() }
                        return s.index!
                    }
                    guard let located else {
                        throw TypesettingError(kind: .familyNotFound, file: nil, reason:
                            "'\(name)' (\(weight.rawValue)) in \(FontLocator.directories().joined(separator: ", ")); set \(FontLocator.environmentVariable) to add directories")
                    }
                    s.familyPaths[source] = located
                    path = located
                }
            }
            return try Self.load(path, into: &s)
        }
    }

    private static func load(_ path: String, into s: inout State) throws(TypesettingError) -> FontFace {
        if let face = s.faces[path] { return face }
        let face = try FontFace(path: path)
        if s.loadOrder.count >= maxFaces {
            let oldest = s.loadOrder.removeFirst()
            s.faces[oldest] = nil
        }
        s.faces[path] = face
        s.loadOrder.append(path)
        return face
    }

    /// The fallback face (``Font/fallbackFamily``), or nil when it cannot be found or opened. It is looked
    /// for once; when it is missing, a warning goes to stderr that one time.
    func fallbackFace() -> FontFace? {
        state.withLock { s -> FontFace? in
            if let resolved = s.fallback { return resolved }
            var face: FontFace?
            var problem = ""
            let path = fallbackFile ?? FontLocator.locate(family: Font.fallbackFamily, weight: .regular) {
                if s.index == nil { s.index = FontLocator.scan() }
                return s.index!
            }
            if let path {
                do throws(TypesettingError) {
                    face = try Self.load(path, into: &s)
                } catch {
                    problem = error.description
                }
            } else {
                problem = "family '\(Font.fallbackFamily)' not found (Debian package fonts-ipafont-gothic)"
            }
            if face == nil {
                s.fallbackProblem = problem
                let text = "warning: Typesetting: no fallback font: \(problem); characters missing from the font draw as its .notdef glyph\n"
                text.utf8CString.withUnsafeBufferPointer { _ = write(2, $0.baseAddress, $0.count - 1) }
            }
            s.fallback = .some(face)
            return face
        }
    }

    /// Why the fallback font is missing, once ``fallbackFace()`` has looked for it; nil while it has not
    /// or when it was found.
    var fallbackProblem: String? { state.withLock { $0.fallbackProblem } }
}
