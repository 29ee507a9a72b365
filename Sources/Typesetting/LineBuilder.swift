import CUnicodeShim

/// Turns a string into clusters with glyphs and advances, then into lines: greedy filling at break
/// opportunities, and the last line's truncation. All positions are in points at the font's size; no
/// pixel scale enters, so the same text breaks the same way at @1x, @2x and @3x.
///
/// The analysis runs in this order: grapheme clusters, a font per cluster (fallback decided before
/// shaping), break opportunities (ICU, UAX #14), embedding levels (ICU, UAX #9; only for text with a
/// right-to-left character or a bidi control), then each run of clusters with one font and one level
/// shaped by HarfBuzz. A glyph belongs to the cluster HarfBuzz says it draws; a ligature over several
/// clusters belongs to the first, and the others have no glyph and no width.
package struct LineBuilder {
    /// One grapheme cluster (a `Character`) of the text.
    struct Cluster {
        var start: String.Index
        var end: String.Index
        /// The UTF-16 offset of `start`.
        var utf16: Int
        var kind: BreakClass
        var cjk: Bool
        /// Index into `LineBuilder.faces`.
        var font: UInt8
        /// The cluster's glyphs are `glyphs[glyphStart..<glyphEnd]`, left to right.
        var glyphStart: Int
        var glyphEnd: Int
        /// The sum of its glyphs' advances, in points (kerning and tracking included).
        var advance: Double
        /// A line may start at this cluster (a break opportunity before it).
        var breakBefore: Bool
        /// The UAX #9 embedding level: odd is right to left.
        var level: UInt8
        /// The level of the cluster's paragraph: 1 when its first strong character is right to left.
        var paragraphLevel: UInt8
    }

    /// A glyph of a cluster: `x` points from the cluster's left edge, `y` points above the baseline.
    struct ClusterGlyph {
        var id: UInt32
        var x: Double
        var y: Double
        /// How far it moves the pen, in points.
        var advance: Double
    }

    /// What one line shows, in logical order.
    enum Piece: Equatable {
        case clusters(Range<Int>)
        case ellipsis
    }

    /// A line before placement.
    struct Record {
        var pieces: [Piece]
        /// Clusters `covered` of the text belong to this line (for its `range`), even those hidden by a
        /// middle truncation.
        var covered: Range<Int>
        var truncated = false
        /// The line runs past the layout's width and is clipped when drawn (``LineBreakMode/byClipping``).
        var clipped = false
    }

    /// The analysis of a text in one font, independent of the width: what ``ShapedTextCache`` keeps.
    struct Analysis: Sendable {
        var faces: [FontFace]
        var perUnit: [Double]
        var fallbackResolved: Bool
        var clusters: [Cluster]
        var glyphs: [ClusterGlyph]
    }

    let text: String
    let style: TextStyle
    /// The width lines are filled to, in points (may be infinite).
    let width: Double
    private(set) var faces: [FontFace]
    private let fallbackProvider: () -> [FontFace]
    private var fallbackResolved = false
    private(set) var clusters: [Cluster] = []
    private(set) var glyphs: [ClusterGlyph] = []
    /// Per face, points per font unit.
    private var perUnit: [Double]
    /// Points added after each glyph of the primary font (the font's tracking; fallbacks get none).
    let tracking: Double

    /// Analyzes `text` (or takes `cached`, an analysis of the same text in the same font).
    init(text: String, style: TextStyle, width: Double, primary: FontFace, fallbacks: @escaping () -> [FontFace],
         cached: Analysis? = nil) {
        self.text = text
        self.style = style
        self.width = width
        faces = [primary]
        perUnit = [style.font.pointSize / Double(primary.unitsPerEm)]
        fallbackProvider = fallbacks
        let t = style.font.trackingInPoints
        tracking = t.isFinite ? t : 0
        if let cached {
            faces = cached.faces; perUnit = cached.perUnit; fallbackResolved = cached.fallbackResolved
            clusters = cached.clusters; glyphs = cached.glyphs
        } else {
            analyze()
        }
    }

    /// What a cache keeps of this builder (before any ellipsis is looked for).
    var analysis: Analysis {
        Analysis(faces: faces, perUnit: perUnit, fallbackResolved: fallbackResolved, clusters: clusters, glyphs: glyphs)
    }

    // MARK: Clusters

    /// The fallback faces (indices into ``faces``, in fallback order), resolved the first time a
    /// character is missing from the primary font (so that Latin-only text never looks for them).
    /// At most ``maxFaces`` faces in all.
    mutating func fallbacks() -> Range<UInt8> {
        if !fallbackResolved {
            fallbackResolved = true
            for face in fallbackProvider() where !faces.contains(where: { $0 === face }) && faces.count < Self.maxFaces {
                faces.append(face)
                perUnit.append(style.font.pointSize / Double(face.unitsPerEm))
            }
        }
        return 1..<UInt8(faces.count)
    }

    /// Faces a layout uses at most (lines record the faces they use in a 32-bit mask).
    static let maxFaces = 8

    private mutating func analyze() {
        let utf16 = Array(text.utf16)
        var offset = 0
        var i = text.startIndex
        var hasRightToLeft = false
        while i < text.endIndex {
            let next = text.index(after: i)
            let character = text[i]
            let (kind, cjk) = BreakClass.of(character)
            var cluster = Cluster(start: i, end: next, utf16: offset, kind: kind, cjk: cjk, font: 0, glyphStart: 0, glyphEnd: 0,
                                  advance: 0, breakBefore: false, level: 0, paragraphLevel: 0)
            if kind != .newline && kind != .ignorable && kind != .zeroWidthBreak {
                cluster.font = chooseFont(for: character, kind: kind, after: clusters.last)
            }
            for s in character.unicodeScalars where Self.isRightToLeftOrControl(s.value) { hasRightToLeft = true }
            offset += character.utf16.count
            clusters.append(cluster)
            i = next
        }
        utf16.withUnsafeBufferPointer { units in
            findBreaks(units)
            if hasRightToLeft { resolveLevels(units) }
            shapeRuns(units)
        }
    }

    /// Break opportunities by ICU (UAX #14): a cluster may start a line when ICU allows a break before
    /// its first unit. A newline ends its paragraph; the cluster after it starts a new one.
    private mutating func findBreaks(_ units: UnsafeBufferPointer<UInt16>) {
        var breaks = [UInt8](repeating: 0, count: units.count + 1)
        let status = breaks.withUnsafeMutableBufferPointer { cus_line_breaks(units.baseAddress, Int32(units.count), $0.baseAddress) }
        // ICU fails only without its data or memory; then every space is an opportunity.
        for k in clusters.indices.dropFirst() where clusters[k - 1].kind != .newline {
            clusters[k].breakBefore = status == 0 ? breaks[clusters[k].utf16] != 0 : clusters[k - 1].kind == .space
        }
    }

    /// Embedding levels by ICU (UAX #9), paragraph by paragraph; each paragraph's direction is that of
    /// its first strong character (left to right when it has none), as `NSWritingDirection.natural`.
    private mutating func resolveLevels(_ units: UnsafeBufferPointer<UInt16>) {
        var start = 0
        while start < clusters.count {
            var end = start
            while end < clusters.count && clusters[end].kind != .newline { end += 1 }
            if end > start {
                let from = clusters[start].utf16, to = end < clusters.count ? clusters[end].utf16 : units.count
                var levels = [UInt8](repeating: 0, count: to - from)
                var paragraph: UInt8 = 0
                let status = levels.withUnsafeMutableBufferPointer {
                    cus_bidi_levels(units.baseAddress! + from, Int32(to - from), -1, $0.baseAddress, &paragraph)
                }
                if status == 0 {
                    for k in start..<end {
                        clusters[k].level = levels[clusters[k].utf16 - from]
                        clusters[k].paragraphLevel = paragraph
                    }
                }
            }
            if end < clusters.count { clusters[end].paragraphLevel = end > start ? clusters[end - 1].paragraphLevel : 0 }
            start = end + 1
        }
    }

    /// Shapes each maximal run of clusters with one font and one level (tabs, newlines and invisible
    /// clusters end runs; they have no glyphs).
    private mutating func shapeRuns(_ units: UnsafeBufferPointer<UInt16>) {
        func shaped(_ k: Int) -> Bool {
            switch clusters[k].kind {
            case .newline, .ignorable, .zeroWidthBreak: false
            default: text[clusters[k].start] != "\t"
            }
        }
        var k = 0
        while k < clusters.count {
            if !shaped(k) {
                if text[clusters[k].start] == "\t" {
                    // A tab is blank space four spaces wide (no tab stops).
                    let space = faces[0].advance(of: faces[0].glyphIndex(for: " "))
                    clusters[k].advance = 4 * (Double(space) * perUnit[0] + tracking)
                }
                k += 1
                continue
            }
            var end = k + 1
            while end < clusters.count && shaped(end) && clusters[end].font == clusters[k].font && clusters[end].level == clusters[k].level {
                end += 1
            }
            shapeRun(k..<end, units)
            k = end
        }
    }

    private mutating func shapeRun(_ run: Range<Int>, _ units: UnsafeBufferPointer<UInt16>) {
        let font = Int(clusters[run.lowerBound].font)
        let face = faces[font], unit = perUnit[font]
        let trackingAfter = font == 0 ? tracking : 0
        let first = clusters[run.lowerBound]
        let end = run.upperBound < clusters.count ? clusters[run.upperBound].utf16 : units.count
        let language = Self.language(of: text[first.start].unicodeScalars.first!.value, cjk: first.cjk)
        let shapedGlyphs = face.shape(units, range: first.utf16..<end, rightToLeft: first.level & 1 == 1, language: language)
        var current = -1
        for g in shapedGlyphs {
            // The cluster that starts at or before the glyph's character (clusters are sorted by offset).
            var lo = run.lowerBound, hi = run.upperBound - 1
            while lo < hi {
                let mid = (lo + hi + 1) / 2
                if clusters[mid].utf16 <= g.cluster { lo = mid } else { hi = mid - 1 }
            }
            if lo != current {
                current = lo
                clusters[lo].glyphStart = glyphs.count
                clusters[lo].advance = 0
            }
            // Tracking is added after shaping, to glyphs that move the pen (not to marks).
            let advance = Double(g.advance) * unit + (g.advance != 0 ? trackingAfter : 0)
            glyphs.append(ClusterGlyph(id: g.id, x: clusters[lo].advance + Double(g.xOffset) * unit,
                                       y: Double(g.yOffset) * unit, advance: advance))
            clusters[lo].advance += advance
            clusters[lo].glyphEnd = glyphs.count
        }
    }

    /// Picks one font for the cluster: the primary when it has every scalar, else the first fallback that
    /// has them all, else the first font that has the first scalar. Spaces and punctuation common to
    /// all scripts stay in the font of the cluster before them when it has them (so an Arabic or
    /// Japanese run is not split by an ASCII space, as Core Text keeps them in the run's font). Scalars
    /// no font has draw as the chosen font's `.notdef`.
    private mutating func chooseFont(for character: Character, kind: BreakClass, after previous: Cluster?) -> UInt8 {
        let scalars: [Unicode.Scalar] = character.unicodeScalars.filter { !Self.isInvisible($0) }
        guard !scalars.isEmpty else { return previous?.font ?? 0 }
        if let previous, previous.font != 0, previous.kind != .newline, scalars.allSatisfy(Self.isCommon),
           scalars.allSatisfy({ faces[Int(previous.font)].glyphIndex(for: $0) != 0 }) {
            return previous.font
        }
        if scalars.allSatisfy({ faces[0].glyphIndex(for: $0) != 0 }) { return 0 }
        let chain = fallbacks()
        if let full = chain.first(where: { fb in scalars.allSatisfy { faces[Int(fb)].glyphIndex(for: $0) != 0 } }) {
            return full
        }
        if faces[0].glyphIndex(for: scalars[0]) == 0,
           let first = chain.first(where: { faces[Int($0)].glyphIndex(for: scalars[0]) != 0 }) {
            return first
        }
        return 0
    }

    /// Spaces and ASCII and general punctuation: characters of no script (Unicode's Common), which take
    /// the font of the text around them.
    private static func isCommon(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x20, 0x21...0x2F, 0x3A...0x40, 0x5B...0x60, 0x7B...0x7E, 0xA0, 0x2000...0x206F: true
        default: false
        }
    }

    /// Right-to-left letters (Hebrew, Arabic, Syriac, Thaana, N'Ko, ... and their presentation forms)
    /// and the explicit bidi controls: text without any needs no bidi pass.
    package static func isRightToLeftOrControl(_ v: UInt32) -> Bool {
        switch v {
        case 0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFE, 0x10800...0x10FFF, 0x1E800...0x1EFFF,
             0x200F, 0x202B, 0x202E, 0x2067, 0x061C:
            true
        default: false
        }
    }

    /// The language a run is shaped in (it picks `locl` forms): Japanese for CJK text, Hebrew and
    /// Arabic by their blocks, else English.
    static func language(of firstScalar: UInt32, cjk: Bool) -> String {
        if cjk { return "ja" }
        switch firstScalar {
        case 0x0590...0x05FF, 0xFB1D...0xFB4F: return "he"
        case 0x0600...0x06FF, 0x0750...0x077F, 0x08A0...0x08FF, 0xFB50...0xFDFF, 0xFE70...0xFEFE: return "ar"
        default: return "en"
        }
    }

    /// Scalars inside a cluster that have no glyph: joiners, variation selectors, tags, bidi controls.
    private static func isInvisible(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x200B...0x200F, 0x202A...0x202E, 0x2060...0x206F, 0xFE00...0xFE0F, 0xFEFF, 0xE0000...0xE0FFF, 0x034F, 0xAD:
            return true
        default:
            return s.value < 0x20 && s != "\t" || (0x7F...0x9F).contains(s.value)
        }
    }

    // MARK: Measuring

    private func hangs(_ i: Int) -> Bool {
        switch clusters[i].kind {
        case .space, .zeroWidthBreak, .ignorable, .newline: true
        default: false
        }
    }

    /// `range` without the hanging clusters (spaces) at its end.
    func trimmingTrailing(_ range: Range<Int>) -> Range<Int> {
        var end = range.upperBound
        while end > range.lowerBound && hangs(end - 1) { end -= 1 }
        return range.lowerBound..<end
    }

    /// `range` without the hanging clusters at its start.
    func trimmingLeading(_ range: Range<Int>) -> Range<Int> {
        var start = range.lowerBound
        while start < range.upperBound && hangs(start) { start += 1 }
        return start..<range.upperBound
    }

    /// The advance of `range`: the sum of its clusters' advances (kerning is inside them, as HarfBuzz
    /// adds a pair's adjustment to the first glyph's advance).
    func width(of range: Range<Int>) -> Double {
        var w = 0.0
        for j in range { w += clusters[j].advance }
        return w
    }

    // MARK: Lines

    /// The end of the paragraph that contains cluster `i`: the index of its newline, or the text's end.
    func paragraphEnd(from i: Int) -> Int {
        var j = i
        while j < clusters.count && clusters[j].kind != .newline { j += 1 }
        return j
    }

    /// Fills lines greedily, at most `limit`. Returns the lines and whether text remains after them. A
    /// newline ends a line; a newline at the very end of the text adds no empty line.
    func fillLines(limit: Int, charWrap: Bool) -> (lines: [Record], more: Bool) {
        var records: [Record] = []
        var i = 0
        let n = clusters.count
        while i < n {
            if records.count == limit { return (records, true) }
            let paragraphEnd = paragraphEnd(from: i)
            let end = lineEnd(from: i, paragraphEnd: paragraphEnd, charWrap: charWrap)
            let shown = trimmingTrailing(i..<end)
            records.append(Record(pieces: shown.isEmpty ? [] : [.clusters(shown)], covered: i..<end))
            // Step over the newline that ended the paragraph.
            i = end == paragraphEnd ? end + 1 : end
        }
        return (records, false)
    }

    /// Where the line starting at `start` ends (exclusive): the last break opportunity before the first
    /// cluster that overflows the width, or that cluster itself when the line has no opportunity (a word
    /// longer than the line breaks between characters). At least one cluster per line.
    private func lineEnd(from start: Int, paragraphEnd: Int, charWrap: Bool) -> Int {
        var x = 0.0
        var lastBreak = -1
        var j = start
        while j < paragraphEnd {
            let c = clusters[j]
            if j > start && c.breakBefore { lastBreak = j }
            let right = x + c.advance
            // Spaces hang past the edge; anything else that crosses it ends the line.
            if !hangs(j) && j > start && right > width + LineBuilder.tolerance {
                if charWrap || lastBreak <= start { return j }
                return lastBreak
            }
            x = right
            j += 1
        }
        return paragraphEnd
    }

    /// Widths are sums of Doubles; this much overshoot still fits, so a width measured from a layout lays
    /// the text out the same way again.
    static let tolerance = 1e-9

    /// Rebuilds the line starting at cluster `start` as the last line, when text remains after it.
    func lastLine(from start: Int, mode: LineBreakMode, ellipsisWidth: Double, charWrap: Bool) -> Record {
        let paragraphEnd = paragraphEnd(from: start)
        let rest = start..<paragraphEnd
        switch mode {
        case .byWordWrapping, .byCharWrapping:
            let end = lineEnd(from: start, paragraphEnd: paragraphEnd, charWrap: charWrap)
            return Record(pieces: piece(trimmingTrailing(start..<end)), covered: start..<end, truncated: true)
        case .byClipping:
            // Keep glyphs that start inside the width; the one straddling the edge is clipped when drawn.
            var x = 0.0, end = start
            while end < paragraphEnd {
                if x >= width { break }
                x += clusters[end].advance
                end += 1
            }
            let shown = trimmingTrailing(start..<end)
            return Record(pieces: piece(shown), covered: start..<end, truncated: true, clipped: width(of: shown) > width)
        case .byTruncatingTail:
            return tail(rest, ellipsisWidth: ellipsisWidth)
        case .byTruncatingHead, .byTruncatingMiddle:
            // When the paragraph fits and only later paragraphs are hidden, the ellipsis marks the end.
            let trimmed = trimmingTrailing(rest)
            if width(of: trimmed) + ellipsisWidth <= width + LineBuilder.tolerance { return tail(rest, ellipsisWidth: ellipsisWidth) }
            return mode == .byTruncatingHead ? head(rest, ellipsisWidth: ellipsisWidth) : middle(rest, ellipsisWidth: ellipsisWidth)
        }
    }

    private func piece(_ r: Range<Int>) -> [Piece] { r.isEmpty ? [] : [.clusters(r)] }

    /// The longest start of `rest` that fits before an ellipsis (at cluster boundaries). Without room for
    /// the ellipsis itself the line is empty.
    private func tail(_ rest: Range<Int>, ellipsisWidth: Double) -> Record {
        let room = width - ellipsisWidth
        guard room >= -LineBuilder.tolerance else { return Record(pieces: [], covered: rest, truncated: true) }
        var end = rest.lowerBound, x = 0.0, best = rest.lowerBound
        while end < rest.upperBound {
            x += clusters[end].advance
            end += 1
            if hangs(end - 1) { continue }
            if x > room + LineBuilder.tolerance { break }
            best = end
        }
        let shown = trimmingTrailing(rest.lowerBound..<best)
        return Record(pieces: piece(shown) + [.ellipsis], covered: rest, truncated: true)
    }

    /// An ellipsis, then the longest end of `rest` that fits after it.
    private func head(_ rest: Range<Int>, ellipsisWidth: Double) -> Record {
        let room = width - ellipsisWidth
        guard room >= -LineBuilder.tolerance else { return Record(pieces: [], covered: rest, truncated: true) }
        let end = trimmingTrailing(rest).upperBound
        var start = end, best = end, x = 0.0
        while start > rest.lowerBound {
            start -= 1
            x += clusters[start].advance
            if hangs(start) { continue }
            if x > room + LineBuilder.tolerance { break }
            best = start
        }
        return Record(pieces: [.ellipsis] + piece(trimmingLeading(best..<end)), covered: rest, truncated: true)
    }

    /// The longest start that fits in half the room, the ellipsis, then the longest end that fits in what
    /// is left.
    private func middle(_ rest: Range<Int>, ellipsisWidth: Double) -> Record {
        let room = width - ellipsisWidth
        guard room >= -LineBuilder.tolerance else { return Record(pieces: [], covered: rest, truncated: true) }
        let trimmed = trimmingTrailing(rest)
        var prefixEnd = trimmed.lowerBound, x = 0.0, j = trimmed.lowerBound
        while j < trimmed.upperBound {
            x += clusters[j].advance
            j += 1
            if hangs(j - 1) { continue }
            if x > room / 2 + LineBuilder.tolerance { break }
            prefixEnd = j
        }
        let prefix = trimmingTrailing(trimmed.lowerBound..<prefixEnd)
        let left = room - width(of: prefix)
        var suffixStart = trimmed.upperBound, y = 0.0, k = trimmed.upperBound
        while k > prefixEnd {
            k -= 1
            y += clusters[k].advance
            if hangs(k) { continue }
            if y > left + LineBuilder.tolerance { break }
            suffixStart = k
        }
        let suffix = trimmingLeading(suffixStart..<trimmed.upperBound)
        return Record(pieces: piece(prefix) + [.ellipsis] + piece(suffix), covered: rest, truncated: true)
    }
}
