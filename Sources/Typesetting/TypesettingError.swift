/// Why a font could not be used or a text could not be laid out.
///
/// `description` reads like `/tmp/x.ttf: not a font FreeType can read (unknown file format)`.
public struct TypesettingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The category of failure.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// The font file does not exist.
        case fileNotFound
        /// The font file exists but cannot be opened or read (permissions, a directory, an I/O error).
        case unreadable
        /// The file is not a font FreeType can read, or the font is unusable (not scalable, no Unicode
        /// character map, no glyphs, bad metrics).
        case invalidFont
        /// No font file of the requested family and weight was found in the font directories.
        case familyNotFound
        /// A parameter is out of range: a point size or width that is NaN, a point size outside
        /// `Font.pointSizeRange`, a text longer than `TextLayout.maxTextBytes`.
        case invalidArgument
    }

    /// The category of failure.
    public let kind: Kind
    /// The font file concerned (as given, or as found for a family); nil when no file is involved
    /// (a family that was not found, a bad argument).
    public let file: String?
    /// What went wrong, in words.
    public let reason: String

    /// An error of `kind` about `file` (nil when no file is involved).
    public init(kind: Kind, file: String?, reason: String) {
        self.kind = kind
        self.file = file
        self.reason = reason
    }

    public var description: String {
        let detail: String
        switch kind {
        case .fileNotFound: detail = "font file not found (\(reason))"
        case .unreadable: detail = "cannot read font file: \(reason)"
        case .invalidFont: detail = "not a font FreeType can use (\(reason))"
        case .familyNotFound: detail = "font family not found: \(reason)"
        case .invalidArgument: detail = "invalid argument: \(reason)"
        }
        return file.map { "\($0): \(detail)" } ?? detail
    }
}
