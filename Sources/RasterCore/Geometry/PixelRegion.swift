/// A set of whole pixels, as horizontal bands of rows that share the same sorted, disjoint spans of
/// columns: what a display list's fold leaves to one fill (a rectangle less the boxes of everything drawn
/// after it) and keeps from a translucent fill over the whole frame. Pixels of the base bitmap.
package struct PixelRegion: Sendable, Equatable {
    package struct Band: Sendable, Equatable {
        package var minY: Int, maxY: Int
        /// Sorted, disjoint, non-empty and not touching.
        package var spans: [Range<Int>]
    }

    /// Sorted by rows, disjoint; none is empty.
    package private(set) var bands: [Band] = []

    package init() {}

    /// The pixels of `rect` that no rectangle of `holes` contains.
    package init(_ rect: PixelRect, minus holes: [PixelRect]) {
        guard !rect.isEmpty else { return }
        let cuts = holes.map { $0.intersection(rect) }.filter { !$0.isEmpty }
        var rows = Set([rect.minY, rect.maxY])
        for cut in cuts { rows.insert(cut.minY); rows.insert(cut.maxY) }
        let edges = rows.sorted()
        for (y0, y1) in zip(edges, edges.dropFirst()) {
            let covered = PixelRegion.merged(cuts.filter { $0.minY <= y0 && $0.maxY >= y1 }.map { $0.minX..<$0.maxX })
            var spans: [Range<Int>] = [], x = rect.minX
            for c in covered {
                if c.lowerBound > x { spans.append(x..<c.lowerBound) }
                x = max(x, c.upperBound)
            }
            if x < rect.maxX { spans.append(x..<rect.maxX) }
            append(Band(minY: y0, maxY: y1, spans: spans))
        }
    }

    /// Every pixel of any of `regions`.
    package init(union regions: [PixelRegion]) {
        var rows = Set<Int>()
        for region in regions { for band in region.bands { rows.insert(band.minY); rows.insert(band.maxY) } }
        let edges = rows.sorted()
        for (y0, y1) in zip(edges, edges.dropFirst()) {
            append(Band(minY: y0, maxY: y1, spans: PixelRegion.merged(regions.flatMap { $0.spans(atRow: y0) })))
        }
    }

    package var isEmpty: Bool { bands.isEmpty }

    /// How many pixels are in the region.
    package var area: Int { bands.reduce(0) { $0 + ($1.maxY - $1.minY) * $1.spans.reduce(0) { $0 + $1.count } } }

    package func contains(x: Int, y: Int) -> Bool { spans(atRow: y).contains { $0.contains(x) } }

    /// The spans of row `y`, left to right (none outside the region).
    package func spans(atRow y: Int) -> [Range<Int>] {
        var lo = 0, hi = bands.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if bands[mid].maxY <= y { lo = mid + 1 } else { hi = mid }
        }
        return lo < bands.count && bands[lo].minY <= y ? bands[lo].spans : []
    }

    /// A band after the last, joined to it when the spans are the same.
    private mutating func append(_ band: Band) {
        guard !band.spans.isEmpty, band.minY < band.maxY else { return }
        if let last = bands.last, last.maxY == band.minY, last.spans == band.spans {
            bands[bands.count - 1].maxY = band.maxY
        } else {
            bands.append(band)
        }
    }

    /// Ranges sorted and merged where they overlap or touch.
    private static func merged(_ ranges: [Range<Int>]) -> [Range<Int>] {
        var out: [Range<Int>] = []
        for r in ranges.filter({ !$0.isEmpty }).sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = out.last, r.lowerBound <= last.upperBound {
                out[out.count - 1] = last.lowerBound..<max(last.upperBound, r.upperBound)
            } else {
                out.append(r)
            }
        }
        return out
    }
}
