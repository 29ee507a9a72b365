import Foundation

extension Path {
    /// The outline of this path stroked with `style`: a path whose non-zero fill covers exactly what the
    /// stroke covers, in the path's units. Empty when nothing would be stroked (see
    /// ``StrokeStyle/width``, ``StrokeStyle/start``) or when a point is not finite.
    ///
    /// Each stroked piece becomes one outline traced the same way round (its left side forwards, its end
    /// cap, its right side backwards, its start cap), so pieces that overlap add up rather than cancel;
    /// a closed piece becomes two loops, the inner one reversed. Where the offsets of two segments cross
    /// on the inside of a turn they meet at their crossing point; where a segment is too short for that,
    /// the outline runs through the corner itself (the inside then overlaps itself, the same way round).
    ///
    /// - Parameter tolerance: how far the flattened curves, arcs and offsets may stray from the true
    ///   stroke, in the path's units (a `Painter` passes a tenth of a device pixel). A value that is not
    ///   positive and finite means 0.1.
    public func strokeOutline(_ style: StrokeStyle, tolerance: Double) -> Path {
        guard style.strokesSomething, isFinite else { return Path() }
        let stroker = Stroker(style: style, tolerance: tolerance)
        var out = Path()
        for piece in stroker.pieces(of: stroker.contours(of: self)) { stroker.outline(piece, into: &out) }
        return out
    }
}

/// Turns a path into stroke outlines: flattening (curves into polylines fine enough for the offsets),
/// trimming and dashing by length, then offsetting with joins and caps.
struct Stroker {
    /// A point of a flattened subpath. `corner`: the user's join applies here (an end of a path element);
    /// points inside a flattened curve meet smoothly. The tangents (unit, zero when unknown) are the path's
    /// true directions arriving and leaving, which caps and corner joins face (a flattened chord's is off by
    /// up to half its turn).
    struct Vertex {
        var point: Point
        var corner: Bool
        var tangentIn = Point.zero
        var tangentOut = Point.zero

        /// The same vertex met the other way round.
        var reversed: Vertex { Vertex(point: point, corner: corner, tangentIn: tangentOut * -1, tangentOut: tangentIn * -1) }
    }

    /// A flattened subpath; one vertex alone is a zero-length subpath.
    struct Contour {
        var vertices: [Vertex]
        var closed: Bool
    }

    /// A part of a contour to stroke. One vertex alone is a zero-length dash or subpath, drawn as its two
    /// caps facing `direction`.
    struct Piece {
        var vertices: [Vertex]
        var closed: Bool
        var direction = Point(x: 1, y: 0)
    }

    let style: StrokeStyle
    /// Half the line width.
    let halfWidth: Double
    /// The error allowed each of flattening and offsetting (half the caller's tolerance).
    let tolerance: Double
    /// The most a flattened step or an arc step may turn (radians): an offset at `halfWidth` from a chord
    /// turning by θ strays `halfWidth · (1 − cos(θ/2))` from the true offset.
    let maxTurn: Double

    init(style: StrokeStyle, tolerance: Double) {
        self.style = style
        halfWidth = style.width / 2
        self.tolerance = (tolerance.isFinite && tolerance > 0 ? tolerance : 0.1) / 2
        // At most a quarter turn (thin lines), at least 1/1024 of a half turn (enormous ones: a round cap
        // then has at most 1,024 steps, and the error grows with the width instead).
        let ratio = self.tolerance / halfWidth
        maxTurn = max(.pi / 1024, ratio >= 1 ? .pi / 4 : min(.pi / 4, 2 * acos(1 - ratio)))
    }

    // MARK: Flattening

    /// A curve is flattened for a stroke into as many segments as its tolerance needs, up to
    /// ``CoverageRasterizer/maxCurveSegments``. One that needs more than 128 (a quarter circle 1,000
    /// pixels across needs about 70; 128 takes one about 3,000 across, most of it off a phone's screen)
    /// counts what it takes past 128 against a budget of 2¹⁸ for the whole path, and once that is spent
    /// gets 128: only curves reaching far past any canvas get there, where a path of thousands of them
    /// flattened into millions of points (gigabytes, and seconds a frame). Curves that need 128 or fewer
    /// are never counted, whatever else the path holds.
    static let freeSegments = 128
    static let maxExtraSegments = 1 << 18

