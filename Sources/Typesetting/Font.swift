/// A font: a family (found in the font directories) or a font file, at a size in points.
///
/// Creating a `Font` does no work; the file is found and opened when a ``TextLayout`` (or
/// ``metrics()``) first needs it, and stays open, shared by every layout and thread, for the life of the
/// process (up to `FontRegistry` limits). Errors surface there, as ``TypesettingError``.
///
/// Families are looked for, without fontconfig or network, in the directories listed in the environment
/// variable `SMOKESCREEN_FONT_PATH` (colon-separated), then in `/usr/share/fonts`,
/// `/usr/local/share/fonts`, `~/.local/share/fonts` and `~/.fonts`; a family is matched by the names
/// inside the font files (and the default families first by their Debian file names).
///
/// Characters the font lacks are drawn with the fallback family ``fallbackFamily`` (IPAGothic, for
/// Japanese), at the same size.
public struct Font: Hashable, Sendable, CustomStringConvertible {
    /// Regular or bold. A family without a bold file is drawn with its regular file (no synthetic bold).
    public enum Weight: String, Hashable, Sendable {
        /// DejaVu Sans (or the family's regular face).
        case regular
        /// DejaVu Sans Bold (or the family's bold face).
        case bold
    }

    /// Where the font comes from.
    public enum Source: Hashable, Sendable {
        /// A family name, matched case-insensitively against the fonts' own family names.
        case family(String, Weight)
        /// A font file (TrueType, OpenType, ...; face 0 of a collection).
        case file(String)
    }

    /// The family used by ``system(size:weight:)``: DejaVu Sans, in `/usr/share/fonts/truetype/dejavu`
    /// on Debian (`fonts-dejavu-core`).
    public static let systemFamily = "DejaVu Sans"
    /// The family that supplies characters the font lacks: IPAGothic (`ipag.ttf`, Debian
    /// `fonts-ipafont-gothic`). When it is missing, a warning is written to stderr once and such characters
    /// draw as the primary font's `.notdef` glyph (an empty box).
    public static let fallbackFamily = "IPAGothic"
    /// Point sizes accepted; others are an `invalidArgument` error when the font is used.
    public static let pointSizeRange: ClosedRange<Double> = 0.5...4096

    /// Where the font comes from: a family name or a file.
    public let source: Source
    /// The size in points (an em is this many points).
    public let pointSize: Double

    /// A family at `size` points, e.g. `Font(family: "DejaVu Sans", size: 17)`.
    public init(family: String, size: Double, weight: Weight = .regular) {
        source = .family(family, weight)
        pointSize = size
    }

    /// The font in the file at `path`, at `size` points.
    public init(file path: String, size: Double) {
        source = .file(path)
        pointSize = size
    }

    /// The default family (``systemFamily``) at `size` points, like `UIFont.systemFont(ofSize:)`.
    public static func system(size: Double, weight: Weight = .regular) -> Font {
        Font(family: systemFamily, size: size, weight: weight)
    }

    /// ``system(size:weight:)`` in bold, like `UIFont.boldSystemFont(ofSize:)`.
    public static func boldSystem(size: Double) -> Font { system(size: size, weight: .bold) }

    /// The same font at another size.
    public func withSize(_ size: Double) -> Font {
        switch source {
        case .family(let name, let weight): Font(family: name, size: size, weight: weight)
        case .file(let path): Font(file: path, size: size)
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
        case .family(let name, let weight): "\(name)\(weight == .bold ? " Bold" : "") \(pointSize)pt"
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
    /// Extra space the font asks for below each line (`hhea` line gap; 0 for DejaVu Sans and IPAGothic).
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
