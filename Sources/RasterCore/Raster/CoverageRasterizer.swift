/// Exact-area anti-aliasing: turns a shape in device pixels into one coverage byte per pixel, row by row.
///
/// Paths use signed-area accumulation: every edge adds, to the cells of each row it crosses, the exact
/// area it covers to its right, signed by its direction; a running sum along the row then gives each
/// pixel's winding-weighted coverage, which is clamped to 0…1 (non-zero winding). Curves are flattened to
/// within ``flatteningTolerance`` pixels first. Rows are processed in bands, so scratch memory is bounded
/// by `bandHeight × width` whatever the shape's size.
///
/// Axis-aligned rectangles skip all that: a pixel's coverage is the product of its horizontal and
/// vertical overlap with the rectangle.
///
/// Coverage is handed out one row at a time, as `(y, x0, coverage)` with `coverage[i]` for pixel
/// `x0 + i`, plus a range of pixels known to be fully covered so that solid fills can take a fast path.
final class CoverageRasterizer {
    /// How far a flattened curve may stray from the true curve, in device pixels.
    static let flatteningTolerance = 0.1
    /// Rows accumulated at once.
    static let bandHeight = 16
    /// An upper bound on the segments one curve is split into, so absurd coordinates cannot make work
    /// without bound.
    static let maxCurveSegments = 4096
    /// How many times a curve that needs more than ``maxCurveSegments`` is halved, at most, to leave what
    /// lies outside the clip as chords: 48 (halving 48 times takes a curve 2⁴⁸ pixels long to under one).
    static let maxCurveSplits = 48

    struct Line { var x0, y0, x1, y1: Double; var winding: Float }

    /// One row of coverage handed to a blender.
    struct Row {
        var y: Int
        var x0: Int
        var coverage: UnsafeBufferPointer<UInt8>
        /// Pixels `full.lowerBound ..< full.upperBound` (device x) have coverage 255.
        var full: Range<Int>
    }