    /// The path's subpaths as polylines. Subpaths with nothing but a move are dropped; a line or curve
    /// that comes back to its start is kept as one point.
    func contours(of path: Path) -> [Contour] {
        var result: [Contour] = []
        var vertices: [Vertex] = []
        var start = Point.zero, current = Point.zero, hasCurrent = false, open = false, drew = false
        // The curves' segments past their first freeSegments so far (see maxExtraSegments).
        var extraSegments = 0
        // Segments shorter than this are dropped: their direction would be noise.
        let epsilon = tolerance * 1e-3
        func near(_ a: Point, _ b: Point) -> Bool { abs(a.x - b.x) <= epsilon && abs(a.y - b.y) <= epsilon }
        /// Adds a point reached along `tangent`; an element's first step also sets the tangent leaving the
        /// point before it.
        func append(_ p: Point, corner: Bool, arriving tangent: Point, leavingPrevious: Point?) {
            guard let last = vertices.last else { return }
            if let leaving = leavingPrevious { vertices[vertices.count - 1].tangentOut = leaving }
            if near(last.point, p) {
                if corner { vertices[vertices.count - 1].corner = true; vertices[vertices.count - 1].tangentIn = tangent }
                return
            }
            vertices.append(Vertex(point: p, corner: corner, tangentIn: tangent))
        }
        func finish(closed: Bool) {
            defer { vertices = []; open = false; drew = false }
            guard open, drew, !vertices.isEmpty else { return }
            var closedNow = closed && vertices.count > 1
            if closedNow {
                // The closing line; a subpath already back at its start keeps its last element's tangent.
                let first = vertices[0], last = vertices[vertices.count - 1]
                if near(first.point, last.point) {
                    vertices[0].tangentIn = last.tangentIn
                    vertices.removeLast()
                    closedNow = vertices.count > 1
                } else {
                    let d = (first.point - last.point).normalized
                    vertices[vertices.count - 1].tangentOut = d
                    vertices[0].tangentIn = d
                }
            }
            result.append(Contour(vertices: vertices, closed: closedNow))
        }
        // A segment without a current point starts its subpath there, as the fill rasterizer does.
        func begin(orAt p: Point) {
            if !hasCurrent { current = p; hasCurrent = true }
            if !open { start = current; vertices = [Vertex(point: current, corner: true)]; open = true }
        }
        func cubic(_ p0: Point, _ p1: Point, _ p2: Point, _ p3: Point) {
            // Chord error: |B''| ≤ 6·max(|p0 − 2p1 + p2|, |p1 − 2p2 + p3|), and a step's error is |B''|/(8n²).
            let d1 = p0 - p1 * 2 + p2, d2 = p1 - p2 * 2 + p3
            let m = max(d1.length, d2.length)
            var n = (0.75 * m / tolerance).squareRoot().rounded(.up)
            // Turning: the tangent stays within the control polygon's directions, so their turns bound it.
            var turn = 0.0, previous: Point?
            for v in [p1 - p0, p2 - p1, p3 - p2] where v.length > 0 {
                if let previous { turn += Stroker.angle(previous, v) }
                previous = v
            }
            n = max(n, (turn / maxTurn).rounded(.up))
            // (Past a curve's first freeSegments, within the path's budget: see maxExtraSegments.)
            let limit = min(CoverageRasterizer.maxCurveSegments, Stroker.freeSegments + max(0, Stroker.maxExtraSegments - extraSegments))
            let count = n.isFinite && n < Double(limit) ? max(1, Int(n)) : limit
            extraSegments += max(0, count - Stroker.freeSegments)
            // B'(s) = 3[(1−s)²(p1−p0) + 2s(1−s)(p2−p1) + s²(p3−p2)]; where it vanishes at an end the
            // direction is the next control point's.
            func tangent(_ s: Double) -> Point {
                let u = 1 - s
                let d = (p1 - p0) * (u * u) + (p2 - p1) * (2 * s * u) + (p3 - p2) * (s * s)
                if d.length > 0 { return d.normalized }
                return (s < 0.5 ? (p2 - p0).length > 0 ? p2 - p0 : p3 - p0 : (p3 - p1).length > 0 ? p3 - p1 : p3 - p0).normalized
            }
            for i in 1...count {
                let s = Double(i) / Double(count), u = 1 - s
                let q = i == count ? p3 : p0 * (u * u * u) + p1 * (3 * u * u * s) + p2 * (3 * u * s * s) + p3 * (s * s * s)
                let t = tangent(s)
                append(q, corner: i == count, arriving: t, leavingPrevious: i == 1 ? tangent(0) : nil)
                if i < count { vertices[vertices.count - 1].tangentOut = t }
            }
        }
        for element in path.elements {
            switch element {
            case .move(let p):
                finish(closed: false)
                start = p; current = p; hasCurrent = true
                vertices = [Vertex(point: p, corner: true)]; open = true
            case .line(let p):
                begin(orAt: p)
                let d = (p - current).normalized
                append(p, corner: true, arriving: d, leavingPrevious: d.length > 0 ? d : nil); drew = true; current = p
            case .quadCurve(let p, let c):
                begin(orAt: c)
                let p0 = current
                cubic(p0, p0 + (c - p0) * (2.0 / 3), p + (c - p) * (2.0 / 3), p); drew = true; current = p
            case .curve(let p, let c1, let c2):
                begin(orAt: c1)
                cubic(current, c1, c2, p); drew = true; current = p
            case .close:
                finish(closed: true)
                current = start
            }
        }
        finish(closed: false)
        return result
    }

