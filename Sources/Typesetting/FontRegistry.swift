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
package final class FontRegistry: Sendable {
    package static let shared = FontRegistry()
    /// Open faces kept by the registry.
    static let maxFaces = 32

    private struct State {
        var faces: [String: FontFace] = [:]
        var loadOrder: [String] = []
        var familyPaths: [Font.Source: String] = [:]
        var index: [FontLocator.IndexedFont]?
        /// The fallback chain per weight class (regular, bold), once resolved.
        var fallbacks: [Bool: [FontFace]] = [:]
        /// Why a fallback is missing, as warned (the first problem).
        var fallbackProblem: String?
        /// Fallback families already warned about.
        var warned: Set<String> = []
    }

    private let state = Mutex(State())
    /// Replaces the lookup of the first of ``Font/fallbackFamilies`` by this file (tests use a missing one).
    private let fallbackFile: String?

    package init(fallbackFile: String? = nil) { self.fallbackFile = fallbackFile }

    /// The face for `font`, opened if needed.
    package func face(for font: Font) throws(TypesettingError) -> FontFace {
        guard font.pointSize.isFinite, Font.pointSizeRange.contains(font.pointSize) else {
            throw TypesettingError(kind: .invalidArgument, file: nil,
                                   reason: "point size \(font.pointSize) outside \(Font.pointSizeRange)")
        }
        return try face(for: font.source)
    }

    package func face(for source: Font.Source) throws(TypesettingError) -> FontFace {
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
                        throw TypesettingError(kind: .familyNotFound, file: nil,
                                               reason: FontLocator.notFoundReason(family: name, weight: weight))
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

    /// Forgets the files found for families (not the faces open): the system font's folder changed.
    func forgetFamilyPaths() {
        state.withLock { $0.familyPaths = [:] }
    }

    /// The fallback faces for text of `weight`, in ``Font/fallbackFamilies`` order (their bold files
    /// for semibold and heavier): those that can be found and opened. Each chain is looked for once; a
    /// family that is missing is left out, with a warning to stderr the first time.
    package func fallbackFaces(weight: Font.Weight = .regular) -> [FontFace] {
        let bold = weight.value >= Font.Weight.semibold.value
        return state.withLock { s -> [FontFace] in
            if let resolved = s.fallbacks[bold] { return resolved }
            var faces: [FontFace] = []
            for (k, family) in Font.fallbackFamilies.enumerated() {
                let fallbackWeight: Font.Weight = bold ? .bold : .regular
                var problem = ""
                let path = k == 0 && fallbackFile != nil ? fallbackFile : FontLocator.locate(family: family, weight: fallbackWeight) {
                    if s.index == nil { s.index = FontLocator.scan() }
                    return s.index!
                }
                if let path {
                    do throws(TypesettingError) {
                        faces.append(try Self.load(path, into: &s))
                        continue
                    } catch {
                        problem = error.description
                    }
                } else {
                    problem = "family " + FontLocator.notFoundReason(family: family, weight: fallbackWeight)
                }
                if s.fallbackProblem == nil { s.fallbackProblem = problem }
                if s.warned.insert(family).inserted {
                    let text = "warning: Typesetting: fallback font missing: \(problem); characters only it has draw as the next fallback's glyphs, or as the font's .notdef\n"
                    text.utf8CString.withUnsafeBufferPointer { _ = write(2, $0.baseAddress, $0.count - 1) }
                }
            }
            s.fallbacks[bold] = faces
            return faces
        }
    }

    /// Why a fallback font is missing (the first one missing), once ``fallbackFaces(weight:)`` has looked
    /// for them; nil while it has not or when all were found.
    package var fallbackProblem: String? { state.withLock { $0.fallbackProblem } }
}
