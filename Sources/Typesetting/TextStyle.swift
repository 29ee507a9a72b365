import RasterCore

/// Horizontal placement of each line in the layout's width, as `NSTextAlignment`.
public enum TextAlignment: String, Hashable, Sendable, CaseIterable {
    /// Lines start at the left edge.
    case left
    /// Lines are centred.
    case center
    /// Lines end at the right edge.
    case right
    /// The paragraph's leading edge: left, or right when its first strong character is right to left
    /// (Hebrew, Arabic; UAX #9 rules P2–P3), as with `NSWritingDirection.natural`.
    case natural
}

/// How lines are broken and how the last visible line ends when the text does not fit, as
/// `NSLineBreakMode` in a `UILabel`.
///
/// Lines always wrap at the break opportunities of Unicode's line breaking algorithm (UAX #14, by ICU:
/// after spaces and hyphens, between CJK characters except where kinsoku forbids it) except with
/// ``byCharWrapping``; a word wider than the line is broken between characters.
/// The mode decides what happens on the last line allowed by `numberOfLines` or by the height, when text
/// remains after it.
public enum LineBreakMode: String, Hashable, Sendable, CaseIterable {
    /// Wrap at word boundaries; the rest of the text after the last line is not shown.
    case byWordWrapping
    /// Wrap at any character (no word or kinsoku rules); the rest is not shown.
    case byCharWrapping
    /// Wrap at word boundaries; the last line holds the rest of its paragraph and is cut at the
    /// layout's width (glyphs straddling the edge are clipped when drawn).
    case byClipping
    /// The last line shows the end of its paragraph after an ellipsis: "…end of the text".
    case byTruncatingHead
    /// The last line shows as much of its paragraph as fits before an ellipsis: "The start of the…"
    /// (the `UILabel` default).
    case byTruncatingTail
    /// The last line keeps its start and end around an ellipsis: "The start…the text".
    case byTruncatingMiddle
}

/// Everything about how a text looks and is laid out, with `UILabel`'s defaults.
public struct TextStyle: Hashable, Sendable {
    /// Default `.system(size: 17)` (Inter 17 pt, as `UILabel`'s 17 pt system font).
    public var font: Font
    /// Default black. Drawing can override it.
    public var color: Color
    /// Default ``TextAlignment/natural`` (left, or right for a right-to-left paragraph).
    public var alignment: TextAlignment
    /// The most lines shown; 0 means no limit. Default 1, like `UILabel`. Negative counts as 0.
    public var numberOfLines: Int
    /// Default ``LineBreakMode/byTruncatingTail``, like `UILabel`.
    public var lineBreakMode: LineBreakMode
    /// Points added between lines (not above the first or below the last), like
    /// `NSParagraphStyle.lineSpacing`. Default 0; negative or NaN counts as 0.
    public var lineSpacing: Double

    /// A style with UILabel's defaults: 17 pt system font, black, natural alignment, one line, tail truncation, no extra line spacing.
    public init(font: Font = .system(size: 17), color: Color = .black, alignment: TextAlignment = .natural,
                numberOfLines: Int = 1, lineBreakMode: LineBreakMode = .byTruncatingTail, lineSpacing: Double = 0) {
        self.font = font
        self.color = color
        self.alignment = alignment
        self.numberOfLines = numberOfLines
        self.lineBreakMode = lineBreakMode
        self.lineSpacing = lineSpacing
    }
}
