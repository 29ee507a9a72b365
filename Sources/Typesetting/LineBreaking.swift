/// What a character does at a line's edge: whether it hangs past the end (spaces), has no glyph, or
/// ends the paragraph. Where lines may break is ICU's answer (UAX #14, `LineBuilder.findBreaks`); the
/// kinsoku cases below document the classes of punctuation that answer keeps off a line's start or end.
enum BreakClass: UInt8 {
    /// Letters, digits and most symbols: no break between two of them.
    case ordinary
    /// A breakable space: the line may break after it, and it hangs past the line's end (its width does
    /// not count and it never makes a line overflow).
    case space
    /// No glyph and no width, but a break opportunity after it (U+200B, the soft hyphen U+00AD).
    case zeroWidthBreak
    /// No glyph and no width, no break opportunity (joiners, variation selectors, controls, ...).
    case ignorable
    /// Chinese and Japanese characters: breaks are allowed before and after each one.
    case ideographic
    /// Never starts a line: closing brackets and punctuation, small kana, the prolonged sound mark,
    /// iteration marks (行頭禁則), and Latin closing punctuation.
    case closing
    /// Never ends a line: opening brackets and quotes (行末禁則).
    case opening
    /// Breaks after it when it follows a letter or digit and precedes a letter (e.g. "well-known").
    case hyphen
    /// Never breaks on either side: no-break spaces and the word joiner.
    case glue
    /// Ends the paragraph.
    case newline
}

extension BreakClass {
    /// The class of a grapheme cluster, from its first scalar. `cjk` tells whether the cluster is
    /// Chinese or Japanese (ideographs, kana, CJK punctuation, full-width forms): such clusters allow
    /// breaks around them unless a kinsoku rule forbids it.
    static func of(_ character: Character) -> (BreakClass, cjk: Bool) {
        if character.isNewline { return (.newline, false) }
        let scalar = character.unicodeScalars.first!
        let v = scalar.value
        let cjk = isCJK(v)
        if let special = special[v] { return (special, cjk) }
        switch v {
        case 0x20, 0x09, 0x1680, 0x2000...0x2006, 0x2008...0x200A, 0x205F, 0x3000: return (.space, cjk)
        case 0xA0, 0x202F, 0x2007, 0x2060, 0xFEFF: return (.glue, false)
        case 0x200B, 0xAD: return (.zeroWidthBreak, false)
        case 0x00...0x1F, 0x7F...0x9F, 0x200C...0x200F, 0x202A...0x202E, 0x2061...0x206F,
             0xFE00...0xFE0F, 0xE0000...0xE0FFF, 0x034F:
            return (.ignorable, false)
        default: return (cjk ? .ideographic : .ordinary, cjk)
        }
    }

    /// Chinese and Japanese scripts and their punctuation. Hangul is not included: Korean breaks at spaces.
    static func isCJK(_ v: UInt32) -> Bool {
        switch v {
        case 0x2E80...0x2FDF,    // CJK radicals, Kangxi radicals
             0x2FF0...0x303F,    // ideographic description, CJK symbols and punctuation
             0x3040...0x30FF,    // hiragana, katakana
             0x3100...0x312F, 0x3190...0x31FF,  // bopomofo, kanbun, CJK strokes, katakana extension
             0x3200...0x33FF,    // enclosed CJK letters, CJK compatibility
             0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF,  // ideographs
             0xFE30...0xFE4F,    // CJK compatibility forms
             0xFF00...0xFFEF,    // full-width and half-width forms
             0x1B000...0x1B16F,  // kana supplement and extension
             0x20000...0x3134F:  // ideographs, supplementary planes
            return true
        default:
            return false
        }
    }

    /// Punctuation with a kinsoku role, and hyphens.
    private static let special: [UInt32: BreakClass] = {
        var table: [UInt32: BreakClass] = [:]
        // Not at the start of a line: Japanese closing brackets and punctuation, small kana, prolonged
        // sound mark, iteration marks; then their Latin counterparts and "…", which Unicode keeps with
        // what precedes it.
        let closing = "、。，．・：；？！゛゜ヽヾゝゞ々〻ー）］｝」』】〕〉》〙〗〟｠｡｣､･ｰ"
            + "ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶㇰㇱㇲㇳㇴㇵㇶㇷㇸㇹㇺㇻㇼㇽㇾㇿｧｨｩｪｫｬｭｮｯ"
            + "゠〜～‼⁇⁈⁉" + ")]}!?,.:;%’”»›…‥"
        for s in closing.unicodeScalars { table[s.value] = .closing }
        // Not at the end of a line.
        let opening = "（［｛「『【〔〈《〘〖〝｟｢" + "([{‘“«‹¿¡"
        for s in opening.unicodeScalars { table[s.value] = .opening }
        for s in "-\u{2010}\u{2013}".unicodeScalars { table[s.value] = .hyphen }
        return table
    }()
}
