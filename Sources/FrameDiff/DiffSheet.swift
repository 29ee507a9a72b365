import RasterCore
import Typesetting

/// One image that shows failing frames at a glance: a row per frame with expected | actual | diff, in the
/// order given, on a grey background with ``gap`` pixels between cells, each cell labelled above it (the
/// frame's name and "expected", "actual", or "diff" with the row's measure) in a ``labelHeight``-pixel
/// band. A long failure is several sheets (``FailureArtifacts`` writes them as pages).
///
/// Limits, so a long failing sequence never makes a huge image: at most ``maxRows`` rows (the first
/// failing frames), and at most ``maxSide`` pixels per side. A sheet that would be larger is scaled down
/// by the smallest whole factor that fits; while scaling down, the diff column keeps its marks visible
/// (a block holding any `diffColor`, `diffColorAlt` or `aaColor` pixel takes that colour, in that order),
/// the other columns average their pixels (premultiplied).
public enum DiffSheet {
    /// The most rows a sheet has; default 8.
    public static let maxRows = 8
    /// The largest width or height of a sheet, in pixels; default 4096.
    public static let maxSide = 4096
    /// Pixels between cells and around the edge; default 4.
    public static let gap = 4
    /// The height of the label band above each row (pixels).
    public static let labelHeight = 14
    /// The background and gap colour: opaque mid grey.
    public static let background = PremultipliedRGBA8(r: 128, g: 128, b: 128, a: 255)

    /// One row of a sheet. A `nil` cell (a frame without a counterpart) stays background.
    public struct Row: Sendable {
        /// The frame's name, for the row's label.
        public var name: String
        /// The golden frame, or nil.
        public var expected: Bitmap?
        /// The produced frame, or nil.
        public var actual: Bitmap?
        /// The diff image, or nil.
        public var diff: Bitmap?
        /// What the diff cell's label adds after "diff" (the measure, e.g. "1234 px, max Δ 95"). Default "".
        public var measure: String

        /// A row; any cell may be nil.
        public init(name: String, expected: Bitmap?, actual: Bitmap?, diff: Bitmap?, measure: String = "") {
            self.name = name; self.expected = expected; self.actual = actual; self.diff = diff; self.measure = measure
        }
    }

    /// A sheet and what it shows.
    public struct Sheet: Sendable {
        /// The sheet, in pixels.
        public var bitmap: Bitmap
        /// The rows shown (the first of those given).
        public var rowCount: Int
        /// The whole factor by which every cell was scaled down (1: full size).
        public var downscale: Int
        /// E.g. `3 frames, expected | actual | diff, full size` or
        /// `first 8 of 30 failing frames, expected | actual | diff, scaled down 3x`.
        public var note: String
    }

    /// Lays out `rows` (the first ``maxRows``); `nil` when there is nothing to show.
    /// - Parameters:
    ///   - failingFrames: how many frames failed in all, when `rows` holds only the first of them (for the
    ///     note); default `rows.count`.
    ///   - marks: the diff image style, whose colours are kept when the diff column is scaled down.
    ///   - maxRows: the most rows, 1…64; default ``maxRows``.
    ///   - allRows: the failing frames' images, in order; only the first `maxRows` are drawn.
    ///   - maxSide: the largest width or height in pixels; default ``maxSide`` (at least 64 is used).
    public static func make(rows allRows: [Row], failingFrames: Int? = nil, marks: DiffImageStyle = DiffImageStyle(),
                            maxRows: Int = DiffSheet.maxRows, maxSide: Int = DiffSheet.maxSide) -> Sheet? {
        let rows = Array(allRows.prefix(min(64, max(1, maxRows))))
        // A floor for tiny limits: eight rows of gaps alone take 44 pixels.
        let maxSide = max(64, maxSide)
        guard !rows.isEmpty else { return nil }
        func cells(_ row: Row) -> [Bitmap?] { [row.expected, row.actual, row.diff] }

        // The smallest whole downscale that fits maxSide.
        var factor = 1
        var layout = Layout(rows: rows.map(cells), factor: factor)
        // Past the largest cell's side every cell is one pixel: scaling further cannot help.
        let largest = rows.flatMap(cells).compactMap { $0.map { max($0.width, $0.height) } }.max() ?? 1
        while (layout.width > maxSide || layout.height > maxSide) && factor < largest {
            factor += 1
            layout = Layout(rows: rows.map(cells), factor: factor)
        }
        guard var sheet = try? Bitmap(width: layout.width, height: layout.height, fill: background) else { return nil }
        let priority = [marks.diffColor.packed, (marks.diffColorAlt ?? marks.diffColor).packed, marks.aaColor.packed]
        for (r, row) in rows.enumerated() {
            for (c, cell) in cells(row).enumerated() {
                guard let cell else { continue }
                let image = factor == 1 ? cell : downscale(cell, by: factor, keeping: c == 2 ? priority : [])
                sheet.copy(from: image, to: (layout.columnX[c], layout.rowY[r]))
            }
        }
        sheet = drawLabels(rows: rows, layout: layout, onto: sheet)
        let total = max(failingFrames ?? allRows.count, allRows.count)
        let shown = total > rows.count ? "first \(rows.count) of \(total) failing frames"
            : "\(rows.count) frame" + (rows.count == 1 ? "" : "s")
        let size = factor == 1 ? "full size" : "scaled down \(factor)x"
        return Sheet(bitmap: sheet, rowCount: rows.count, downscale: factor, note: "\(shown), expected | actual | diff, \(size)")
    }