    // MARK: Trimming and dashing

    /// The parts of the contours that are stroked: within `start…end` of the whole length and, with a dash
    /// pattern, within a dash. A closed contour stroked all round stays closed; dashes that meet across a
    /// closed contour's start are one piece.
    func pieces(of contours: [Contour]) -> [Piece] {
        let lengths = contours.map(Stroker.cumulativeLengths)
        let total = lengths.reduce(0) { $0 + ($1.last ?? 0) }
        let startFraction = style.start.clamped01, endFraction = style.end.clamped01
        let trimmed = startFraction > 0 || endFraction < 1
        let trimStart = startFraction * total, trimEnd = endFraction * total
        var pattern = style.usableDashes
        if let p = pattern {
            let period = p.reduce(0, +)
            let dashCount = lengths.reduce(0.0) { $0 + (($1.last ?? 0) / period + 1) * Double(p.count / 2) }
            if !(dashCount <= Double(StrokeStyle.maxDashCount)) { pattern = nil }
        }
        var pieces: [Piece] = []
        var offset = 0.0
        for (contour, cumulative) in zip(contours, lengths) {
            let length = cumulative.last ?? 0
            defer { offset += length }
            if contour.vertices.count == 1 {
                let inTrim = !trimmed || (trimStart <= offset && offset <= trimEnd)
                let inDash = pattern.map { Stroker.startsInDash($0, phase: style.dashPhase) } ?? true
                if inTrim && inDash { pieces.append(Piece(vertices: contour.vertices, closed: false)) }
                continue
            }
            let a = max(0, trimStart - offset), b = min(length, trimEnd - offset)
            guard a < b else { continue }
            let walk = Stroker.walk(contour)
            let whole = a <= 0 && b >= length
            var intervals = pattern.map { Stroker.dashIntervals($0, phase: style.dashPhase, length: length, closed: contour.closed) }
                ?? [(0, length)]
            if contour.closed && whole {
                if intervals.count == 1 && intervals[0].0 <= 0 && intervals[0].1 >= length {
                    pieces.append(Piece(vertices: contour.vertices, closed: true))
                    continue
                }
                if intervals.count > 1, let first = intervals.first, let last = intervals.last,
                   first.0 <= 0, first.1 > 0, last.1 >= length, last.0 < length {
                    // A dash running over the start: one piece from the last dash's start round to the first's end.
                    intervals.removeFirst(); intervals.removeLast()
                    let tail = Stroker.polyline(walk, cumulative, from: last.0, to: length)
                    let head = Stroker.polyline(walk, cumulative, from: 0, to: first.1)
                    var merged = tail
                    merged.vertices[merged.vertices.count - 1] = contour.vertices[0]
                    merged.vertices += head.vertices.dropFirst()
                    pieces.append(merged)
                }
            }
            for (lo, hi) in intervals {
                let from = max(lo, a), to = min(hi, b)
                // A zero-length dash is kept (its caps draw a dot) when it lies within the trim.
                guard from < to || (lo == hi && from == to) else { continue }
                pieces.append(Stroker.polyline(walk, cumulative, from: from, to: to))
            }
        }
        return pieces
    }

