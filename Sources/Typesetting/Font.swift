/// A font: a family (found in the font directories) or a font file, at a size in points.
///
/// Creating a `Font` does no work; the file is found and opened when a ``TextLayout`` (or
/// ``metrics()``) first needs it, and stays open, shared by every layout and thread, for the life of the
/// process (up to `FontRegistry` limits). Errors surface there, as ``TypesettingError``.
///
/// Families are looked for, without fontconfig or network, in the directories listed in the environment
/// variable `SMOKESCREEN_FONT_PATH` (colon-separated), then in `/usr/share/fonts`,
/// `/usr/local/share/fonts`, `~/.local/share/fonts` and `~/.fonts`; a family is matched by the names
/// inside the font files (and the families this package relies on first by their Debian file names).
///
/// **The system font** (``system(size:weight:)``, ``preferredFont(forTextStyle:)``) stands in for iOS's
/// San Francisco: Inter (Debian `fonts-inter`, SIL OFL), "Inter" below 20 pt and "Inter Display" from
/// 20 pt (where SF switches from its Text to its Display design), with SF's tracking by size
/// (``systemTracking(forSize:)``); or SF Pro itself from a folder of its files a user has
/// (``useSystemFonts(inDirectory:)``, `SMOKESCREEN_SYSTEM_FONTS`).
///
/// **Fallback order.** A character is drawn from the first of these that has it: the font itself, then
/// ``fallbackFamilies`` in order — Noto Sans CJK JP (Debian `fonts-noto-cjk`: kana, kanji, CJK
/// punctuation; its Bold for weights from semibold up), then DejaVu Sans (`fonts-dejavu-core`: the last
/// resort, for symbols neither has, and for Hebrew and Arabic) — all at the same size, decided per
/// grapheme cluster before shaping. Spaces and punctuation right after text from a fallback stay in that
/// fallback when it has them, so a Japanese or Arabic phrase is shaped as one run. A character none of
/// them has draws as the font's own `.notdef` glyph (an empty box).
public struct Font: Hashable, Sendable, CustomStringConvertible {
    /// The weights of `UIFont.Weight`. A family is drawn with its file nearest to the weight asked for
    /// (by the CSS numbers of ``value``: a family with only regular and bold draws medium as regular,
    /// semibold and heavier as bold); there is no synthetic bold.
    public enum Weight: String, Hashable, Sendable, CaseIterable {
        case ultraLight, thin, light, regular, medium, semibold, bold, heavy, black

        /// The CSS / OpenType `usWeightClass` number: 100 (thin) to 900 (black).
        public var value: Int {
            switch self {
            case .thin: 100
            case .ultraLight: 200
            case .light: 300
            case .regular: 400
            case .medium: 500
            case .semibold: 600
            case .bold: 700
            case .heavy: 800
            case .black: 900
            }
        }

        /// Of `available`, the weight nearest to this one (the heavier on a tie); nil when it is empty.
        func nearest(in available: some Sequence<Weight>) -> Weight? {
            available.min { a, b in
                let da = abs(a.value - value), db = abs(b.value - value)
                return da != db ? da < db : a.value > b.value
            }
        }
    }

    /// Where the font comes from.
    public enum Source: Hashable, Sendable {
        /// A family name, matched case-insensitively against the fonts' own family names.
        case family(String, Weight)
        /// A font file (TrueType, OpenType, ...; face 0 of a collection).
        case file(String)
    }

    /// The family used by ``system(size:weight:)`` below ``systemDisplaySize``: Inter, in
    /// `/usr/share/fonts/opentype/inter` on Debian (`fonts-inter`), or SF Pro Text while a folder of SF
    /// Pro's files is in use (``useSystemFonts(inDirectory:)``).
    public static var systemFamily: String { systemFontsDirectory == nil ? "Inter" : sfProText }
    /// The family used by ``system(size:weight:)`` from ``systemDisplaySize`` up: Inter Display (same
    /// package), Inter's design for large sizes, as SF Pro Display is SF Pro Text's; or SF Pro Display.
    public static var systemDisplayFamily: String { systemFontsDirectory == nil ? "Inter Display" : sfProDisplay }
    /// From this size (points) the system font uses ``systemDisplayFamily``, as iOS switches SF Text to
    /// SF Display at 20 pt.
    public static let systemDisplaySize = 20.0
    /// The families that supply characters a font lacks, in the order they are tried: Noto Sans CJK JP
    /// (`NotoSansCJK-Regular.ttc` / `-Bold.ttc`, Debian `fonts-noto-cjk`), then DejaVu Sans
    /// (`fonts-dejavu-core`). One that is missing is skipped, with a warning on stderr once per process.
    public static let fallbackFamilies = ["Noto Sans CJK JP", "DejaVu Sans"]
    /// The first of ``fallbackFamilies``: the one that draws Japanese.
    public static var fallbackFamily: String { fallbackFamilies[0] }
    /// Point sizes accepted; others are an `invalidArgument` error when the font is used.
    public static let pointSizeRange: ClosedRange<Double> = 0.5...4096