    /// Each cell's label in the band above it, clipped to the cell's column. Labels need a font; without
    /// one the sheet has its images only (drawing never fails for want of a label).
    static func drawLabels(rows: [Row], layout: Layout, onto sheet: Bitmap) -> Bitmap {
        let painter = Painter(bitmap: sheet)
        let style = TextStyle(font: .system(size: 10), color: .white)
        for (r, row) in rows.enumerated() {
            let texts = ["\(row.name) expected", "actual", row.measure.isEmpty ? "diff" : "diff \(row.measure)"]
            for c in 0..<3 {
                let width = Double(layout.columnWidths[c])
                guard width > 0, let text = try? TextLayout(texts[c], style: style, width: width, height: Double(labelHeight)) else { continue }
                let box = Rect(x: Double(layout.columnX[c]), y: Double(layout.rowY[r] - labelHeight), width: width, height: Double(labelHeight))
                painter.withSavedState {
                    painter.clip(to: box)
                    text.draw(in: painter, rect: box)
                }
            }
        }
        return painter.finish()
    }

    /// Cell positions for a whole downscale factor: columns as wide as their widest cell, rows as tall as
    /// their tallest, each with its label band above.
    struct Layout {
        var columnX: [Int] = [], rowY: [Int] = []
        var columnWidths = [0, 0, 0]
        var width = 0, height = 0

        init(rows: [[Bitmap?]], factor: Int) {
            func scaled(_ v: Int) -> Int { (v + factor - 1) / factor }
            var x = gap
            for c in 0..<3 {
                columnWidths[c] = rows.map { $0[c].map { scaled($0.width) } ?? 0 }.max() ?? 0
                columnX.append(x)
                x += columnWidths[c] + gap
            }
            width = x
            var y = gap
            for row in rows {
                y += labelHeight
                rowY.append(y)
                y += max(1, row.map { $0.map { scaled($0.height) } ?? 0 }.max() ?? 0) + gap
            }
            height = y
        }
    }

    /// `image` scaled down by `factor` (box filter on premultiplied values; partial blocks at the right and
    /// bottom edges average the pixels they have). A block holding any of the packed colours in `keeping`
    /// takes the first such colour instead.
    package static func downscale(_ image: Bitmap, by factor: Int, keeping: [UInt32]) -> Bitmap {
        let w = (image.width + factor - 1) / factor, h = (image.height + factor - 1) / factor
        guard var out = try? Bitmap(width: w, height: h, scale: image.scale / Double(factor)) else { return image }
        let sw = image.width, sh = image.height
        image.withUnsafePixels { src in
            out.withUnsafeMutablePixels { dst in
                for by in 0..<h {
                    for bx in 0..<w {
                        var sums = (0, 0, 0, 0), n = 0
                        var best = keeping.count
                        for y in (by * factor)..<min(sh, (by + 1) * factor) {
                            for x in (bx * factor)..<min(sw, (bx + 1) * factor) {
                                let p = src[y * sw + x]
                                if best > 0, let k = keeping.firstIndex(of: p), k < best { best = k }
                                sums.0 += Int(p & 0xFF); sums.1 += Int(p >> 8 & 0xFF)
                                sums.2 += Int(p >> 16 & 0xFF); sums.3 += Int(p >> 24)
                                n += 1
                            }
                        }
                        if best < keeping.count {
                            dst[by * w + bx] = keeping[best]
                        } else {
                            // Rounded averages of premultiplied channels stay premultiplied (each <= alpha).
                            let half = n / 2
                            dst[by * w + bx] = UInt32((sums.0 + half) / n) | UInt32((sums.1 + half) / n) << 8
                                | UInt32((sums.2 + half) / n) << 16 | UInt32((sums.3 + half) / n) << 24
                        }
                    }
                }
            }
        }
        return out
    }
}
