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
/// `~/.local/share/fonts` and `~/.fonts`, each recursively. The families this package relies on are first
/// looked for by their Debian file names (`Inter-Regular.otf`, `NotoSansCJK-Regular.ttc`, `DejaVuSans.ttf`,
/// ...) in Debian's directories, which needs no font to be opened; any other family is matched against the family and style names inside the font
/// files, read once per process. The scan is bounded (``maxDepth``, ``maxEntries``, ``maxFontFiles``) so
/// a huge or looping directory tree cannot hang it.
package enum FontLocator {
    /// Extra font directories, colon-separated, searched before the system ones.
    package static let environmentVariable = "SMOKESCREEN_FONT_PATH"
    static let maxDepth = 8
    static let maxEntries = 50_000
    static let maxFontFiles = 4_000

    /// File names of the families this package relies on, by lowercased family name and weight. A
    /// weight the table lacks uses the nearest one it has (``Font/Weight/nearest(in:)``).
    static let knownFiles: [String: [Font.Weight: [String]]] = [
        "inter": interFiles(prefix: "Inter"),
        "inter display": interFiles(prefix: "InterDisplay"),
        // Debian's collections hold JP, KR, SC, TC, HK; face 0 is JP. Google's per-language files too.
        "noto sans cjk jp": [.regular: ["NotoSansCJK-Regular.ttc", "NotoSansCJKjp-Regular.otf"],
                             .bold: ["NotoSansCJK-Bold.ttc", "NotoSansCJKjp-Bold.otf"]],
        "dejavu sans": [.regular: ["DejaVuSans.ttf"], .bold: ["DejaVuSans-Bold.ttf"]],
        "dejavu sans mono": [.regular: ["DejaVuSansMono.ttf"], .bold: ["DejaVuSansMono-Bold.ttf"]],
        "dejavu serif": [.regular: ["DejaVuSerif.ttf"], .bold: ["DejaVuSerif-Bold.ttf"]],
        "ipagothic": [.regular: ["ipag.ttf"]],
        "ipapgothic": [.regular: ["ipagp.ttf"]],
    ]

    /// Inter's static files (Debian `fonts-inter` ships OpenType CFF files; the TrueType names are
    /// Inter's own releases).
    private static func interFiles(prefix: String) -> [Font.Weight: [String]] {
        let styles: [(Font.Weight, String)] = [
            (.thin, "Thin"), (.ultraLight, "ExtraLight"), (.light, "Light"), (.regular, "Regular"),
            (.medium, "Medium"), (.semibold, "SemiBold"), (.bold, "Bold"), (.heavy, "ExtraBold"), (.black, "Black"),
        ]
        var files: [Font.Weight: [String]] = [:]
        for (weight, style) in styles { files[weight] = ["\(prefix)-\(style).otf", "\(prefix)-\(style).ttf"] }
        return files
    }

    /// The Debian package of each known family, named in errors and warnings.
    static let packages: [String: String] = [
        "inter": "fonts-inter", "inter display": "fonts-inter", "noto sans cjk jp": "fonts-noto-cjk",
        "dejavu sans": "fonts-dejavu-core", "dejavu sans mono": "fonts-dejavu-core", "dejavu serif": "fonts-dejavu-core",
        "ipagothic": "fonts-ipafont-gothic", "ipapgothic": "fonts-ipafont-gothic",
    ]

    /// Where Debian puts them, tried before any scan.
    static let knownDirectories = [
        "/usr/share/fonts/opentype/inter",
        "/usr/share/fonts/truetype/inter",
        "/usr/share/fonts/opentype/noto",
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
        // SF Pro from the folder in use, by Apple's file names: the weight nearest to the one asked for
        // among the files there.
        if key == Font.sfProText.lowercased() || key == Font.sfProDisplay.lowercased(), let directory = SystemFonts.directory() {
            let files = SystemFonts.files(in: directory, design: key == Font.sfProText.lowercased() ? "Text" : "Display")
            if let nearest = weight.nearest(in: files.keys), let path = files[nearest] { return path }
        }
        if let known = knownFiles[key], let nearest = weight.nearest(in: known.keys), let names = known[nearest] {
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
            guard let score = score(font, family: key, bold: weight.value >= Font.Weight.semibold.value) else { continue }
            if best == nil || score < best!.score { best = (score, font.path) }
        }
        return best?.path
    }

    /// What to say about a family that was not found: where it was looked for, its Debian package when
    /// known, and how to add directories.
    package static func notFoundReason(family: String, weight: Font.Weight) -> String {
        let package = packages[family.lowercased()].map { " (Debian package \($0))" } ?? ""
        return "'\(family)' (\(weight.rawValue))\(package) in \(directories().joined(separator: ", ")); set \(environmentVariable) to add directories"
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