    /// Where the font comes from: a family name or a file.
    public let source: Source
    /// The size in points (an em is this many points).
    public let pointSize: Double
    /// Space added after every glyph of this font, in thousandths of an em (Core Text's tracking): SF's
    /// table for the system font, 0 for any other font. Characters drawn from a fallback font get none.
    public let tracking: Double
    /// Made by ``system(size:weight:)``: ``withSize(_:)`` picks the family and tracking again.
    private let isSystem: Bool

    /// A family at `size` points, e.g. `Font(family: "DejaVu Sans", size: 17)`, with no tracking.
    public init(family: String, size: Double, weight: Weight = .regular) {
        self.init(source: .family(family, weight), size: size, tracking: 0, isSystem: false)
    }

    /// The font in the file at `path`, at `size` points, with no tracking.
    public init(file path: String, size: Double) {
        self.init(source: .file(path), size: size, tracking: 0, isSystem: false)
    }

    private init(source: Source, size: Double, tracking: Double, isSystem: Bool) {
        self.source = source
        pointSize = size
        self.tracking = tracking
        self.isSystem = isSystem
    }

    /// The system font at `size` points, like `UIFont.systemFont(ofSize:weight:)`: Inter (Inter Display
    /// from 20 pt) with SF's tracking for the size.
    public static func system(size: Double, weight: Weight = .regular) -> Font {
        Font(source: .family(size >= systemDisplaySize ? systemDisplayFamily : systemFamily, weight),
             size: size, tracking: systemTracking(forSize: size), isSystem: true)
    }

    /// ``system(size:weight:)`` in bold, like `UIFont.boldSystemFont(ofSize:)`.
    public static func boldSystem(size: Double) -> Font { system(size: size, weight: .bold) }

    /// The weight asked for (regular for a font given by file).
    public var weight: Weight {
        if case .family(_, let weight) = source { return weight }
        return .regular
    }

    /// The same font with `tracking` thousandths of an em added after each glyph instead of its own
    /// (`NSAttributedString.Key.tracking` gives points: thousandths = points / ``pointSize`` × 1000).
    /// With 0, glyphs sit exactly where HarfBuzz shapes them. ``withSize(_:)`` of the system font picks
    /// SF's tracking for the new size again.
    public func withTracking(_ tracking: Double) -> Font {
        Font(source: source, size: pointSize, tracking: tracking.isFinite ? tracking : 0, isSystem: isSystem)
    }

    /// The tracking in points added after each glyph: ``tracking`` / 1000 × ``pointSize``.
    public var trackingInPoints: Double { tracking / 1000 * pointSize }

    /// The same font at another size (the system font takes the family and tracking of the new size).
    public func withSize(_ size: Double) -> Font {
        if isSystem { return .system(size: size, weight: weight) }
        switch source {
        case .family(let name, let weight): return Font(family: name, size: size, weight: weight)
        case .file(let path): return Font(file: path, size: size)
        }
    }

    /// The font file this font resolves to (a family is looked up in the font directories).
    /// - Throws: ``TypesettingError`` (`familyNotFound`, `fileNotFound`, `unreadable`, `invalidFont`,
    ///   `invalidArgument` for a bad size).
    public func resolvedPath() throws(TypesettingError) -> String {
        try FontRegistry.shared.face(for: self).path
    }

    /// The font's vertical metrics at its size, in points.
    /// - Throws: as ``resolvedPath()``.
    public func metrics() throws(TypesettingError) -> FontMetrics {
        FontMetrics(face: try FontRegistry.shared.face(for: self), pointSize: pointSize)
    }

    public var description: String {
        switch source {
        case .family(let name, let weight): "\(name)\(weight == .regular ? "" : " \(weight.rawValue)") \(pointSize)pt"
        case .file(let path): "\(path) \(pointSize)pt"
        }
    }
}

/// Vertical metrics of a font at a size, in points, from the font's `hhea` table (ascender, descender,
/// line gap), as `UIFont` reports them.
public struct FontMetrics: Hashable, Sendable {
    /// Distance from the baseline to the top of the line box (positive).
    public let ascender: Double
    /// Distance from the baseline to the bottom of the line box (negative, as `UIFont.descender`).
    public let descender: Double
    /// Extra space the font asks for below each line (`hhea` line gap; 0 for Inter, DejaVu Sans and IPAGothic).
    public let leading: Double
    /// `ascender - descender + leading`: the height of one line of this font.
    public var lineHeight: Double { ascender - descender + leading }

    init(face: FontFace, pointSize: Double) {
        let perUnit = pointSize / Double(face.unitsPerEm)
        ascender = Double(face.ascender) * perUnit
        descender = -Double(face.descender) * perUnit
        leading = Double(face.lineGap) * perUnit
    }
}
