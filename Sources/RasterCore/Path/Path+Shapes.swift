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

    /// A rounded rectangle with the radii fitted to its size (see `CornerRadii.fitted(to:)`).
    public init(roundedRect rect: Rect, cornerRadii: CornerRadii) {
        self.init()
        addRoundedRect(rect, cornerRadii: cornerRadii)
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
    /// clockwise shape under the non-zero rule.
    public mutating func addRoundedRect(_ rect: Rect, cornerRadii: CornerRadii, clockwise: Bool = true) {
        guard !rect.isNull else { return }
        let r = rect.standardized
        let radii = cornerRadii.fitted(to: r.size)
        if radii.isZero { addRect(r, clockwise: clockwise); return }
        let k = Path.kappa
        // Each corner: the point where its arc starts, the corner itself, and where the arc ends, going
        // clockwise. The arcs are quarter ellipses fitted with one cubic each.
        typealias Corner = (radius: Double, corner: Point, inDir: Point, outDir: Point)
        let corners: [Corner] = [
            (radii.topLeft, Point(x: r.minX, y: r.minY), Point(x: 0, y: -1), Point(x: 1, y: 0)),
            (radii.topRight, Point(x: r.maxX, y: r.minY), Point(x: 1, y: 0), Point(x: 0, y: 1)),
            (radii.bottomRight, Point(x: r.maxX, y: r.maxY), Point(x: 0, y: 1), Point(x: -1, y: 0)),
            (radii.bottomLeft, Point(x: r.minX, y: r.maxY), Point(x: -1, y: 0), Point(x: 0, y: -1)),
        ]
        // Clockwise: arrive along inDir, leave along outDir. Arc start = corner - inDir·r, end = corner + outDir·r.
        var segments: [(start: Point, c1: Point, c2: Point, end: Point)] = corners.map { c in
            let start = c.corner - c.inDir * c.radius, end = c.corner + c.outDir * c.radius
            return (start, start + c.inDir * (c.radius * k), end - c.outDir * (c.radius * k), end)
        }
        if !clockwise {
            segments = segments.reversed().map { (start: $0.end, c1: $0.c2, c2: $0.c1, end: $0.start) }
        }
        move(to: segments[0].start)
        for (i, s) in segments.enumerated() {
            if i > 0 { addLine(to: s.start) }
            if s.start != s.end { addCurve(to: s.end, control1: s.c1, control2: s.c2) }
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
