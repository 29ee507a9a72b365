import RasterCore

/// A text broken into lines for a width, measured and ready to draw: what a `UILabel` computes for
/// `sizeThatFits(_:)` and `drawText(in:)`.
///
/// Everything is in points and independent of the pixel scale: glyphs and advances are HarfBuzz's
/// (kerning, ligatures, contextual forms, Arabic joining) at one unit per font unit, scaled by the point
/// size, plus the font's tracking after each of its glyphs (``Font/tracking``); so a text breaks into the same
/// lines with the same widths and heights at @1x, @2x and @3x. Only drawing snaps to device pixels.
///
/// Vertical metrics come from the fonts' `hhea` tables. A line's ascent and descent are the largest of
/// the primary font and of every font that draws a character on it (so a line with Japanese text from
/// the fallback font is as tall as either font needs); its height is ascent + descent + line gap.
/// Lines are stacked with ``TextStyle/lineSpacing`` between them.
///
/// ``size`` rounds the exact extent (``exactSize``) up to whole points, as `UILabel.sizeThatFits` does.
/// Drawn ink stays inside `size` for ordinary text: drawing snaps baselines up, never down, so
/// descenders stay above the bottom, and letters leave room below the ascender (DejaVu Sans's "l" is
/// 345/2048 em under it). Horizontal positions move by at most 1/8 pixel. The exception is glyphs that
/// reach the ascender exactly, such as DejaVu Sans's accented capitals "ÂÅÉ": on the first line their
/// accents can cross the top edge by less than one device pixel.
///
/// Text up to ``maxTextBytes`` of UTF-8 is accepted; a layout's memory grows linearly with the text.
/// Building a layout is thread-safe and so is drawing one (into different painters).
public struct TextLayout: Sendable {
    /// The longest text accepted, in UTF-8 bytes (256 KiB): longer is an `invalidArgument` error.
    public static let maxTextBytes = 262_144

    /// One laid-out line.
    public struct Line: Hashable, Sendable {
        /// The characters of the text this line covers, without the newline that ends it. A truncated last
        /// line covers the rest of its paragraph, including characters hidden by the ellipsis.
        public let range: Range<String.Index>
        /// What the line shows: its characters without trailing spaces, with "…" where truncated.
        public let text: String
        /// From the layout's left edge to the line's start, in points (from the alignment).
        public let x: Double
        /// The advance width of what the line shows, in points, trailing spaces excluded.
        public let width: Double
        /// The line's paragraph runs right to left: its first strong character (UAX #9 rules P2–P3) is
        /// Hebrew, Arabic or another right-to-left letter. ``TextAlignment/natural`` then aligns it right.
        public let isRightToLeft: Bool
        /// From the layout's top to the baseline, in points.
        public let baseline: Double
        /// Above the baseline, in points (positive).
        public let ascent: Double
        /// Below the baseline, in points (positive).
        public let descent: Double
        /// The fonts' line gap below the descent, in points.
        public let leading: Double
        /// Text after this line was cut off: it ends in an ellipsis, is clipped, or is simply the last
        /// line shown.
        public let isTruncated: Bool
        /// Glyphs are clipped at the layout's width when drawn (``LineBreakMode/byClipping``).
        public let isClipped: Bool

        /// From the layout's top to the top of the line box, in points.
        public var top: Double { baseline - ascent }
        /// The line box's height: ascent + descent + leading, in points.
        public var height: Double { ascent + descent + leading }

        package let glyphs: [PlacedGlyph]
    }

    /// A glyph of a line, `x` points right of the line's start and `y` points above its baseline (mark
    /// positioning), in visual order.
    package struct PlacedGlyph: Hashable, Sendable {
        package var x: Double
        package var y: Double
        package var id: UInt32
        /// Index into `TextLayout.faces`.
        package var font: UInt8
        /// How far the glyph moves the pen, in points (HarfBuzz's advance, kerning and tracking included).
        var advance: Double
    }

