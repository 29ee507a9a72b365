import Foundation

/// Radii of the four corners of a rounded rectangle, in the rectangle's units.
public struct CornerRadii: Hashable, Sendable {
    /// Each corner's radius, in points.
    public var topLeft: Double, topRight: Double, bottomRight: Double, bottomLeft: Double

    /// Radii for each corner, in points.
    public init(topLeft: Double, topRight: Double, bottomRight: Double, bottomLeft: Double) {
        self.topLeft = topLeft; self.topRight = topRight; self.bottomRight = bottomRight; self.bottomLeft = bottomLeft
    }

    /// The same radius at every corner.
    public init(all r: Double) { self.init(topLeft: r, topRight: r, bottomRight: r, bottomLeft: r) }

    /// Square corners.
    public static let zero = CornerRadii(all: 0)

    /// Whether every corner is square.
    public var isZero: Bool { topLeft <= 0 && topRight <= 0 && bottomRight <= 0 && bottomLeft <= 0 }

    /// The radii that fit `size`: negative and NaN radii become 0, and when two radii along one side add
    /// up to more than the side, all four are scaled down by the same factor until they fit (the CSS
    /// rule). A single radius therefore ends at half the shorter side, as CALayer's `cornerRadius` does.
    public func fitted(to size: Size) -> CornerRadii {
        func clean(_ r: Double) -> Double { r.isNaN ? 0 : max(0, r) }
        var r = CornerRadii(topLeft: clean(topLeft), topRight: clean(topRight),
                            bottomRight: clean(bottomRight), bottomLeft: clean(bottomLeft))
        let w = abs(size.width), h = abs(size.height)
        var f = 1.0
        for (sum, side) in [(r.topLeft + r.topRight, w), (r.bottomLeft + r.bottomRight, w),
                            (r.topLeft + r.bottomLeft, h), (r.topRight + r.bottomRight, h)] where sum > side {
            f = min(f, side / sum)
        }
        if f < 1 { r = CornerRadii(topLeft: r.topLeft * f, topRight: r.topRight * f, bottomRight: r.bottomRight * f, bottomLeft: r.bottomLeft * f) }
        return r
    }
}

extension Path {
    /// The magic number for a quarter circle as one cubic: 4/3·tan(π/8).
    static let kappa = 0.552_284_749_830_793_4

    /// A rectangle, clockwise from its top-left corner (on a y-down screen).
    public init(rect: Rect) {
        self.init()
        addRect(rect)
    }

    /// A rounded rectangle with the radii fitted to its size (see `CornerRadii.fitted(to:)`), its corners
    /// shaped by `curve` (default circular).
    public init(roundedRect rect: Rect, cornerRadii: CornerRadii, curve: CornerCurve = .circular) {
        self.init()
        addRoundedRect(rect, cornerRadii: cornerRadii, curve: curve)
    }

    /// A rounded rectangle with one radius at every corner.
    public init(roundedRect rect: Rect, cornerRadius: Double) {
        self.init(roundedRect: rect, cornerRadii: CornerRadii(all: cornerRadius))
    }

    /// The ellipse inscribed in `rect`, as four cubic Béziers (as Core Graphics builds it).
    public init(ellipseIn rect: Rect) {
        self.init()
        addEllipse(in: rect)
    }

    /// Adds the rectangle as a closed subpath, clockwise on screen by default.
    public mutating func addRect(_ rect: Rect, clockwise: Bool = true) {
        guard !rect.isNull else { return }
        let r = rect.standardized
        let corners = [Point(x: r.minX, y: r.minY), Point(x: r.maxX, y: r.minY),
                       Point(x: r.maxX, y: r.maxY), Point(x: r.minX, y: r.maxY)]
        let ordered = clockwise ? corners : [corners[0], corners[3], corners[2], corners[1]]
        move(to: ordered[0])
        for p in ordered.dropFirst() { addLine(to: p) }
        closeSubpath()
    }