    // Scratch of one rasterizer, used by one thread at a time and only by its own methods, none of which
    // holds an access across a call that could touch the same property: the runtime exclusivity checks
    // (a tenth of a flat frame's rasterizing, `bench --skip-encode`) are left out.
    @exclusivity(unchecked) private var lines: [Line] = []
    @exclusivity(unchecked) private var clipped: [Line] = []
    @exclusivity(unchecked) private var active: [Line] = []
    @exclusivity(unchecked) private var cells = UnsafeMutablePointer<Float>.allocate(capacity: 0)
    @exclusivity(unchecked) private var cellCapacity = 0
    @exclusivity(unchecked) private var bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: 0)
    @exclusivity(unchecked) private var byteCapacity = 0
    @exclusivity(unchecked) private var rowExtent: [(min: Int, max: Int)] = Array(repeating: (Int.max, -1), count: bandHeight)

    deinit {
        cells.deallocate()
        bytes.deallocate()
    }

    private func reserveBytes(_ n: Int) {
        if n > byteCapacity {
            bytes.deallocate()
            byteCapacity = max(n, byteCapacity * 2)
            bytes = .allocate(capacity: byteCapacity)
        }
    }

    // MARK: Rectangles

    /// Coverage of an axis-aligned rectangle given in device pixels, within `clip`.
    func rasterizeRect(_ rect: Rect, within clip: PixelRect, _ emit: (Row) -> Void) {
        guard rect.isFinite, !rect.isEmpty, !clip.isEmpty else { return }
        let r = rect.standardized
        // Written out rather than through PixelRect(enclosing:): on this hot path the shared helper
        // measured 0.3 ms a frame slower in the reference scene.
        let x0 = max(PixelMath.clampedInt(r.minX.rounded(.down)), clip.minX)
        let x1 = min(PixelMath.clampedInt(r.maxX.rounded(.up)), clip.maxX)
        let y0 = max(PixelMath.clampedInt(r.minY.rounded(.down)), clip.minY)
        let y1 = min(PixelMath.clampedInt(r.maxY.rounded(.up)), clip.maxY)
        guard x0 < x1, y0 < y1 else { return }
        let count = x1 - x0
        reserveBytes(2 * count)
        // Row layout: the horizontal coverage of every column once (for rows wholly inside), and a second
        // buffer for the partial rows at the top and bottom.
        let columns = bytes, partial = bytes + count
        // Only the first and last columns can be partly covered: every column between them lies inside
        // the rectangle (its coverage is exactly 1).
        func fraction(_ i: Int) -> Double {
            let px = Double(x0 + i)
            return min(r.maxX, px + 1) - max(r.minX, px)
        }
        let firstFraction = fraction(0), lastFraction = fraction(count - 1)
        columns[0] = PixelMath.coverageByte(firstFraction)
        columns[count - 1] = PixelMath.coverageByte(lastFraction)
        if count > 2 { (columns + 1).update(repeating: 255, count: count - 2) }
        // The fully covered columns: the inner ones, and the first and last when they are whole.
        var fullStart = count, fullEnd = 0
        if count > 2 { fullStart = 1; fullEnd = count - 1 }
        if firstFraction >= 1 { fullStart = 0; fullEnd = max(fullEnd, 1) }
        if lastFraction >= 1 { fullStart = min(fullStart, count - 1); fullEnd = count }
        let full = fullStart < fullEnd ? x0 + fullStart..<x0 + fullEnd : x1..<x1
        for y in y0..<y1 {
            let py = Double(y)
            let fy = min(r.maxY, py + 1) - max(r.minY, py)
            if fy >= 1 {
                emit(Row(y: y, x0: x0, coverage: UnsafeBufferPointer(start: columns, count: count), full: full))
            } else {
                partial[0] = PixelMath.coverageByte(firstFraction * fy)
                partial[count - 1] = PixelMath.coverageByte(lastFraction * fy)
                if count > 2 { (partial + 1).update(repeating: PixelMath.coverageByte(fy), count: count - 2) }
                emit(Row(y: y, x0: x0, coverage: UnsafeBufferPointer(start: partial, count: count), full: x1..<x1))
            }
        }
    }

    // MARK: Paths

    /// Coverage of `path` mapped through `transform` into device pixels, within `clip`, by `rule`.
    /// A path with a NaN or infinite point draws nothing.
    func rasterizePath(_ path: Path, transform: Transform2D, within clip: PixelRect, rule: FillRule = .nonZero, _ emit: (Row) -> Void) {
        guard !clip.isEmpty, transform.isFinite, flatten(path, transform, within: clip) else { return }
        var minY = Double.infinity, maxY = -Double.infinity, minX = Double.infinity, maxX = -Double.infinity
        for l in lines {
            minY = min(minY, l.y0); maxY = max(maxY, l.y1)
            minX = min(minX, l.x0, l.x1); maxX = max(maxX, l.x0, l.x1)
        }
        guard minY < maxY else { return }
        let box = clip.intersection(PixelRect(
            x: PixelMath.clampedInt(minX.rounded(.down)), y: PixelMath.clampedInt(minY.rounded(.down)),
            width: PixelMath.clampedInt(maxX.rounded(.up)) - PixelMath.clampedInt(minX.rounded(.down)),
            height: PixelMath.clampedInt(maxY.rounded(.up)) - PixelMath.clampedInt(minY.rounded(.down))))
        guard !box.isEmpty else { return }
        clipLinesHorizontally(to: box)

        let width = box.width, stride = width + 2
        let band = CoverageRasterizer.bandHeight
        if stride * band > cellCapacity {
            cells.deallocate()
            cellCapacity = stride * band
            cells = .allocate(capacity: cellCapacity)
            cells.initialize(repeating: 0, count: cellCapacity)
        }
        reserveBytes(width)
        // Lines enter the active list when the bands reach their top and leave it after their bottom,
        // so each band looks only at the lines that can touch it.
        clipped.sort { $0.y0 < $1.y0 }
        var next = 0
        active.removeAll(keepingCapacity: true)
        for bandTop in Swift.stride(from: box.minY, to: box.maxY, by: band) {
            let bandBottom = min(bandTop + band, box.maxY)
            for r in 0..<(bandBottom - bandTop) { rowExtent[r] = (Int.max, -1) }
            while next < clipped.count, clipped[next].y0 < Double(bandBottom) { active.append(clipped[next]); next += 1 }
            active.removeAll { $0.y1 <= Double(bandTop) }
            for l in active {
                accumulate(l, bandTop: bandTop, bandBottom: bandBottom, stride: stride)
            }
            for r in 0..<(bandBottom - bandTop) {
                // Specialized per rule, so the non-zero loop carries no test for the other.
                if rule == .evenOdd {
                    emitRow(r, y: bandTop + r, box: box, stride: stride, EvenOddCoverage.self, emit)
                } else {
                    emitRow(r, y: bandTop + r, box: box, stride: stride, NonZeroCoverage.self, emit)
                }
            }
        }
    }

    /// Device coordinates are clamped to ±this, only so that curve arithmetic cannot overflow to
    /// infinity. Nearer points are kept exactly: each flattened segment is clipped along its own course.
    static let coordinateLimit = 1e300

    /// Turns the path into device-space lines, closing every subpath. False when a point is not finite.
    private func flatten(_ path: Path, _ transform: Transform2D, within clip: PixelRect) -> Bool {
        let limit = CoverageRasterizer.coordinateLimit
        let box = (minX: Double(clip.minX), minY: Double(clip.minY), maxX: Double(clip.maxX), maxY: Double(clip.maxY))
        // A curve whose control points all lie on one side of the clip never enters it, and then its
        // chord covers exactly what it covers: nothing above, below or to the right; to the left, the
        // same winding for every row (a continuous path from p0 to p3 crosses each row left of the box
        // as often, net, as the straight line does). So it is not subdivided at all.
        func outside(_ points: Point...) -> Bool {
            points.allSatisfy { $0.x <= box.minX } || points.allSatisfy { $0.x >= box.maxX }
                || points.allSatisfy { $0.y <= box.minY } || points.allSatisfy { $0.y >= box.maxY }
        }
        func t(_ p: Point) -> Point {
            let d = transform.apply(to: p)
            guard d.isFinite else { return d }
            return Point(x: min(max(d.x, -limit), limit), y: min(max(d.y, -limit), limit))
        }
        lines.removeAll(keepingCapacity: true)
        // `open`: a subpath is being built. `hasCurrent`: there is a current point (after a close it is the
        // closed subpath's start, where the next subpath begins, as in Core Graphics).
        var start = Point.zero, current = Point.zero, open = false, hasCurrent = false
        let tol = CoverageRasterizer.flatteningTolerance
        func add(_ a: Point, _ b: Point) {
            if a.y < b.y { lines.append(Line(x0: a.x, y0: a.y, x1: b.x, y1: b.y, winding: 1)) }
            else if a.y > b.y { lines.append(Line(x0: b.x, y0: b.y, x1: a.x, y1: a.y, winding: -1)) }
        }
        func closeSubpath() { if open { add(current, start); current = start; open = false } }
        // A segment without a current point starts its subpath at `p`.
        func begin(orAt p: Point) {
            if !hasCurrent { current = p; hasCurrent = true }
            if !open { start = current; open = true }
        }
        func inside(_ points: Point...) -> Bool {
            points.allSatisfy { $0.x >= box.minX && $0.x <= box.maxX && $0.y >= box.minY && $0.y <= box.maxY }
        }
        // A curve flattened in uniform steps, as many as its tolerance needs (up to maxCurveSegments). One
        // that needs more (control points far off, a curve longer than any canvas) is split in halves, and
        // its halves again while they reach past the clip, so that the parts outside become chords and only
        // what can be seen is flattened finely: work and memory stay bounded whatever the coordinates.
        let cap = Double(CoverageRasterizer.maxCurveSegments * CoverageRasterizer.maxCurveSegments)
        func quad(_ p0: Point, _ p1: Point, _ p2: Point) {
            if outside(p0, p1, p2) { add(current, p2); current = p2; return }
            // Uniform steps bound the chord error by |p0 − 2p1 + p2| / (4n²).
            let dd = p0 - p1 * 2 + p2
            let squared = (dd.x * dd.x + dd.y * dd.y).squareRoot() / (4 * tol)
            if !(squared <= cap) {
                // (Split as the same curve written as a cubic.)
                cubic(p0, p0 + (p1 - p0) * (2.0 / 3), p2 + (p1 - p2) * (2.0 / 3), p2, depth: 0)
                return
            }
            let n = segmentCount(squared)
            for i in 1...n {
                let s = Double(i) / Double(n), u = 1 - s
                let q = p0 * (u * u) + p1 * (2 * u * s) + p2 * (s * s)
                add(current, q); current = q
            }
        }
        func cubic(_ p0: Point, _ p1: Point, _ p2: Point, _ p3: Point, depth: Int) {
            if outside(p0, p1, p2, p3) { add(current, p3); current = p3; return }
            // |B''| ≤ 6·max(|p0 − 2p1 + p2|, |p1 − 2p2 + p3|), and the chord error is |B''|/(8n²).
            let d1 = p0 - p1 * 2 + p2, d2 = p1 - p2 * 2 + p3
            let m = max((d1.x * d1.x + d1.y * d1.y).squareRoot(), (d2.x * d2.x + d2.y * d2.y).squareRoot())
            let squared = 6 * m / (8 * tol)
            // (A curve within the limit is flattened as it always was, whole; only split ones split on.)
            let split = depth < CoverageRasterizer.maxCurveSplits
                && (!(squared <= cap) || (depth > 0 && squared > 256 && !inside(p0, p1, p2, p3)))
            if split {
                let a = (p0 + p1) * 0.5, b = (p1 + p2) * 0.5, c = (p2 + p3) * 0.5
                let ab = (a + b) * 0.5, bc = (b + c) * 0.5, middle = (ab + bc) * 0.5
                cubic(p0, a, ab, middle, depth: depth + 1)
                cubic(middle, bc, c, p3, depth: depth + 1)
                return
            }
            let n = segmentCount(squared)
            for i in 1...n {
                let s = Double(i) / Double(n), u = 1 - s
                let q = p0 * (u * u * u) + p1 * (3 * u * u * s) + p2 * (3 * u * s * s) + p3 * (s * s * s)
                add(current, q); current = q
            }
        }
        for element in path.elements {
            switch element {
            case .move(let p):
                closeSubpath()
                let d = t(p)
                guard d.isFinite else { return false }
                start = d; current = d; open = true; hasCurrent = true
            case .line(let p):
                let d = t(p)
                guard d.isFinite else { return false }
                begin(orAt: d)
                add(current, d); current = d
            case .quadCurve(let p, let c):
                let p2 = t(p), p1 = t(c)
                guard p1.isFinite, p2.isFinite else { return false }
                begin(orAt: p1)
                quad(current, p1, p2)
            case .curve(let p, let c1, let c2):
                let p3 = t(p), p1 = t(c1), p2 = t(c2)
                guard p1.isFinite, p2.isFinite, p3.isFinite else { return false }
                begin(orAt: p1)
                cubic(current, p1, p2, p3, depth: 0)
            case .close:
                closeSubpath()
            }
        }
        closeSubpath()
        return true
    }

    private func segmentCount(_ squared: Double) -> Int {
        // `squared` is n² at the tolerance; take its root, round up, bound it.
        let n = squared.squareRoot().rounded(.up)
        return n.isFinite ? max(1, min(CoverageRasterizer.maxCurveSegments, Int(n))) : CoverageRasterizer.maxCurveSegments
    }

    /// Converts lines to box-local x and confines them to 0…width: a part left of the box becomes a
    /// vertical line on its left edge (it still winds every pixel to its right); a part right of the box
    /// is dropped (it covers nothing inside).
    private func clipLinesHorizontally(to box: PixelRect) {
        clipped.removeAll(keepingCapacity: true)
        let w = Double(box.width), ox = Double(box.minX)
        for var l in lines {
            l.x0 -= ox; l.x1 -= ox
            split(l, at: 0) { left, right in
                if var left { left.x0 = 0; left.x1 = 0; clipped.append(left) }
                if let right {
                    split(right, at: w) { inside, _ in if let inside { clipped.append(inside) } }
                }
            }
        }
    }

    /// Splits a line at vertical `x` into the part left of it and the part right of it.
    private func split(_ l: Line, at x: Double, _ body: (Line?, Line?) -> Void) {
        let lo = min(l.x0, l.x1), hi = max(l.x0, l.x1)
        if hi <= x { body(l, nil); return }
        if lo >= x { body(nil, l); return }
        let t = (x - l.x0) / (l.x1 - l.x0)
        let y = min(l.y1, max(l.y0, l.y0 + t * (l.y1 - l.y0)))
        let first = Line(x0: l.x0, y0: l.y0, x1: x, y1: y, winding: l.winding)
        let second = Line(x0: x, y0: y, x1: l.x1, y1: l.y1, winding: l.winding)
        if l.x0 < x { body(first, second) } else { body(second, first) }
    }

    /// Adds one line's exact area contribution to the rows of the current band.
    private func accumulate(_ l: Line, bandTop: Int, bandBottom: Int, stride: Int) {
        let dx = l.x1 - l.x0, height = l.y1 - l.y0
        let firstRow = Int(max(l.y0, Double(bandTop)).rounded(.down))
        let lastRow = Int(min(l.y1, Double(bandBottom)).rounded(.up))
        guard firstRow < lastRow else { return }
        for y in firstRow..<lastRow {
            let top = max(Double(y), l.y0), bottom = min(Double(y + 1), l.y1)
            let dy = bottom - top
            if dy <= 0 { continue }
            // x by the fraction of the line's height, which stays in 0…1 even for nearly flat lines.
            let xa = l.x0 + dx * ((top - l.y0) / height), xb = l.x0 + dx * ((bottom - l.y0) / height)
            let r = y - bandTop
            accumulateRow(cells + r * stride, row: r, xa: xa, xb: xb, d: Float(dy) * l.winding, limit: stride - 2)
        }
    }

    /// The area to the right of one segment within one row, spread over the cells it crosses so that a
    /// running sum gives each pixel's coverage.
    @inline(__always)
    private func accumulateRow(_ row: UnsafeMutablePointer<Float>, row r: Int, xa: Double, xb: Double, d: Float, limit: Int) {
        let x0 = min(max(min(xa, xb), 0), Double(limit)), x1 = min(max(max(xa, xb), 0), Double(limit))
        let x0floor = x0.rounded(.down), x0i = Int(x0floor)
        let x1ceil = x1.rounded(.up), x1i = Int(x1ceil)
        rowExtent[r].min = min(rowExtent[r].min, x0i)
        if x1i <= x0i + 1 {
            // Within one pixel: it is covered right of the segment's mean x.
            let xmf = Float(0.5 * (x0 + x1) - x0floor)
            row[x0i] += d - d * xmf
            row[x0i + 1] += d * xmf
            rowExtent[r].max = max(rowExtent[r].max, x0i + 1)
        } else {
            let s = Float(1 / (x1 - x0))
            let x0f = Float(x0 - x0floor)
            let a0 = 0.5 * s * (1 - x0f) * (1 - x0f)
            let x1f = Float(x1 - x1ceil + 1)
            let am = 0.5 * s * x1f * x1f
            row[x0i] += d * a0
            if x1i == x0i + 2 {
                row[x0i + 1] += d * (1 - a0 - am)
            } else {
                let a1 = s * (1.5 - x0f)
                row[x0i + 1] += d * (a1 - a0)
                var xi = x0i + 2
                while xi < x1i - 1 { row[xi] += d * s; xi += 1 }
                let a2 = a1 + Float(x1i - x0i - 3) * s
                row[x1i - 1] += d * (1 - a2 - am)
            }
            row[x1i] += d * am
            rowExtent[r].max = max(rowExtent[r].max, x1i)
        }
    }

    /// Sums one accumulated row into coverage bytes, clears its cells and hands it out.
    private func emitRow<Rule: CoverageRule>(_ r: Int, y: Int, box: PixelRect, stride: Int, _ rule: Rule.Type, _ emit: (Row) -> Void) {
        let extent = rowExtent[r]
        guard extent.max >= 0 else { return }
        let row = cells + r * stride, width = box.width
        let start = min(extent.min, width)
        var acc: Float = 0
        var end = min(extent.max + 1, width)
        // Between a shape's edges most cells are untouched: eight zero cells at a time leave the sum, and so
        // the byte, as it is (the same bytes as adding them one by one). A run of such eights is found whole
        // and its bytes written at once; the longest run of 255 is handed out as fully covered.
        var bestRun = 0..<0
        /// Whether the eight cells from `x` are all zero.
        @inline(__always) func untouched(_ x: Int) -> Bool {
            let w = UnsafeRawPointer(row + x)
            return w.loadUnaligned(as: UInt64.self) | w.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
                | w.loadUnaligned(fromByteOffset: 16, as: UInt64.self) | w.loadUnaligned(fromByteOffset: 24, as: UInt64.self) == 0
        }
        var x = start
        while x < end {
            if x + 8 <= end, untouched(x) {
                var runEnd = x + 8
                while runEnd + 8 <= end, untouched(runEnd) { runEnd += 8 }
                let value = Rule.byte(acc)
                (bytes + (x - start)).update(repeating: value, count: runEnd - x)
                if value == 255, runEnd - x > bestRun.count { bestRun = x..<runEnd }
                x = runEnd
                continue
            }
            acc += row[x]
            bytes[x - start] = Rule.byte(acc)
            x += 1
        }
        (row + start).update(repeating: 0, count: extent.max + 1 - start)
        // Past the last touched cell the sum no longer changes: a constant run to the box's right edge.
        var full = bestRun.isEmpty ? box.minX + width ..< box.minX + width : box.minX + bestRun.lowerBound ..< box.minX + bestRun.upperBound
        let tail = Rule.byte(acc)
        if tail > 0 && end < width {
            (bytes + (end - start)).update(repeating: tail, count: width - end)
            if tail == 255 { full = box.minX + end ..< box.minX + width }
            end = width
        }
        guard end > start else { return }
        emit(Row(y: y, x0: box.minX + start,
                 coverage: UnsafeBufferPointer(start: bytes, count: end - start), full: full))
    }
}

/// How a pixel's accumulated signed area (its winding-weighted coverage) becomes a coverage byte.
protocol CoverageRule {
    static func byte(_ area: Float) -> UInt8
}

/// Non-zero: |area| clamped to 1.
enum NonZeroCoverage: CoverageRule {
    @inline(__always) static func byte(_ area: Float) -> UInt8 {
        UInt8(truncatingIfNeeded: Int(min(1, abs(area)) * 255 + 0.5))
    }
}

/// Even-odd: |area| folded (0 at every even winding, 1 at every odd one, linear between); exact away
/// from edges, as the non-zero clamp is.
enum EvenOddCoverage: CoverageRule {
    @inline(__always) static func byte(_ area: Float) -> UInt8 {
        var a = abs(area)
        a -= 2 * (a * 0.5).rounded(.down)
        if a > 1 { a = 2 - a }
        return UInt8(truncatingIfNeeded: Int(a * 255 + 0.5))
    }
}