    /// The text laid out.
    public let text: String
    /// The style it was laid out with.
    public let style: TextStyle
    /// The width lines are aligned in, in points: the width asked for when finite (or the widest line if
    /// wider), else the widest line.
    public let width: Double
    /// The lines, top to bottom.
    public let lines: [Line]
    /// The exact extent of the lines, in points: the widest line and the bottom of the last line box.
    public let exactSize: Size
    /// ``exactSize`` rounded up to whole points: the size to give a label (`sizeThatFits`). Zero for an
    /// empty text. Laying the text out again at any width from `exactSize.width` up to the width asked
    /// for gives the same lines, so a label given this size keeps its lines when the width asked for was
    /// whole points.
    public let size: Size
    /// Some text is not shown (line limit, height limit).
    public let isTruncated: Bool

    package let faces: [FontFace]

    /// Lays out `text` in `style` for a width and height in points.
    ///
    /// - Parameters:
    ///   - width: lines wrap to fit it (default: no limit, so only newlines break lines).
    ///   - height: only lines that fit entirely are kept, at least one (default: no limit); the last kept
    ///     line is then truncated as ``TextStyle/lineBreakMode`` says, as in a `UILabel` too short for
    ///   - text: the text to lay out (newlines break lines).
    ///   - style: font, colour, alignment, line limit, break mode and spacing.
    ///     its text.
    /// - Throws: ``TypesettingError``: the font cannot be found or opened; `invalidArgument` for a NaN
    ///   width or height, a bad point size, or a text over ``maxTextBytes``.
    public init(_ text: String, style: TextStyle = TextStyle(), width: Double = .infinity, height: Double = .infinity) throws(TypesettingError) {
        try Self.validate(text, width: width, height: height)
        let primary = try FontRegistry.shared.face(for: style.font)
        let weight = style.font.weight
        self.init(validated: text, style: style, width: width, height: height, primary: primary, cache: .shared) {
            FontRegistry.shared.fallbackFaces(weight: weight)
        }
    }

    /// The size `text` takes in `style` within `size` (points; infinite for no limit), rounded up to
    /// whole points: `UILabel.sizeThatFits(_:)`. Same as `TextLayout(text, style:, width:, height:).size`.
    public static func size(of text: String, style: TextStyle = TextStyle(), fitting size: Size = Size(width: .infinity, height: .infinity)) throws(TypesettingError) -> Size {
        try TextLayout(text, style: style, width: size.width, height: size.height).size
    }

    static func validate(_ text: String, width: Double, height: Double) throws(TypesettingError) {
        guard text.utf8.count <= maxTextBytes else {
            throw TypesettingError(kind: .invalidArgument, file: nil, reason: "text of \(text.utf8.count) bytes is over the limit of \(maxTextBytes)")
        }
        guard !width.isNaN, !height.isNaN else {
            throw TypesettingError(kind: .invalidArgument, file: nil, reason: "layout size \(width) x \(height) is not a number")
        }
    }