    /// Adds a rounded rectangle; `clockwise: false` winds it the other way, which cuts a hole in a
    /// clockwise shape under the non-zero rule. `curve` (default circular) is the corners' shape.
    public mutating func addRoundedRect(_ rect: Rect, cornerRadii: CornerRadii, curve: CornerCurve = .circular, clockwise: Bool = true) {
        guard !rect.isNull else { return }
        let r = rect.standardized
        let radii = cornerRadii.fitted(to: r.size)
        if radii.isZero { addRect(r, clockwise: clockwise); return }
        // Each corner: its radius, the corner itself, and the directions the outline arrives and leaves
        // in, going clockwise; and the radii of the corners across the two sides it lies on.
        typealias Corner = (radius: Double, corner: Point, inDir: Point, outDir: Point, acrossIn: Double, acrossOut: Double)
        let corners: [Corner] = [
            (radii.topLeft, Point(x: r.minX, y: r.minY), Point(x: 0, y: -1), Point(x: 1, y: 0), radii.bottomLeft, radii.topRight),
            (radii.topRight, Point(x: r.maxX, y: r.minY), Point(x: 1, y: 0), Point(x: 0, y: 1), radii.topLeft, radii.bottomRight),
            (radii.bottomRight, Point(x: r.maxX, y: r.maxY), Point(x: 0, y: 1), Point(x: -1, y: 0), radii.topRight, radii.bottomLeft),
            (radii.bottomLeft, Point(x: r.minX, y: r.maxY), Point(x: -1, y: 0), Point(x: 0, y: -1), radii.bottomRight, radii.topLeft),
        ]
        typealias Cubic = (start: Point, c1: Point, c2: Point, end: Point)
        let k = Path.kappa
        // A corner's curves are given in its own units: u back along the side it arrives on, v along the
        // side it leaves on, both from the corner, in radii.
        var pieces: [[Cubic]] = corners.map { c in
            if curve == .circular {
                // Arc start = corner − inDir·r, end = corner + outDir·r: a quarter ellipse as one cubic.
                let start = c.corner - c.inDir * c.radius, end = c.corner + c.outDir * c.radius
                return [(start, start + c.inDir * (c.radius * k), end - c.outDir * (c.radius * k), end)]
            }
            let sideIn = abs(c.inDir.x) > 0 ? r.width : r.height, sideOut = abs(c.outDir.x) > 0 ? r.width : r.height
            let local = CornerCurve.continuousCorner(radius: c.radius, sideIn: sideIn * c.radius / (c.radius + c.acrossIn),
                                               sideOut: sideOut * c.radius / (c.radius + c.acrossOut))
            func place(_ p: Point) -> Point { c.corner - c.inDir * (p.x * c.radius) + c.outDir * (p.y * c.radius) }
            return local.map { (place($0.start), place($0.c1), place($0.c2), place($0.end)) }
        }
        if !clockwise {
            pieces = pieces.reversed().map { $0.reversed().map { (start: $0.end, c1: $0.c2, c2: $0.c1, end: $0.start) } }
        }
        move(to: pieces[0][0].start)
        for (i, corner) in pieces.enumerated() {
            if i > 0 { addLine(to: corner[0].start) }
            for s in corner where s.start != s.end { addCurve(to: s.end, control1: s.c1, control2: s.c2) }
        }
        closeSubpath()
    }

    /// Adds the ellipse inscribed in `rect` as four cubic Béziers, as Core Graphics does.
    public mutating func addEllipse(in rect: Rect) {
        guard !rect.isNull else { return }
        let r = rect.standardized
        let cx = r.midX, cy = r.midY, rx = r.width / 2, ry = r.height / 2
        let kx = rx * Path.kappa, ky = ry * Path.kappa
        move(to: Point(x: cx + rx, y: cy))
        addCurve(to: Point(x: cx, y: cy + ry), control1: Point(x: cx + rx, y: cy + ky), control2: Point(x: cx + kx, y: cy + ry))
        addCurve(to: Point(x: cx - rx, y: cy), control1: Point(x: cx - kx, y: cy + ry), control2: Point(x: cx - rx, y: cy + ky))
        addCurve(to: Point(x: cx, y: cy - ry), control1: Point(x: cx - rx, y: cy - ky), control2: Point(x: cx - kx, y: cy - ry))
        addCurve(to: Point(x: cx + rx, y: cy), control1: Point(x: cx + kx, y: cy - ry), control2: Point(x: cx + rx, y: cy - ky))
        closeSubpath()
    }
}