    /// The distance along the contour to each point, and last the whole length (a closed contour's includes
    /// the segment back to its start).
    static func cumulativeLengths(_ contour: Contour) -> [Double] {
        var result = [0.0]
        let points = contour.vertices.map(\.point)
        guard points.count > 1 else { return result }
        for i in 1..<points.count { result.append(result[i - 1] + (points[i] - points[i - 1]).length) }
        if contour.closed { result.append(result[result.count - 1] + (points[0] - points[points.count - 1]).length) }
        return result
    }

    /// The dashes (on intervals) of `pattern` along a contour `length` long, clipped to it. Zero-length
    /// dashes are kept as empty intervals (a closed contour's at its end is the one at its start).
    static func dashIntervals(_ pattern: [Double], phase: Double, length: Double, closed: Bool) -> [(Double, Double)] {
        let period = pattern.reduce(0, +)
        var shift = phase.isFinite ? phase.truncatingRemainder(dividingBy: period) : 0
        if shift < 0 { shift += period }
        var result: [(Double, Double)] = []
        var position = -shift, index = 0
        while position < length || (!closed && position == length) {
            let dash = pattern[index]
            if index % 2 == 0 {
                let lo = max(0, position), hi = min(length, position + dash)
                if lo < hi || (dash == 0 && position >= 0) { result.append((lo, hi)) }
            }
            position += dash
            index = (index + 1) % pattern.count
        }
        return result
    }

    /// A contour's vertices in the order its length runs: a closed one's first again at the end.
    static func walk(_ contour: Contour) -> [Vertex] {
        contour.closed ? contour.vertices + [contour.vertices[0]] : contour.vertices
    }

    /// Whether a contour's start lies in a dash (a zero-length subpath is drawn there only then).
    static func startsInDash(_ pattern: [Double], phase: Double) -> Bool {
        let period = pattern.reduce(0, +)
        var position = -(phase.isFinite ? phase.truncatingRemainder(dividingBy: period) : 0)
        if position > 0 { position -= period }
        var index = 0
        while true {
            let end = position + pattern[index]
            if end > 0 || (end == 0 && position == 0 && pattern[index] == 0) { return index % 2 == 0 }
            position = end
            index = (index + 1) % pattern.count
        }
    }