    /// Lays out with given faces; `fallbacks` is asked for the fallback faces (in order) the first time a
    /// character is missing from `primary`.
    /// `cache`, when given, answers for a text already analyzed in the same font (only with the
    /// registry's fallback chain: a cache key does not name the fallbacks).
    package init(validated text: String, style: TextStyle, width: Double, height: Double, primary: FontFace,
         cache: ShapedTextCache? = nil, fallbacks: @escaping () -> [FontFace]) {
        let fillWidth = max(0, width)
        let key = ShapedTextCache.Key(text: text, font: style.font, face: primary.id)
        let cached = cache?.analysis(for: key)
        var builder = LineBuilder(text: text, style: style, width: fillWidth, primary: primary, fallbacks: fallbacks, cached: cached)
        if let cache, cached == nil { cache.store(builder.analysis, for: key) }
        let mode = style.lineBreakMode
        let charWrap = mode == .byCharWrapping
        let limit = style.numberOfLines > 0 ? style.numberOfLines : Int.max
        var (records, more) = builder.fillLines(limit: limit, charWrap: charWrap)

        let ellipsis = Self.ellipsisGlyphs(&builder)
        let spacing = style.lineSpacing.isFinite ? max(0, style.lineSpacing) : 0
        let faces = builder.faces
        let pointSize = style.font.pointSize

        func metrics(_ r: LineBuilder.Record) -> (ascent: Double, descent: Double, leading: Double) {
            var used: UInt32 = 1
            for p in r.pieces {
                switch p {
                case .clusters(let range): for j in range { used |= 1 << UInt32(builder.clusters[j].font) }
                case .ellipsis: for g in ellipsis.glyphs { used |= 1 << UInt32(g.font) }
                }
            }
            var a = 0.0, d = 0.0, g = 0.0
            for (i, face) in faces.enumerated() where used & (1 << UInt32(i)) != 0 {
                let unit = pointSize / Double(face.unitsPerEm)
                a = max(a, Double(face.ascender) * unit)
                d = max(d, Double(face.descender) * unit)
                g = max(g, Double(face.lineGap) * unit)
            }
            return (a, d, g)
        }

        // A height limit keeps the lines whose boxes fit entirely (at least one).
        if height.isFinite, records.count > 1 {
            var bottom = 0.0, fitting = 0
            for (k, r) in records.enumerated() {
                let m = metrics(r)
                bottom += (k > 0 ? spacing : 0) + m.ascent + m.descent + m.leading
                if k > 0 && bottom > height + LineBuilder.tolerance { break }
                fitting = k + 1
            }
            if fitting < records.count {
                records.removeSubrange(fitting...)
                more = true
            }
        }
        if more, let last = records.last {
            records[records.count - 1] = builder.lastLine(from: last.covered.lowerBound, mode: mode,
                                                          ellipsisWidth: ellipsis.width, charWrap: charWrap)
        }

        // Place glyphs (in visual order) and stack the lines.
        var placed: [(glyphs: [PlacedGlyph], width: Double, text: String, rightToLeft: Bool)] = []
        var usedWidth = 0.0
        for r in records {
            let paragraphLevel = r.covered.lowerBound < builder.clusters.count ? builder.clusters[r.covered.lowerBound].paragraphLevel : 0
            // Clusters (by index) and the ellipsis (-1) in logical order, with their embedding levels.
            var items: [(index: Int, level: UInt8)] = []
            var mixed = paragraphLevel != 0
            var shown = ""
            for p in r.pieces {
                switch p {
                case .clusters(let range):
                    for j in range {
                        items.append((j, builder.clusters[j].level))
                        if builder.clusters[j].level != 0 { mixed = true }
                    }
                    shown += text[builder.clusters[range.lowerBound].start..<builder.clusters[range.upperBound - 1].end]
                case .ellipsis:
                    items.append((-1, paragraphLevel))
                    shown += "…"
                }
            }
            if mixed { items = Self.visualOrder(items) }
            var glyphs: [PlacedGlyph] = []
            var x = 0.0
            for item in items {
                if item.index < 0 {
                    for g in ellipsis.glyphs { glyphs.append(PlacedGlyph(x: x + g.x, y: 0, id: g.id, font: g.font, advance: g.advance)) }
                    x += ellipsis.width
                    continue
                }
                let c = builder.clusters[item.index]
                for g in builder.glyphs[c.glyphStart..<c.glyphEnd] {
                    glyphs.append(PlacedGlyph(x: x + g.x, y: g.y, id: g.id, font: c.font, advance: g.advance))
                }
                x += c.advance
            }
            let w = r.clipped ? min(x, fillWidth) : x
            usedWidth = max(usedWidth, w)
            placed.append((glyphs, w, shown, paragraphLevel & 1 == 1))
        }

        let boxWidth = width.isFinite ? max(fillWidth, usedWidth) : usedWidth
        var lines: [Line] = []
        var top = 0.0
        for (k, r) in records.enumerated() {
            let m = metrics(r)
            if k > 0 { top += spacing }
            let (glyphs, w, shown, rightToLeft) = placed[k]
            let covered = r.covered.isEmpty
                ? (r.covered.lowerBound < builder.clusters.count ? builder.clusters[r.covered.lowerBound].start : text.endIndex)
                : builder.clusters[r.covered.lowerBound].start
            let coveredEnd = r.covered.isEmpty ? covered : builder.clusters[r.covered.upperBound - 1].end
            lines.append(Line(range: covered..<coveredEnd, text: shown,
                              x: Self.offset(for: style.alignment, lineWidth: w, in: boxWidth, rightToLeft: rightToLeft),
                              width: w, isRightToLeft: rightToLeft, baseline: top + m.ascent, ascent: m.ascent, descent: m.descent, leading: m.leading,
                              isTruncated: r.truncated, isClipped: r.clipped, glyphs: glyphs))
            top += m.ascent + m.descent + m.leading
        }

        self.text = text
        self.style = style
        self.width = boxWidth
        self.lines = lines
        self.faces = faces
        self.isTruncated = more
        exactSize = Size(width: usedWidth, height: top)
        size = Size(width: Self.roundUp(usedWidth), height: Self.roundUp(top))
    }