/// The shape of a rounded rectangle's corners (Core Animation's `cornerCurve`).
public enum CornerCurve: Hashable, Sendable {
    /// A quarter circle of the corner radius (Core Animation's default).
    case circular
    /// iOS's continuous corner: the curvature rises gradually from the straight side, so the corner starts
    /// 1.528665 radii from the vertex and meets the sides without a visible kink. The three cubics per
    /// corner are the published reconstruction of iOS 7's `UIBezierPath(roundedRect:cornerRadius:)` (PaintCode,
    /// "The Code Behind the Code", 2013); Core Animation draws the same corner. Where a side is too short
    /// for 1.528665 radii at both its ends, the corner is blended towards the circular one, reaching it
    /// when the radius is half the side (so a square of radius half its side is a circle, as on iOS);
    /// that blend is Smokescreen's estimate.
    case continuous

    /// How far along each side a continuous corner reaches, in radii.
    public static let continuousExtent = 1.528665

    typealias Cubic = (start: Point, c1: Point, c2: Point, end: Point)

    /// The continuous corner in a corner's units: three cubics from (e, 0) to (0, e).
    static let continuousCorners: [Cubic] = {
        let e = continuousExtent, a1 = 1.088492957618529, a2 = 0.868406944063002, a3 = 0.631493792830993
        let b3 = 0.074911387847016, m1 = 0.372823826625747, m2 = 0.169059556044370
        return [(Point(x: e, y: 0), Point(x: a1, y: 0), Point(x: a2, y: 0), Point(x: a3, y: b3)),
                (Point(x: a3, y: b3), Point(x: m1, y: m2), Point(x: m2, y: m1), Point(x: b3, y: a3)),
                (Point(x: b3, y: a3), Point(x: 0, y: a2), Point(x: 0, y: a1), Point(x: 0, y: e))]
    }()

    /// The quarter circle as three cubics split where the continuous corner's are (at 25° and 65°), so the
    /// two can be blended point by point.
    static let circularCorners: [Cubic] = {
        // The arc about (1, 1) from (1, 0) to (0, 1); φ is the angle turned from the start.
        func point(_ φ: Double) -> Point { Point(x: 1 - sin(φ), y: 1 - cos(φ)) }
        func tangent(_ φ: Double) -> Point { Point(x: -cos(φ), y: sin(φ)) }
        let cuts = [0, 25, 65, 90].map { Double($0) * .pi / 180 }
        return (0..<3).map { i in
            let a = cuts[i], b = cuts[i + 1], h = 4.0 / 3 * tan((b - a) / 4)
            return (point(a), point(a) + tangent(a) * h, point(b) - tangent(b) * h, point(b))
        }
    }()

    /// A continuous corner of `radius` whose sides have `sideIn` and `sideOut` (its share of each side,
    /// same units) to reach along: blended towards the circle as far as the shorter share demands.
    static func continuousCorner(radius: Double, sideIn: Double, sideOut: Double) -> [Cubic] {
        let room = min(sideIn, sideOut) / radius
        let t = min(1, max(0, (continuousExtent - room) / (continuousExtent - 1)))
        guard t > 0 else { return continuousCorners }
        func mix(_ a: Point, _ b: Point) -> Point { a * (1 - t) + b * t }
        return zip(continuousCorners, circularCorners).map { c, q in
            (mix(c.start, q.start), mix(c.c1, q.c1), mix(c.c2, q.c2), mix(c.end, q.end))
        }
    }
}
