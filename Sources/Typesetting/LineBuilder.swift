/// Turns a string into clusters with glyphs and advances, then into lines: greedy filling at break
/// opportunities, and the last line's truncation. All positions are in points at the font's size; no
/// pixel scale enters, so the same text breaks the same way at @1x, @2x and @3x.
struct LineBuilder {
    /// One grapheme cluster (a `Character`) of the text.
    struct Cluster {
        var start: String.Index
        var end: String.Index
        var kind: BreakClass
        var cjk: Bool
        /// Index into `LineBuilder.faces`.
        var font: UInt8
        /// The cluster's glyphs are `glyphs[glyphStart..<glyphEnd]`.
        var glyphStart: Int
        var glyphEnd: Int
        /// The sum of its glyphs' advances, in points.
        var advance: Double
        /// Kerning with the previous cluster, in points (0 across fonts and at paragraph starts).
        var kernBefore: Double
        /// A line may start at this cluster (a break opportunity before it).
        var breakBefore: Bool
    }

    /// A glyph of a cluster, `x` points from the cluster's start.
    struct ClusterGlyph {
        var id: UInt32
        var x: Double
    }

    /// What one line shows, in order.
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

    init(text: String, style: TextStyle, width: Double, primary: FontFace, fallbacks: @escaping () -> [FontFace]) {
        self.text = text
        self.style = style
        self.width = width
        faces = [primary]
        perUnit = [style.font.pointSize / Double(primary.unitsPerEm)]
        fallbackProvider = fallbacks
        let t = style.font.trackingInPoints
        tracking = t.isFinite ? t : 0
        analyze()
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
        var i = text.startIndex
        var previous: (kind: BreakClass, cjk: Bool)?
        var beforePrevious: BreakClass?
        while i < text.endIndex {
            let next = text.index(after: i)
            let character = text[i]
            let (kind, cjk) = BreakClass.of(character)
            var cluster = Cluster(start: i, end: next, kind: kind, cjk: cjk, font: 0, glyphStart: glyphs.count,
                                  glyphEnd: glyphs.count, advance: 0, kernBefore: 0, breakBefore: false)
            if kind != .newline && kind != .ignorable && kind != .zeroWidthBreak {
                addGlyphs(of: character, kind: kind, to: &cluster)
            }
            if let previous {
                cluster.breakBefore = BreakClass.canBreak(
                    after: previous.kind, previousCJK: previous.cjk, beforePrevious: beforePrevious,
                    before: kind, currentCJK: cjk, currentIsDigit: character.unicodeScalars.first!.properties.numericType != nil)
                if let last = clusters.last, last.font == cluster.font, last.glyphEnd > last.glyphStart,
                   cluster.glyphEnd > cluster.glyphStart, last.kind != .newline {
                    let face = faces[Int(cluster.font)]
                    let k = face.kerning(glyphs[last.glyphEnd - 1].id, glyphs[cluster.glyphStart].id)
                    cluster.kernBefore = Double(k) * perUnit[Int(cluster.font)]
                }
            }
            clusters.append(cluster)
            beforePrevious = previous?.kind
            previous = kind == .newline ? nil : (kind, cjk)
            if kind == .newline { beforePrevious = nil }
            i = next
        }
    }

    /// Picks one font for the cluster (the primary when it has every scalar, else the first fallback that
    /// has them all, else the first font that has the first scalar) and appends its glyphs. Scalars no
    /// font has draw as the chosen font's `.notdef`.
    private mutating func addGlyphs(of character: Character, kind: BreakClass, to cluster: inout Cluster) {
        let scalars: [Unicode.Scalar] = character.unicodeScalars.filter { !Self.isInvisible($0) }
        guard !scalars.isEmpty else { return }
        var font: UInt8 = 0
        if !scalars.allSatisfy({ faces[0].glyphIndex(for: $0) != 0 }) {
            let chain = fallbacks()
            if let full = chain.first(where: { fb in scalars.allSatisfy { faces[Int(fb)].glyphIndex(for: $0) != 0 } }) {
                font = full
            } else if faces[0].glyphIndex(for: scalars[0]) == 0,
                      let first = chain.first(where: { faces[Int($0)].glyphIndex(for: scalars[0]) != 0 }) {
                font = first
            }
        }
        let face = faces[Int(font)], unit = perUnit[Int(font)]
        let trackingAfter = font == 0 ? tracking : 0
        cluster.font = font
        var x = 0.0
        for s in scalars {
            // A tab is drawn as blank space four spaces wide (no tab stops).
            let isTab = s == "\t"
            let id = face.glyphIndex(for: isTab ? " " : s)
            let advance = (Double(face.advance(of: id)) * unit + trackingAfter) * (isTab ? 4 : 1)
            if !isTab { glyphs.append(ClusterGlyph(id: id, x: x)) }
            x += advance
        }
        cluster.glyphEnd = glyphs.count
        cluster.advance = x
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

    /// The advance of `range` set as one run: advances plus the kerning inside it.
    func width(of range: Range<Int>) -> Double {
        var w = 0.0
        for j in range {
            if j > range.lowerBound { w += clusters[j].kernBefore }
            w += clusters[j].advance
        }
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
            let right = x + (j > start ? c.kernBefore : 0) + c.advance
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
                x += end > start ? clusters[end].kernBefore : 0
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
            x += (end > rest.lowerBound ? clusters[end].kernBefore : 0) + clusters[end].advance
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
            x += clusters[start].advance + (start + 1 < end ? clusters[start + 1].kernBefore : 0)
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
            x += (j > trimmed.lowerBound ? clusters[j].kernBefore : 0) + clusters[j].advance
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
            y += clusters[k].advance + (k + 1 < trimmed.upperBound ? clusters[k + 1].kernBefore : 0)
            if hangs(k) { continue }
            if y > left + LineBuilder.tolerance { break }
            suffixStart = k
        }
        let suffix = trimmingLeading(suffixStart..<trimmed.upperBound)
        return Record(pieces: piece(prefix) + [.ellipsis] + piece(suffix), covered: rest, truncated: true)
    }
}