    /// Rounds up to whole points, ignoring float noise far below a pixel (20.000000000004 is 20).
    static func roundUp(_ v: Double) -> Double { max(0, (v - 1e-7).rounded(.up)) }

    /// The x of a line of `lineWidth` in a box of `boxWidth`, in points. ``TextAlignment/natural`` is
    /// left for a left-to-right paragraph and right for a right-to-left one.
    static func offset(for alignment: TextAlignment, lineWidth: Double, in boxWidth: Double, rightToLeft: Bool = false) -> Double {
        switch alignment {
        case .left: 0
        case .natural: rightToLeft ? boxWidth - lineWidth : 0
        case .center: (boxWidth - lineWidth) / 2
        case .right: boxWidth - lineWidth
        }
    }

    /// Reorders a line's items from logical to visual order by their embedding levels (UAX #9, rule
    /// L2): from the highest level down to the lowest odd one, every run at that level or higher is
    /// reversed.
    package static func visualOrder<T>(_ items: [(index: T, level: UInt8)]) -> [(index: T, level: UInt8)] {
        guard let highest = items.map(\.level).max(), let lowest = items.map(\.level).min(), highest > 0 else { return items }
        var out = items
        var level = highest
        let lowestOdd = lowest | 1
        while level >= lowestOdd {
            var i = 0
            while i < out.count {
                guard out[i].level >= level else { i += 1; continue }
                var end = i
                while end < out.count && out[end].level >= level { end += 1 }
                out[i..<end].reverse()
                i = end
            }
            level -= 1
        }
        return out
    }

    /// "…" from the first font that has it (primary, then the fallbacks in order), else three full stops.
    private static func ellipsisGlyphs(_ builder: inout LineBuilder) -> (glyphs: [PlacedGlyph], width: Double) {
        let size = builder.style.font.pointSize
        if builder.faces[0].glyphIndex(for: "…") == 0 { _ = builder.fallbacks() }
        for (i, face) in builder.faces.enumerated() {
            let id = face.glyphIndex(for: "…")
            if id != 0 {
                let tracking = i == 0 ? builder.tracking : 0
                let advance = Double(face.advance(of: id)) * size / Double(face.unitsPerEm) + tracking
                return ([PlacedGlyph(x: 0, y: 0, id: id, font: UInt8(i), advance: advance)], advance)
            }
        }
        let face = builder.faces[0]
        let id = face.glyphIndex(for: ".")
        let advance = Double(face.advance(of: id)) * size / Double(face.unitsPerEm) + builder.tracking
        return ((0..<3).map { PlacedGlyph(x: Double($0) * advance, y: 0, id: id, font: 0, advance: advance) }, 3 * advance)
    }
}

extension TextLayout {
    /// Whether `other`'s glyphs come from the same font faces, in the same order (a glyph id means nothing
    /// without its face).
    public func drawsWithTheSameFaces(as other: TextLayout) -> Bool {
        faces.count == other.faces.count && zip(faces, other.faces).allSatisfy { $0.id == $1.id }
    }
}
