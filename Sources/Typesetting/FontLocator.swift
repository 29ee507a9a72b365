#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CFreeType

/// Finds font files for family names without fontconfig and without the network.
///
/// Directories searched, in order: those listed in the environment variable ``environmentVariable``
/// (colon-separated, like `PATH`), then `/usr/share/fonts`, `/usr/local/share/fonts`,
/// `~/.local/share/fonts` and `~/.fonts`, each recursively. The default families are first looked for
/// by their Debian file names (`DejaVuSans.ttf`, `DejaVuSans-Bold.ttf`, `ipag.ttf`, ...), which needs no
/// font to be opened; any other family is matched against the family and style names inside the font
/// files, read once per process. The scan is bounded (``maxDepth``, ``maxEntries``, ``maxFontFiles``) so
/// a huge or looping directory tree cannot hang it.
enum FontLocator {
    /// Extra font directories, colon-separated, searched before the system ones.
    static let environmentVariable = "SMOKESCREEN_FONT_PATH"
    static let maxDepth = 8
    static let maxEntries = 50_000
    static let maxFontFiles = 4_000

    /// File names of the families this package relies on, by lowercased family name: regular, bold.
    static let knownFiles: [String: (regular: [String], bold: [String])] = [
        "dejavu sans": (["DejaVuSans.ttf"], ["DejaVuSans-Bold.ttf"]),
        "dejavu sans mono": (["DejaVuSansMono.ttf"], ["DejaVuSansMono-Bold.ttf"]),
        "dejavu serif": (["DejaVuSerif.ttf"], ["DejaVuSerif-Bold.ttf"]),
        "ipagothic": (["ipag.ttf"], []),
        "ipapgothic": (["ipagp.ttf"], []),
    ]

    /// Where Debian puts them, tried before any scan.
    static let knownDirectories = [
        "/usr/share/fonts/truetype/dejavu",
        "/usr/share/fonts/opentype/ipafont-gothic",
        "/usr/share/fonts/truetype/ipafont-gothic",
    ]

    /// The directories listed in ``environmentVariable``.
    static func environmentDirectories() -> [String] {
        guard let raw = getenv(environmentVariable) else { return [] }
        return String(cString: raw).split(separator: ":").map(String.init)
    }

    /// The font directories in search order.
    static func directories() -> [String] {
        var dirs = environmentDirectories() + ["/usr/share/fonts", "/usr/local/share/fonts"]
        if let home = getenv("HOME").map({ String(cString: $0) }), !home.isEmpty {
            dirs += [home + "/.local/share/fonts", home + "/.fonts"]
        }
        return dirs
    }

    /// The file for `family` in `weight`, or nil. `index` supplies the scanned font files when the file
    /// names of ``knownFiles`` do not find it.
    static func locate(family: String, weight: Font.Weight, index: () -> [IndexedFont]) -> String? {
        let key = family.lowercased()
        if let known = knownFiles[key] {
            // A family without a bold file uses its regular one.
            let names = weight == .bold && !known.bold.isEmpty ? known.bold : known.regular
            for dir in environmentDirectories() + knownDirectories {
                for name in names where isFile(dir + "/" + name) { return dir + "/" + name }
            }
            for name in names {
                if let hit = index().first(where: { $0.fileName == name }) { return hit.path }
            }
        }
        // Best match: family names equal (or the family plus leading style words equal, as "DejaVu Sans"
        // + "Condensed"), then the weight asked for, then no other style words (italic, light, ...).
        var best: (score: Int, path: String)?
        for font in index() {
            guard let score = score(font, family: key, bold: weight == .bold) else { continue }
            if best == nil || score < best!.score { best = (score, font.path) }
        }
        return best?.path
    }

    private static let weightWords: Set<String> = ["regular", "book", "roman", "normal", "medium"]

    /// Lower is better; nil when the family does not match.
    static func score(_ font: IndexedFont, family key: String, bold: Bool) -> Int? {
        let words = font.style.lowercased().split(separator: " ").map(String.init)
        var extra: [String]?
        var name = font.family.lowercased()
        if name == key { extra = words }
        for k in words.indices where extra == nil {
            name += " " + words[k]
            if name == key { extra = Array(words[(k + 1)...]) }
        }
        guard let extra else { return nil }
        let isBold = extra.contains("bold")
        let others = extra.filter { $0 != "bold" && !weightWords.contains($0) }
        return (others.isEmpty ? 0 : 10) + (isBold == bold ? 0 : 5)
    }

    /// A font file found by the scan, with the names inside it.
    struct IndexedFont: Sendable {
        var path: String
        var fileName: String
        var family: String
        var style: String
    }

    /// Every font file under the font directories with its family and style names (face 0), in search
    /// order. Opens each file with FreeType once; call it at most once per process.
    static func scan() -> [IndexedFont] {
        var library: FT_Library?
        guard FT_Init_FreeType(&library) == 0, let library else { return [] }
        defer { FT_Done_FreeType(library) }
        var found: [IndexedFont] = []
        var seen = Set<String>()
        var budget = maxEntries
        for dir in directories() {
            walk(dir, depth: 0, budget: &budget) { path, name in
                guard found.count < maxFontFiles, !seen.contains(path) else { return }
                seen.insert(path)
                var face: FT_Face?
                guard FT_New_Face(library, path, 0, &face) == 0, let face else { return }
                defer { FT_Done_Face(face) }
                let family = face.pointee.family_name.map { String(cString: $0) } ?? ""
                let style = face.pointee.style_name.map { String(cString: $0) } ?? ""
                found.append(IndexedFont(path: path, fileName: name, family: family, style: style))
            }
        }
        return found
    }

    private static let fontExtensions: Set<String> = ["ttf", "otf", "ttc", "otc"]

    /// Calls `body` for each font file under `dir` in name order (deterministic), within the budget.
    private static func walk(_ dir: String, depth: Int, budget: inout Int, _ body: (String, String) -> Void) {
        guard depth <= maxDepth, budget > 0, let handle = opendir(dir) else { return }
        var names: [(String, Bool)] = []
        while budget > 0, let entry = readdir(handle) {
            budget -= 1
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.baseAddress!.assumingMemoryBound(to: CChar.self))
            }
            if name == "." || name == ".." || name.hasPrefix(".") { continue }
            let type = entry.pointee.d_type
            // Symbolic links to directories are not followed, so a link loop cannot recurse.
            names.append((name, type == UInt8(DT_DIR)))
        }
        closedir(handle)
        for (name, isDir) in names.sorted(by: { $0.0 < $1.0 }) {
            let path = dir + "/" + name
            if isDir {
                walk(path, depth: depth + 1, budget: &budget, body)
            } else if let ext = name.split(separator: ".").last, fontExtensions.contains(ext.lowercased()) {
                body(path, name)
            }
        }
    }

    static func isFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    }
}