    /// The part of a contour between two distances along it (`from` ≤ `to`); one point, facing the contour's
    /// direction there, when they are equal.
    /// `vertices` are the contour's with, for a closed one, its first again at the end (see ``walk(_:)``).
    static func polyline(_ vertices: [Vertex], _ cumulative: [Double], from: Double, to: Double) -> Piece {
        // The segment holding `from`: the last whose start is at or before it (a binary search, so that
        // thousands of dashes along a long curve cost their own length each, not the curve's).
        var lo = 0, hi = vertices.count - 2
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if cumulative[mid] <= from { lo = mid } else { hi = mid - 1 }
        }
        let k = max(0, lo)
        /// The point at a distance along segment `i`, facing the tangent between its ends' (exact for lines).
        func vertex(at distance: Double, segment i: Int) -> Vertex {
            let a = vertices[i], b = vertices[i + 1]
            let span = cumulative[i + 1] - cumulative[i]
            let t = span > 0 ? min(1, max(0, (distance - cumulative[i]) / span)) : 0
            if t == 1 { return Vertex(point: b.point, corner: true, tangentIn: b.tangentIn, tangentOut: b.tangentIn) }
            if t == 0 { return Vertex(point: a.point, corner: true, tangentIn: a.tangentOut, tangentOut: a.tangentOut) }
            var d = (a.tangentOut * (1 - t) + b.tangentIn * t).normalized
            if d.length == 0 { d = (b.point - a.point).normalized }
            return Vertex(point: a.point + (b.point - a.point) * t, corner: true, tangentIn: d, tangentOut: d)
        }
        let first = vertex(at: from, segment: k)
        if from == to {
            var d = first.tangentOut
            if d.length == 0 { d = (vertices[k + 1].point - vertices[k].point).normalized }
            return Piece(vertices: [first], closed: false, direction: d)
        }
        var result = [first]
        var j = k + 1
        while j < vertices.count - 1, cumulative[j] < to {
            result.append(vertices[j])
            j += 1
        }
        let last = vertex(at: to, segment: j - 1)
        if result[result.count - 1].point != last.point { result.append(last) }
        return Piece(vertices: result, closed: false)
    }

    // MARK: Outlines

    /// Appends the outline of one piece to `out`.
    func outline(_ piece: Piece, into out: inout Path) {
        // Steps too short to have a direction are dropped (a dash's end can fall a rounding error from a
        // vertex).
        let epsilon = tolerance * 1e-3
        var vertices: [Vertex] = []
        for v in piece.vertices {
            if let last = vertices.last, (v.point - last.point).length <= epsilon {
                vertices[vertices.count - 1].corner = last.corner || v.corner
                vertices[vertices.count - 1].tangentOut = v.tangentOut
                continue
            }
            vertices.append(v)
        }
        var closed = piece.closed
        if closed, vertices.count > 1, (vertices[0].point - vertices[vertices.count - 1].point).length <= epsilon {
            vertices[0].tangentIn = vertices[vertices.count - 1].tangentIn
            vertices.removeLast()
        }
        if vertices.count < 2 { vertices = [piece.vertices[0]]; closed = false }
        if vertices.count == 1 {
            guard style.cap != .butt else { return }
            let p = vertices[0].point, d = piece.direction
            let n = Stroker.normal(d) * halfWidth
            var outline = [p + n]
            cap(at: p, direction: d, into: &outline)
            outline.append(p - n)
            cap(at: p, direction: d * -1, into: &outline)
            Stroker.addPolygon(outline, to: &out)
            return
        }
        let reversed = vertices.reversed().map(\.reversed)
        let left = side(vertices, closed: closed)
        let right = side(reversed, closed: closed)
        if closed {
            Stroker.addPolygon(left, to: &out)
            Stroker.addPolygon(right, to: &out)
            return
        }
        let last = vertices[vertices.count - 1], first = vertices[0]
        var outline = left
        cap(at: last.point, direction: Stroker.facing(last.tangentIn, or: last.point - vertices[vertices.count - 2].point), into: &outline)
        outline += right
        cap(at: first.point, direction: Stroker.facing(first.tangentOut * -1, or: first.point - vertices[1].point), into: &outline)
        Stroker.addPolygon(outline, to: &out)
    }

    /// `tangent` when it is known, else the direction of `chord`.
    static func facing(_ tangent: Point, or chord: Point) -> Point { tangent.length > 0.5 ? tangent : chord.normalized }

    /// One side of a polyline at half the width to its left (the normal turned +90° from each segment),
    /// with joins at its corners; an open polyline's side starts and ends level with its end points.
    /// Ends and corners face the path's true tangents; inside a flattened curve the chords' offsets meet.
    func side(_ vertices: [Vertex], closed: Bool) -> [Point] {
        let n = vertices.count, segments = closed ? n : n - 1
        var directions: [Point] = [], lengths: [Double] = []
        directions.reserveCapacity(segments); lengths.reserveCapacity(segments)
        for i in 0..<segments {
            let v = vertices[(i + 1) % n].point - vertices[i].point, l = v.length
            directions.append(v * (1 / l)); lengths.append(l)
        }
        // How much of each segment's side, from its start and from its end, a crossing point has taken.
        var takenAtStart = [Double](repeating: 0, count: segments), takenAtEnd = takenAtStart
        var out: [Point] = []
        out.reserveCapacity(n + 8)
        if !closed { out.append(vertices[0].point + Stroker.normal(Stroker.facing(vertices[0].tangentOut, or: directions[0])) * halfWidth) }
        for i in closed ? 0..<n : 1..<(n - 1) {
            let incoming = (i - 1 + segments) % segments, outgoing = i % segments
            let vertex = vertices[i], p = vertex.point
            let d0 = vertex.corner ? Stroker.facing(vertex.tangentIn, or: directions[incoming]) : directions[incoming]
            let d1 = vertex.corner ? Stroker.facing(vertex.tangentOut, or: directions[outgoing]) : directions[outgoing]
            let n0 = Stroker.normal(d0) * halfWidth, n1 = Stroker.normal(d1) * halfWidth
            let cross = d0.x * d1.y - d0.y * d1.x, dot = d0.x * d1.x + d0.y * d1.y
            if abs(cross) <= 1e-12 && dot > 0 {
                out.append(p + n0)
            } else if cross > 0 {
                // The inside of the turn: the two offsets cross halfWidth·tan(φ/2) before and after the corner.
                let taken = halfWidth * cross / (1 + dot)
                if 1 + dot > 1e-9, taken + takenAtStart[incoming] <= lengths[incoming],
                   taken + takenAtEnd[outgoing] <= lengths[outgoing] {
                    out.append(p + (n0 + n1) * (1 / (1 + dot)))
                    takenAtEnd[incoming] = taken; takenAtStart[outgoing] = taken
                } else {
                    out += [p + n0, p, p + n1]
                }
            } else {
                // The outside: the user's join at a corner; inside a flattened curve, the offsets' crossing
                // point for the small turns flattening makes (a round join where a cusp turns further).
                let sweep = cross == 0 ? -Double.pi : atan2(cross, dot)
                let join: StrokeStyle.LineJoin, limit: Double
                if vertex.corner { join = style.join; limit = style.miterLimit } else {
                    // Inside a flattened curve the turns are small; a larger one (a cusp) gets a round join,
                    // and no miter there is longer than twice the half width.
                    join = abs(sweep) <= 2 * maxTurn ? .miter : .round; limit = 2
                }
                out.append(p + n0)
                switch join {
                case .miter:
                    // The miter is 1/cos(φ/2) line widths long (Core Graphics' 1/sin(α/2) for the angle α
                    // between the segments).
                    let cosHalf = ((1 + dot) / 2).squareRoot()
                    if 1 + dot > 1e-12, 1 / cosHalf <= limit { out.append(p + (n0 + n1) * (1 / (1 + dot))) }
                case .round:
                    arc(about: p, from: n0, sweep: sweep, into: &out)
                case .bevel:
                    break
                }
                out.append(p + n1)
            }
        }
        if !closed {
            let last = vertices[n - 1]
            out.append(last.point + Stroker.normal(Stroker.facing(last.tangentIn, or: directions[segments - 1])) * halfWidth)
        }
        return out
    }

    /// The points of a cap at `p` facing `direction` (unit), between `p + normal` and `p − normal`
    /// (both left out).
    func cap(at p: Point, direction: Point, into out: inout [Point]) {
        let n = Stroker.normal(direction) * halfWidth, ahead = direction * halfWidth
        switch style.cap {
        case .butt: break
        case .square: out += [p + n + ahead, p - n + ahead]
        case .round: arc(about: p, from: n, sweep: -.pi, into: &out)
        }
    }

    /// Points on a circle about `center`, from the vector `from` (its radius) turning by `sweep` radians,
    /// leaving out both ends.
    func arc(about center: Point, from: Point, sweep: Double, into out: inout [Point]) {
        let raw = (abs(sweep) / maxTurn).rounded(.up)
        guard raw > 1 else { return }
        let steps = raw.isFinite ? Int(min(raw, 2048)) : 2048
        for k in 1..<steps {
            let angle = sweep * Double(k) / Double(steps)
            let c = cos(angle), s = sin(angle)
            out.append(center + Point(x: from.x * c - from.y * s, y: from.x * s + from.y * c))
        }
    }

    static func addPolygon(_ points: [Point], to path: inout Path) {
        guard let first = points.first else { return }
        path.move(to: first)
        for p in points.dropFirst() { path.addLine(to: p) }
        path.closeSubpath()
    }

    /// `d` turned +90°.
    static func normal(_ d: Point) -> Point { Point(x: -d.y, y: d.x) }

    /// The unsigned angle between two vectors (radians).
    static func angle(_ a: Point, _ b: Point) -> Double { atan2(abs(a.x * b.y - a.y * b.x), a.x * b.x + a.y * b.y) }
}

extension Point {
    /// The distance from the origin.
    var length: Double { (x * x + y * y).squareRoot() }
    /// The point scaled to length 1 (unchanged when it has no length).
    var normalized: Point { let l = length; return l > 0 ? self * (1 / l) : self }
}
