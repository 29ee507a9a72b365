import Foundation
import RasterCore

/// Where every header, row and footer of a table goes (points, in the table's content coordinates): the
/// geometry only, computed from the counts and heights, so that an update can compare the layout before
/// with the layout after. Finding the rows in a rectangle is a binary search, so a table of 10,000 rows
/// costs no more per frame than one of 20.
package struct TableLayout {
    package struct Section {
        package var top: Double
        package var headerHeight: Double
        /// The top of each row relative to the section's first row, and one more entry: the rows' total.
        package var rowOffsets: [Double]
        package var footerHeight: Double
        package var rowCount: Int { rowOffsets.count - 1 }
        package var rowsTop: Double { top + headerHeight }
        package var rowsHeight: Double { rowOffsets[rowOffsets.count - 1] }
        package var height: Double { headerHeight + rowsHeight + footerHeight }
        package var bottom: Double { top + height }
    }

    package let style: TableViewStyle
    package let width: Double
    /// Points from each side to a row: a grouped section's inset unless given.
    package let rowX: Double
    package private(set) var sections: [Section] = []
    package var contentHeight: Double { sections.last?.bottom ?? 0 }

    /// A layout `width` points wide; rows are inset `rowInset` points from each side (default: a grouped
    /// section's inset in a grouped table, none in a plain one).
    package init(style: TableViewStyle, width: Double, rowInset: Double? = nil) {
        self.style = style
        self.width = width
        self.rowX = rowInset ?? (style == .grouped ? TableViewMetrics.groupedSideInset : 0)
    }

    /// Appends a section; heights are points.
    package mutating func appendSection(header: Double, rowHeights: [Double], footer: Double) {
        var offsets = [Double](repeating: 0, count: rowHeights.count + 1)
        var y = 0.0
        for (i, h) in rowHeights.enumerated() {
            offsets[i] = y
            y += h
        }
        offsets[rowHeights.count] = y
        let top = sections.last?.bottom ?? 0
        sections.append(Section(top: top, headerHeight: header, rowOffsets: offsets, footerHeight: footer))
    }

    /// Sets the height of the row at `indexPath` (points), moving the rows and sections below it: the
    /// cost is the rows after it in its section and the sections after it, not a new layout.
    package mutating func setHeight(_ height: Double, forRowAt indexPath: IndexPath) {
        guard contains(indexPath) else { return }
        let s = indexPath.section, r = indexPath.row
        let delta = height - (sections[s].rowOffsets[r + 1] - sections[s].rowOffsets[r])
        guard delta != 0 else { return }
        for i in (r + 1)..<sections[s].rowOffsets.count { sections[s].rowOffsets[i] += delta }
        for t in (s + 1)..<sections.count { sections[t].top += delta }
    }

    package var numberOfSections: Int { sections.count }
    package func numberOfRows(inSection section: Int) -> Int { sections[section].rowCount }

    package func contains(_ indexPath: IndexPath) -> Bool {
        indexPath.count == 2 && sections.indices.contains(indexPath.section) && (0..<sections[indexPath.section].rowCount).contains(indexPath.row)
    }

    private var rowWidth: Double { max(0, width - 2 * rowX) }

    package func rectForRow(at indexPath: IndexPath) -> Rect {
        let s = sections[indexPath.section]
        let y = s.rowsTop + s.rowOffsets[indexPath.row]
        return Rect(x: rowX, y: y, width: rowWidth, height: s.rowOffsets[indexPath.row + 1] - s.rowOffsets[indexPath.row])
    }

    package func rectForHeader(inSection section: Int) -> Rect {
        Rect(x: 0, y: sections[section].top, width: width, height: sections[section].headerHeight)
    }

    package func rectForFooter(inSection section: Int) -> Rect {
        let s = sections[section]
        return Rect(x: 0, y: s.rowsTop + s.rowsHeight, width: width, height: s.footerHeight)
    }

    /// The whole section (header, rows, footer).
    package func rect(ofSection section: Int) -> Rect {
        Rect(x: 0, y: sections[section].top, width: width, height: sections[section].height)
    }

    /// The corners and separator of a row in this layout.
    package func position(of indexPath: IndexPath) -> CellSectionPosition {
        guard style == .grouped else { return .middle }
        let count = sections[indexPath.section].rowCount
        return CellSectionPosition(roundsTop: indexPath.row == 0, roundsBottom: indexPath.row == count - 1)
    }

    package func drawsSeparator(below indexPath: IndexPath) -> Bool {
        style == .plain || indexPath.row < sections[indexPath.section].rowCount - 1
    }

    /// The sections that overlap the vertical span `minY..<maxY`.
    package func sections(overlapping minY: Double, _ maxY: Double) -> Range<Int> {
        guard !sections.isEmpty, maxY > minY else { return 0..<0 }
        let first = lowerBound(sections.count) { sections[$0].bottom <= minY }
        let end = lowerBound(sections.count) { sections[$0].top < maxY }
        return first..<max(first, end)
    }

    /// The rows whose rectangles overlap the vertical span `minY..<maxY`, in order.
    package func indexPathsForRows(overlapping minY: Double, _ maxY: Double) -> [IndexPath] {
        var result: [IndexPath] = []
        for s in sections(overlapping: minY, maxY) {
            let section = sections[s]
            let localMin = minY - section.rowsTop, localMax = maxY - section.rowsTop
            let count = section.rowCount
            let first = lowerBound(count) { section.rowOffsets[$0 + 1] <= localMin }
            var r = first
            while r < count && section.rowOffsets[r] < localMax {
                if section.rowOffsets[r + 1] > section.rowOffsets[r] || section.rowOffsets[r] >= localMin {
                    result.append(IndexPath(row: r, section: s))
                }
                r += 1
            }
        }
        return result
    }

    /// The first index in `0..<count` for which `isBefore` is false (`isBefore` must be true for a
    /// prefix and false after it).
    private func lowerBound(_ count: Int, _ isBefore: (Int) -> Bool) -> Int {
        var lo = 0, hi = count
        while lo < hi {
            let mid = (lo + hi) / 2
            if isBefore(mid) { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }
}
